package dev.modelgateway.e2e.media;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.PerClassGateway;
import dev.modelgateway.json.Json;
import dev.modelgateway.testing.E2e;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A media URL that cannot be downloaded is the caller's 400 naming its field and saying what happened, but
 * never the address its host resolved to nor the transport's own message (which would map internal hosts).
 */
@ExtendWith(PerClassGateway.class)
@E2e
class MediaErrorLeakTest {
    static GatewayHarness h;

    private static int closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Test
    void aRefusedConnectionIsNamedWithoutItsResolvedAddress() throws IOException {
        HttpResponse<String> r = h.postAuthed("/api/v1/chat/completions",
                MediaFetchTest.chatWithImage("http://localhost:" + closedPort() + "/cat.png"));

        assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
        JsonNode error = Json.parseOrNull(r.body()).path("error");
        assertThat(error.path("param").asText()).isEqualTo("messages[0].content[1].image_url.url");
        assertThat(error.path("message").asText()).contains("connection refused")
                .doesNotContain("127.0.0.1").doesNotContain("/0:0:0:0").doesNotContain("Connection refused:");
    }
}
