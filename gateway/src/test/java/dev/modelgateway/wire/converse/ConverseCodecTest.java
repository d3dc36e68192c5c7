package dev.modelgateway.wire.converse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.canonical.CanonicalRequest;
import dev.modelgateway.canonical.CanonicalResponse;
import dev.modelgateway.canonical.ContentBlock;
import dev.modelgateway.canonical.MediaKind;
import dev.modelgateway.canonical.Message;
import dev.modelgateway.canonical.ReasoningConfig;
import dev.modelgateway.canonical.Role;
import dev.modelgateway.canonical.SignatureOrigin;
import dev.modelgateway.canonical.StopReason;
import dev.modelgateway.canonical.ToolChoice;
import dev.modelgateway.canonical.ToolDefinition;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.canonical.UnmappedFields;
import dev.modelgateway.config.Capabilities;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Json;
import dev.modelgateway.wire.EncodedRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ConverseCodecTest {
    private static final Capabilities ALL = new Capabilities(true, Set.of("enabled", "adaptive"), true, null, null, null);

    @Test
    void aMidConversationSystemEntryStaysInPlaceAsUserText() {
        CanonicalRequest r = base().messages(List.of(user("first"), assistant("answer"),
                new Message(Role.SYSTEM, List.of(new ContentBlock.Text("Now answer in French."))), user("second"))).build();
        JsonNode body = encode(ALL, r).body();
        // the prefix before the entry is unchanged (its cache stays warm); the entry joins the user turn it precedes
        assertThat(body.path("system").isMissingNode()).isTrue();
        assertThat(body.get("messages").toString()).isEqualTo("[{\"role\":\"user\",\"content\":[{\"text\":\"first\"}]},"
                + "{\"role\":\"assistant\",\"content\":[{\"text\":\"answer\"}]},"
                + "{\"role\":\"user\",\"content\":[{\"text\":\"Now answer in French.\"},{\"text\":\"second\"}]}]");
    }

    @Test
    void aMidConversationSystemEntryIsRefusedWhenTheDeploymentDoesNotDeclareIt() {
        Capabilities hoistless = new Capabilities(true, Set.of(), false, null, null, null);
        CanonicalRequest r = base().messages(List.of(user("first"), assistant("answer"),
                new Message(Role.SYSTEM, List.of(new ContentBlock.Text("Now in French."))), user("second"))).build();
        assertThatThrownBy(() -> encode(hoistless, r)).isInstanceOfSatisfying(GatewayException.class, e -> {
            assertThat(e.status()).isEqualTo(400);
            assertThat(e.param()).isEqualTo("messages[2]");
        });
    }

    @Test
    void turnsAlternateAndOpenWithTheUser() {
        CanonicalRequest r = base().messages(List.of(assistant("prefilled"), user("a"), user("b"))).build();
        assertThat(encode(ALL, r).body().get("messages").toString()).isEqualTo("[{\"role\":\"user\",\"content\":[{\"text\":\"...\"}]},"
                + "{\"role\":\"assistant\",\"content\":[{\"text\":\"prefilled\"}]},"
                + "{\"role\":\"user\",\"content\":[{\"text\":\"a\"},{\"text\":\"b\"}]}]");
    }

    /** A thinking mode the deployment does not declare is refused naming thinking.type, never turned into another. */
    @Test
    void thinkingOnlyInTheDeclaredModes() {
        CanonicalRequest adaptive = base().messages(List.of(user("q")))
                .reasoning(new ReasoningConfig(ReasoningConfig.Mode.ADAPTIVE, null, "high")).build();
        assertThatThrownBy(() -> encode(new Capabilities(true, Set.of("enabled"), true, null, null, null), adaptive))
                .isInstanceOfSatisfying(GatewayException.class, e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.param()).isEqualTo("thinking.type");
                });
        EncodedRequest declared = encode(new Capabilities(true, Set.of("adaptive"), true, null, null, null), adaptive);
        assertThat(declared.body().path("additionalModelRequestFields").toString()).isEqualTo("{\"thinking\":{\"type\":\"adaptive\"}}");
        assertThat(declared.body().path("outputConfig").toString()).isEqualTo("{\"effort\":\"high\"}");

        CanonicalRequest budget = base().messages(List.of(user("q")))
                .reasoning(new ReasoningConfig(ReasoningConfig.Mode.ENABLED, 8192, null)).build();
        assertThatThrownBy(() -> encode(new Capabilities(true, Set.of("adaptive"), true, null, null, null), budget))
                .hasMessageContaining("'enabled' thinking is not available");
        assertThatThrownBy(() -> encode(new Capabilities(true, Set.of(), true, null, null, null), budget))
                .hasMessageContaining("declares no thinking");
        CanonicalRequest off = budget.toBuilder().reasoning(ReasoningConfig.DISABLED).build();
        assertThat(encode(new Capabilities(true, Set.of(), true, null, null, null), off).body().has("additionalModelRequestFields")).isFalse();
    }

    /** The declared output ceiling: a larger max_tokens is refused; a budget without one fits below the ceiling. */
    @Test
    void theDeclaredOutputCeiling() {
        Capabilities ceiling = new Capabilities(true, Set.of("enabled"), true, 8000, null, null);
        CanonicalRequest over = base().messages(List.of(user("q"))).maxTokens(9000).build();
        assertThatThrownBy(() -> encode(ceiling, over)).isInstanceOfSatisfying(GatewayException.class,
                e -> assertThat(e.param()).isEqualTo("max_tokens"));
        CanonicalRequest budget = base().messages(List.of(user("q")))
                .reasoning(new ReasoningConfig(ReasoningConfig.Mode.ENABLED, 16000, null)).build();
        JsonNode body = encode(ceiling, budget).body();
        assertThat(body.path("inferenceConfig").path("maxTokens").asInt()).isEqualTo(8000);
        assertThat(body.path("additionalModelRequestFields").path("thinking").path("budget_tokens").asInt()).isEqualTo(7999);
    }

    @Test
    void aBudgetFitsBelowMaxTokens() {
        CanonicalRequest noMax = base().messages(List.of(user("q")))
                .reasoning(new ReasoningConfig(ReasoningConfig.Mode.ENABLED, 2048, null)).temperature(0.2).topK(5).build();
        EncodedRequest enc = encode(ALL, noMax);
        assertThat(enc.body().path("inferenceConfig").toString()).isEqualTo("{\"maxTokens\":6144}");
        assertThat(enc.body().path("additionalModelRequestFields").toString())
                .isEqualTo("{\"thinking\":{\"type\":\"enabled\",\"budget_tokens\":2048}}");
        assertThat(enc.warnings()).anyMatch(w -> w.startsWith("temperature:")).anyMatch(w -> w.startsWith("top_k:"));

        CanonicalRequest small = noMax.toBuilder().maxTokens(2000).temperature(null).topK(null).build();
        assertThat(encode(ALL, small).body().path("additionalModelRequestFields").path("thinking").path("budget_tokens").asInt())
                .isEqualTo(1999);
    }

    /** A tool loop another model began (vendor switched mid-session) cannot take vendor A's thinking: it is not sent. */
    @Test
    void noThinkingOnAToolLoopAnotherModelBegan() {
        Message call = new Message(Role.ASSISTANT, List.of(new ContentBlock.Thinking("other's", null, SignatureOrigin.NONE),
                new ContentBlock.ToolUse("call_1", "weather", "{}")));
        Message result = new Message(Role.USER, List.of(new ContentBlock.ToolResult("call_1", List.of(new ContentBlock.Text("sun")), false, null)));
        CanonicalRequest foreign = base().messages(List.of(user("q"), call, result))
                .reasoning(new ReasoningConfig(ReasoningConfig.Mode.ENABLED, 2048, null)).build();
        EncodedRequest enc = encode(ALL, foreign);
        assertThat(enc.body().has("additionalModelRequestFields")).isFalse();
        assertThat(enc.warnings()).anyMatch(w -> w.startsWith("reasoning: thinking not sent for this request"));

        Message own = new Message(Role.ASSISTANT, List.of(new ContentBlock.Thinking("mine", "c2ln", SignatureOrigin.ANTHROPIC),
                new ContentBlock.ToolUse("call_1", "weather", "{}")));
        CanonicalRequest begun = foreign.toBuilder().messages(List.of(user("q"), own, result)).build();
        assertThat(encode(ALL, begun).body().path("additionalModelRequestFields").path("thinking").path("type").asText())
                .isEqualTo("enabled");
    }

    /** Converse refuses blank text blocks anywhere: a blank or empty tool result gets a placeholder, blank text goes. */
    @Test
    void noBlankTextReachesConverse() {
        CanonicalRequest r = base().messages(List.of(user("q"),
                new Message(Role.ASSISTANT, List.of(new ContentBlock.Text(" "), new ContentBlock.ToolUse("t1", "run", "{}"))),
                new Message(Role.USER, List.of(new ContentBlock.ToolResult("t1", List.of(new ContentBlock.Text("")), false, null))))).build();
        JsonNode messages = encode(ALL, r).body().path("messages");
        assertThat(messages.get(1).path("content").toString()).isEqualTo("[{\"toolUse\":{\"toolUseId\":\"t1\",\"name\":\"run\",\"input\":{}}}]");
        assertThat(messages.get(2).path("content").get(0).path("toolResult").path("content").toString())
                .isEqualTo("[{\"text\":\"(no content)\"}]");
    }

    @Test
    void topKTravelsInAdditionalModelRequestFields() {
        CanonicalRequest r = base().messages(List.of(user("q"))).topK(40).build();
        assertThat(encode(ALL, r).body().path("additionalModelRequestFields").toString()).isEqualTo("{\"top_k\":40}");
    }

    @Test
    void toolChoiceNoneLeavesTheToolsOutUnlessTheHistoryCallsThem() throws Exception {
        ToolDefinition weather = new ToolDefinition("weather", null, Json.MAPPER.readTree("{\"type\":\"object\"}"), null, null);
        CanonicalRequest fresh = base().messages(List.of(user("q"))).tools(List.of(weather)).toolChoice(ToolChoice.NONE).build();
        EncodedRequest enc = encode(ALL, fresh);
        assertThat(enc.body().has("toolConfig")).isFalse();
        assertThat(enc.warnings()).containsExactly("tool_choice: 'none': the tools were left out (Converse has no 'none')");

        CanonicalRequest loop = fresh.toBuilder().messages(List.of(user("q"),
                new Message(Role.ASSISTANT, List.of(new ContentBlock.ToolUse("t1", "weather", "{}"))),
                new Message(Role.USER, List.of(new ContentBlock.ToolResult("t1", List.of(new ContentBlock.Text("sun")), false, null)))))
                .build();
        EncodedRequest kept = encode(ALL, loop);
        assertThat(kept.body().path("toolConfig").path("tools").get(0).path("toolSpec").path("name").asText()).isEqualTo("weather");
        assertThat(kept.body().path("toolConfig").has("toolChoice")).isFalse();
        assertThat(kept.warnings()).singleElement().asString().contains("not enforced");
    }

    @Test
    void reasoningThisModelDidNotSignIsNotReplayed() {
        CanonicalRequest r = base().messages(List.of(user("q"), new Message(Role.ASSISTANT, List.of(
                new ContentBlock.Thinking("gemini thought", "sig", SignatureOrigin.GEMINI),
                new ContentBlock.Thinking("unsigned", null, SignatureOrigin.NONE),
                new ContentBlock.Text("answer"))), user("next"))).build();
        EncodedRequest enc = encode(ALL, r);
        assertThat(enc.body().path("messages").get(1).path("content").toString()).isEqualTo("[{\"text\":\"answer\"}]");
        assertThat(enc.warnings()).containsExactly("reasoning this model did not sign was not replayed to it");
    }

    @Test
    void mediaTheModelCannotTakeIsRefusedNamingTheBlock() {
        CanonicalRequest audio = base().messages(List.of(new Message(Role.USER, List.of(new ContentBlock.Text("hear"),
                ContentBlock.Media.base64(MediaKind.AUDIO, "audio/wav", "AAAA"))))).build();
        assertThatThrownBy(() -> encode(ALL, audio)).isInstanceOfSatisfying(GatewayException.class,
                e -> assertThat(e.param()).isEqualTo("messages[0].content[1]"));
        CanonicalRequest bmp = base().messages(List.of(new Message(Role.USER, List.of(
                ContentBlock.Media.base64(MediaKind.IMAGE, "image/bmp", "AAAA"))))).build();
        assertThatThrownBy(() -> encode(ALL, bmp)).hasMessageContaining("png, jpeg, gif or webp");
    }

    @Test
    void onlyS3UrlsAreForwarded() {
        ConverseCodec codec = new ConverseCodec(ALL);
        assertThat(codec.canForwardUrl(ContentBlock.Media.url(MediaKind.IMAGE, null, "s3://bucket/cat.png"))).isTrue();
        assertThat(codec.canForwardUrl(ContentBlock.Media.url(MediaKind.IMAGE, null, "https://example.com/cat.png"))).isFalse();
        CanonicalRequest r = base().messages(List.of(new Message(Role.USER, List.of(
                ContentBlock.Media.url(MediaKind.IMAGE, null, "s3://bucket/cat.png"))))).build();
        assertThat(encode(ALL, r).body().path("messages").get(0).path("content").get(0).toString())
                .isEqualTo("{\"image\":{\"format\":\"png\",\"source\":{\"s3Location\":{\"uri\":\"s3://bucket/cat.png\"}}}}");
    }

    /** An answer decoded and sent back as history gives Converse the blocks it gave, signatures and ids unchanged. */
    @Test
    void anAnswerReplaysAsItCame() throws Exception {
        String content = "[{\"reasoningContent\":{\"reasoningText\":{\"text\":\"hmm\",\"signature\":\"c2ln\"}}},"
                + "{\"reasoningContent\":{\"redactedContent\":\"cmVk\"}},{\"text\":\"Calling.\"},"
                + "{\"toolUse\":{\"toolUseId\":\"tooluse_x\",\"name\":\"weather\",\"input\":{\"city\":\"Oslo\"}}},"
                + "{\"citationsContent\":{\"content\":[{\"text\":\"cited\"}],\"citations\":[]}}]";
        CanonicalResponse answer = new ConverseCodec(ALL).decodeResponse(Json.MAPPER.readTree(
                "{\"output\":{\"message\":{\"role\":\"assistant\",\"content\":" + content + "}},\"stopReason\":\"tool_use\"}"));
        CanonicalRequest next = base().messages(List.of(user("q"), new Message(Role.ASSISTANT, answer.content()),
                new Message(Role.USER, List.of(new ContentBlock.ToolResult("tooluse_x", List.of(new ContentBlock.Text("rain")), false, null)))))
                .build();
        assertThat(encode(ALL, next).body().path("messages").get(1).path("content")).isEqualTo(Json.MAPPER.readTree(content));
    }

    @ParameterizedTest
    @CsvSource({"end_turn,END_TURN", "tool_use,TOOL_USE", "max_tokens,MAX_TOKENS", "stop_sequence,STOP_SEQUENCE",
            "guardrail_intervened,REFUSAL", "content_filtered,REFUSAL", "model_context_window_exceeded,CONTEXT_WINDOW",
            "malformed_tool_use,ERROR"})
    void stopReasons(String converse, StopReason canonical) throws Exception {
        CanonicalResponse r = new ConverseCodec(ALL).decodeResponse(Json.MAPPER.readTree(
                "{\"output\":{\"message\":{\"role\":\"assistant\",\"content\":[]}},\"stopReason\":\"" + converse + "\"}"));
        assertThat(r.stopReason()).isEqualTo(canonical);
    }

    @Test
    void cacheWritesAreSplitByTheirTtl() throws Exception {
        CanonicalResponse r = new ConverseCodec(ALL).decodeResponse(Json.MAPPER.readTree("""
                {"output":{"message":{"role":"assistant","content":[{"text":"hi"}]}},"stopReason":"end_turn",
                 "usage":{"inputTokens":5,"outputTokens":7,"totalTokens":1712,"cacheReadInputTokens":200,"cacheWriteInputTokens":1500,
                          "cacheDetails":[{"ttl":"5m","inputTokens":500},{"ttl":"1h","inputTokens":1000}]}}"""));
        assertThat(r.usage()).isEqualTo(new Usage(5, 200, 500, 1000, 7, 0));
    }

    @Test
    void errorsKeepBedrocksStatusAndMessage() {
        ConverseCodec codec = new ConverseCodec(ALL);
        GatewayException e = codec.decodeError(400, "{\"message\":\"The model returned the following errors: bad cachePoint\"}");
        assertThat(e.status()).isEqualTo(400);
        assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_REQUEST);
        assertThat(e.getMessage()).isEqualTo("The model returned the following errors: bad cachePoint");
        GatewayException t = codec.decodeError(429, "{\"__type\":\"com.amazon.bedrock#ThrottlingException\",\"message\":\"Too many requests\"}");
        assertThat(t.kind()).isEqualTo(ErrorKind.RATE_LIMIT);
        assertThat(t.code()).isEqualTo("ThrottlingException");
    }

    private static EncodedRequest encode(Capabilities caps, CanonicalRequest r) {
        return new ConverseCodec(caps).encodeRequest(r, "model-x", false);
    }

    private static CanonicalRequest.Builder base() {
        return CanonicalRequest.builder(UnmappedFields.CHAT).model("public/model");
    }

    private static Message user(String text) {
        return new Message(Role.USER, List.of(new ContentBlock.Text(text)));
    }

    private static Message assistant(String text) {
        return new Message(Role.ASSISTANT, List.of(new ContentBlock.Text(text)));
    }
}
