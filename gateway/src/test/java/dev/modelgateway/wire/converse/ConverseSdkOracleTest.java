package dev.modelgateway.wire.converse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.canonical.CacheMarker;
import dev.modelgateway.canonical.CanonicalRequest;
import dev.modelgateway.canonical.CanonicalResponse;
import dev.modelgateway.canonical.ContentBlock;
import dev.modelgateway.canonical.MediaKind;
import dev.modelgateway.canonical.Message;
import dev.modelgateway.canonical.ReasoningConfig;
import dev.modelgateway.canonical.ResponseFormat;
import dev.modelgateway.canonical.Role;
import dev.modelgateway.canonical.SignatureOrigin;
import dev.modelgateway.canonical.StopReason;
import dev.modelgateway.canonical.ToolChoice;
import dev.modelgateway.canonical.ToolDefinition;
import dev.modelgateway.canonical.UnmappedFields;
import dev.modelgateway.config.Capabilities;
import dev.modelgateway.json.Json;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.wire.EncodedRequest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.bedrockruntime.model.CachePointBlock;
import software.amazon.awssdk.services.bedrockruntime.model.CacheTTL;
import software.amazon.awssdk.services.bedrockruntime.model.ContentBlock.Type;
import software.amazon.awssdk.services.bedrockruntime.model.ConversationRole;
import software.amazon.awssdk.services.bedrockruntime.model.ConverseRequest;
import software.amazon.awssdk.services.bedrockruntime.model.ConverseResponse;
import software.amazon.awssdk.services.bedrockruntime.model.DocumentFormat;
import software.amazon.awssdk.services.bedrockruntime.model.ImageFormat;
import software.amazon.awssdk.services.bedrockruntime.model.OutputFormatType;
import software.amazon.awssdk.services.bedrockruntime.model.SystemContentBlock;
import software.amazon.awssdk.services.bedrockruntime.model.Tool;
import software.amazon.awssdk.services.bedrockruntime.model.ToolResultStatus;

import java.util.Base64;
import java.util.List;
import java.util.Set;

import static dev.modelgateway.wire.converse.SdkCapture.doc;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The AWS SDK for Java is the oracle of Converse's JSON: for each kind of request, the body and path the codec makes
 * equal, as JSON trees, what {@code BedrockRuntimeClient.converse} sends for the same call built with the SDK's
 * builders; and an answer is read as the SDK reads it. Tagged e2e: the SDK talks to a capturing server on loopback.
 */
