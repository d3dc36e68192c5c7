package dev.modelgateway.identity;

import dev.modelgateway.access.Grant;
import dev.modelgateway.access.Role;
import dev.modelgateway.config.IdentityConfig;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code identity.role_mappings} applied to a person's claims (docs/identity/roles.md): every matching rule gives its
 * role; none matching gives none, and a person with no role is not provisioned (no just-in-time user without a rule).
 * Used at every sign-in and whenever SCIM changes a user's groups.
 */
public final class RoleMapping {
    private RoleMapping() {
    }

    public static List<Grant> grants(List<IdentityConfig.RoleRule> rules, Claims claims) {
        List<Grant> grants = new ArrayList<>();
        for (IdentityConfig.RoleRule r : rules) {
            if (!claims.matches(r.match())) continue;
            Grant g = Grant.of(Role.ofWire(r.role()).orElseThrow(), r.team());
            if (!grants.contains(g)) grants.add(g);
        }
        return grants;
    }
}
