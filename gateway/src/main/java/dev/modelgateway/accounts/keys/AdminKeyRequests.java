package dev.modelgateway.accounts.keys;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.access.Permission;
import dev.modelgateway.access.Role;
import dev.modelgateway.access.Scope;
import dev.modelgateway.error.GatewayException;

import java.time.Instant;
import java.util.EnumSet;
import java.util.Set;

/**
 * Validation of the admin-key bodies of the admin API (docs/identity/admin-keys.md); failures are 400s naming the
 * field. Whether the creator may grant what it asks is the endpoint's check (no escalation), whether the team exists
 * the transaction's.
 */
public final class AdminKeyRequests {
    private static final Set<String> CREATE_FIELDS = Set.of("name", "permissions", "role", "scope", "expires_at");
    private static final Set<String> PATCH_FIELDS = Set.of("name", "disabled", "expires_at");

    private AdminKeyRequests() {
    }

    /** What a new admin key is to be. */
    public record Spec(String name, Role role, Set<Permission> permissions, Scope scope, Instant expiresAt) {
    }

    /**
     * {@code name}, then either {@code permissions} (wire names) or {@code role} (any but {@code member}, whose scope is
     * its holder's own keys), {@code scope} ({@code org}, the default, or {@code team:X}: only team-scopable
     * permissions) and {@code expires_at}.
     */
    public static Spec create(ObjectNode body) {
        only(body, CREATE_FIELDS);
        String name = KeyRequests.name(KeyRequests.value(body, "name"));
        JsonNode scopeValue = KeyRequests.value(body, "scope");
        Scope scope = scopeValue == null ? Scope.ORG : scopeValue.isTextual() ? Scope.ofWire(scopeValue.textValue().strip()) : null;
        if (scope == null || scope.teamId() != null && scope.teamId().length() > 32) {
            throw GatewayException.invalid("scope", "'scope' must be \"org\" or \"team:<team id>\".");
        }
        JsonNode roleValue = KeyRequests.value(body, "role");
        JsonNode permissionsValue = KeyRequests.value(body, "permissions");
        if ((roleValue == null) == (permissionsValue == null)) {
            throw GatewayException.invalid("permissions", "Give either 'permissions' (such as [\"keys:write\"]) or 'role' (such as \"viewer\").");
        }
        Role role = null;
        Set<Permission> permissions = EnumSet.noneOf(Permission.class);
        if (roleValue != null) {
            role = roleValue.isTextual() ? Role.ofWire(roleValue.textValue().strip()).orElse(null) : null;
            if (role == null || role == Role.MEMBER) {
                throw GatewayException.invalid("role", "'role' must be org_admin, team_admin, viewer, billing_viewer or auditor"
                        + " (a member's scope is its own keys: an admin key owns none).");
            }
            if (role == Role.TEAM_ADMIN && scope.kind() != Scope.Kind.TEAM) {
                throw GatewayException.invalid("scope", "A team_admin key needs a team scope: \"team:<team id>\".");
            }
            permissions.addAll(role.permissions);
        } else {
            if (!permissionsValue.isArray() || permissionsValue.isEmpty()) {
                throw GatewayException.invalid("permissions", "'permissions' must be a non-empty array such as [\"keys:write\"].");
            }
            for (JsonNode p : permissionsValue) {
                Permission permission = p.isTextual() ? Permission.ofWire(p.textValue()).orElse(null) : null;
                if (permission == null) {
                    throw GatewayException.invalid("permissions", "Unknown permission '" + p.asText() + "'; see docs/identity/roles.md.");
                }
                permissions.add(permission);
            }
        }
        if (scope.kind() == Scope.Kind.TEAM) {
            for (Permission p : permissions) {
                // SELF is over the key itself, whatever its scope
                if (p != Permission.SELF && !p.teamScopable) {
                    throw GatewayException.invalid(roleValue != null ? "role" : "permissions", "The permission '" + p.wire
                            + "' applies to the whole organisation and cannot be granted over " + scope.wire() + ".");
                }
            }
        }
        return new Spec(name, role, permissions, scope, KeyRequests.instant("expires_at", KeyRequests.value(body, "expires_at")));
    }

    /** A PATCH body's fields applied to {@code current}: name, disabled, expires_at (null clears it). */
    public static AdminKey patch(AdminKey current, ObjectNode body) {
        only(body, PATCH_FIELDS);
        String name = body.has("name") ? KeyRequests.name(KeyRequests.value(body, "name")) : current.name();
        boolean disabled = KeyRequests.disabled(body, current.disabled());
        Instant expires = body.has("expires_at") ? KeyRequests.instant("expires_at", KeyRequests.value(body, "expires_at")) : current.expiresAt();
        return new AdminKey(current.id(), name, current.prefix(), current.role(), current.permissions(), current.scope(), expires,
                current.lastUsedAt(), disabled, current.previous(), current.createdBy(), current.createdAt());
    }

    private static void only(ObjectNode body, Set<String> allowed) {
        body.fieldNames().forEachRemaining(f -> {
            if (!allowed.contains(f)) {
                throw GatewayException.invalid(f, "Unknown field '" + f + "'; an admin key takes "
                        + String.join(", ", allowed.stream().sorted().toList()) + ".");
            }
        });
    }
}
