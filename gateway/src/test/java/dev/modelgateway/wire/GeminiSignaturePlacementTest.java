package dev.modelgateway.wire;

import com.anthropic.models.messages.ContentBlock;
import com.anthropic.models.messages.Message;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.CanonicalRequest;
import dev.modelgateway.canonical.CanonicalResponse;
import dev.modelgateway.canonical.CanonicalTokenCount;
import dev.modelgateway.canonical.StreamEvent;
import dev.modelgateway.canonical.UnmappedFields;
import dev.modelgateway.sse.SseEvent;
import dev.modelgateway.wire.anthropic.MessagesInbound;
import dev.modelgateway.wire.gemini.GeminiCodec;
import dev.modelgateway.wire.openai.chat.ChatInbound;
import dev.modelgateway.wire.openai.chat.OpenAiChatCodec;
import dev.modelgateway.wire.openai.responses.ResponsesInbound;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where Gemini thought signatures go in each caller protocol (docs/translation.md, "Reasoning signatures"):
 * a signature on a text part never splits the text or trails it, one on a function call survives a
 * Responses round trip, and both land again on the part they came from when replayed to Gemini.
 */
class GeminiSignaturePlacementTest {
    private static final GeminiCodec GEMINI = new GeminiCodec();
    private static final CanonicalRequest REQ = CanonicalRequest.builder(UnmappedFields.CHAT).includeUsage(true).build();
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    /** The signature on the one text part of the recorded Gemini 3 answer (response-thinking.json). */
    private static final String JSON_TEXT_SIG = Fixtures.json("gemini/response-thinking.json")
            .at("/candidates/0/content/parts/1/thoughtSignature").asText();
    /** A Gemini 3 stream signing its last text part (the simulator's shape), then stopping. */
    private static final String LAST_PART_SIGNED = """
            data: {"candidates":[{"content":{"role":"model","parts":[{"text":"Hello "}]}}],"usageMetadata":{"promptTokenCount":12},"responseId":"r1"}

            data: {"candidates":[{"content":{"role":"model","parts":[{"text":"world","thoughtSignature":"SIGLAST"}]},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":12,"candidatesTokenCount":2}}

            """;

    private static Replay.Decoded decodeSse(String sse) {
        StreamDecoder d = GEMINI.newStreamDecoder();
        List<StreamEvent> events = new ArrayList<>();
        for (SseEvent e : Replay.frames(sse)) d.decode(e, events::add);
        d.end(events::add);
        return new Replay.Decoded(events, null);
    }

    /** The parts of the model turn Gemini receives when {@code assistant} is replayed by a messages caller. */
    private static JsonNode replayedModelParts(JsonNode assistantContent) {
        ObjectNode body = F.objectNode().put("model", "m").put("max_tokens", 100);
        ArrayNode messages = body.putArray("messages");
        messages.addObject().put("role", "user").put("content", "Hi");
        messages.addObject().put("role", "assistant").set("content", assistantContent);
        messages.addObject().put("role", "user").put("content", "More");
        return geminiModelParts(new MessagesInbound().decodeRequest(body));
    }

    private static JsonNode geminiModelParts(CanonicalRequest request) {
        EncodedRequest enc = GEMINI.encodeRequest(request, "gemini-3-pro-preview", false);
        for (JsonNode c : enc.body().path("contents")) if (c.path("role").asText().equals("model")) return c.path("parts");
        throw new AssertionError("no model turn in " + enc.body());
    }

    private static JsonNode textPart(JsonNode parts) {
        for (JsonNode p : parts) if (p.has("text") && !p.path("thought").asBoolean(false)) return p;
        throw new AssertionError("no text part in " + parts);
    }

    private static List<String> types(Message m) {
        return m.content().stream().map(b -> b.isText() ? "text" : b.isThinking() ? "thinking" : b.isToolUse() ? "tool_use" : "other").toList();
    }

    @Test
    void messagesAnswerCarriesTheTextSignatureBeforeTheOneTextBlock() {
        CanonicalResponse r = GEMINI.decodeResponse(Fixtures.json("gemini/response-thinking.json"));
        ObjectNode body = new MessagesInbound().encodeResponse(r, "m");
        Message m = Replay.messagesBody(body);
        assertThat(types(m)).containsExactly("thinking", "thinking", "text");
        assertThat(m.content().get(1).asThinking().signature()).isEqualTo("gemini-text:" + JSON_TEXT_SIG);
        assertThat(textPart(replayedModelParts(body.get("content"))).path("thoughtSignature").asText()).isEqualTo(JSON_TEXT_SIG);
    }

    @Test
    void messagesStreamKeepsOneTextBlockWhenTheLastPartIsSigned() {
        Message m = Replay.messages(Replay.encode(new MessagesInbound(), REQ, decodeSse(LAST_PART_SIGNED)));
        assertThat(types(m)).containsExactly("text");
        assertThat(m.content().getFirst().asText().text()).isEqualTo("Hello world");
    }

