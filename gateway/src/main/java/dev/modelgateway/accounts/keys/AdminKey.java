package dev.modelgateway.accounts.keys;

import dev.modelgateway.access.Grant;
import dev.modelgateway.access.Permission;
import dev.modelgateway.access.Principal;
import dev.modelgateway.access.Role;
import dev.modelgateway.access.Scope;

import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * A scoped admin key (docs/identity/admin-keys.md): automation's credential for the admin API, with its own
 * permissions over a scope ({@code org} or {@code team:X}); never its secret.
 *
 * @param role      the role it was made from (its permissions then are the role's), null for a list of permissions
 * @param previous  the secret its last rotation replaced, null when it was never rotated
 * @param createdBy the id of the actor that made it
 */
public record AdminKey(String id, String name, String prefix, Role role, Set<Permission> permissions, Scope scope,
                       Instant expiresAt, Instant lastUsedAt, boolean disabled, PreviousSecret previous, String createdBy,
                       Instant createdAt) {
    public AdminKey {
        permissions = Set.copyOf(permissions);
    }

    /** Who a request made with it authenticated as. */
    public Principal principal() {
        return new Principal(Principal.Kind.ADMIN_KEY, id, name, List.of(new Grant(role, permissions, scope)));
    }

    public boolean expiredAt(Instant now) {
        return expiresAt != null && !now.isBefore(expiresAt);
    }

    /** A key just made or rotated, with its secret, shown this once. */
    public record Issued(AdminKey key, String secret) {
    }

    /** The key of a presented secret: its current one, or the previous one a rotation left ({@code previousSecret}). */
    public record Match(AdminKey key, boolean previousSecret) {
        public boolean acceptedAt(Instant now) {
            return !previousSecret || key.previous().acceptedAt(now);
        }
    }
}
