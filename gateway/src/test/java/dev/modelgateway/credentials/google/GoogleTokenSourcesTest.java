package dev.modelgateway.credentials.google;

import dev.modelgateway.config.GoogleCredentialsSettings;
import dev.modelgateway.credentials.CredentialHealth;
import dev.modelgateway.credentials.Expiring;
import dev.modelgateway.credentials.RefreshingCredential;
import dev.modelgateway.sim.VendorSimulator;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.GoogleServiceAccounts;
import dev.modelgateway.testing.GoogleServiceAccounts.IdentityPool;
import dev.modelgateway.testing.GoogleServiceAccounts.ServiceAccount;
import dev.modelgateway.testing.TestClock;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Each kind of Google credential minted by google-auth-library against the simulator's token endpoint and metadata server. */
@E2e
class GoogleTokenSourcesTest {
    private final Vertx vertx = Vertx.vertx();
    private final TestClock clock = new TestClock();
    private VendorSimulator sim;
    @TempDir
    Path dir;

    @BeforeEach
    void start() {
        sim = VendorSimulator.start(vertx, 0).await();
    }

    @AfterEach
    void close() {
        vertx.close().await();
    }

    private String tokenUrl() {
        return sim.baseUrl() + "/oauth2/token";
    }

    private static GoogleCredentialsSettings settings(Map<String, Object> yaml) {
        return GoogleCredentialsSettings.parse("providers.gcp.google", yaml);
    }

    private Expiring<String> fetch(GoogleCredentialsSettings settings) throws Exception {
        return GoogleTokenSources.of(settings, clock).fetch();
    }

    @Test
    void aServiceAccountKeyIsExchangedForATokenWithAnAssertionTheEndpointVerified() throws Exception {
        ServiceAccount sa = GoogleServiceAccounts.create(dir, "vertex-caller", tokenUrl());
        sim.googleOAuth().trustServiceAccount(sa.clientEmail(), sa.publicKey());
        sim.googleTokens().lifetime(Duration.ofMinutes(10));

        Expiring<String> token = fetch(settings(Map.of("credentials_file", sa.file().toString())));

        assertThat(sim.googleTokens().valid(token.value())).isTrue();
        assertThat(sim.googleTokens().subjectOf(token.value())).isEqualTo(sa.clientEmail());
        // the endpoint's expires_in, told on the gateway's clock
        assertThat(Duration.between(clock.instant(), token.expiresAt())).isBetween(Duration.ofMinutes(9), Duration.ofMinutes(10));
    }

    @Test
    void tokenUrlSendsTheGrantElsewhere() throws Exception {
        ServiceAccount sa = GoogleServiceAccounts.create(dir, "vertex-caller", "https://oauth2.googleapis.com/token");
        sim.googleOAuth().trustServiceAccount(sa.clientEmail(), sa.publicKey());

        Expiring<String> token = fetch(settings(Map.of("credentials_file", sa.file().toString(), "token_url", tokenUrl())));

        assertThat(sim.googleTokens().valid(token.value())).isTrue();
    }

    @Test
    void aKeyGoogleDoesNotKnowIsAHealthProblemThatNamesTheIdentityNotTheKey() throws IOException {
        ServiceAccount known = GoogleServiceAccounts.create(dir, "vertex-caller", tokenUrl());
        ServiceAccount stale = GoogleServiceAccounts.create(Files.createDirectory(dir.resolve("stale")), "vertex-caller", tokenUrl());
        sim.googleOAuth().trustServiceAccount(known.clientEmail(), known.publicKey());
        RefreshingCredential<String> credential = new GoogleTokenCache(vertx, clock)
                .credential(settings(Map.of("credentials_file", stale.file().toString())));

        assertThat(credential.get().otherwiseEmpty().await()).isNull();

        CredentialHealth health = credential.health();
        assertThat(health.ready()).isFalse();
        assertThat(health.problem()).contains("google service_account " + stale.file(),
                "invalid_grant", "Invalid JWT Signature.");
        String keyBody = stale.privateKeyPem().lines().skip(1).findFirst().orElseThrow();
        assertThat(health.problem()).doesNotContain(keyBody).doesNotContain("PRIVATE KEY");
        assertThat(sim.googleTokens().issued()).isZero();
    }

    @Test
    void theMetadataServerGivesTheWorkloadsTokenToARequestThatSaysItIsOne() throws Exception {
        Expiring<String> token = fetch(settings(Map.of("source", "metadata", "metadata_endpoint", sim.baseUrl())));

        assertThat(sim.googleTokens().valid(token.value())).isTrue();
        assertThat(sim.googleTokens().subjectOf(token.value())).endsWith(".iam.gserviceaccount.com");
        assertThat(metadataStatus(null)).isEqualTo(403);
        assertThat(metadataStatus("Google")).isEqualTo(200);
    }

    private int metadataStatus(String flavor) throws IOException, InterruptedException {
        HttpRequest.Builder req = HttpRequest.newBuilder(URI.create(sim.baseUrl()
                + "/computeMetadata/v1/instance/service-accounts/default/token"));
        if (flavor != null) req.header("Metadata-Flavor", flavor);
        try (HttpClient http = HttpClient.newHttpClient()) {
            return http.send(req.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        }
    }

    @Test
    void workloadIdentityFederationExchangesTheFilesSubjectTokenAtSts() throws Exception {
        IdentityPool pool = GoogleServiceAccounts.identityPool(dir, "ci-pool", "repo:acme/gateway");
        sim.googleOAuth().trustWorkloadIdentityPool(pool.audience(), pool.issuer(), pool.issuerKey());

        Expiring<String> token = fetch(settings(Map.of("credentials_file", pool.file().toString(), "token_url", tokenUrl())));

        assertThat(sim.googleTokens().valid(token.value())).isTrue();
        assertThat(sim.googleTokens().subjectOf(token.value())).endsWith("/subject/repo:acme/gateway");
    }

    @Test
    void aSubjectTokenOfAnotherIssuerIsRefused() {
        IdentityPool pool = GoogleServiceAccounts.identityPool(dir, "ci-pool", "repo:acme/gateway");
        IdentityPool other = GoogleServiceAccounts.identityPool(dir, "other-pool", "repo:acme/gateway");
        sim.googleOAuth().trustWorkloadIdentityPool(pool.audience(), pool.issuer(), other.issuerKey());
        RefreshingCredential<String> credential = new GoogleTokenCache(vertx, clock)
                .credential(settings(Map.of("credentials_file", pool.file().toString(), "token_url", tokenUrl())));

        assertThat(credential.get().otherwiseEmpty().await()).isNull();
        assertThat(credential.health().problem()).contains("google external_account", "invalid_grant");
        assertThat(sim.googleTokens().issued()).isZero();
    }
}