    @Test
    void messagesStreamPutsAHeldSignatureBetweenTheTextAndTheNextBlock() {
        String sse = """
                data: {"candidates":[{"content":{"role":"model","parts":[{"text":"Let me check. "}]}}],"responseId":"r2"}

                data: {"candidates":[{"content":{"role":"model","parts":[{"text":"One moment.","thoughtSignature":"SIGTEXT"}]}}]}

                data: {"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"get_weather","args":{"city":"Paris"}},"thoughtSignature":"SIGCALL"}]},"finishReason":"STOP"}]}

                """;
        String encoded = Replay.encode(new MessagesInbound(), REQ, decodeSse(sse));
        Message m = Replay.messages(encoded);
        assertThat(types(m)).containsExactly("text", "thinking", "thinking", "tool_use");
        assertThat(m.content().get(0).asText().text()).isEqualTo("Let me check. One moment.");
        assertThat(m.content().get(1).asThinking().signature()).isEqualTo("gemini:SIGTEXT");
        assertThat(m.content().get(2).asThinking().signature()).isEqualTo("gemini-call:SIGCALL");
        JsonNode parts = replayedModelParts(Fixtures.parse(Replay.anthropicJson(m)).get("content"));
        assertThat(parts).hasSize(2);
        assertThat(parts.get(0).path("thoughtSignature").asText()).isEqualTo("SIGTEXT");
        assertThat(parts.get(1).path("thoughtSignature").asText()).isEqualTo("SIGCALL");
    }

    @Test
    void messagesStreamOfGemini25CarriesTheSignatureBeforeTheText() {
        Replay.Decoded d = Replay.decode(GEMINI, "gemini/stream-thinking-thought-signature.sse");
        Message m = Replay.messages(Replay.encode(new MessagesInbound(), REQ, d));
        assertThat(types(m)).containsExactly("thinking", "thinking", "text");
        String sig = m.content().get(1).asThinking().signature();
        assertThat(sig).startsWith("gemini-text:CiIB0e2Kb6Syj1a961");
        JsonNode parts = replayedModelParts(Fixtures.parse(Replay.anthropicJson(m)).get("content"));
        assertThat(textPart(parts).path("thoughtSignature").asText()).isEqualTo(sig.substring("gemini-text:".length()));
    }

    @Test
    void chatKeepsTheTextWholeAndReplaysTheSignatureOntoIt() {
        CanonicalResponse r = GEMINI.decodeResponse(Fixtures.json("gemini/response-thinking.json"));
        ObjectNode body = new ChatInbound().encodeResponse(r, "m");
        JsonNode msg = body.at("/choices/0/message");
        assertThat(msg.path("content").asText()).startsWith("Crossing the street safely");
        assertThat(msg.path("thinking_blocks").get(1).path("signature").asText()).isEqualTo("gemini-text:" + JSON_TEXT_SIG);
        ObjectNode req = F.objectNode().put("model", "m");
        ArrayNode messages = req.putArray("messages");
        messages.addObject().put("role", "user").put("content", "Hi");
        messages.add(msg);
        messages.addObject().put("role", "user").put("content", "More");
        JsonNode parts = geminiModelParts(new ChatInbound().decodeRequest(req));
        assertThat(textPart(parts).path("thoughtSignature").asText()).isEqualTo(JSON_TEXT_SIG);

        String sse = Replay.encode(new ChatInbound(), REQ, decodeSse(LAST_PART_SIGNED));
        assertThat(Replay.chat(sse).choices().getFirst().message().content()).hasValue("Hello world");
        assertThat(sse).contains("\"signature\":\"gemini-text:SIGLAST\"");
    }

    @Test
    void responsesAnswerPutsTheTextSignatureBeforeTheOneMessageItem() {
        CanonicalResponse r = GEMINI.decodeResponse(Fixtures.json("gemini/response-thinking.json"));
        ArrayNode output = (ArrayNode) new ResponsesInbound().encodeResponse(r, "m").get("output");
        assertThat(output).extracting(i -> i.path("type").asText()).containsExactly("reasoning", "reasoning", "message");
        assertThat(output.get(1).path("encrypted_content").asText()).isEqualTo("gemini-text:" + JSON_TEXT_SIG);
        JsonNode parts = geminiModelParts(new ResponsesInbound().decodeRequest(responsesReplay(output, null)));
        assertThat(textPart(parts).path("thoughtSignature").asText()).isEqualTo(JSON_TEXT_SIG);
    }

    @Test
    void responsesStreamKeepsOneMessageItemWhenTheLastPartIsSigned() {
        String sse = Replay.encode(new ResponsesInbound(), REQ, decodeSse(LAST_PART_SIGNED));
        JsonNode output = completedOutput(sse);
        assertThat(output).extracting(i -> i.path("type").asText()).containsExactly("message");
        assertThat(output.get(0).at("/content/0/text").asText()).isEqualTo("Hello world");
    }

