package dev.modelgateway.wire;

import com.anthropic.models.messages.ContentBlock;
import com.anthropic.models.messages.Message;
import com.fasterxml.jackson.databind.JsonNode;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionMessageToolCall;
import dev.modelgateway.canonical.CanonicalRequest;
import dev.modelgateway.canonical.CanonicalResponse;
import dev.modelgateway.canonical.StreamEvent;
import dev.modelgateway.canonical.ToolArguments;
import dev.modelgateway.canonical.UnmappedFields;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.sse.SseEvent;
import dev.modelgateway.wire.anthropic.AnthropicCodec;
import dev.modelgateway.wire.anthropic.MessagesInbound;
import dev.modelgateway.wire.gemini.GeminiCodec;
import dev.modelgateway.wire.openai.chat.ChatInbound;
import dev.modelgateway.wire.openai.chat.OpenAiChatCodec;
import dev.modelgateway.wire.qwen.QwenCodec;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every recorded payload of every vendor, through the vendor decoder and both inbound encoders, read back
 * with the official SDKs. Text and tool calls must come out exactly as the canonical stream had them.
 */
class FixtureReplayTest {
    static final CanonicalRequest WANTS_USAGE = CanonicalRequest.builder(UnmappedFields.CHAT).includeUsage(true).build();

    static VendorCodec codec(String fixture) {
        return switch (fixture.substring(0, fixture.indexOf('/'))) {
            case "anthropic" -> new AnthropicCodec();
            case "openai-chat" -> new OpenAiChatCodec();
            case "gemini" -> new GeminiCodec();
            case "qwen" -> new QwenCodec();
            default -> throw new IllegalArgumentException(fixture);
        };
    }

    static Stream<String> streams() {
        return Stream.of("anthropic", "openai-chat", "gemini", "qwen").flatMap(v -> Fixtures.list(v, ".sse").stream());
    }

    static Stream<String> bodies() {
        return Stream.of("anthropic", "openai-chat", "gemini", "qwen")
                .flatMap(v -> Fixtures.list(v, ".json").stream()).filter(f -> !f.contains("/error-"));
    }

    static Stream<String> errors() {
        return Stream.of("anthropic", "openai-chat", "gemini", "qwen")
                .flatMap(v -> Fixtures.list(v, ".json").stream()).filter(f -> f.contains("/error-"));
    }

    /** What the canonical stream says: text, and per tool block (name, arguments). */
    record Expected(String text, Map<String, String> toolArgs, Map<String, String> toolNames) { }

    static Expected expected(List<StreamEvent> events) {
        StringBuilder text = new StringBuilder();
        Map<Integer, String> ids = new HashMap<>();
        Map<String, String> args = new LinkedHashMap<>();
        Map<String, String> names = new LinkedHashMap<>();
        for (StreamEvent e : events) {
            switch (e) {
                case StreamEvent.TextDelta d -> text.append(d.text());
                case StreamEvent.ToolUseStart s -> {
                    ids.put(s.index(), s.id());
                    args.put(s.id(), "");
                    names.put(s.id(), s.name());
                }
                case StreamEvent.ToolArgumentsDelta d when ids.containsKey(d.index()) ->
                        args.merge(ids.get(d.index()), d.fragment(), String::concat);
                default -> { }
            }
        }
        return new Expected(text.toString(), args, names);
    }

    @ParameterizedTest
    @MethodSource("streams")
    void streamReplaysIntoChatCompletions(String fixture) {
        Replay.Decoded decoded = Replay.decode(codec(fixture), fixture);
        String sse = Replay.encode(new ChatInbound(), WANTS_USAGE, decoded);
        if (decoded.error() != null) {
            List<SseEvent> frames = Replay.frames(sse);
            assertThat(frames.getLast().data()).contains("\"error\"");
            assertThat(frames).noneMatch(f -> f.data().equals("[DONE]"));
            Replay.chatAccumulator(sse.substring(0, sse.lastIndexOf("data: {\"error\"")));
            return;
        }
        assertThat(sse).endsWith("data: [DONE]\n\n");
        ChatCompletion cc = Replay.chat(sse);
        Expected exp = expected(decoded.events());
        var msg = cc.choices().getFirst().message();
        assertThat(msg.content().orElse("")).isEqualTo(exp.text());
        Map<String, String> args = new LinkedHashMap<>();
        Map<String, String> names = new LinkedHashMap<>();
        for (ChatCompletionMessageToolCall tc : msg.toolCalls().orElse(List.of())) {
            args.put(tc.asFunction().id(), tc.asFunction().function().arguments());
            names.put(tc.asFunction().id(), tc.asFunction().function().name());
        }
        assertThat(args).isEqualTo(exp.toolArgs());
        assertThat(names).isEqualTo(exp.toolNames());
        assertThat(cc.usage()).isPresent();
        var u = cc.usage().get();
        assertThat(u.promptTokens() + u.completionTokens()).isEqualTo(u.totalTokens());
    }

