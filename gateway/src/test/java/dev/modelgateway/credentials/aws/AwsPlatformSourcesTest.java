package dev.modelgateway.credentials.aws;

import dev.modelgateway.config.AwsCredentialsSettings;
import dev.modelgateway.credentials.Expiring;
import dev.modelgateway.sim.AwsCredentialEndpoints;
import dev.modelgateway.sim.AwsIdentities;
import dev.modelgateway.sim.VendorSimulator;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static dev.modelgateway.credentials.aws.AwsCredentialSourcesTest.yaml;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The sources the platform configures through the environment (ECS and EKS Pod Identity's container endpoint, EC2's
 * instance metadata, the default chain), against the simulator. Isolated: the AWS SDK reads those settings from
 * system properties (the environment variables' twins), which these tests set.
 */
@Isolated
class AwsPlatformSourcesTest {
    private final Vertx vertx = Vertx.vertx();
    private final Map<String, String> saved = new HashMap<>();
    private VendorSimulator sim;

    @BeforeEach
    void start() {
        sim = VendorSimulator.start(vertx, 0).await();
        // the SDK gives instance metadata 1 s by default; a simulator's first answer on a loaded test machine may take longer
        property("aws.ec2MetadataServiceTimeout", "10");
    }

    @AfterEach
    void stop() {
        saved.forEach((k, v) -> {
            if (v == null) System.clearProperty(k);
            else System.setProperty(k, v);
        });
        sim.close().await();
        vertx.close().await();
    }

    private void property(String name, String value) {
        saved.putIfAbsent(name, System.getProperty(name));
        System.setProperty(name, value);
    }

    private Expiring<AwsCredentials> fetch(Object... kv) throws Exception {
        return AwsCredentialSources.of(AwsCredentialsSettings.parse("providers.aws.aws", yaml(kv))).fetch();
    }

    private AwsIdentities.Identity issued(AwsCredentials c) {
        AwsIdentities.Identity id = sim.awsIdentities().find(c.accessKeyId()).orElseThrow();
        assertThat(c.secretAccessKey()).isEqualTo(id.secretAccessKey());
        assertThat(((AwsSessionCredentials) c).sessionToken()).isEqualTo(id.sessionToken());
        return id;
    }

    @Test
    void instanceMetadataIsReadWithAnImdsV2SessionToken() throws Exception {
        Expiring<AwsCredentials> e = fetch("source", "instance", "imds_endpoint", sim.baseUrl());
        AwsIdentities.Identity id = issued(e.value());
        assertThat(id.arn()).contains("assumed-role/" + sim.awsCredentials().instanceRole());
        assertThat(e.expiresAt()).isEqualTo(id.expiresAt());
        assertThat(sim.awsCredentials().calls("imds")).isEqualTo(1);
    }

    @Test
    void theContainerEndpointIsCalledWithTheTokenFromTheTokenFile(@TempDir Path dir) throws Exception {
        Path token = dir.resolve("eks-pod-identity-token");
        Files.writeString(token, sim.awsCredentials().containerAuthorizationToken());
        property("aws.containerCredentialsPath", AwsCredentialEndpoints.CONTAINER_PATH);
        property("aws.containerAuthorizationTokenFile", token.toString());
        Expiring<AwsCredentials> e = fetch("source", "container", "container_endpoint", sim.baseUrl());
        assertThat(e.expiresAt()).isEqualTo(issued(e.value()).expiresAt());
        assertThat(sim.awsCredentials().calls("container")).isEqualTo(1);

        // EKS Pod Identity sets the full URI instead (the agent's link-local address; here the simulator)
        System.clearProperty("aws.containerCredentialsPath");
        property("aws.containerCredentialsFullUri", sim.baseUrl() + AwsCredentialEndpoints.CONTAINER_PATH);
        assertThat(issued(fetch("source", "container").value()).arn()).contains("assumed-role/sim-task-role");
        assertThat(sim.awsCredentials().calls("container")).isEqualTo(2);

        Files.writeString(token, "a-token-the-agent-does-not-know");
        assertThatThrownBy(() -> fetch("source", "container"))
                .hasMessageContaining("Failed to load credentials from metadata service");
    }

    @Test
    void theDefaultChainFindsTheEnvironmentsKeysAndARoleChainCanStartFromThem() throws Exception {
        sim.awsIdentities().registerLongTerm("AKIADEFAULTCHAIN001", "default-chain-secret", "arn:aws:iam::123456789012:user/ci");
        property("aws.accessKeyId", "AKIADEFAULTCHAIN001");
        property("aws.secretAccessKey", "default-chain-secret");
        Expiring<AwsCredentials> plain = fetch("source", "default");
        assertThat(plain.value().accessKeyId()).isEqualTo("AKIADEFAULTCHAIN001");
        assertThat(plain.expiresAt()).isNull();

        Expiring<AwsCredentials> chained = fetch("sts_endpoint", sim.baseUrl(),
                "assume_role", List.of(yaml("role_arn", AwsCredentialSourcesTest.ROLE_B)));
        assertThat(issued(chained.value()).arn()).isEqualTo("arn:aws:sts::210987654321:assumed-role/bedrock-invoker/model-gateway");
    }
}
