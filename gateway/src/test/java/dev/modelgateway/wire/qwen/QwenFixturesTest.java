package dev.modelgateway.wire.qwen;

import com.anthropic.models.messages.Message;
import dev.modelgateway.canonical.CanonicalRequest;
import dev.modelgateway.canonical.CanonicalResponse;
import dev.modelgateway.canonical.ContentBlock;
import dev.modelgateway.canonical.SignatureOrigin;
import dev.modelgateway.canonical.UnmappedFields;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.wire.Fixtures;
import dev.modelgateway.wire.Replay;
import dev.modelgateway.wire.anthropic.MessagesInbound;
import dev.modelgateway.wire.openai.chat.ChatInbound;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class QwenFixturesTest {
    private final QwenCodec codec = new QwenCodec();
    private static final CanonicalRequest REQ = CanonicalRequest.builder(UnmappedFields.MESSAGES).includeUsage(true).build();

    @Test
    void reasoningContentBecomesUnsignedThinkingThenText() {
        var d = Replay.decode(codec, "qwen/stream-reasoning-content.sse");
        Message m = Replay.messages(Replay.encode(new MessagesInbound(), REQ, d));
        assertThat(m.content().getFirst().isThinking()).isTrue();
        assertThat(m.content().getFirst().asThinking().signature()).isEmpty();
        assertThat(m.content().getFirst().asThinking().thinking()).isNotBlank();
        assertThat(m.content().get(1).isText()).isTrue();
        assertThat(m.usage().outputTokens()).isEqualTo(1355);
        assertThat(m.usage().inputTokens()).isEqualTo(24);
        var chat = Replay.chat(Replay.encode(new ChatInbound(), REQ, d));
        assertThat(chat.usage().orElseThrow().completionTokensDetails().orElseThrow().reasoningTokens()).contains(1084L);
        // Unsigned reasoning is never replayed to Anthropic.
        var resp = codec.decodeResponse(Fixtures.json("qwen/response-reasoning-content.json"));
        assertThat(resp.content().getFirst()).isInstanceOfSatisfying(ContentBlock.Thinking.class,
                t -> assertThat(t.origin()).isEqualTo(SignatureOrigin.NONE));
    }

    @Test
    void syntheticCachedTokensAreSubtracted() {
        var d = Replay.decode(codec, "qwen/stream-usage-cached-tokens.sse");
        Message m = Replay.messages(Replay.encode(new MessagesInbound(), REQ, d));
        assertThat(m.usage().inputTokens()).isEqualTo(1560 - 1536);
        assertThat(m.usage().cacheReadInputTokens()).contains(1536L);
    }

    @Test
    void toolCallWithEmptyStringContentAndRepeatedEmptyIds() {
        CanonicalResponse r = codec.decodeResponse(Fixtures.json("qwen/response-tool-call.json"));
        assertThat(r.content()).noneMatch(b -> b instanceof ContentBlock.Text);
        var d = Replay.decode(codec, "qwen/stream-tool-calls-parallel.sse");
        Message m = Replay.messages(Replay.encode(new MessagesInbound(), REQ, d));
        assertThat(m.content()).filteredOn(b -> b.isToolUse()).extracting(b -> b.asToolUse().id())
                .containsExactly("call_eee11723464a4b9eb8cee71d", "call_5b1f0c2a9d3e4f6a8b7c9d0e");
    }

    @Test
    void dataInspectionFailureIsAClientError() {
        var e = codec.decodeError(400, Fixtures.text("qwen/error-400-data-inspection-failed.json"));
        assertThat(e.status()).isEqualTo(400);
        assertThat(e.code()).isEqualTo("data_inspection_failed");
        var mid = Replay.decode(codec, "qwen/stream-error-midstream-data-inspection.sse");
        assertThat(mid.error().status()).isEqualTo(400);
        assertThat(mid.error().getMessage()).isEqualTo("Output data may contain inappropriate content.");
    }

    @Test
    void usageHasNoDoubleCounting() {
        assertThat(new Usage(24, 0, 0, 0, 1355, 1084).totalTokens()).isEqualTo(24 + 1355);
    }
}