    @Test
    void responsesCarryTheFunctionCallSignatureAndRestoreItOnTheCall() {
        CanonicalResponse r = GEMINI.decodeResponse(Fixtures.json("gemini/response-function-calls-parallel.json"));
        String sig = Fixtures.json("gemini/response-function-calls-parallel.json").at("/candidates/0/content/parts/0/thoughtSignature").asText();
        ArrayNode output = (ArrayNode) new ResponsesInbound().encodeResponse(r, "m").get("output");
        assertThat(output.get(0).path("type").asText()).isEqualTo("reasoning");
        assertThat(output.get(0).path("encrypted_content").asText()).isEqualTo("gemini-call:" + sig);
        assertThat(output.get(1).path("type").asText()).isEqualTo("function_call");
        assertReplayedCallSignature(output, sig);

        Replay.Decoded d = Replay.decode(GEMINI, "gemini/stream-function-call-thought-signature.sse");
        JsonNode streamed = completedOutput(Replay.encode(new ResponsesInbound(), REQ, d));
        assertThat(streamed).extracting(i -> i.path("type").asText()).containsExactly("reasoning", "function_call");
        String streamSig = Fixtures.sse("gemini/stream-function-call-thought-signature.sse").getFirst().data();
        String expected = Fixtures.parse(streamSig).at("/candidates/0/content/parts/0/thoughtSignature").asText();
        assertThat(streamed.get(0).path("encrypted_content").asText()).isEqualTo("gemini-call:" + expected);
        assertReplayedCallSignature((ArrayNode) streamed, expected);
    }

    private static void assertReplayedCallSignature(ArrayNode output, String sig) {
        ObjectNode body = responsesReplay(output, output.get(1).path("call_id").asText());
        EncodedRequest enc = GEMINI.encodeRequest(new ResponsesInbound().decodeRequest(body), "gemini-3-pro-preview", false);
        JsonNode parts = enc.body().at("/contents/1/parts");
        assertThat(parts.get(0).has("functionCall")).isTrue();
        assertThat(parts.get(0).path("thoughtSignature").asText()).isEqualTo(sig);
        assertThat(enc.warnings()).isEmpty();
    }

    /** A stateless Responses replay: the user's input, the previous output items, then a tool output if any. */
    private static ObjectNode responsesReplay(JsonNode output, String callId) {
        ObjectNode body = F.objectNode().put("model", "m");
        ArrayNode input = body.putArray("input");
        input.addObject().put("role", "user").put("content", "Hi");
        for (JsonNode item : output) {
            if (!item.path("type").asText().equals("function_call") || item.path("call_id").asText().equals(callId)) input.add(item);
        }
        if (callId != null) input.addObject().put("type", "function_call_output").put("call_id", callId).put("output", "18C");
        else input.addObject().put("role", "user").put("content", "More");
        return body;
    }

    private static JsonNode completedOutput(String sse) {
        for (SseEvent e : Replay.frames(sse)) {
            if ("response.completed".equals(e.event())) return Fixtures.parse(e.data()).at("/response/output");
        }
        throw new AssertionError("no response.completed in " + sse);
    }

    @Test
    void translatedMessageStreamsReportInputTokensInMessageStart() {
        Replay.Decoded gemini = decodeSse(LAST_PART_SIGNED);
        JsonNode start = Fixtures.parse(Replay.frames(Replay.encode(new MessagesInbound(), REQ, gemini)).getFirst().data());
        assertThat(start.at("/message/usage/input_tokens").asLong()).isEqualTo(12);

        ObjectNode body = F.objectNode().put("model", "m").put("max_tokens", 100);
        body.putArray("messages").addObject().put("role", "user").put("content", "Tell me a long story about the sea, please.");
        CanonicalRequest request = new MessagesInbound().decodeRequest(body);
        Replay.Decoded chat = Replay.decode(new OpenAiChatCodec(), "openai-chat/stream-text-plain.sse");
        List<SseEvent> frames = Replay.frames(Replay.encode(new MessagesInbound(), request, chat));
        long counted = CanonicalTokenCount.count(request);
        assertThat(Fixtures.parse(frames.getFirst().data()).at("/message/usage/input_tokens").asLong()).isEqualTo(counted).isPositive();
        JsonNode delta = frames.stream().filter(f -> "message_delta".equals(f.event())).map(f -> Fixtures.parse(f.data())).findFirst().orElseThrow();
        assertThat(delta.at("/usage/input_tokens").asLong()).as("the vendor's own count in message_delta").isNotEqualTo(counted);
    }

    @Test
    void messagesWithoutGeminiSignaturesAreUnchanged() {
        CanonicalResponse r = GEMINI.decodeResponse(Fixtures.json("gemini/response-text.json"));
        Message m = Replay.messagesBody(new MessagesInbound().encodeResponse(r, "m"));
        assertThat(m.content()).allMatch(ContentBlock::isText);
    }
}
