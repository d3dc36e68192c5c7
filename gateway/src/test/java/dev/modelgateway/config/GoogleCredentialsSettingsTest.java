package dev.modelgateway.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.config.GoogleCredentialsSettings.Source;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GoogleCredentialsSettingsTest {
    private static final String AT = "providers.gcp.google";
    @TempDir
    Path dir;

    private static GoogleCredentialsSettings parse(Map<String, Object> yaml) {
        return GoogleCredentialsSettings.parse(AT, yaml);
    }

    /** What the settings look at; the key is not a key, only text that must never be repeated. */
    private static final String KEY_TEXT = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7secret";

    private Path file(String name, String json) throws IOException {
        return Files.writeString(dir.resolve(name), json);
    }

    private Path serviceAccount() throws IOException {
        return file("sa.json", """
                {"type": "service_account", "client_email": "caller@p.iam.gserviceaccount.com",
                 "private_key": "-----BEGIN PRIVATE KEY-----\\n%s\\n-----END PRIVATE KEY-----\\n",
                 "token_uri": "https://oauth2.googleapis.com/token"}""".formatted(KEY_TEXT));
    }

    private Path identityPool() throws IOException {
        return file("pool.json", """
                {"type": "external_account",
                 "audience": "//iam.googleapis.com/projects/1/locations/global/workloadIdentityPools/ci/providers/oidc",
                 "subject_token_type": "urn:ietf:params:oauth:token-type:jwt", "token_url": "https://sts.googleapis.com/v1/token",
                 "credential_source": {"file": "/var/run/secrets/token"}}""");
    }

    @Test
    void anEmptyBlockIsApplicationDefaultCredentialsForVertexScope() {
        GoogleCredentialsSettings s = parse(null);
        assertThat(s).isEqualTo(new GoogleCredentialsSettings(Source.DEFAULT, null,
                List.of("https://www.googleapis.com/auth/cloud-platform"), null, null));
        assertThat(parse(Map.of())).isEqualTo(s);
    }

    @Test
    void aServiceAccountFileIsReadWithItsOverrides() throws IOException {
        Path sa = serviceAccount();
        GoogleCredentialsSettings s = parse(Map.of("source", "service_account", "credentials_file", sa.toString(),
                "scopes", List.of("https://www.googleapis.com/auth/cloud-platform", "openid", "openid"),
                "token_url", "http://127.0.0.1:9/oauth2/token"));
        assertThat(s.source()).isEqualTo(Source.SERVICE_ACCOUNT);
        assertThat(s.credentialsFile()).isEqualTo(sa.toAbsolutePath());
        assertThat(s.scopes()).containsExactly("https://www.googleapis.com/auth/cloud-platform", "openid");
        assertThat(s.tokenUrl()).isEqualTo(URI.create("http://127.0.0.1:9/oauth2/token"));
        assertThat(s.describe()).isEqualTo("google service_account " + sa.toAbsolutePath());
    }

    @Test
    void withoutASourceTheFileSaysWhichItIs() throws IOException {
        assertThat(parse(Map.of("credentials_file", serviceAccount().toString())).source()).isEqualTo(Source.SERVICE_ACCOUNT);
        assertThat(parse(Map.of("credentials_file", identityPool().toString())).source()).isEqualTo(Source.EXTERNAL_ACCOUNT);
        Path user = file("adc.json", "{\"type\": \"authorized_user\", \"refresh_token\": \"1//secret\"}");
        assertThatThrownBy(() -> parse(Map.of("credentials_file", user.toString())))
                .hasMessage(AT + ".credentials_file: " + user + " is neither a service_account nor an external_account file");
    }

    @Test
    void scopesMayBeOneSpaceSeparatedStringAndTheirOrderMakesNoOtherIdentity() {
        GoogleCredentialsSettings a = parse(Map.of("source", "metadata", "scopes", "openid https://www.googleapis.com/auth/cloud-platform"));
        GoogleCredentialsSettings b = parse(Map.of("source", "metadata",
                "scopes", List.of("https://www.googleapis.com/auth/cloud-platform", "openid")));
        assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
        assertThat(parse(Map.of("source", "metadata", "metadata_endpoint", "http://127.0.0.1:8080/")).metadataEndpoint())
                .isEqualTo(URI.create("http://127.0.0.1:8080"));
    }

    @Test
    void theBlockAsTheProviderKeepsItReadsTheSame() throws IOException {
        Path sa = serviceAccount();
        ObjectNode node = JsonNodeFactory.instance.objectNode().put("credentials_file", sa.toString());
        node.putArray("scopes").add("openid");
        assertThat(GoogleCredentialsSettings.parse(AT, node))
                .isEqualTo(parse(Map.of("credentials_file", sa.toString(), "scopes", List.of("openid"))));
        assertThat(GoogleCredentialsSettings.parse(AT, (JsonNode) null)).isEqualTo(parse(null));
    }

    @Test
    void anUnknownKeyIsRefusedWithTheNearestName() {
        assertThatThrownBy(() -> parse(Map.of("credential_file", "/etc/gw/sa.json")))
                .hasMessage(AT + ".credential_file: unknown setting; did you mean `credentials_file`?");
        assertThatThrownBy(() -> parse(Map.of("source", "workload_identity")))
                .hasMessage(AT + ".source must be one of default, service_account, metadata, external_account, got 'workload_identity'");
    }

    @Test
    void eachSourceTakesOnlyItsOwnSettings() throws IOException {
        String sa = serviceAccount().toString();
        assertThatThrownBy(() -> parse(Map.of("source", "service_account")))
                .hasMessage(AT + ".credentials_file is required for source service_account");
        assertThatThrownBy(() -> parse(Map.of("source", "default", "credentials_file", sa)))
                .hasMessage(AT + ".credentials_file applies to source service_account or external_account only"
                        + " (source default reads GOOGLE_APPLICATION_CREDENTIALS)");
        assertThatThrownBy(() -> parse(Map.of("source", "metadata", "token_url", "http://127.0.0.1:9/token")))
                .hasMessage(AT + ".token_url applies to source service_account or external_account only");
        assertThatThrownBy(() -> parse(Map.of("credentials_file", sa, "metadata_endpoint", "http://127.0.0.1:9")))
                .hasMessage(AT + ".metadata_endpoint applies to source metadata or default only");
        assertThatThrownBy(() -> parse(Map.of("source", "metadata", "metadata_endpoint", "metadata.google.internal")))
                .hasMessage(AT + ".metadata_endpoint must be an http(s) URL without user info, such as http://127.0.0.1:8080");
        assertThatThrownBy(() -> parse(Map.of("source", "metadata", "scopes", List.of())))
                .hasMessage(AT + ".scopes must be a scope or a list of scopes");
    }

    @Test
    void aFileOfTheWrongTypeIsRefused() throws IOException {
        Path pool = identityPool();
        assertThatThrownBy(() -> parse(Map.of("source", "service_account", "credentials_file", pool.toString())))
                .hasMessage(AT + ".credentials_file: " + pool + " is of type external_account; source service_account"
                        + " needs a file of type service_account");
    }

    @Test
    void aMissingOrUnreadableFileIsRefusedWithoutRepeatingItsContents() throws IOException {
        Path missing = dir.resolve("absent.json");
        assertThatThrownBy(() -> parse(Map.of("source", "service_account", "credentials_file", missing.toString())))
                .hasMessage(AT + ".credentials_file: no file at " + missing);

        Path pem = file("key.pem", "-----BEGIN PRIVATE KEY-----\n" + KEY_TEXT + "\n-----END PRIVATE KEY-----\n");
        assertThatThrownBy(() -> parse(Map.of("source", "service_account", "credentials_file", pem.toString())))
                .hasMessage(AT + ".credentials_file: " + pem + " is not valid JSON (line 1)");

        Path broken = file("broken.json", "{\"type\": \"service_account\", \"private_key\": \"" + KEY_TEXT + "\",");
        assertThatThrownBy(() -> parse(Map.of("credentials_file", broken.toString())))
                .hasMessageStartingWith(AT + ".credentials_file: " + broken + " is not valid JSON")
                .message().doesNotContain(KEY_TEXT);

        Path noEmail = file("no-email.json", "{\"type\": \"service_account\", \"private_key\": \"" + KEY_TEXT + "\"}");
        assertThatThrownBy(() -> parse(Map.of("credentials_file", noEmail.toString())))
                .hasMessage(AT + ".credentials_file: " + noEmail + " lacks client_email");
    }
}
