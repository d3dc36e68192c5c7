package dev.modelgateway.e2e.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.http.BodyWork;
import dev.modelgateway.http.Exchange;
import dev.modelgateway.json.Json;
import dev.modelgateway.testing.E2e;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A body above {@link BodyWork#INLINE_BYTES} is checked on a worker thread: its refusals are the same as a small
 * body's, a 400 in the caller's shape naming the field (docs/security.md). Each case runs with a small and a
 * large body that differ only in how many valid items come before the faulty one.
 */
@E2e
class LargeBodyErrorsTest {
    static GatewayHarness h;

    @BeforeAll
    static void start() {
        h = GatewayHarness.builder().dropRefusedHostedTools(true).start();
    }

    @AfterAll
    static void stop() {
        h.close();
    }

    /** {@code n} valid conversation items, then a comma; 5,000 of them are about 400 KB. */
    private static String items(int n) {
        StringBuilder json = new StringBuilder();
        for (int i = 0; i < n; i++) {
            json.append("{\"role\":\"").append(i % 2 == 0 ? "user" : "assistant")
                    .append("\",\"content\":\"an earlier message of a long conversation, number ").append(i).append("\"},");
        }
        return json.toString();
    }

    private static HttpResponse<String> post(String path, String body) {
        HttpResponse<String> r = h.postAuthed(path, body);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
        return r;
    }

    /** The OpenAI shape: the field in {@code error.param}. */
    private static void refusedNaming(HttpResponse<String> r, String param) {
        JsonNode error = Json.parseOrNull(r.body()).path("error");
        assertThat(error.path("type").asText()).isEqualTo("invalid_request_error");
        assertThat(error.path("param").asText()).as(r.body()).isEqualTo(param);
    }

    @ParameterizedTest
    @ValueSource(ints = {10, 5_000})
    void responsesUnknownItemReference(int before) {
        String body = "{\"model\":\"platform/vendorA-sonnet-5\",\"input\":[" + items(before)
                + "{\"type\":\"item_reference\",\"id\":\"msg_unknown\"}]}";
        refusedNaming(post("/api/v1/responses", body), "input[" + before + "].id");
    }

    @ParameterizedTest
    @ValueSource(ints = {10, 5_000})
    void responsesRuleRefusalKeepsTheDroppedToolWarning(int before) {
        // web_search is dropped for vendor A (drop_refused_hosted_tools), then reasoning.effort is refused
        String body = "{\"model\":\"platform/vendorA-sonnet-5\",\"tools\":[{\"type\":\"web_search\"}],"
                + "\"reasoning\":{\"effort\":\"enormous\"},\"input\":[" + items(before) + "{\"role\":\"user\",\"content\":\"Hi\"}]}";
        HttpResponse<String> r = post("/api/v1/responses", body);
        refusedNaming(r, "reasoning.effort");
        assertThat(r.headers().firstValue(Exchange.WARNINGS_HEADER)).hasValueSatisfying(w -> assertThat(w).contains("web_search"));
    }

    @ParameterizedTest
    @ValueSource(ints = {10, 5_000})
    void responsesBoundsRefusal(int before) {
        String body = "{\"model\":\"platform/vendorB-5.5\",\"text\":{\"format\":{}},\"input\":[" + items(before)
                + "{\"role\":\"user\",\"content\":\"Hi\"}]}";
        refusedNaming(post("/api/v1/responses", body), "text.format.type");
    }

    @ParameterizedTest
    @ValueSource(ints = {10, 5_000})
    void embeddingsEmptyText(int before) {
        StringBuilder body = new StringBuilder("{\"model\":\"platform/text-embedding-3-small\",\"input\":[");
        int texts = Math.min(before, 2_000);
        for (int i = 0; i < texts; i++) body.append('"').append("an earlier text to embed, ".repeat(before / 500 + 1)).append("\",");
        refusedNaming(post("/api/v1/embeddings", body.append("\"\"]}").toString()), "input[" + texts + "]");
    }

    /** The messages shape: the field named in {@code error.message}. */
    private static void refusedInMessagesShape(HttpResponse<String> r, String field) {
        JsonNode answer = Json.parseOrNull(r.body());
        assertThat(answer.path("type").asText()).as(r.body()).isEqualTo("error");
        assertThat(answer.path("error").path("type").asText()).isEqualTo("invalid_request_error");
        assertThat(answer.path("error").path("message").asText()).as(r.body()).contains(field);
    }

    @ParameterizedTest
    @ValueSource(ints = {10, 5_000})
    void tokenCountingUnknownRole(int before) {
        for (String model : new String[]{"platform/vendorA-sonnet-5", "vendorC-flash-3"}) {
            String body = "{\"model\":\"" + model + "\",\"messages\":[" + items(before) + "{\"role\":\"robot\",\"content\":\"Hi\"}]}";
            refusedInMessagesShape(post("/api/v1/messages/count_tokens", body), "messages[" + before + "].role");
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {10, 5_000})
    void tokenCountingHereRefusesWhatTheDecoderRefuses(int before) {
        String body = "{\"model\":\"vendorC-flash-3\",\"messages\":[" + items(before)
                + "{\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\",\"id\":\"t1\",\"name\":\"f\",\"input\":\"x\"}]}]}";
        refusedInMessagesShape(post("/api/v1/messages/count_tokens", body), ".input");
    }
}
