package dev.modelgateway.wire.gemini;

import com.anthropic.models.messages.Message;
import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.canonical.CanonicalRequest;
import dev.modelgateway.canonical.CanonicalResponse;
import dev.modelgateway.canonical.ContentBlock;
import dev.modelgateway.canonical.StopReason;
import dev.modelgateway.canonical.UnmappedFields;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.wire.Fixtures;
import dev.modelgateway.wire.Replay;
import dev.modelgateway.wire.anthropic.MessagesInbound;
import dev.modelgateway.wire.openai.chat.ChatInbound;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class GeminiFixturesTest {
    private final GeminiCodec codec = new GeminiCodec();
    private static final CanonicalRequest REQ = CanonicalRequest.builder(UnmappedFields.CHAT).includeUsage(true).build();

    @Test
    void implicitCacheHitIsSplitOutOfPromptTokens() {
        CanonicalResponse r = codec.decodeResponse(Fixtures.json("gemini/response-implicit-cache-hit.json"));
        assertThat(r.usage().inputTokens()).isEqualTo(345 - 230);
        assertThat(r.usage().cacheReadTokens()).isEqualTo(230);
        var cc = Replay.chatBody(new ChatInbound().encodeResponse(r, "m"));
        assertThat(cc.usage().orElseThrow().promptTokens()).isEqualTo(345);
    }

    @Test
    void thoughtsCountAsOutputAndReasoning() {
        CanonicalResponse r = codec.decodeResponse(Fixtures.json("gemini/response-thinking.json"));
        JsonUsage u = JsonUsage.of(Fixtures.json("gemini/response-thinking.json"));
        assertThat(r.usage().outputTokens()).isEqualTo(u.candidates + 1001);
        assertThat(r.usage().reasoningTokens()).isEqualTo(1001);
        assertThat(r.content().getFirst()).isInstanceOf(ContentBlock.Thinking.class);
        var cc = Replay.chatBody(new ChatInbound().encodeResponse(r, "m"));
        assertThat(cc.choices().getFirst().message()._additionalProperties()).containsKey("reasoning_content");
    }

    record JsonUsage(long candidates) {
        static JsonUsage of(JsonNode body) {
            return new JsonUsage(body.at("/usageMetadata/candidatesTokenCount").asLong());
        }
    }

    @Test
    void parallelCallsGetDistinctIdsAndTheFirstSignatureRidesOnItsCall() {
        CanonicalResponse r = codec.decodeResponse(Fixtures.json("gemini/response-function-calls-parallel.json"));
        assertThat(r.stopReason()).isEqualTo(StopReason.TOOL_USE);
        var calls = r.content().stream().filter(b -> b instanceof ContentBlock.ToolUse).map(b -> (ContentBlock.ToolUse) b).toList();
        assertThat(calls).hasSize(3);
        assertThat(calls).extracting(ContentBlock.ToolUse::id).doesNotHaveDuplicates();
        assertThat(calls.get(0).thoughtSignature()).startsWith("Es8FCswFAXLI2nx");
        assertThat(calls.get(1).thoughtSignature()).isNull();
        var cc = Replay.chatBody(new ChatInbound().encodeResponse(r, "m"));
        var first = cc.choices().getFirst().message().toolCalls().orElseThrow().getFirst().asFunction();
        assertThat(first._additionalProperties().get("extra_content").toString()).contains("Es8FCswFAXLI2nx");
        assertThat(first.function().arguments()).isEqualTo("{}");
        assertThat(cc.choices().getFirst().finishReason().asString()).isEqualTo("tool_calls");
        Message m = Replay.messagesBody(new MessagesInbound().encodeResponse(r, "m"));
        assertThat(m.content().getFirst().asThinking().signature()).startsWith("gemini-call:Es8FCswFAXLI2nx");
        assertThat(m.content().get(1).isToolUse()).isTrue();
    }

    @Test
    void streamedFunctionCallArrivesWholeWithItsArguments() {
        var d = Replay.decode(codec, "gemini/stream-function-call-thought-signature.sse");
        var cc = Replay.chat(Replay.encode(new ChatInbound(), REQ, d));
        var call = cc.choices().getFirst().message().toolCalls().orElseThrow().getFirst().asFunction();
        assertThat(call.function().name()).isEqualTo("get_country");
        assertThat(call.function().arguments()).isEqualTo("{}");
        var m = Replay.messages(Replay.encode(new MessagesInbound(), REQ, d));
        assertThat(m.content().getFirst().asThinking().signature()).startsWith("gemini-call:EpwICpkIAXLI2nx");
        String chat = Replay.encode(new ChatInbound(), REQ, d);
        var start = Replay.frames(chat).stream().filter(f -> f.data().contains("\"tool_calls\"")).findFirst().orElseThrow();
        assertThat(Fixtures.parse(start.data()).at("/choices/0/delta/tool_calls/0/extra_content/google/thought_signature").asText())
                .startsWith("EpwICpkIAXLI2nx");
    }

    @Test
    void vertexPartialArgumentsAreAssembled() {
        var d = Replay.decode(codec, "gemini/stream-vertex-partial-function-args.sse");
        var calls = Replay.chat(Replay.encode(new ChatInbound(), REQ, d)).choices().getFirst().message().toolCalls().orElseThrow();
        assertThat(calls).extracting(c -> c.asFunction().function().arguments())
                .containsExactly("{\"location\":\"Boston\"}", "{\"location\":\"San Francisco\"}");
    }

    @Test
    void textPartSignatureIsKeptAndFoldedBackOnReplay() {
        var d = Replay.decode(codec, "gemini/stream-thinking-thought-signature.sse");
        var m = Replay.messages(Replay.encode(new MessagesInbound(), REQ, d));
        assertThat(m.content().getFirst().isThinking()).isTrue();
        // Gemini 2.5 signs the first text part after the thoughts: its carrier goes before the one, whole text block.
        assertThat(m.content()).hasSize(3);
        assertThat(m.content().get(1).asThinking().signature()).startsWith("gemini-text:CiIB0e2Kb6Syj1a961");
        assertThat(m.content().get(2).asText().text()).startsWith("This is a great question!").endsWith("might not see you.");
    }

    @Test
    void blockedPromptAndSafetyStopAreRefusals() {
        var blocked = codec.decodeResponse(Fixtures.json("gemini/response-prompt-blocked.json"));
        assertThat(blocked.stopReason()).isEqualTo(StopReason.REFUSAL);
        assertThat(Replay.chatBody(new ChatInbound().encodeResponse(blocked, "m")).choices().getFirst().finishReason().asString())
                .isEqualTo("content_filter");
        var safety = codec.decodeResponse(Fixtures.json("gemini/response-safety-blocked.json"));
        assertThat(Replay.messagesBody(new MessagesInbound().encodeResponse(safety, "m")).stopReason().orElseThrow().asString())
                .isEqualTo("refusal");
        var noParts = codec.decodeResponse(Fixtures.json("gemini/response-max-tokens-no-parts.json"));
        assertThat(noParts.stopReason()).isEqualTo(StopReason.MAX_TOKENS);
        assertThat(noParts.content()).isEmpty();
    }

    @Test
    void malformedFunctionCallIsAnErrorOutcomeNotAToolCall() {
        var r = codec.decodeResponse(Fixtures.parse("""
                {"candidates":[{"content":{"role":"model","parts":[]},"finishReason":"MALFORMED_FUNCTION_CALL"}],
                 "usageMetadata":{"promptTokenCount":5,"totalTokenCount":5}}"""));
        assertThat(r.stopReason()).isEqualTo(StopReason.ERROR);
        assertThat(Replay.chatBody(new ChatInbound().encodeResponse(r, "m")).choices().getFirst().finishReason().asString()).isEqualTo("stop");
    }

    @Test
    void streamUsageIsTheLastCumulativeReport() {
        var d = Replay.decode(codec, "gemini/stream-usage-each-chunk.sse");
        var last = Fixtures.sse("gemini/stream-usage-each-chunk.sse").getLast();
        var meta = Fixtures.parse(last.data()).path("usageMetadata");
        var cc = Replay.chat(Replay.encode(new ChatInbound(), REQ, d));
        assertThat(cc.usage().orElseThrow().completionTokens())
                .isEqualTo(meta.path("candidatesTokenCount").asLong() + meta.path("thoughtsTokenCount").asLong());
    }

    @Test
    void errorsMapByStatusAndKeepRetryHints() {
        var e = codec.decodeError(429, Fixtures.text("gemini/error-429-resource-exhausted.json"));
        assertThat(e.kind()).isEqualTo(ErrorKind.RATE_LIMIT);
        assertThat(e.headers()).containsEntry("retry-after", "35");
        var mid = Replay.decode(codec, "gemini/stream-error-midstream.sse");
        assertThat(mid.error().status()).isEqualTo(503);
        assertThat(mid.error().getMessage()).isEqualTo("The model is overloaded. Please try again later.");
        assertThat(new Usage(1, 2, 0, 0, 3, 0).totalTokens()).isEqualTo(6);
    }
}
