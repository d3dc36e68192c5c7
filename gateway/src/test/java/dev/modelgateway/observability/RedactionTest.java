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
    void aLineWithoutCredentialsIsTheSameString() {
        String line = "0af7651916cd43dd8448eb211c80319c POST /api/v1/chat/completions 200 1234us model=platform/vendorB-5.5 key=key_159a6df87852";
        assertThat(Redaction.scrub(line)).isSameAs(line);
    }
}
