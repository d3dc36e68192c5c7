package dev.modelgateway.credentials.aws;

import dev.modelgateway.config.AwsCredentialsSettings;
import dev.modelgateway.credentials.CredentialHealth;
import dev.modelgateway.credentials.RefreshingCredential;
import dev.modelgateway.sim.AwsIdentities;
import dev.modelgateway.sim.VendorSimulator;
import dev.modelgateway.testing.Eventually;
import dev.modelgateway.testing.TestClock;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsCredentials;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

import static dev.modelgateway.credentials.aws.AwsCredentialSourcesTest.ROLE_A;
import static dev.modelgateway.credentials.aws.AwsCredentialSourcesTest.yaml;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The AWS credential as the gateway holds it: shared per identity, refreshed once before expiry, failing as health. */
class AwsCredentialCacheTest {
    private static final String SECRET = "base-secret-wJalrXUtnFEMI0123456789";
    private static final String SESSION_TOKEN = "base-session-token-FwoGZXIvYXdzEJr0123456789";

    private final Vertx vertx = Vertx.vertx();
    /** Now, so that the AWS SDK (which reads the system clock) sees the simulator's expirations in the future. */
    private final TestClock clock = new TestClock(Instant.now().truncatedTo(ChronoUnit.SECONDS));
    private VendorSimulator sim;
    private AwsCredentialCache cache;

    @BeforeEach
    void start() {
        sim = VendorSimulator.start(vertx, 0).await();
        sim.awsIdentities().clock(clock);
        sim.awsIdentities().register(new AwsIdentities.Identity("ASIABASESESSION0001", SECRET, SESSION_TOKEN,
                clock.instant().plus(Duration.ofDays(1)), "arn:aws:sts::123456789012:assumed-role/ci/runner"));
        cache = new AwsCredentialCache(vertx, clock);
    }

    @AfterEach
    void stop() {
        sim.close().await();
        vertx.close().await();
    }

    private AwsCredentialsSettings settings(Object... role) {
        return AwsCredentialsSettings.parse("providers.aws.aws", yaml("access_key_id", "ASIABASESESSION0001", "secret_access_key", SECRET,
                "session_token", SESSION_TOKEN, "sts_endpoint", sim.baseUrl(), "assume_role", List.of(yaml(role))));
    }

    private int assumeRoleCalls() {
        return sim.awsCredentials().calls("AssumeRole");
    }

    @Test
    void equalSettingsShareOneCredentialAndAnotherExternalIdIsAnotherIdentity() {
        RefreshingCredential<AwsCredentials> one = cache.credential(settings("role_arn", ROLE_A, "external_id", "partner-1"));
        assertThat(cache.credential(settings("role_arn", ROLE_A, "external_id", "partner-1"))).isSameAs(one);
        assertThat(cache.credential(settings("role_arn", ROLE_A, "external_id", "partner-2"))).isNotSameAs(one);
        assertThat(assumeRoleCalls()).isZero();
    }

    @Test
    void credentialsNearExpiryAreRefreshedOnceWhileTheHeldOnesServe() {
        RefreshingCredential<AwsCredentials> c = cache.credential(settings("role_arn", ROLE_A, "duration_seconds", 900));
        AwsCredentials first = c.get().await();
        clock.advance(Duration.ofMinutes(10));
        for (int i = 0; i < 5; i++) assertThat(c.get().await()).isSameAs(first);
        assertThat(assumeRoleCalls()).isEqualTo(1);

        clock.advance(Duration.ofSeconds(61)); // 3 min 59 s left: inside the 4-minute margin
        for (int i = 0; i < 5; i++) assertThat(c.get().await()).isSameAs(first);
        AwsCredentials second = Eventually.value("the refreshed credentials", () -> c.get().await(), v -> v != first);
        assertThat(second.accessKeyId()).isNotEqualTo(first.accessKeyId());
        assertThat(second.expirationTime()).contains(clock.instant().plus(Duration.ofSeconds(900)));
        for (int i = 0; i < 5; i++) assertThat(c.get().await()).isSameAs(second);
        assertThat(assumeRoleCalls()).isEqualTo(2);
    }

    @Test
    void concurrentCallersAfterExpiryShareOneRefresh() {
        RefreshingCredential<AwsCredentials> c = cache.credential(settings("role_arn", ROLE_A, "duration_seconds", 900));
        AwsCredentials first = c.get().await();
        clock.advance(Duration.ofMinutes(16));
        List<Future<AwsCredentials>> calls = new ArrayList<>();
        for (int i = 0; i < 20; i++) calls.add(c.get());
        List<AwsCredentials> got = Future.all(calls).await().list();
        assertThat(got).allSatisfy(v -> assertThat(v).isSameAs(got.getFirst()).isNotSameAs(first));
        assertThat(assumeRoleCalls()).isEqualTo(2);
        assertThat(c.health().ready()).isTrue();
    }

    @Test
    void aRefusingStsIsAHealthStateThatShowsNoSecret() {
        sim.awsCredentials().requireExternalId(ROLE_A, "partner-7d1f");
        RefreshingCredential<AwsCredentials> c = cache.credential(settings("role_arn", ROLE_A));
        assertThatThrownBy(() -> c.get().await())
                .hasMessageContaining("could not obtain credentials")
                .satisfies(t -> assertThat(t.getMessage()).doesNotContain(SECRET, SESSION_TOKEN));
        CredentialHealth health = c.health();
        assertThat(health.ready()).isFalse();
        assertThat(health.problem())
                .startsWith("AWS static credentials ASIABASESESSION0001 → " + ROLE_A)
                .contains("not authorized to perform: sts:AssumeRole", "Status Code: 403")
                .doesNotContain(SECRET, SESSION_TOKEN);
        assertThat(health.since()).isEqualTo(clock.instant());

        // asked again only after the back-off: calls meanwhile fail at once, without calling STS
        assertThatThrownBy(() -> c.get().await()).hasMessageContaining("not authorized");
        assertThat(assumeRoleCalls()).isEqualTo(1);
        clock.advance(AwsCredentialCache.RETRY_AFTER_FAILURE);
        sim.awsCredentials().requireExternalId(ROLE_A, null);
        assertThat(c.get().await().accessKeyId()).startsWith("ASIA");
        assertThat(c.health().ready()).isTrue();
        assertThat(assumeRoleCalls()).isEqualTo(2);
    }
}
