package dev.modelgateway.e2e.clients;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.PerClassGateway;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.wire.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What Claude Code 2.1 and Codex 0.169 really send (recorded by {@code ./gw compat --record fixtures/clients}),
 * replayed through the gateway to each vendor: the answer must be what the CLI can show, i.e. one text block or
 * message item at the end (a CLI prints only the last one), or the tool call the prompt's directive asked for.
 */
@ExtendWith(PerClassGateway.class)
@E2e
class RecordedCliRequestsTest {
    static GatewayHarness gateway;

    private static final String A = "platform/vendorA-sonnet-5";
    private static final String B = "platform/vendorB-5.5";
    private static final String C = "vendorC-pro-3";
    private static final String D = "vendorD-plus-latest";

    @Test
    void claudeCodeOnVendorA() {
        claudeCode(gateway, A);
    }

    @Test
    void claudeCodeOnVendorB() {
        claudeCode(gateway, B);
    }

    @Test
    void claudeCodeOnVendorC() {
        claudeCode(gateway, C);
    }

    @Test
    void claudeCodeOnVendorD() {
        claudeCode(gateway, D);
    }

    @Test
    void codexOnVendorA() {
        codex(gateway, A);
    }

    @Test
    void codexOnVendorB() {
        codex(gateway, B);
    }

    @Test
    void codexOnVendorC() {
        codex(gateway, C);
    }

    @Test
    void codexOnVendorD() {
        codex(gateway, D);
    }

    /** Claude Code's recorded requests on {@code model}: its answers are what Claude Code can show. */
    static void claudeCode(GatewayHarness gateway, String model) {
        for (String f : List.of("plain.json", "continue-second-turn.json")) {
            assertThat(lastBlock(messages(gateway, "claude-code/" + f, model)).path("text").asText()).as(f).startsWith("Hello from ");
        }
        assertThat(lastBlock(messages(gateway, "claude-code/bash-tool-result.json", model)).path("text").asText())
                .startsWith("Tool result received: ");
        JsonNode call = lastBlock(messages(gateway, "claude-code/bash-tool-call.json", model));
        assertThat(call.path("type").asText()).isEqualTo("tool_use");
        assertThat(call.path("name").asText()).isEqualTo("Bash");
        assertThat(Fixtures.parse(call.path("input").asText()).path("command").asText()).isEqualTo("echo compat-ok > out.txt");
    }

    /** The content blocks a messages stream builds (text and tool input accumulated), checked for what Claude Code needs. */
    private static List<JsonNode> messages(GatewayHarness gateway, String fixture, String model) {
        RecordedClientRequest.Answer a = RecordedClientRequest.load(fixture).replay(gateway, model);
        assertThat(a.status()).as(fixture + " on " + model + ": " + a.body()).isEqualTo(200);
        List<JsonNode> data = a.data();
        assertThat(data.getFirst().path("type").asText()).isEqualTo("message_start");
        assertThat(data.getLast().path("type").asText()).isEqualTo("message_stop");
        List<ObjectNode> blocks = new ArrayList<>();
        for (JsonNode e : data) {
            switch (e.path("type").asText()) {
                case "content_block_start" -> {
                    ObjectNode b = e.path("content_block").deepCopy();
                    b.put("input", "");
                    blocks.add(b);
                }
                case "content_block_delta" -> {
                    ObjectNode b = blocks.get(e.path("index").asInt());
                    JsonNode d = e.path("delta");
                    if (d.has("text")) b.put("text", b.path("text").asText() + d.path("text").asText());
                    if (d.has("partial_json")) b.put("input", b.path("input").asText() + d.path("partial_json").asText());
                }
                default -> { }
            }
        }
        long texts = blocks.stream().filter(b -> b.path("type").asText().equals("text")).count();
        assertThat(texts).as(fixture + " on " + model + ": text blocks in " + types(blocks)).isLessThanOrEqualTo(1);
        return List.copyOf(blocks);
    }

    private static JsonNode lastBlock(List<JsonNode> blocks) {
        return blocks.getLast();
    }

    /** Codex's recorded requests on {@code model}: its answers are what Codex can show. */
    static void codex(GatewayHarness gateway, String model) {
        assertThat(lastItem(responses(gateway, "codex/plain.json", model)).path("content").get(0).path("text").asText()).startsWith("Hello from ");
        assertThat(lastItem(responses(gateway, "codex/shell-tool-result.json", model)).path("content").get(0).path("text").asText())
                .startsWith("Tool result received: ");
        JsonNode call = lastItem(responses(gateway, "codex/shell-tool-call.json", model));
        assertThat(call.path("type").asText()).isEqualTo("function_call");
        assertThat(call.path("name").asText()).isEqualTo("exec_command");
        assertThat(Fixtures.parse(call.path("arguments").asText()).path("cmd").asText()).isEqualTo("echo compat-ok > out.txt");
    }

    /** The output items of a Responses stream's {@code response.completed}; at most one message item. */
    private static List<JsonNode> responses(GatewayHarness gateway, String fixture, String model) {
        RecordedClientRequest.Answer a = RecordedClientRequest.load(fixture).replay(gateway, model);
        assertThat(a.status()).as(fixture + " on " + model + ": " + a.body()).isEqualTo(200);
        JsonNode done = a.data().stream().filter(e -> e.path("type").asText().equals("response.completed")).findFirst()
                .orElseThrow(() -> new AssertionError(fixture + " on " + model + ": no response.completed in " + a.body()));
        List<JsonNode> items = new ArrayList<>();
        done.path("response").path("output").forEach(items::add);
        assertThat(items.stream().filter(i -> i.path("type").asText().equals("message")).count())
                .as(fixture + " on " + model + ": message items in " + types(items)).isLessThanOrEqualTo(1);
        return items;
    }

    private static JsonNode lastItem(List<JsonNode> items) {
        return items.getLast();
    }

    private static List<String> types(List<? extends JsonNode> nodes) {
        return nodes.stream().map(n -> n.path("type").asText()).toList();
    }
}
