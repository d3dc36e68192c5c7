package dev.modelgateway.observability;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Every credential shape is masked, whatever its case, and a line without one comes back as it was. */
class RedactionTest {

    @Test
    void eachShapeIsMaskedInAnyCase() {
        String pk = "pk-" + "a1B2c3D4e5F6g7H8i9J0k1L2";
        assertThat(Redaction.scrub("key " + pk + " used")).isEqualTo("key [REDACTED] used");
        assertThat(Redaction.scrub("vendor said sk-proj-ABCDEFGHIJKLMNOPQRSTUV")).doesNotContain("ABCDEFGHIJKLMNOPQRSTUV");
        assertThat(Redaction.scrub("AIza" + "x".repeat(35))).isEqualTo("[REDACTED]");
        assertThat(Redaction.scrub("AUTHORIZATION: Bearer abcdefgh12345")).isEqualTo("AUTHORIZATION: [REDACTED]");
        assertThat(Redaction.scrub("Proxy-Authorization=Basic dXNlcjpwYXNz")).doesNotContain("dXNlcjpwYXNz");
        assertThat(Redaction.scrub("X-Goog-Api-Key: abcdefgh123")).isEqualTo("X-Goog-Api-Key: [REDACTED]");
        assertThat(Redaction.scrub("MASTER_KEY=supersecret1")).isEqualTo("MASTER_KEY=[REDACTED]");
        assertThat(Redaction.scrub("sent BEARER zyxwvuts9876")).isEqualTo("sent BEARER [REDACTED]");
        assertThat(Redaction.scrub("GET /v1beta/models?KEY=abc123&alt=sse")).isEqualTo("GET /v1beta/models?KEY=[REDACTED]&alt=sse");
        assertThat(Redaction.scrub("/x?access_TOKEN=t0k3n")).isEqualTo("/x?access_TOKEN=[REDACTED]");
    }

    @Test
    void keysGluedToAWordCloudAndCodeHostTokensJwtsAndPrivateKeysAreMasked() {
        String pk = "pk-" + "a1B2c3D4e5F6g7H8i9J0k1L2";
        assertThat(Redaction.scrub("{\"content\":\"x_" + pk + "\"}")).isEqualTo("{\"content\":\"x_[REDACTED]\"}");
        assertThat(Redaction.scrub("aws AKIA" + "IOSFODNN7EXAMPLE and ASIA" + "Y3FDSNDKFKSIDJSW")).isEqualTo("aws [REDACTED] and [REDACTED]");
        assertThat(Redaction.scrub("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"))
                .isEqualTo("aws_secret_access_key = [REDACTED]");
        assertThat(Redaction.scrub("gh ghp_" + "a".repeat(36) + " and github_pat_" + "11ABCDEFG0_" + "b".repeat(40)))
                .isEqualTo("gh [REDACTED] and [REDACTED]");
        String jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
        assertThat(Redaction.scrub("token " + jwt + ".")).isEqualTo("token [REDACTED].");
        String pem = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy\n-----END RSA PRIVATE KEY-----";
        assertThat(Redaction.scrub("key: " + pem + " done")).isEqualTo("key: [REDACTED] done");
        // as captured content carries it (JSON-escaped), and cut short before its end
        assertThat(Redaction.scrub("\"-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC")).isEqualTo("\"[REDACTED]");
    }

    @Test
    void aLineWithoutCredentialsIsTheSameString() {
        String line = "0af7651916cd43dd8448eb211c80319c POST /api/v1/chat/completions 200 1234us model=platform/vendorB-5.5 key=key_159a6df87852";
        assertThat(Redaction.scrub(line)).isSameAs(line);
    }
}