    @ParameterizedTest
    @MethodSource("streams")
    void streamReplaysIntoMessages(String fixture) {
        Replay.Decoded decoded = Replay.decode(codec(fixture), fixture);
        String sse = Replay.encode(new MessagesInbound(), WANTS_USAGE, decoded);
        List<SseEvent> frames = Replay.frames(sse);
        assertThat(frames).noneMatch(f -> f.data().equals("[DONE]"));
        assertThat(frames.getFirst().event()).isEqualTo("message_start");
        assertThat(frames).filteredOn(f -> "message_start".equals(f.event())).hasSize(1);
        if (decoded.error() != null) {
            assertThat(frames.getLast().event()).isEqualTo("error");
            return;
        }
        Message m = Replay.messages(sse);
        Expected exp = expected(decoded.events());
        StringBuilder text = new StringBuilder();
        Map<String, String> args = new LinkedHashMap<>();
        Map<String, String> names = new LinkedHashMap<>();
        for (ContentBlock b : m.content()) {
            b.text().ifPresent(t -> {
                assertThat(t.text()).isNotEmpty();
                text.append(t.text());
            });
            b.toolUse().ifPresent(t -> {
                args.put(t.id(), Replay.anthropicJson(t._input()));
                names.put(t.id(), t.name());
            });
        }
        assertThat(text.toString()).isEqualTo(exp.text());
        assertThat(names).isEqualTo(exp.toolNames());
        // Arguments become objects on the Anthropic side: compare as JSON. Invalid (truncated) JSON cannot be
        // accumulated by any client; it must still be relayed fragment for fragment.
        exp.toolArgs().forEach((id, raw) -> {
            if (raw.isEmpty() || ToolArguments.parseOrNull(raw) != null) {
                assertThat(Fixtures.parse(args.get(id))).isEqualTo(ToolArguments.toObject(raw));
            } else {
                String relayed = frames.stream().filter(f -> "content_block_delta".equals(f.event()))
                        .map(f -> Fixtures.parse(f.data()).path("delta"))
                        .filter(d -> d.path("type").asText().equals("input_json_delta"))
                        .map(d -> d.path("partial_json").asText()).reduce("", String::concat);
                assertThat(relayed).contains(raw);
            }
        });
    }

    @ParameterizedTest
    @MethodSource("bodies")
    void bodyReplaysIntoBothProtocols(String fixture) {
        JsonNode body = Fixtures.json(fixture);
        CanonicalResponse r = codec(fixture).decodeResponse(body);
        ChatCompletion cc = Replay.chatBody(new ChatInbound().encodeResponse(r, "public-model"));
        Message m = Replay.messagesBody(new MessagesInbound().encodeResponse(r, "public-model"));
        String text = r.content().stream().filter(b -> b instanceof dev.modelgateway.canonical.ContentBlock.Text)
                .map(b -> ((dev.modelgateway.canonical.ContentBlock.Text) b).text()).reduce("", String::concat);
        assertThat(cc.choices().getFirst().message().content().orElse("")).isEqualTo(text);
        assertThat(m.content().stream().flatMap(b -> b.text().stream()).map(t -> t.text()).reduce("", String::concat))
                .isEqualTo(text);
        long calls = r.content().stream().filter(b -> b instanceof dev.modelgateway.canonical.ContentBlock.ToolUse).count();
        assertThat(cc.choices().getFirst().message().toolCalls().orElse(List.of())).hasSize((int) calls);
        assertThat(m.content().stream().filter(ContentBlock::isToolUse).count()).isEqualTo(calls);
        assertThat(cc.usage().get().totalTokens()).isEqualTo(r.usage().totalTokens());
        assertThat(m.usage().outputTokens()).isEqualTo(r.usage().outputTokens());
    }

    @ParameterizedTest
    @MethodSource("errors")
    void errorBodiesKeepVendorMessageAndStatus(String fixture) {
        String body = Fixtures.text(fixture);
        int status = Integer.parseInt(fixture.replaceAll(".*error-(\\d+).*", "$1"));
        GatewayException e = codec(fixture).decodeError(status, body);
        assertThat(e.status()).isEqualTo(status);
        JsonNode n = Fixtures.parse(body);
        JsonNode err = n.isArray() ? n.get(0).path("error") : n.path("error");
        assertThat(e.getMessage()).isEqualTo(err.path("message").asText());
        List<String> parsed = new ArrayList<>();
        parsed.add(new ChatInbound().encodeError(e).path("error").path("message").asText());
        parsed.add(new MessagesInbound().encodeError(e).path("error").path("message").asText());
        assertThat(parsed).containsOnly(err.path("message").asText());
    }
}
