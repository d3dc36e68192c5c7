package dev.modelgateway.credentials.aws;

import dev.modelgateway.config.AwsCredentialsSettings;
import dev.modelgateway.credentials.Expiring;
import dev.modelgateway.sim.AwsIdentities;
import dev.modelgateway.sim.VendorSimulator;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.services.sts.model.StsException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Static keys, role chains and web identity, fetching from the simulator's STS over real HTTP on 127.0.0.1. */
class AwsCredentialSourcesTest {
    static final String ROLE_A = "arn:aws:iam::123456789012:role/gateway-entry";
    static final String ROLE_B = "arn:aws:iam::210987654321:role/bedrock-invoker";

    private final Vertx vertx = Vertx.vertx();
    private VendorSimulator sim;

    @BeforeEach
    void start() {
        sim = VendorSimulator.start(vertx, 0).await();
        sim.awsIdentities().registerLongTerm("AKIASTATICGATEWAY01", "static-secret-0123456789", "arn:aws:iam::123456789012:user/gateway");
    }

    @AfterEach
    void stop() {
        sim.close().await();
        vertx.close().await();
    }

    static Map<String, Object> yaml(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) m.put((String) kv[i], kv[i + 1]);
        return m;
    }

    private Expiring<AwsCredentials> fetch(Object... kv) throws Exception {
        return AwsCredentialSources.of(AwsCredentialsSettings.parse("providers.aws.aws", yaml(kv))).fetch();
    }

    /** The simulator's record of the identity these credentials are: the proof they were issued, and to whom. */
    private AwsIdentities.Identity issued(AwsCredentials c) {
        AwsIdentities.Identity id = sim.awsIdentities().find(c.accessKeyId()).orElseThrow();
        assertThat(c.secretAccessKey()).isEqualTo(id.secretAccessKey());
        assertThat(((AwsSessionCredentials) c).sessionToken()).isEqualTo(id.sessionToken());
        return id;
    }

    @Test
    void staticKeysAreUsedAsGivenAndNeverExpire() throws Exception {
        Expiring<AwsCredentials> e = fetch("access_key_id", "AKIASTATICGATEWAY01", "secret_access_key", "static-secret-0123456789");
        assertThat(e.value().accessKeyId()).isEqualTo("AKIASTATICGATEWAY01");
        assertThat(e.value().secretAccessKey()).isEqualTo("static-secret-0123456789");
        assertThat(e.expiresAt()).isNull();
    }

    @Test
    void aRoleChainAssumesEachRoleWithThePreviousCredentialsAndItsExternalId() throws Exception {
        sim.awsCredentials().requireExternalId(ROLE_A, "partner-7d1f");
        Expiring<AwsCredentials> e = fetch("access_key_id", "AKIASTATICGATEWAY01", "secret_access_key", "static-secret-0123456789",
                "region", "us-west-2", "sts_endpoint", sim.baseUrl(),
                "assume_role", List.of(yaml("role_arn", ROLE_A, "external_id", "partner-7d1f", "duration_seconds", 7200),
                        yaml("role_arn", ROLE_B, "session_name", "gw-bedrock", "duration_seconds", 900)));
        AwsIdentities.Identity id = issued(e.value());
        assertThat(id.arn()).isEqualTo("arn:aws:sts::210987654321:assumed-role/bedrock-invoker/gw-bedrock");
        assertThat(e.expiresAt()).isEqualTo(id.expiresAt());
        // each AssumeRole was SigV4-signed by the link before it: the simulator refuses anything else
        assertThat(sim.awsCredentials().calls("AssumeRole")).isEqualTo(2);
    }

    @Test
    void withoutTheExternalIdTheRoleRefusesAndTheFetchFails() {
        sim.awsCredentials().requireExternalId(ROLE_A, "partner-7d1f");
        assertThatThrownBy(() -> fetch("access_key_id", "AKIASTATICGATEWAY01", "secret_access_key", "static-secret-0123456789",
                "sts_endpoint", sim.baseUrl(), "assume_role", List.of(yaml("role_arn", ROLE_A))))
                .isInstanceOfSatisfying(StsException.class, e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("AccessDenied"))
                .hasMessageContaining("not authorized to perform: sts:AssumeRole");
    }

    @Test
    void unknownStaticKeysCannotAssumeARole() {
        assertThatThrownBy(() -> fetch("access_key_id", "AKIANOBODYKNOWSME01", "secret_access_key", "whatever",
                "sts_endpoint", sim.baseUrl(), "assume_role", List.of(yaml("role_arn", ROLE_A))))
                .isInstanceOfSatisfying(StsException.class, e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InvalidClientTokenId"));
    }

    @Test
    void webIdentityPresentsTheTokenFileAsItIsAtEachFetch(@TempDir Path dir) throws Exception {
        Path token = dir.resolve("token");
        Files.writeString(token, "eyJhbGciOiJSUzI1NiJ9.first.sig");
        Object[] block = {"source", "web_identity", "web_identity_token_file", token.toString(), "role_arn", ROLE_A,
                "sts_endpoint", sim.baseUrl()};
        Expiring<AwsCredentials> first = fetch(block);
        assertThat(issued(first.value()).arn()).isEqualTo("arn:aws:sts::123456789012:assumed-role/gateway-entry/model-gateway");
        assertThat(sim.awsCredentials().lastWebIdentityToken()).isEqualTo("eyJhbGciOiJSUzI1NiJ9.first.sig");

        Files.writeString(token, "eyJhbGciOiJSUzI1NiJ9.rotated.sig");
        Expiring<AwsCredentials> second = fetch(block);
        assertThat(sim.awsCredentials().lastWebIdentityToken()).isEqualTo("eyJhbGciOiJSUzI1NiJ9.rotated.sig");
        assertThat(second.value().accessKeyId()).isNotEqualTo(first.value().accessKeyId());
        assertThat(sim.awsCredentials().calls("AssumeRoleWithWebIdentity")).isEqualTo(2);
    }

    @Test
    void webIdentityThenARoleChain(@TempDir Path dir) throws Exception {
        Path token = dir.resolve("token");
        Files.writeString(token, "eyJhbGciOiJSUzI1NiJ9.irsa.sig");
        Expiring<AwsCredentials> e = fetch("source", "web_identity", "web_identity_token_file", token.toString(), "role_arn", ROLE_A,
                "sts_endpoint", sim.baseUrl(), "assume_role", List.of(yaml("role_arn", ROLE_B)));
        assertThat(issued(e.value()).arn()).isEqualTo("arn:aws:sts::210987654321:assumed-role/bedrock-invoker/model-gateway");
        assertThat(sim.awsCredentials().calls("AssumeRoleWithWebIdentity")).isEqualTo(1);
        assertThat(sim.awsCredentials().calls("AssumeRole")).isEqualTo(1);
    }
}
