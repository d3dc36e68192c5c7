package dev.modelgateway.e2e.translation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.json.Json;
import dev.modelgateway.sim.ReceivedRequest;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.wire.Fixtures;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What Codex CLI 0.169 sends ({@code wire_api = "responses"}, recorded in fixtures/clients/): a {@code namespace}
 * tool (a group of function tools) on every turn, the hosted {@code web_search} tool unless its config disables
 * it, and {@code function_call} items carrying their namespace in the history.
 */
@E2e
class CodexResponsesTest {
    /** The Codex turn's tools, flattened: exec_command, write_stdin, request_user_input, view_image, then the namespace's first. */
    static final int UP_TO_FIRST_NAMESPACED = 5;
    /** Every vendor's tool-name rule (vendor A and the chat APIs; vendor C also wants a letter or _ first). */
    static final Pattern TOOL_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_-]{0,63}");

    static GatewayHarness h;
    static GatewayHarness dropping;

    @BeforeAll
    static void start() {
        h = GatewayHarness.start();
        dropping = GatewayHarness.builder().dropRefusedHostedTools(true).start();
    }

    @AfterAll
    static void stop() {
        dropping.close();
        h.close();
    }

    /** The recorded first turn for a model, the user's prompt replaced, without the hosted web_search tool (the recipe). */
    static ObjectNode firstTurn(String model, boolean stream, String prompt, boolean keepWebSearch) {
        ObjectNode body = (ObjectNode) Fixtures.json("clients/codex-0.169-turn1.request.json");
        body.put("model", model).put("stream", stream);
        ArrayNode input = (ArrayNode) body.get("input");
        ((ObjectNode) input.get(input.size() - 1).path("content").get(0)).put("text", prompt);
        if (!keepWebSearch) {
            ArrayNode tools = (ArrayNode) body.get("tools");
            for (int i = tools.size() - 1; i >= 0; i--) {
                if (tools.get(i).path("type").asText().equals("web_search")) tools.remove(i);
            }
        }
        return body;
    }

    static HttpResponse<String> post(GatewayHarness g, JsonNode body) {
        return g.postAuthed("/api/v1/responses", Json.MAPPER.valueToTree(body).toString());
    }

    /** The output items of a JSON response, or of the terminal event of a stream. */
    static JsonNode output(HttpResponse<String> r, boolean stream) {
        if (!stream) return Json.parseOrNull(r.body()).path("output");
        Matcher m = Pattern.compile("event: response\\.completed\\ndata: (\\{.*})").matcher(r.body());
        assertThat(m.find()).as(r.body()).isTrue();
        return Json.parseOrNull(m.group(1)).at("/response/output");
    }

    static List<JsonNode> calls(JsonNode output) {
        List<JsonNode> calls = new ArrayList<>();
        output.forEach(item -> {
            if (item.path("type").asText().equals("function_call")) calls.add(item);
        });
        return calls;
    }

    /** The tool names a vendor request declares (vendor A/D: tools[].name or .function.name; vendor C: functionDeclarations). */
    static List<String> declaredTools(ReceivedRequest upstream) {
        JsonNode body = Json.parseOrNull(upstream.body());
        List<String> names = new ArrayList<>();
        for (JsonNode t : body.path("tools")) {
            if (t.has("name")) names.add(t.path("name").asText());
            if (t.has("function")) names.add(t.at("/function/name").asText());
            t.path("functionDeclarations").forEach(f -> names.add(f.path("name").asText()));
        }
        return names;
    }

    static ReceivedRequest lastUpstream() {
        List<ReceivedRequest> log = h.sim.received();
        return log.getLast();
    }

    @ParameterizedTest
    @ValueSource(strings = {"platform/vendorA-sonnet-5", "vendorC-flash-3", "vendorD-plus-latest"})
    void namespacedFunctionsAreFlatUpstreamAndQualifiedForCodex(String model) {
        for (boolean stream : new boolean[]{true, false}) {
            HttpResponse<String> r = post(h, firstTurn(model, stream,
                    "[[sim:parallel_tools=" + UP_TO_FIRST_NAMESPACED + "]] close the agents", false));
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);

            List<String> declared = declaredTools(lastUpstream());
            assertThat(declared).as("each function of the namespace is a function upstream").hasSize(12)
                    .allMatch(n -> TOOL_NAME.matcher(n).matches(), "a tool name every vendor accepts");
            assertThat(new HashSet<>(declared)).as("no two tools share a name").hasSize(declared.size());

            List<JsonNode> calls = calls(output(r, stream));
            assertThat(calls).hasSize(UP_TO_FIRST_NAMESPACED);
            JsonNode namespaced = calls.getLast();
            assertThat(namespaced.path("namespace").asText()).as(namespaced.toString()).isEqualTo("multi_agent_v1");
            assertThat(namespaced.path("name").asText()).isEqualTo("close_agent");
            assertThat(calls.getFirst().has("namespace")).as("a plain function has no namespace").isFalse();
            assertThat(calls.getFirst().path("name").asText()).isEqualTo("exec_command");
            if (stream) {
                assertThat(r.body()).as("the streamed events name the caller's function too")
                        .contains("\"name\":\"close_agent\"").doesNotContain("multi_agent_v1__");
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"platform/vendorA-sonnet-5", "vendorC-flash-3", "vendorD-plus-latest"})
    void aNamespacedCallInTheHistoryGoesBackUnderItsFlatName(String model) {
        ObjectNode body = (ObjectNode) Fixtures.json("clients/codex-0.169-turn2-namespace-call.request.json");
        body.put("model", model);
        ArrayNode tools = (ArrayNode) body.get("tools");
        for (int i = tools.size() - 1; i >= 0; i--) {
            if (tools.get(i).path("type").asText().equals("web_search")) tools.remove(i);
        }
        HttpResponse<String> r = post(h, body);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(r.body()).contains("Tool result received:").contains("invalid agent id nobody");

        ReceivedRequest upstream = lastUpstream();
        List<String> declared = declaredTools(upstream);
        String flat = declared.stream().filter(n -> n.contains("wait_agent")).findFirst().orElseThrow();
        // among the tools, and for the earlier call in the history (vendor C names its result too)
        assertThat(upstream.body().split(Pattern.quote("\"" + flat + "\""), -1)).as(upstream.body()).hasSizeGreaterThanOrEqualTo(3);
    }

    @Test
    void codexHostedWebSearchIsRefusedByDefault() {
        HttpResponse<String> r = post(h, firstTurn("platform/vendorA-sonnet-5", true, "hi", true));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
        assertThat(Json.parseOrNull(r.body()).at("/error/param").asText()).isEqualTo("tools[8].type");
    }

    @ParameterizedTest
    @ValueSource(strings = {"platform/vendorA-sonnet-5", "vendorC-flash-3", "vendorD-plus-latest", "platform/vendorB-5.5"})
    void theOperatorMayDropRefusedHostedToolsWithAWarning(String model) {
        for (boolean stream : new boolean[]{true, false}) {
            dropping.sim.clearReceived();
            HttpResponse<String> r = post(dropping, firstTurn(model, stream, "hi", true));
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            assertThat(r.headers().firstValue("x-platform-warnings")).get().asString()
                    .contains("tools[8]").contains("'web_search'").contains("dropped");
            assertThat(dropping.sim.received().getLast().body()).doesNotContain("\"web_search\"");
        }
    }

    @Test
    void webSearchStaysForTheModelThatHasIt() {
        dropping.sim.clearReceived();
        HttpResponse<String> r = post(dropping, firstTurn("platform/vendorB-6-astra", false, "hi", true));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(r.headers().firstValue("x-platform-warnings")).isEmpty();
        assertThat(dropping.sim.received().getLast().body()).contains("\"web_search\"");
    }
}
