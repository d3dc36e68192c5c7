package dev.modelgateway.sim;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ResponsesTest extends SimTestBase {

    static HttpResponse<String> responses(String body) {
        return post("/openai/v1/responses", body, "authorization", "Bearer sim-openai-key");
    }

    static final String TOOLS = "\"tools\":[{\"type\":\"function\",\"name\":\"get_capital\",\"parameters\":{\"type\":\"object\",\"properties\":"
            + "{\"country\":{\"type\":\"string\"}}},\"strict\":true}]";

    @Test
    void nonStreamingText() {
        JsonNode r = json(responses("{\"model\":\"gpt-4o\",\"input\":\"capital of France?\"}").body());
        assertThat(r.path("object").asText()).isEqualTo("response");
        assertThat(r.path("status").asText()).isEqualTo("completed");
        JsonNode msg = r.path("output").get(0);
        assertThat(msg.path("type").asText()).isEqualTo("message");
        assertThat(msg.path("content").get(0).path("type").asText()).isEqualTo("output_text");
        assertThat(msg.path("content").get(0).path("text").asText()).isEqualTo("Hello from gpt-4o. You said: capital of France?");
        JsonNode u = r.path("usage");
        assertThat(u.path("input_tokens_details").path("cached_tokens").asInt()).isZero();
        assertThat(u.path("output_tokens_details").path("reasoning_tokens").asInt()).isZero();
        assertThat(u.path("total_tokens").asInt()).isEqualTo(u.path("input_tokens").asInt() + u.path("output_tokens").asInt());
        assertCoversFixture("openai-responses/response-text.json", r);
    }

    @Test
    void streamingEventSequence() {
        List<Sse> ev = sse(responses("{\"model\":\"gpt-4o\",\"stream\":true,\"input\":[{\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":\"two words\"}]}]}").body());
        List<String> names = ev.stream().map(Sse::event).toList();
        assertThat(names.subList(0, 4)).containsExactly("response.created", "response.in_progress", "response.output_item.added", "response.content_part.added");
        assertThat(names.subList(names.size() - 4, names.size()))
                .containsExactly("response.output_text.done", "response.content_part.done", "response.output_item.done", "response.completed");
        for (int i = 0; i < ev.size(); i++) {
            assertThat(ev.get(i).json().path("type").asText()).isEqualTo(ev.get(i).event());
            assertThat(ev.get(i).json().path("sequence_number").asInt()).isEqualTo(i);
        }
        String text = ev.stream().filter(e -> e.event().equals("response.output_text.delta")).map(e -> e.json().path("delta").asText())
                .reduce("", String::concat);
        assertThat(text).isEqualTo("Hello from gpt-4o. You said: two words");
        assertThat(ev.getLast().json().path("response").path("usage").path("output_tokens").asInt()).isPositive();
        FixtureShapeTest.assertStreamCovers("responses text stream", sse(FixtureShapeTest.read("openai-responses/stream-text-plain.sse")), ev,
                Sse::event);
    }

    @Test
    void functionCallsAndToolOutputTurn() {
        JsonNode r = json(responses("{\"model\":\"gpt-4o\",\"input\":\"capital?\"," + TOOLS + "}").body());
        JsonNode call = r.path("output").get(0);
        assertThat(call.path("type").asText()).isEqualTo("function_call");
        assertThat(call.path("call_id").asText()).startsWith("call_sim_");
        assertThat(call.path("arguments").asText()).isEqualTo("{\"country\":\"sim\"}");

        List<Sse> ev = sse(responses("{\"model\":\"gpt-4o\",\"stream\":true,\"input\":\"capital?\"," + TOOLS + "}").body());
        String args = ev.stream().filter(e -> e.event().equals("response.function_call_arguments.delta")).map(e -> e.json().path("delta").asText())
                .reduce("", String::concat);
        assertThat(args).isEqualTo("{\"country\":\"sim\"}");
        FixtureShapeTest.assertStreamCovers("responses function stream", sse(FixtureShapeTest.read("openai-responses/stream-function-call.sse")), ev,
                Sse::event);

        JsonNode after = json(responses("{\"model\":\"gpt-4o\"," + TOOLS + ",\"input\":[{\"role\":\"user\",\"content\":\"capital?\"},"
                + "{\"type\":\"function_call\",\"call_id\":\"c1\",\"name\":\"get_capital\",\"arguments\":\"{}\"},"
                + "{\"type\":\"function_call_output\",\"call_id\":\"c1\",\"output\":\"Paris\"}]}").body());
        assertThat(after.path("output").get(0).path("content").get(0).path("text").asText()).isEqualTo("Tool result received: Paris");
    }

    @Test
    void reasoningWithEncryptedContentAndSummary() {
        String body = "{\"model\":\"o4-mini\",\"input\":\"think\",\"reasoning\":{\"effort\":\"low\",\"summary\":\"auto\"},\"include\":[\"reasoning.encrypted_content\"]}";
        JsonNode r = json(responses(body).body());
        JsonNode rs = r.path("output").get(0);
        assertThat(rs.path("type").asText()).isEqualTo("reasoning");
        assertThat(rs.path("encrypted_content").asText()).isNotEmpty();
        assertThat(rs.path("summary").get(0).path("text").asText()).isEqualTo("Let me think about: think");
        assertThat(r.path("usage").path("output_tokens_details").path("reasoning_tokens").asInt()).isPositive();
        List<Sse> ev = sse(responses(body.replace("{\"model\"", "{\"stream\":true,\"model\"")).body());
        assertThat(ev.stream().map(Sse::event)).contains("response.reasoning_summary_part.added", "response.reasoning_summary_text.delta",
                "response.reasoning_summary_text.done", "response.reasoning_summary_part.done");
        JsonNode plain = json(responses("{\"model\":\"o4-mini\",\"input\":\"think\"}").body());
        assertThat(plain.path("output").get(0).has("encrypted_content")).isFalse();
    }

    @Test
    void replayedReasoningMustBeThisVendorsOwn() {
        String first = "{\"model\":\"o4-mini\",\"store\":false,\"input\":\"think\",\"reasoning\":{\"effort\":\"low\"},"
                + "\"include\":[\"reasoning.encrypted_content\"]}";
        JsonNode own = json(responses(first).body()).path("output").get(0);
        String replay = "{\"model\":\"o4-mini\",\"store\":false,\"input\":[{\"role\":\"user\",\"content\":\"think\"},%s,"
                + "{\"role\":\"user\",\"content\":\"again\"}]}";
        assertThat(responses(replay.formatted(own.toString())).statusCode()).isEqualTo(200);

        HttpResponse<String> foreign = responses(replay.formatted(
                "{\"type\":\"reasoning\",\"id\":\"rs_x\",\"summary\":[],\"encrypted_content\":\"anthropic:EqQBCkgIARAB\"}"));
        assertThat(foreign.statusCode()).isEqualTo(400);
        assertThat(json(foreign.body()).path("error").path("code").asText()).isEqualTo("invalid_encrypted_content");
        assertThat(json(foreign.body()).path("error").path("message").asText()).contains("rs_x could not be verified");

        HttpResponse<String> unknown = responses(replay.formatted("{\"type\":\"reasoning\",\"id\":\"rs_gw_1_0\",\"summary\":[]}"));
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(json(unknown.body()).path("error").path("message").asText()).startsWith("Item with id 'rs_gw_1_0' not found.");
        JsonNode stored = json(responses(first.replace("\"store\":false,", "")).body()).path("output").get(0);
        assertThat(responses(replay.formatted("{\"type\":\"reasoning\",\"id\":\"" + stored.path("id").asText()
                + "\",\"summary\":[]}")).statusCode()).isEqualTo(200);
    }

    @Test
    void outOfRangeTemperatureAndUnknownTextFormatAreRefused() {
        HttpResponse<String> t = responses("{\"model\":\"gpt-x\",\"temperature\":3,\"input\":\"x\"}");
        assertThat(t.statusCode()).isEqualTo(400);
        assertThat(json(t.body()).path("error").path("message").asText()).startsWith("Invalid 'temperature': decimal above maximum value.");
        HttpResponse<String> f = responses("{\"model\":\"gpt-x\",\"text\":{\"format\":{\"type\":\"yaml\"}},\"input\":\"x\"}");
        assertThat(f.statusCode()).isEqualTo(400);
        assertThat(json(f.body()).path("error").path("code").asText()).isEqualTo("invalid_value");
        assertThat(json(f.body()).path("error").path("param").asText()).isEqualTo("text.format.type");
        assertThat(responses("{\"model\":\"gpt-x\",\"text\":{\"format\":{\"type\":\"text\"}},\"input\":\"x\"}").statusCode()).isEqualTo(200);
    }

    @Test
    void incompleteAndMidStreamError() {
        JsonNode r = json(responses("{\"model\":\"gpt-4o\",\"max_output_tokens\":16,\"input\":\"" + "long ".repeat(40) + "\"}").body());
        assertThat(r.path("status").asText()).isEqualTo("incomplete");
        assertThat(r.path("incomplete_details").path("reason").asText()).isEqualTo("max_output_tokens");
        List<Sse> ev = sse(responses("{\"model\":\"gpt-4o\",\"stream\":true,\"input\":\"x [[sim:error_after=2]]\"}").body());
        assertThat(ev.stream().map(Sse::event)).containsExactly("response.created", "response.in_progress", "error", "response.failed");
        assertThat(ev.getLast().json().path("response").path("status").asText()).isEqualTo("failed");
        assertThat(ev.getLast().json().path("sequence_number").asInt()).isEqualTo(3);
        HttpResponse<String> nf = responses("{\"model\":\"gpt-does-not-exist\",\"input\":\"x\"}");
        assertThat(nf.statusCode()).isEqualTo(404);
        assertThat(json(nf.body()).path("error").path("code").asText()).isEqualTo("model_not_found");
    }

    static void assertCoversFixture(String fixture, JsonNode ours) {
        FixtureShapeTest.assertCovers(fixture, json(FixtureShapeTest.read(fixture)), ours);
    }
}
