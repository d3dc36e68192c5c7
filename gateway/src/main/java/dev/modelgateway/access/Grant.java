package dev.modelgateway.access;

import java.util.EnumSet;
import java.util.Set;

/**
 * Permissions over a scope: a role a person holds ({@code role} set), or an admin key's own list ({@code role} null).
 */
public record Grant(Role role, Set<Permission> permissions, Scope scope) {
    public Grant {
        permissions = permissions.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(permissions));
    }

    /** A role over its scope: {@code teamId} for the per-team roles (a member's may be null), ignored for the others. */
    public static Grant of(Role role, String teamId) {
        Scope scope = switch (role) {
            case TEAM_ADMIN -> Scope.team(teamId);
            case MEMBER -> Scope.own(teamId);
            default -> Scope.ORG;
        };
        return new Grant(role, role.permissions, scope);
    }

    /** {@code org_admin}, {@code team_admin(team:X)}: how the audit log and the console name it. */
    public String label() {
        String what = role == null ? "admin_key" : role.wire;
        return scope.kind() == Scope.Kind.ORG ? what : what + "(" + scope.wire() + ")";
    }
}
