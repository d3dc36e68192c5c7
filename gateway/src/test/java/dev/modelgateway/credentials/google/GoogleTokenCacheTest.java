package dev.modelgateway.credentials.google;

import dev.modelgateway.config.GoogleCredentialsSettings;
import dev.modelgateway.credentials.RefreshingCredential;
import dev.modelgateway.sim.GoogleTokens;
import dev.modelgateway.sim.VendorSimulator;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.Eventually;
import dev.modelgateway.testing.GoogleServiceAccounts;
import dev.modelgateway.testing.GoogleServiceAccounts.ServiceAccount;
import dev.modelgateway.testing.TestClock;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The token's life on the gateway's clock (the simulator's tokens expire on the same test clock), counted at the
 * simulator's token endpoint: the peers' Vertex tokens were refreshed on every request, or never (docs/clouds.md).
 */
@E2e
class GoogleTokenCacheTest {
    private final Vertx vertx = Vertx.vertx();
    private final TestClock clock = new TestClock();
    private VendorSimulator sim;
    private GoogleTokens issued;
    private ServiceAccount account;
    private GoogleTokenCache cache;
    @TempDir
    Path dir;

    @BeforeEach
    void start() {
        sim = VendorSimulator.start(vertx, 0).await();
        issued = sim.googleTokens();
        issued.useClock(clock);
        account = GoogleServiceAccounts.create(dir, "vertex-caller", sim.baseUrl() + "/oauth2/token");
        sim.googleOAuth().trustServiceAccount(account.clientEmail(), account.publicKey());
        cache = new GoogleTokenCache(vertx, clock);
    }

    @AfterEach
    void close() {
        vertx.close().await();
    }

    private GoogleCredentialsSettings settings(Map<String, Object> yaml) {
        return GoogleCredentialsSettings.parse("providers.gcp.google", yaml);
    }

    private RefreshingCredential<String> credential() {
        return cache.credential(settings(Map.of("credentials_file", account.file().toString())));
    }

    private static List<String> concurrently(int n, Supplier<Future<String>> call) {
        List<Future<String>> calls = new ArrayList<>();
        for (int i = 0; i < n; i++) calls.add(call.get());
        return Future.all(calls).await().list();
    }

    @Test
    void providersWithOneIdentityShareOneCredential() {
        assertThat(credential()).isSameAs(credential());
        assertThat(cache.credential(settings(Map.of("credentials_file", account.file().toString(), "scopes", "openid"))))
                .isNotSameAs(credential());
    }

    @Test
    void fiftyConcurrentCallersShareOneTokenRequest() {
        RefreshingCredential<String> credential = credential();

        List<String> tokens = concurrently(50, credential::get);

        assertThat(tokens).hasSize(50).containsOnly(tokens.getFirst());
        assertThat(issued.valid(tokens.getFirst())).isTrue();
        assertThat(issued.issued()).isEqualTo(1);
    }

    @Test
    void aTokenIsKeptUntilNearItsExpiryThenRefreshedOnce() {
        RefreshingCredential<String> credential = credential();
        String first = credential.get().await();

        clock.advance(Duration.ofHours(1).minus(GoogleTokenCache.REFRESH_BEFORE).minusSeconds(1));
        assertThat(concurrently(20, credential::get)).containsOnly(first);
        assertThat(issued.issued()).isEqualTo(1);

        clock.advance(Duration.ofSeconds(1));
        assertThat(concurrently(20, credential::get)).containsOnly(first);
        String second = Eventually.value("the background refresh", () -> credential.get().await(), t -> !t.equals(first));
        assertThat(concurrently(20, credential::get)).containsOnly(second);
        assertThat(issued.issued()).isEqualTo(2);
        assertThat(issued.valid(second)).isTrue();
    }

    @Test
    void anExpiredTokenIsReplacedOnceForEveryoneWaiting() {
        RefreshingCredential<String> credential = credential();
        String first = credential.get().await();

        clock.advance(Duration.ofHours(1));
        assertThat(issued.valid(first)).isFalse();
        List<String> tokens = concurrently(50, credential::get);

        assertThat(tokens).containsOnly(tokens.getFirst()).doesNotContain(first);
        assertThat(issued.valid(tokens.getFirst())).isTrue();
        assertThat(issued.issued()).isEqualTo(2);
    }

    @Test
    void aRejectedTokenForcesExactlyOneRefresh() {
        RefreshingCredential<String> credential = credential();
        String first = credential.get().await();
        issued.revoke(first);

        // every call that saw the token refused (the Vertex call's 401 UNAUTHENTICATED) asks at once
        List<String> retried = concurrently(20, () -> credential.refreshAfterRejection(first));

        assertThat(retried).containsOnly(retried.getFirst()).doesNotContain(first);
        assertThat(issued.valid(retried.getFirst())).isTrue();
        assertThat(credential.refreshAfterRejection(first).await()).isEqualTo(retried.getFirst());
        assertThat(credential.get().await()).isEqualTo(retried.getFirst());
        assertThat(issued.issued()).isEqualTo(2);
    }

    @Test
    void aFailingTokenEndpointIsAHealthStateAskedAgainOnlyAfterTheBackoff() throws IOException {
        Path elsewhere = Files.createDirectory(dir.resolve("elsewhere"));
        sim.googleOAuth().trustServiceAccount(account.clientEmail(),
                GoogleServiceAccounts.create(elsewhere, "another-key", sim.baseUrl() + "/oauth2/token").publicKey());
        RefreshingCredential<String> credential = credential();
        assertThat(credential.get().otherwiseEmpty().await()).isNull();
        assertThat(credential.health().ready()).isFalse();
        String problem = credential.health().problem();
        assertThat(problem).contains("Invalid JWT Signature.");

        // the key is put right at Google: a call in the backoff would now get a token, so none is made
        sim.googleOAuth().trustServiceAccount(account.clientEmail(), account.publicKey());
        clock.advance(GoogleTokenCache.RETRY_AFTER_FAILURE.minusMillis(1));
        for (int i = 0; i < 10; i++) {
            assertThat(credential.get().failed()).isTrue();
        }
        assertThat(issued.issued()).isZero();
        assertThat(credential.health().problem()).isEqualTo(problem);

        clock.advance(Duration.ofMillis(1));
        assertThat(issued.valid(credential.get().await())).isTrue();
        assertThat(credential.health().ready()).isTrue();
        assertThat(issued.issued()).isEqualTo(1);
    }
}
