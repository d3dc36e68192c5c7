package dev.modelgateway.e2e.routing;

import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.PerClassGateway;
import dev.modelgateway.testing.E2e;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** What happens to a stream when either side goes away. */
@ExtendWith(PerClassGateway.class)
@E2e
class StreamLifecycleTest {
    static GatewayHarness h;

    @Test
    void clientDisconnectCancelsTheUpstreamRequest() throws Exception {
        h.sim.clearReceived();
        String body = "{\"model\":\"platform/vendorB-5.5\",\"stream\":true,\"messages\":[{\"role\":\"user\","
                + "\"content\":\"[[sim:chunks=200;chunk_delay_ms=50]] cancel me\"}]}";
        try (Socket socket = new Socket("127.0.0.1", h.gateway.port())) {
            OutputStream out = socket.getOutputStream();
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            out.write(("POST /api/v1/chat/completions HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + GatewayHarness.KEY
                    + "\r\nContent-Type: application/json\r\nContent-Length: " + bytes.length + "\r\n\r\n").getBytes(StandardCharsets.UTF_8));
            out.write(bytes);
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] buf = new byte[256];
            assertThat(in.read(buf)).isPositive(); // the stream has begun
        }
        var seen = h.sim.awaitReceived(list -> list.stream().anyMatch(r -> r.body().contains("cancel me") && r.clientClosedEarly()),
                5_000).await();
        assertThat(seen).anyMatch(r -> r.clientClosedEarly());
    }

    @Test
    void upstreamDisconnectMidStreamEndsWithAnErrorEventNotACleanEnd() {
        var chat = h.postAuthed("/api/v1/chat/completions", "{\"model\":\"platform/vendorB-5.5\",\"stream\":true,"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"[[sim:disconnect_after=3]] hi\"}]}");
        assertThat(chat.statusCode()).isEqualTo(200);
        assertThat(chat.body()).doesNotContain("[DONE]");
        assertThat(chat.body().strip()).endsWith("}");
        String last = chat.body().strip().lines().reduce((a, b) -> b).orElseThrow();
        assertThat(last).startsWith("data: {\"error\"");

        var messages = h.postAuthed("/api/v1/messages", "{\"model\":\"platform/vendorA-sonnet-4.5\",\"max_tokens\":100,\"stream\":true,"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"[[sim:disconnect_after=3]] hi\"}]}");
        assertThat(messages.body()).contains("event: error").doesNotContain("message_stop");
    }

    @Test
    void vendorMidStreamErrorEventIsPropagated() {
        var messages = h.postAuthed("/api/v1/messages", "{\"model\":\"platform/vendorA-sonnet-4.5\",\"max_tokens\":100,\"stream\":true,"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"[[sim:error_after=3;chunk_delay_ms=20]] hi\"}]}");
        // Paced, so that output has reached the caller first; an error before any output would be retried.
        assertThat(messages.body()).contains("event: message_start").contains("event: error").contains("overloaded_error");
    }
}