@E2e
class ConverseSdkOracleTest {
    private static final String PNG = Base64.getEncoder().encodeToString(new byte[]{(byte) 0x89, 'P', 'N', 'G', 1, 2, 3});
    private static final String PDF = Base64.getEncoder().encodeToString("%PDF-1.4 sim".getBytes());
    private static final String SCHEMA = "{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"}},\"required\":[\"city\"]}";
    private static final Capabilities ALL = new Capabilities(true, Set.of("enabled", "adaptive"), true, null, null, null);
    private static SdkCapture sdk;

    @BeforeAll
    static void start() {
        sdk = new SdkCapture();
    }

    @AfterAll
    static void stop() {
        sdk.close();
    }

    @Test
    void textWithSystemAndInferenceConfigAndAnArnModelId() {
        String arn = "arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/a1b2c3d4e5f6";
        CanonicalRequest r = base().system(List.of(new ContentBlock.Text("Be brief.")))
                .messages(List.of(user(new ContentBlock.Text("Hello")))).maxTokens(300).temperature(0.5).topP(0.25)
                .stop(List.of("END")).build();
        SdkCapture.Sent sent = sdk.send(ConverseRequest.builder().modelId(arn)
                .system(SystemContentBlock.fromText("Be brief."))
                .messages(m -> m.role(ConversationRole.USER).content(c -> c.text("Hello")))
                .inferenceConfig(i -> i.maxTokens(300).temperature(0.5f).topP(0.25f).stopSequences("END")).build());
        EncodedRequest enc = new ConverseCodec(ALL).encodeRequest(r, arn, false);
        assertThat(enc.path()).isEqualTo(sent.rawPath())
                .isEqualTo("/model/arn%3Aaws%3Abedrock%3Aus-east-1%3A123456789012%3Aapplication-inference-profile%2Fa1b2c3d4e5f6/converse");
        assertSameJson(enc, sent);
    }

    @Test
    void imagesAndDocumentsAsBytes() {
        ContentBlock.Media pdf = new ContentBlock.Media(MediaKind.DOCUMENT, "application/pdf", PDF, null, null, "report.v2.pdf", null);
        CanonicalRequest r = base().messages(List.of(user(new ContentBlock.Text("What is shown?"),
                ContentBlock.Media.base64(MediaKind.IMAGE, "image/png", PNG), pdf))).build();
        SdkCapture.Sent sent = sdk.send(ConverseRequest.builder().modelId("amazon.nova-pro-v1:0")
                .messages(m -> m.role(ConversationRole.USER).content(
                        c -> c.text("What is shown?"),
                        c -> c.image(i -> i.format(ImageFormat.PNG).source(s -> s.bytes(SdkBytes.fromByteArray(Base64.getDecoder().decode(PNG))))),
                        c -> c.document(d -> d.format(DocumentFormat.PDF).name("report v2")
                                .source(s -> s.bytes(SdkBytes.fromByteArray(Base64.getDecoder().decode(PDF)))))))
                .build());
        EncodedRequest enc = new ConverseCodec(ALL).encodeRequest(r, "amazon.nova-pro-v1:0", false);
        assertThat(enc.path()).isEqualTo(sent.rawPath()).isEqualTo("/model/amazon.nova-pro-v1%3A0/converse");
        assertSameJson(enc, sent);
    }

    @Test
    void toolsToolCallsAndToolResults() throws Exception {
        CanonicalRequest r = base()
                .messages(List.of(user(new ContentBlock.Text("Weather in Paris?")),
                        new Message(Role.ASSISTANT, List.of(new ContentBlock.ToolUse("tooluse_1", "weather", "{\"city\":\"Paris\"}"))),
                        user(new ContentBlock.ToolResult("tooluse_1", List.of(new ContentBlock.Text("unknown city")), true, null)),
                        new Message(Role.ASSISTANT, List.of(new ContentBlock.Text("Sorry."))),
                        user(new ContentBlock.Text("Try again"))))
                .tools(List.of(new ToolDefinition("weather", "Current weather", Json.MAPPER.readTree(SCHEMA), null, null)))
                .toolChoice(ToolChoice.named("weather")).build();
        SdkCapture.Sent sent = sdk.send(ConverseRequest.builder().modelId("mistral.mistral-large-2407-v1:0")
                .messages(m -> m.role(ConversationRole.USER).content(c -> c.text("Weather in Paris?")),
                        m -> m.role(ConversationRole.ASSISTANT).content(c -> c.toolUse(u -> u.toolUseId("tooluse_1").name("weather")
                                .input(doc("{\"city\":\"Paris\"}")))),
                        m -> m.role(ConversationRole.USER).content(c -> c.toolResult(t -> t.toolUseId("tooluse_1")
                                .content(rc -> rc.text("unknown city")).status(ToolResultStatus.ERROR))),
                        m -> m.role(ConversationRole.ASSISTANT).content(c -> c.text("Sorry.")),
                        m -> m.role(ConversationRole.USER).content(c -> c.text("Try again")))
                .toolConfig(t -> t.tools(Tool.fromToolSpec(s -> s.name("weather").description("Current weather")
                                .inputSchema(i -> i.json(doc(SCHEMA)))))
                        .toolChoice(c -> c.tool(n -> n.name("weather"))))
                .build());
        assertSameJson(new ConverseCodec(ALL).encodeRequest(r, "mistral.mistral-large-2407-v1:0", false), sent);
    }

    /** The signed reasoning of a tool loop goes back exactly as it came, before the call it led to. */
    @Test
    void thinkingMultiTurnReplaysSignedReasoning() throws Exception {
        CanonicalRequest r = base()
                .messages(List.of(user(new ContentBlock.Text("Weather in Paris?")),
                        new Message(Role.ASSISTANT, List.of(
                                new ContentBlock.Thinking("I should call the tool.", "EqQBsig==", SignatureOrigin.ANTHROPIC),
                                new ContentBlock.RedactedThinking("cmVkYWN0ZWQ="),
                                new ContentBlock.ToolUse("tooluse_2", "weather", "{\"city\":\"Paris\"}"))),
                        user(new ContentBlock.ToolResult("tooluse_2", List.of(new ContentBlock.Text("18C")), false, null))))
                .tools(List.of(new ToolDefinition("weather", null, Json.MAPPER.readTree(SCHEMA), null, null)))
                .maxTokens(4000).reasoning(new ReasoningConfig(ReasoningConfig.Mode.ENABLED, 2048, null)).build();
        SdkCapture.Sent sent = sdk.send(ConverseRequest.builder().modelId("us.anthropic.claude-sonnet-4-5-v1:0")
                .messages(m -> m.role(ConversationRole.USER).content(c -> c.text("Weather in Paris?")),
                        m -> m.role(ConversationRole.ASSISTANT).content(
                                c -> c.reasoningContent(rc -> rc.reasoningText(t -> t.text("I should call the tool.").signature("EqQBsig=="))),
                                c -> c.reasoningContent(rc -> rc.redactedContent(SdkBytes.fromByteArray(Base64.getDecoder().decode("cmVkYWN0ZWQ=")))),
                                c -> c.toolUse(u -> u.toolUseId("tooluse_2").name("weather").input(doc("{\"city\":\"Paris\"}")))),
                        m -> m.role(ConversationRole.USER).content(c -> c.toolResult(t -> t.toolUseId("tooluse_2")
                                .content(rc -> rc.text("18C")))))
                .toolConfig(t -> t.tools(Tool.fromToolSpec(s -> s.name("weather").inputSchema(i -> i.json(doc(SCHEMA))))))
                .inferenceConfig(i -> i.maxTokens(4000))
                .additionalModelRequestFields(doc("{\"thinking\":{\"type\":\"enabled\",\"budget_tokens\":2048}}"))
                .build());
        EncodedRequest enc = new ConverseCodec(ALL).encodeRequest(r, "us.anthropic.claude-sonnet-4-5-v1:0", true);
        assertThat(enc.path()).isEqualTo("/model/us.anthropic.claude-sonnet-4-5-v1%3A0/converse-stream");
        assertSameJson(enc, sent);
    }

    @Test
    void adaptiveThinkingStaysAdaptiveWithConverseEffort() {
        CanonicalRequest r = base().messages(List.of(user(new ContentBlock.Text("Plan a trip"))))
                .reasoning(new ReasoningConfig(ReasoningConfig.Mode.ADAPTIVE, null, "high")).build();
        SdkCapture.Sent sent = sdk.send(ConverseRequest.builder().modelId("global.anthropic.claude-opus-4-7")
                .messages(m -> m.role(ConversationRole.USER).content(c -> c.text("Plan a trip")))
                .additionalModelRequestFields(doc("{\"thinking\":{\"type\":\"adaptive\"}}"))
                .outputConfig(o -> o.effort("high")).build());
        assertSameJson(new ConverseCodec(ALL).encodeRequest(r, "global.anthropic.claude-opus-4-7", false), sent);
    }

    @Test
    void cachePointsInSystemMessagesAndTools() throws Exception {
        CanonicalRequest r = cachedRequest();
        SdkCapture.Sent sent = sdk.send(ConverseRequest.builder().modelId("anthropic.claude-haiku-4-5-v1:0")
                .system(SystemContentBlock.fromText("Long instructions"),
                        SystemContentBlock.fromCachePoint(CachePointBlock.builder().type("default").build()))
                .messages(m -> m.role(ConversationRole.USER).content(c -> c.text("Long document"),
                        c -> c.cachePoint(p -> p.type("default").ttl(CacheTTL.VALUE_1_H)), c -> c.text("Question")))
                .toolConfig(t -> t.tools(Tool.fromToolSpec(s -> s.name("weather").inputSchema(i -> i.json(doc(SCHEMA)))),
                        Tool.fromCachePoint(CachePointBlock.builder().type("default").build())))
                .build());
        EncodedRequest enc = new ConverseCodec(ALL).encodeRequest(r, "anthropic.claude-haiku-4-5-v1:0", false);
        assertSameJson(enc, sent);
        assertThat(enc.warnings()).isEmpty();
    }

    /** A deployment that does not declare prompt caching gets no cache point (a model without caching refuses them). */
    @Test
    void cachePointsDroppedWhenTheDeploymentDeclaresNoCaching() throws Exception {
        Capabilities noCache = new Capabilities(false, Set.of(), true, null, null, null);
        SdkCapture.Sent sent = sdk.send(ConverseRequest.builder().modelId("meta.llama3-70b-instruct-v1:0")
                .system(SystemContentBlock.fromText("Long instructions"))
                .messages(m -> m.role(ConversationRole.USER).content(c -> c.text("Long document"), c -> c.text("Question")))
                .toolConfig(t -> t.tools(Tool.fromToolSpec(s -> s.name("weather").inputSchema(i -> i.json(doc(SCHEMA))))))
                .build());
        EncodedRequest enc = new ConverseCodec(noCache).encodeRequest(cachedRequest(), "meta.llama3-70b-instruct-v1:0", false);
        assertSameJson(enc, sent);
        assertThat(enc.warnings()).containsExactly("cache markers dropped: this deployment does not declare prompt_cache");
    }

    @Test
    void structuredOutputThroughOutputConfig() throws Exception {
        CanonicalRequest r = base().messages(List.of(user(new ContentBlock.Text("Where is the Louvre?"))))
                .responseFormat(new ResponseFormat.JsonSchema("place", "A city", Json.MAPPER.readTree(SCHEMA), true)).build();
        SdkCapture.Sent sent = sdk.send(ConverseRequest.builder().modelId("amazon.nova-pro-v1:0")
                .messages(m -> m.role(ConversationRole.USER).content(c -> c.text("Where is the Louvre?")))
                .outputConfig(o -> o.textFormat(f -> f.type(OutputFormatType.JSON_SCHEMA)
                        .structure(s -> s.jsonSchema(j -> j.schema(SCHEMA).name("place").description("A city"))))).build());
        assertSameJson(new ConverseCodec(ALL).encodeRequest(r, "amazon.nova-pro-v1:0", false), sent);
    }

    /** The SDK's own unmarshaller and the codec read one Converse answer alike: stop reason, text, tool call, usage. */
    @Test
    void anAnswerIsReadAsTheSdkReadsIt() throws Exception {
        String answer = """
                {"output":{"message":{"role":"assistant","content":[
                  {"reasoningContent":{"reasoningText":{"text":"Need the tool.","signature":"EqQBsig=="}}},
                  {"text":"Let me check."},
                  {"toolUse":{"toolUseId":"tooluse_9","name":"weather","input":{"city":"Paris"}}}]}},
                 "stopReason":"tool_use",
                 "usage":{"inputTokens":12,"outputTokens":30,"totalTokens":1542,"cacheReadInputTokens":1000,"cacheWriteInputTokens":500},
                 "metrics":{"latencyMs":420}}""";
        ConverseResponse sdkRead = sdk.answer(answer);
        CanonicalResponse ours = new ConverseCodec(ALL).decodeResponse(Json.MAPPER.readTree(answer));

        assertThat(ours.stopReason()).isEqualTo(StopReason.TOOL_USE);
        assertThat(sdkRead.stopReasonAsString()).isEqualTo("tool_use");
        var sdkContent = sdkRead.output().message().content();
        assertThat(sdkContent).extracting(software.amazon.awssdk.services.bedrockruntime.model.ContentBlock::type)
                .containsExactly(Type.REASONING_CONTENT, Type.TEXT, Type.TOOL_USE);
        assertThat(ours.content()).containsExactly(
                new ContentBlock.Thinking(sdkContent.get(0).reasoningContent().reasoningText().text(),
                        sdkContent.get(0).reasoningContent().reasoningText().signature(), SignatureOrigin.ANTHROPIC),
                new ContentBlock.Text(sdkContent.get(1).text()),
                new ContentBlock.ToolUse(sdkContent.get(2).toolUse().toolUseId(), sdkContent.get(2).toolUse().name(), "{\"city\":\"Paris\"}"));
        assertThat(sdkContent.get(2).toolUse().input().asMap().get("city").asString()).isEqualTo("Paris");
        var u = sdkRead.usage();
        assertThat(ours.usage().inputTokens()).isEqualTo(u.inputTokens().longValue());
        assertThat(ours.usage().outputTokens()).isEqualTo(u.outputTokens().longValue());
        assertThat(ours.usage().cacheReadTokens()).isEqualTo(u.cacheReadInputTokens().longValue());
        assertThat(ours.usage().cacheWriteTokens()).isEqualTo(u.cacheWriteInputTokens().longValue());
        // Converse's total counts cache reads and writes beside the uncached input, as canonical does
        assertThat(ours.usage().totalTokens()).isEqualTo(u.totalTokens().longValue());
    }

    private static CanonicalRequest cachedRequest() throws Exception {
        return base().system(List.of(new ContentBlock.Text("Long instructions", CacheMarker.DEFAULT)))
                .messages(List.of(user(new ContentBlock.Text("Long document", new CacheMarker("1h")), new ContentBlock.Text("Question"))))
                .tools(List.of(new ToolDefinition("weather", null, Json.MAPPER.readTree(SCHEMA), null, CacheMarker.DEFAULT))).build();
    }

    private static CanonicalRequest.Builder base() {
        return CanonicalRequest.builder(UnmappedFields.MESSAGES).model("public/model");
    }

    private static Message user(ContentBlock... blocks) {
        return new Message(Role.USER, List.of(blocks));
    }

    private static void assertSameJson(EncodedRequest enc, SdkCapture.Sent sent) {
        try {
            JsonNode ours = Json.MAPPER.readTree(enc.body().toString());
            assertThat(ours).isEqualTo(sent.body());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
