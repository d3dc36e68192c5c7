package dev.modelgateway.identity;

import dev.modelgateway.accounts.Administration;
import dev.modelgateway.accounts.keys.Person;
import dev.modelgateway.accounts.keys.User;
import dev.modelgateway.config.IdentityConfig;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A SCIM user's attributes as claims (docs/identity/scim.md, "Groups and roles"): source {@value #SOURCE}, values
 * {@code userName}, {@code emails} (a list), {@code groups} (the display names of its groups) and
 * {@code externalId}. A role rule naming a sign-in {@code provider} never matches them; one without applies.
 */
public final class PersonClaims {
    public static final String SOURCE = "scim";

    private PersonClaims() {
    }

    public static Claims of(Person p) {
        User u = p.user();
        Map<String, Object> values = new HashMap<>();
        values.put("userName", u.userName());
        values.put("emails", u.email() == null ? List.of() : List.of(u.email()));
        values.put("groups", p.groupNames());
        if (u.externalId() != null) values.put("externalId", u.externalId());
        return new Claims(SOURCE, values);
    }

    /** The role mappings read from {@code identity} at each use, so that a reload's rules apply to the next change. */
    public static Administration.RoleRules rules(Supplier<IdentityConfig> identity) {
        return person -> RoleMapping.grants(identity.get().roleMappings(), of(person));
    }
}
