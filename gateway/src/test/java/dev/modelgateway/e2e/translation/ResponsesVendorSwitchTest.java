package dev.modelgateway.e2e.translation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.PerClassGateway;
import dev.modelgateway.json.Json;
import dev.modelgateway.sim.ReceivedRequest;
import dev.modelgateway.testing.E2e;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A stateless Responses conversation (Codex: {@code store: false}, {@code include: ["reasoning.encrypted_content"]})
 * that moves between vendors mid tool loop (docs/translation.md, "Reasoning signatures"): every turn is answered,
 * each vendor gets back exactly the reasoning it minted itself, and never another vendor's.
 */
@ExtendWith(PerClassGateway.class)
@E2e
class ResponsesVendorSwitchTest {
    static final String A = "platform/vendorA-sonnet-5";
    static final String B = "platform/vendorB-5.5";
    static final String C = "vendorC-pro-3";
    static final String D = "vendorD-plus-latest";
    static final JsonNodeFactory F = JsonNodeFactory.instance;

    static GatewayHarness h;

    static Stream<Arguments> routes() {
        List<Arguments> out = new ArrayList<>();
        for (boolean stream : new boolean[] {false, true}) {
            out.add(Arguments.of(List.of(B, A, B), stream));
            out.add(Arguments.of(List.of(A, B, A), stream));
            out.add(Arguments.of(List.of(B, C, B), stream));
            out.add(Arguments.of(List.of(C, B, C), stream));
            out.add(Arguments.of(List.of(A, C, B, A), stream));
            out.add(Arguments.of(List.of(D, B, D), stream));
        }
        return out.stream();
    }

    /**
     * One turn per model of the route: a tool call is answered with its output, a text answer with a new question,
     * so every turn after the first replays the reasoning items of all earlier ones.
     */
    @ParameterizedTest(name = "{0} stream={1}")
    @MethodSource("routes")
    void aToolLoopMovesBetweenVendors(List<String> route, boolean stream) {
        ArrayNode input = F.arrayNode();
        input.addObject().put("role", "user").put("content", "Weather in Paris?");
        List<JsonNode> minted = new ArrayList<>(); // reasoning items of earlier turns, with the model that wrote them
        List<String> mintedBy = new ArrayList<>();
        for (String model : route) {
            h.sim.clearReceived();
            HttpResponse<String> r = h.postAuthed("/api/v1/responses", turn(model, input, stream).toString());
            assertThat(r.statusCode()).as(model + " after " + mintedBy + ": " + r.body()).isEqualTo(200);
            assertOwnReasoningOnly(model, minted, mintedBy);
            assertWarnings(model, r, mintedBy);
            JsonNode output = output(r, stream);
            JsonNode call = null;
            for (JsonNode item : output) {
                input.add(item);
                if (item.path("type").asText().equals("reasoning")) {
                    minted.add(item);
                    mintedBy.add(model);
                }
                if (item.path("type").asText().equals("function_call")) call = item;
            }
            if (call != null) {
                input.addObject().put("type", "function_call_output").put("call_id", call.path("call_id").asText()).put("output", "18C");
            } else {
                assertThat(output.get(output.size() - 1).at("/content/0/text").asText()).startsWith("Tool result received: ").contains("18C");
                input.addObject().put("role", "user").put("content", "And in Lyon?");
            }
        }
    }

    /** Vendor A's reasoning is sealed so that it is told from vendor B's opaque blobs; unsigned reasoning has none. */
    @ParameterizedTest(name = "stream={0}")
    @ValueSource(booleans = {false, true})
    void vendorASignaturesAreSealedInResponses(boolean stream) {
        ArrayNode input = F.arrayNode();
        input.addObject().put("role", "user").put("content", "Weather in Paris?");
        JsonNode output = output(h.postAuthed("/api/v1/responses", turn(A, input, stream).toString()), stream);
        JsonNode reasoning = output.get(0);
        assertThat(reasoning.path("type").asText()).isEqualTo("reasoning");
        assertThat(reasoning.path("encrypted_content").asText()).startsWith("anthropic:").hasSizeGreaterThan("anthropic:".length());
    }

    static ObjectNode turn(String model, ArrayNode input, boolean stream) {
        ObjectNode body = F.objectNode().put("model", model).put("store", false).put("stream", stream);
        body.putArray("include").add("reasoning.encrypted_content");
        body.putObject("reasoning").put("effort", "low").put("summary", "auto");
        body.putArray("tools").addObject().put("type", "function").put("name", "get_weather")
                .put("description", "Weather for a city")
                .set("parameters", Json.parseOrNull("{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"}}}"));
        body.set("input", input.deepCopy());
        return body;
    }

    /** What the vendor received holds the reasoning that model's earlier turns minted, and nothing from other vendors. */
    static void assertOwnReasoningOnly(String model, List<JsonNode> minted, List<String> mintedBy) {
        ReceivedRequest sent = h.sim.received().getLast();
        JsonNode body = Json.parseOrNull(sent.body());
        List<String> own = new ArrayList<>();
        for (int i = 0; i < minted.size(); i++) {
            if (mintedBy.get(i).equals(model) && minted.get(i).hasNonNull("encrypted_content")) {
                own.add(minted.get(i).path("encrypted_content").asText());
            }
        }
        List<String> replayed = new ArrayList<>();
        switch (model) {
            case B -> body.path("input").forEach(item -> {
                if (item.path("type").asText().equals("reasoning")) replayed.add(item.path("encrypted_content").asText());
            });
            case A -> {
                body.path("messages").forEach(m -> m.path("content").forEach(b -> {
                    if (b.path("type").asText().equals("thinking")) replayed.add("anthropic:" + b.path("signature").asText());
                }));
            }
            default -> {
                return; // vendors C and D: their own reasoning's way back is covered by their own tests
            }
        }
        assertThat(replayed).as(model + " received " + body).containsExactlyElementsOf(own);
    }

    /**
     * As on the messages and chat protocols, vendors A and C drop another vendor's reasoning with a warning; vendor D
     * keeps its text as unsigned reasoning, and the native path to vendor B drops it silently (as the native
     * messages path to vendor A does).
     */
    static void assertWarnings(String model, HttpResponse<String> r, List<String> mintedBy) {
        String warnings = String.join("; ", r.headers().allValues("x-platform-warnings"));
        boolean foreign = mintedBy.stream().anyMatch(m -> !m.equals(model));
        boolean warned = warnings.contains("reasoning produced by another vendor was not replayed");
        assertThat(warned).as(model + " after " + mintedBy + ": " + warnings).isEqualTo(foreign && (model.equals(A) || model.equals(C)));
    }

    /** The output items of a JSON response, or of the stream's {@code response.completed}. */
    static JsonNode output(HttpResponse<String> r, boolean stream) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        if (!stream) return Json.parseOrNull(r.body()).path("output");
        Matcher m = Pattern.compile("event: response\\.completed\\ndata: (\\{.*})").matcher(r.body());
        assertThat(m.find()).as(r.body()).isTrue();
        return Json.parseOrNull(m.group(1)).at("/response/output");
    }
}
