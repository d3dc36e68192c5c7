package dev.modelgateway.e2e.translation;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.PerClassGateway;
import dev.modelgateway.json.Json;
import dev.modelgateway.sim.ReceivedRequest;
import dev.modelgateway.testing.E2e;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 12 item 9: vendor D's compatible mode takes {@code enable_thinking}/{@code thinking_budget}, not
 * {@code reasoning_effort}. A reasoning effort reaches it by one mapping (docs/translation.md, "Effort ⇄ budget")
 * whichever protocol the caller speaks: chat (native to vendor D), Responses and messages (translated).
 */
@ExtendWith(PerClassGateway.class)
@E2e
class QwenReasoningTest {
    static GatewayHarness h;

    static JsonNode upstream(String marker) {
        ReceivedRequest r = h.sim.received().stream().filter(x -> x.body().contains(marker)).reduce((a, b) -> b)
                .orElseThrow(() -> new AssertionError("no upstream request with " + marker));
        return Json.parseOrNull(r.body());
    }

    static String body(String protocol, String effort, String marker, boolean stream) {
        String s = ",\"stream\":" + stream;
        return switch (protocol) {
            case "chat" -> "{\"model\":\"vendorD-plus-latest\",\"reasoning_effort\":\"" + effort + "\"" + s
                    + ",\"messages\":[{\"role\":\"user\",\"content\":\"" + marker + "\"}]}";
            case "responses" -> "{\"model\":\"vendorD-plus-latest\",\"reasoning\":{\"effort\":\"" + effort + "\"}" + s
                    + ",\"input\":\"" + marker + "\"}";
            default -> "{\"model\":\"vendorD-plus-latest\",\"max_tokens\":30000,\"thinking\":{\"type\":\"enabled\",\"budget_tokens\":"
                    + ("high".equals(effort) ? 24576 : 2048) + "}" + s + ",\"messages\":[{\"role\":\"user\",\"content\":\"" + marker + "\"}]}";
        };
    }

    static String path(String protocol) {
        return "/api/v1/" + (protocol.equals("chat") ? "chat/completions" : protocol);
    }

    @ParameterizedTest(name = "{0} effort={1} stream={3}")
    @CsvSource({
            "chat,high,24576,false", "chat,high,24576,true", "chat,low,2048,false",
            "responses,high,24576,false", "responses,high,24576,true", "responses,low,2048,false",
            "messages,high,24576,false", "messages,low,2048,true",
    })
    void anEffortBecomesEnableThinkingAndItsBudget(String protocol, String effort, int budget, boolean stream) {
        String marker = "qwen-" + protocol + "-" + effort + "-" + stream;
        HttpResponse<String> r = h.postAuthed(path(protocol), body(protocol, effort, marker, stream));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode sent = upstream(marker);
        assertThat(sent.has("reasoning_effort")).as(sent.toString()).isFalse();
        assertThat(sent.path("enable_thinking").asBoolean(false)).as(sent.toString()).isTrue();
        assertThat(sent.path("thinking_budget").asInt()).isEqualTo(budget);
        // the simulator's reasoning text, whole or as the first piece of a stream
        assertThat(r.body()).containsAnyOf("Let me think about", "\"Let\"");
    }

    @Test
    void chatEffortNoneTurnsThinkingOff() {
        HttpResponse<String> r = h.postAuthed(path("chat"), body("chat", "none", "qwen-none", false));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode sent = upstream("qwen-none");
        assertThat(sent.has("reasoning_effort")).isFalse();
        assertThat(sent.path("enable_thinking").isBoolean()).isTrue();
        assertThat(sent.path("enable_thinking").asBoolean()).isFalse();
    }

    /** The same rule as a translated call: DashScope cannot think and produce structured output, so thinking goes, with a warning. */
    @Test
    void chatEffortWithStructuredOutputSwitchesThinkingOffWithAWarning() {
        HttpResponse<String> r = h.postAuthed(path("chat"), "{\"model\":\"vendorD-plus-latest\",\"reasoning_effort\":\"high\","
                + "\"response_format\":{\"type\":\"json_object\"},\"messages\":[{\"role\":\"user\",\"content\":\"qwen-json\"}]}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(upstream("qwen-json").path("enable_thinking").asBoolean(true)).isFalse();
        assertThat(r.headers().firstValue("x-platform-warnings").orElse("")).contains("reasoning");
    }

    @Test
    void chatCallersOwnQwenSwitchesPassUnchanged() {
        HttpResponse<String> r = h.postAuthed(path("chat"), "{\"model\":\"vendorD-plus-latest\",\"enable_thinking\":true,"
                + "\"thinking_budget\":500,\"messages\":[{\"role\":\"user\",\"content\":\"qwen-own\"}]}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(upstream("qwen-own").path("thinking_budget").asInt()).isEqualTo(500);
    }
}
