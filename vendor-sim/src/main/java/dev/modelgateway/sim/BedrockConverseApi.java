package dev.modelgateway.sim;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.buffer.Buffer;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Bedrock Runtime's Converse API at the simulator's root: {@code POST /model/{modelId}/converse} (JSON) and
 * {@code /model/{modelId}/converse-stream} (AWS event-stream frames, {@link ConverseFrames}), the model id
 * percent-encoded in the path as the AWS SDK sends it. The answer comes from the shared planner, so tool calls,
 * reasoning and usage are those of the other vendors; cache points are Bedrock's prompt-cache checkpoints (explicit
 * caching: reads and writes reported), refused with Bedrock's ValidationException for a model the simulator was
 * told has no caching ({@link VendorSimulator#bedrockWithoutCaching}). Bedrock's checks that a gateway must meet
 * are kept: turns alternate and open with the user, tool blocks need a {@code toolConfig}, replayed reasoning must
 * carry its signature unchanged. SigV4 is verified by the simulator's shared AWS check, not here.
 */
final class BedrockConverseApi {
    private record Parsed(Conversation conversation, PromptMeter meter, boolean cachePoints, boolean redacted) {
    }

    private final VendorSimulator sim;
    private final Set<String> withoutCaching = ConcurrentHashMap.newKeySet();

    BedrockConverseApi(VendorSimulator sim) {
        this.sim = sim;
    }

    void withoutCaching(String modelId) {
        withoutCaching.add(modelId);
    }

    /** @param path the raw request path, {@code /model/{encoded id}/converse} or {@code …/converse-stream} */
    void handle(Exchange ex, String path, String body) {
        ex.header("x-amzn-requestid", VendorErrors.requestId("sim-"));
        boolean stream = path.endsWith("/converse-stream");
        int end = path.lastIndexOf('/');
        String model = percentDecoded(path.substring("/model/".length(), end));
        JsonNode root = Prelude.begin(sim, ex, body, model, m -> "The provided model identifier is invalid.");
        if (root == null) return;
        Parsed p = parse(ex, model, root);
        if (p == null) return;
        CacheLedger.Usage usage = sim.cache.explicitUsage(p.meter);
        Answer a = AnswerPlanner.plan(p.conversation, ex.directive, "tooluse_sim_", sim.toolIds::incrementAndGet);
        ConverseAnswer answer = new ConverseAnswer(a, usage, p.cachePoints, p.redacted);
        if (!stream) {
            ex.ok(Json.write(answer.response()));
            return;
        }
        ex.binary(ConverseFrames.CONTENT_TYPE, withFaults(ex.directive, answer.frames()));
    }

    /**
     * The stream faults on frames: {@code error_after=N} ends the stream after N frames with an exception frame
     * ({@code modelStreamErrorException}, as Bedrock cuts a model's failed stream); {@code malformed} corrupts the
     * second frame's CRC; {@code disconnect_after} and {@code chunk_delay_ms} are applied by the exchange.
     */
    private static List<Buffer> withFaults(Directive d, List<Buffer> frames) {
        List<Buffer> plan = new ArrayList<>(frames);
        if (d.malformed() && plan.size() > 1) plan.set(1, ConverseFrames.corrupted(plan.get(1)));
        if (d.errorAfter() >= 0) {
            plan = new ArrayList<>(plan.subList(0, Math.min(d.errorAfter(), plan.size() - 1)));
            plan.add(ConverseFrames.exception("modelStreamErrorException",
                    "{\"message\":\"The model stream failed. Try your request again.\",\"originalStatusCode\":500}"));
        }
        return plan;
    }

    /** Bedrock's error body: {@code {"message": …}}, its type in {@code x-amzn-ErrorType}. */
    static String error(int status, String message, String ignoredCode) {
        String msg = message != null ? message : switch (status) {
            case 403 -> "The security token included in the request is invalid.";
            case 404 -> "The provided model identifier is invalid.";
            case 429 -> "Too many requests, please wait before trying again.";
            case 503 -> "Bedrock is unable to process your request.";
            default -> status >= 500 ? "The system encountered an unexpected error during processing. Try your request again."
                    : "Malformed input request, please reformat your input and try again.";
        };
        return Json.write(Json.obj().put("message", msg));
    }

    static String errorType(int status) {
        return switch (status) {
            case 403 -> "AccessDeniedException";
            case 404 -> "ResourceNotFoundException";
            case 429 -> "ThrottlingException";
            case 503 -> "ServiceUnavailableException";
            default -> status >= 500 ? "InternalServerException" : "ValidationException";
        };
    }

    // ------------------------------------------------------------------ request

    private Parsed parse(Exchange ex, String model, JsonNode root) {
        JsonNode messages = root.get("messages");
        if (messages == null || !messages.isArray() || messages.isEmpty()) {
            return invalid(ex, "A conversation must start with a user message. Try again with a conversation that starts with a user message.");
        }
        boolean toolConfig = root.path("toolConfig").path("tools").size() > 0;
        PromptMeter m = new PromptMeter(model);
        List<Conversation.Tool> tools = new ArrayList<>();
        boolean cachePoints = false;
        for (JsonNode t : root.path("toolConfig").path("tools")) {
            if (t.has("cachePoint")) {
                cachePoints = true;
                m.cacheMarker(t.path("cachePoint").path("ttl").asText("5m"));
                continue;
            }
            JsonNode spec = t.path("toolSpec");
            String name = Json.text(spec, "name");
            JsonNode schema = spec.path("inputSchema").get("json");
            m.text(name);
            m.text(Json.text(spec, "description"));
            if (schema != null) m.text(Json.write(schema));
            if (name != null) tools.add(new Conversation.Tool(name, schema));
        }
        for (JsonNode b : root.path("system")) {
            m.text(Json.text(b, "text"));
            if (b.has("cachePoint")) {
                cachePoints = true;
                m.cacheMarker(b.path("cachePoint").path("ttl").asText("5m"));
            }
        }
        m.endMessage();

        String lastUserText = "", toolResult = null, expected = "user";
        int images = 0;
        for (int i = 0; i < messages.size(); i++) {
            JsonNode msg = messages.get(i);
            String role = String.valueOf(Json.text(msg, "role"));
            if (i == 0 && !role.equals("user")) {
                return invalid(ex, "A conversation must start with a user message. Try again with a conversation that starts with a user message.");
            }
            if (!role.equals(expected)) {
                return invalid(ex, "A conversation must alternate between user and assistant roles. Make sure the conversation "
                        + "alternates between user and assistant roles and try again.");
            }
            expected = role.equals("user") ? "assistant" : "user";
            m.shape(role);
            StringBuilder text = new StringBuilder();
            String result = null;
            int msgImages = 0;
            JsonNode content = msg.path("content");
            for (int j = 0; j < content.size(); j++) {
                JsonNode b = content.get(j);
                if (b.has("text")) {
                    if (b.get("text").asText().isBlank()) {
                        return invalid(ex, "The text field in the ContentBlock object at messages." + i + ".content." + j
                                + " is blank. Add text to the text field, and try again.");
                    }
                    m.text(b.get("text").asText());
                    if (!text.isEmpty()) text.append(' ');
                    text.append(b.get("text").asText());
                } else if (b.has("image") || b.has("document")) {
                    if (b.has("image")) msgImages++;
                    JsonNode src = b.has("image") ? b.path("image").path("source") : b.path("document").path("source");
                    m.shape(src.path("bytes").asText(src.path("s3Location").path("uri").asText("")));
                } else if (b.has("toolUse") || b.has("toolResult")) {
                    if (!toolConfig) return invalid(ex, "The toolConfig field must be defined when using toolUse and toolResult content blocks.");
                    if (b.has("toolUse")) {
                        m.text(Json.text(b.get("toolUse"), "name"));
                        m.text(Json.write(b.get("toolUse").path("input")));
                    } else {
                        String r = resultText(b.get("toolResult").path("content"));
                        m.text(r);
                        if (result == null) result = r;
                    }
                } else if (b.has("reasoningContent")) {
                    String refused = reasoning(b.get("reasoningContent"), i, j, m);
                    if (refused != null) return invalid(ex, refused);
                } else if (b.has("cachePoint")) {
                    cachePoints = true;
                    m.cacheMarker(b.path("cachePoint").path("ttl").asText("5m"));
                } else {
                    m.shape(Json.write(b));
                }
            }
            m.endMessage();
            if (role.equals("user") && !text.isEmpty()) lastUserText = text.toString();
            if (role.equals("user") && i == messages.size() - 1) {
                toolResult = result;
                images = msgImages;
            }
        }
        if (cachePoints && withoutCaching.contains(model)) {
            // what Bedrock answers a cache point sent to a model without prompt caching
            return invalid(ex, "You invoked an unsupported model or your request did not allow prompt caching. "
                    + "See the documentation for more information.");
        }

        JsonNode inference = root.path("inferenceConfig");
        Integer maxTokens = inference.has("maxTokens") ? Integer.valueOf(inference.get("maxTokens").asInt()) : null;
        JsonNode thinking = root.path("additionalModelRequestFields").path("thinking");
        String thinkingType = thinking.path("type").asText("");
        if (thinkingType.equals("enabled")) {
            int budget = thinking.path("budget_tokens").asInt(0);
            if (budget < 1024) return invalid(ex, "The model returned the following errors: thinking.enabled.budget_tokens: "
                    + "Input should be greater than or equal to 1024");
            if (maxTokens != null && maxTokens <= budget) return invalid(ex, "The model returned the following errors: "
                    + "`max_tokens` must be greater than `thinking.budget_tokens`.");
        }
        boolean thinks = thinkingType.equals("enabled") || thinkingType.equals("adaptive");
        String unopenedTurn = thinks ? ThinkingTurn.refusal(blockTypes(messages)) : null;
        if (unopenedTurn != null) return invalid(ex, "The model returned the following errors: " + unopenedTurn);
        JsonNode choice = root.path("toolConfig").path("toolChoice");
        Conversation.ToolChoice toolChoice = choice.has("any") ? Conversation.ToolChoice.REQUIRED
                : choice.has("tool") ? new Conversation.ToolChoice(Conversation.ChoiceMode.NAMED, Json.text(choice.get("tool"), "name"))
                : Conversation.ToolChoice.AUTO;
        if (thinks && toolChoice.mode() != Conversation.ChoiceMode.AUTO) {
            return invalid(ex, "The model returned the following errors: Thinking may not be enabled when tool_choice forces tool use.");
        }
        Conversation.OutputFormat format = outputFormat(root.path("outputConfig").path("textFormat"));
        Conversation c = new Conversation(model, lastUserText, toolResult, tools, toolChoice, maxTokens, images, thinks, format);
        return new Parsed(c, m, cachePoints, ex.directive.redacted());
    }

    /** Replayed reasoning must come back as it was given: the signature over its text, the redacted bytes whole. */
    private static String reasoning(JsonNode r, int i, int j, PromptMeter m) {
        if (r.has("reasoningText")) {
            String text = r.path("reasoningText").path("text").asText("");
            if (!Signatures.verify(text, r.path("reasoningText").path("signature").asText(null))) {
                return "The model returned the following errors: messages." + i + ".content." + j + ": Invalid `signature` in `thinking` block";
            }
            m.text(text);
            return null;
        }
        String data = r.path("redactedContent").asText(null);
        if (data == null || !Signatures.verifyRedacted(data)) {
            return "The model returned the following errors: messages." + i + ".content." + j + ": Invalid `data` in `redacted_thinking` block";
        }
        m.shape(data);
        return null;
    }

    /**
     * The conversation with each block named by vendor A's type, for vendor A's tool-loop rule ({@link ThinkingTurn}):
     * Bedrock hands a Converse request with vendor A's thinking to vendor A's model, which applies it.
     */
    private static JsonNode blockTypes(JsonNode messages) {
        var out = Json.arr();
        for (JsonNode m : messages) {
            var content = out.addObject().put("role", Json.text(m, "role")).putArray("content");
            for (JsonNode b : m.path("content")) {
                String type = b.has("toolResult") ? "tool_result" : b.has("toolUse") ? "tool_use" : b.has("text") ? "text"
                        : b.path("reasoningContent").has("reasoningText") ? "thinking"
                        : b.path("reasoningContent").has("redactedContent") ? "redacted_thinking"
                        : b.fieldNames().hasNext() ? b.fieldNames().next() : "nothing";
                if (!type.equals("cachePoint")) content.addObject().put("type", type);
            }
        }
        return out;
    }

    private static Conversation.OutputFormat outputFormat(JsonNode textFormat) {
        if (!"json_schema".equals(Json.text(textFormat, "type"))) return null;
        String schema = textFormat.path("structure").path("jsonSchema").path("schema").asText(null);
        return new Conversation.OutputFormat(schema == null ? null : AnthropicApi.parseJson(schema));
    }

    private static String resultText(JsonNode content) {
        StringBuilder sb = new StringBuilder();
        for (JsonNode b : content) {
            String t = b.has("json") ? Json.write(b.get("json")) : Json.text(b, "text");
            if (t == null) continue;
            if (!sb.isEmpty()) sb.append('\n');
            sb.append(t);
        }
        return sb.toString();
    }

    private static Parsed invalid(Exchange ex, String message) {
        ex.header("x-amzn-errortype", "ValidationException:http://internal.amazon.com/coral/com.amazon.bedrock/");
        ex.fail(400, message, null);
        return null;
    }

    /** The path segment as the SDK sent it ({@code %3A} for {@code :}, {@code %2F} for {@code /}), decoded as UTF-8. */
    static String percentDecoded(String s) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%' && i + 2 < s.length()) {
                out.write(Integer.parseInt(s.substring(i + 1, i + 3), 16));
                i += 2;
            } else out.write(c);
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}
