package dev.modelgateway.accounts;

import dev.modelgateway.access.Actor;
import dev.modelgateway.accounts.audit.AuditLog;
import dev.modelgateway.accounts.keys.Team;
import dev.modelgateway.accounts.keys.User;
import dev.modelgateway.accounts.keys.UserStore;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.store.Sql;
import dev.modelgateway.testing.TestClock;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static dev.modelgateway.accounts.Fixtures.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The accounts' side of identity providers' tokens: a subject provisioned once and found again, a mapping's team by id
 * or name, and a long-lived call of a token user re-checked against the user and the token's expiry.
 */
class TokenUsersTest {
    @TempDir
    Path dir;
    private Vertx vertx;
    private Accounts accounts;
    private final TestClock clock = new TestClock(Instant.parse("2026-06-01T00:00:00Z"));

    @BeforeEach
    void start() {
        vertx = Vertx.vertx();
        AccountsConfig config = new AccountsConfig("jdbc:sqlite:" + dir.resolve("gateway.db"), null, "master-for-tests");
        accounts = await(Accounts.open(vertx, config, Fixtures.PRICES, clock));
    }

    @AfterEach
    void stop() {
        await(accounts.close());
        await(vertx.close());
    }

    @Test
    void aSubjectIsProvisionedOnceAndFoundAgainByItsIssuerAndSubject() {
        TokenUsers users = accounts.tokenUsers();
        User first = await(users.provision("https://sso.example.com", "248289761001", "corp:248289761001", "jane@example.com"));
        User again = await(users.provision("https://sso.example.com", "248289761001", "corp:248289761001", "jane@example.com"));
        assertThat(again.id()).isEqualTo(first.id()).startsWith("usr_");
        assertThat(first.email()).isEqualTo("jane@example.com");
        assertThat(first.active()).isTrue();
        assertThat(first.grants()).as("no role from a caller token").isEmpty();
        List<AuditLog.Entry> audit = await(accounts.admin().auditLog(10, null, false));
        assertThat(audit).singleElement().satisfies(e -> {
            assertThat(e.action()).isEqualTo("user.create");
            assertThat(e.targetId()).isEqualTo(first.id());
            assertThat(e.actor().id()).isEqualTo("identity.caller_mappings");
            assertThat(e.afterJson()).contains("\"subject\":\"248289761001\"", "\"issuer\":\"https://sso.example.com\"");
        });
        User other = await(users.provision("https://other.example.com", "248289761001", "other:248289761001", null));
        assertThat(other.id()).as("the same sub at another issuer is someone else").isNotEqualTo(first.id());
    }

    @Test
    void aMappingsTeamIsFoundByIdOrByAUniqueName() {
        Team research = await(accounts.admin().createTeam(Actor.system("test"), new Team(null, "research", List.of(), null, null, null, null, null)));
        assertThat(await(accounts.tokenUsers().team(research.id()))).map(Team::id).hasValue(research.id());
        assertThat(await(accounts.tokenUsers().team("research"))).map(Team::id).hasValue(research.id());
        assertThat(await(accounts.tokenUsers().team("nobody"))).isEmpty();
        await(accounts.admin().createTeam(Actor.system("test"), new Team(null, "research", List.of(), null, null, null, null, null)));
        assertThat(await(accounts.tokenUsers().team("research"))).as("two teams of that name: ambiguous").isEmpty();
    }

    @Test
    void aTokenUsersLongCallStopsWhenTheUserIsDeactivatedOrTheTokenExpires() throws Exception {
        User user = await(accounts.tokenUsers().provision("https://sso.example.com", "s1", "corp:s1", null));
        ApiKey key = new ApiKey(ApiKey.userKeyId(user.id()), user.userName(), List.of(), null, null, List.of(), null, clock.instant().plus(Duration.ofMinutes(5)),
                null, false, false, null, null, null, user.id());
        assertThat(key.forUser()).isTrue();
        assertThat(await(accounts.stillAllowed(key, "platform/vendorA-large"))).isEmpty();

        clock.advance(Duration.ofMinutes(6));
        assertThat(await(accounts.stillAllowed(key, "platform/vendorA-large"))).map(GatewayException::code).hasValue("token_expired");

        ApiKey fresh = new ApiKey(ApiKey.userKeyId(user.id()), user.userName(), List.of(), null, null, List.of(), null, clock.instant().plus(Duration.ofMinutes(5)),
                null, false, false, null, null, null, user.id());
        new UserStore(Sql.pool(accounts.database())).update(new User(user.id(), user.userName(), null, null, null, false, List.of(),
                user.createdAt(), clock.instant()), clock.instant());
        Optional<GatewayException> refused = await(accounts.stillAllowed(fresh, "platform/vendorA-large"));
        assertThat(refused).map(GatewayException::code).hasValue("user_deactivated");
    }
}
