package dev.modelgateway.accounts;

import dev.modelgateway.access.Grant;
import dev.modelgateway.access.Permission;
import dev.modelgateway.access.Principal;
import dev.modelgateway.access.Role;
import dev.modelgateway.accounts.keys.KeySettings;
import dev.modelgateway.accounts.keys.StoredKey;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** How far a principal's key permission reaches: every key, its teams' keys, or its own in its team. */
class KeyReachTest {
    static KeyReach of(Principal p) {
        return new KeyReach(p.reach(Permission.KEYS_WRITE), p.teams());
    }

    static StoredKey key(String team, String owner) {
        return new StoredKey("key_1", "pk-x", new KeySettings("k", List.of(), null, null, null, null).inTeam(team), false,
                Instant.EPOCH, null, null, owner);
    }

    @Test
    void aMemberReachesItsOwnKeysAndPlacesThemInItsTeamOnly() {
        KeyReach member = of(new Principal(Principal.Kind.USER, "usr_1", "ann", List.of(Grant.of(Role.MEMBER, "team_a"))));
        assertThat(member.org()).isFalse();
        assertThat(member.reaches(key("team_a", "usr_1"))).isTrue();
        assertThat(member.reaches(key("team_a", "usr_2"))).as("a teammate's key").isFalse();
        assertThat(member.reaches(key(null, null))).isFalse();
        assertThat(member.mayPlace("usr_1", "team_a")).isTrue();
        assertThat(member.mayPlace("usr_1", null)).isTrue();
        assertThat(member.mayPlace("usr_1", "team_b")).isFalse();
        assertThat(member.mayPlace(null, "team_a")).as("a key nobody owns").isFalse();
    }

    @Test
    void aTeamAdminReachesItsTeamsKeysWhoeverOwnsThem() {
        KeyReach admin = of(new Principal(Principal.Kind.USER, "usr_9", "bo", List.of(Grant.of(Role.TEAM_ADMIN, "team_a"))));
        assertThat(admin.reaches(key("team_a", "usr_1"))).isTrue();
        assertThat(admin.reaches(key("team_b", null))).isFalse();
        assertThat(admin.mayPlace(null, "team_a")).isTrue();
        assertThat(admin.mayPlace(null, "team_b")).isFalse();
        assertThat(admin.mayPlace(null, null)).isFalse();
    }

    @Test
    void theOrganisationReachesEverything() {
        assertThat(of(Principal.MASTER).reaches(key("team_b", "usr_3"))).isTrue();
        assertThat(KeyReach.ORG.mayPlace(null, null)).isTrue();
    }
}
