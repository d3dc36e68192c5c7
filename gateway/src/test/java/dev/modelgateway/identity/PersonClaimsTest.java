package dev.modelgateway.identity;

import dev.modelgateway.access.Grant;
import dev.modelgateway.access.Role;
import dev.modelgateway.accounts.keys.Person;
import dev.modelgateway.accounts.keys.User;
import dev.modelgateway.config.IdentityConfig;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/** A SCIM user's attributes as claims: rules without a sign-in provider apply to them, rules naming one do not. */
class PersonClaimsTest {
    static final Person DANA = new Person(new User("usr_1", "dana@example.com", "dana@corp.example", "Dana", "00u1", true, List.of(),
            Instant.EPOCH, Instant.EPOCH), "Dana", "Lee", List.of(new Person.Membership("grp_1", "gw-admins"),
            new Person.Membership("grp_2", "team-a-leads")));

    static IdentityConfig.RoleRule rule(String provider, String claim, String equals, String role, String team) {
        return new IdentityConfig.RoleRule(new IdentityConfig.ClaimMatch(provider, claim, equals, null), role, team);
    }

    static IdentityConfig rules(IdentityConfig.RoleRule... rules) {
        return new IdentityConfig(Map.of(), false, List.of(rules), Map.of(), List.of());
    }

    @Test
    void theAttributesAreClaimsOfSourceScim() {
        Claims c = PersonClaims.of(DANA);
        assertThat(c.source()).isEqualTo("scim");
        assertThat(c.at("userName")).isEqualTo("dana@example.com");
        assertThat(c.at("emails")).isEqualTo(List.of("dana@corp.example"));
        assertThat(c.at("groups")).isEqualTo(List.of("gw-admins", "team-a-leads"));
        assertThat(c.at("externalId")).isEqualTo("00u1");
    }

    @Test
    void rulesWithoutAProviderApplyAndRulesNamingOneDoNot() {
        IdentityConfig config = rules(rule(null, "groups", "gw-admins", "org_admin", null),
                rule("okta", "groups", "team-a-leads", "team_admin", "team_a"),
                rule(null, "emails", "dana@corp.example", "auditor", null));
        List<Grant> grants = PersonClaims.rules(() -> config).grants(DANA);
        assertThat(grants).containsExactly(Grant.of(Role.ORG_ADMIN, null), Grant.of(Role.AUDITOR, null));
    }

    @Test
    void theRulesAreReadAtEachUse() {
        AtomicReference<IdentityConfig> inForce = new AtomicReference<>(rules(rule(null, "groups", "gw-admins", "viewer", null)));
        var rules = PersonClaims.rules(inForce::get);
        assertThat(rules.grants(DANA)).containsExactly(Grant.of(Role.VIEWER, null));
        inForce.set(rules());
        assertThat(rules.grants(DANA)).isEmpty();
    }
}
