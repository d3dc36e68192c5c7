package dev.modelgateway.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.buffer.Buffer;
import software.amazon.eventstream.HeaderValue;
import software.amazon.eventstream.Message;

import java.io.ByteArrayOutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * AWS Bedrock Runtime at the simulator's root (Bedrock API reference, "InvokeModel", "InvokeModelWithResponseStream",
 * "CountTokens"): {@code POST /model/{modelId}/invoke}, {@code /invoke-with-response-stream} and {@code /count-tokens},
 * every request's SigV4 signature (or Bedrock API key) checked first ({@link BedrockSignatures}).
 * <ul>
 *   <li>vendor A's models (ids and profiles with {@code anthropic.}, and ARNs): the body is vendor A's messages body
 *       with {@code anthropic_version} required and {@code model} / {@code stream} refused as Bedrock refuses them; the
 *       answer is {@link AnthropicApi}'s. Streamed, each of vendor A's SSE events is a {@code chunk} event-stream message
 *       whose payload is {@code {"bytes": base64 of the event's JSON, "p": padding}};</li>
 *   <li>Titan Text Embeddings and Cohere Embed;</li>
 *   <li>errors in Bedrock's shape: {@code {"message": …}} with the {@code x-amzn-ErrorType} header (the {@code empty_body}
 *       directive flag answers {@code {}} with the message in {@code x-amzn-errormessage}); mid-stream, the
 *       {@code error_after=N} directive sends an exception message after N chunks, of the type {@code exception=}
 *       names ({@code modelStreamErrorException} by default);</li>
 *   <li>a plain model id told to need an inference profile ({@link VendorSimulator#bedrockProfileOnly}, or an id with
 *       {@code -profile-only}) is refused with Bedrock's on-demand-throughput ValidationException.</li>
 * </ul>
 */
final class BedrockRuntimeApi {
    static final String EVENT_STREAM = "application/vnd.amazon.eventstream";
    private static final String PADDING = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

    private final VendorSimulator sim;
    private final AnthropicApi anthropic;
    final BedrockSignatures signatures = new BedrockSignatures();
    final Set<String> profileOnly = ConcurrentHashMap.newKeySet();

    BedrockRuntimeApi(VendorSimulator sim, AnthropicApi anthropic) {
        this.sim = sim;
        this.anthropic = anthropic;
    }

    /**
     * Whether the request is signed for a key this double accepts (or carries its API key); if not, it has been
     * refused as Bedrock refuses it. Converse's double asks it too.
     */
    boolean signed(Exchange ex, Buffer raw) {
        ex.header("x-amzn-RequestId", VendorErrors.requestId(""));
        ex.errors = (status, message, code) -> error(ex, status, message, code);
        BedrockSignatures.Refusal refused = signatures.check(ex.req, raw);
        if (refused != null) ex.fail(403, refused.message(), refused.type());
        return refused == null;
    }

    void handle(Exchange ex, String path, String body, Buffer raw) {
        if (!signed(ex, raw)) return;
        String[] parts = path.split("/");
        if (parts.length != 4 || !parts[1].equals("model")) {
            ex.fail(404, null, "UnknownOperationException");
            return;
        }
        String model = URLDecoder.decode(parts[2], StandardCharsets.UTF_8);
        String operation = parts[3];
        if (!Set.of("invoke", "invoke-with-response-stream", "count-tokens").contains(operation)) {
            // converse and converse-stream belong to the Converse double, which plugs in here once the signature is checked
            ex.fail(404, null, "UnknownOperationException");
            return;
        }
        JsonNode root = Prelude.begin(sim, ex, body, model, m -> "The provided model identifier is invalid.");
        if (root == null) return;
        if (operation.equals("count-tokens")) {
            countTokens(ex, model, root);
            return;
        }
        if (profileOnly.contains(model) || model.contains("-profile-only")) {
            ex.fail(400, "Invocation of model ID " + model + " with on-demand throughput isn’t supported. Retry your request with"
                    + " the ID or ARN of an inference profile that contains this model.", "ValidationException");
            return;
        }
        boolean stream = operation.equals("invoke-with-response-stream");
        if (model.contains("titan-embed") || model.contains("cohere.embed")) {
            embed(ex, model, root);
        } else if (model.contains("anthropic.") || model.startsWith("arn:")) {
            messages(ex, model, (ObjectNode) root, stream);
        } else {
            ex.fail(400, "The simulator's Bedrock serves vendor A's models, Titan Text Embeddings and Cohere Embed on InvokeModel.",
                    "ValidationException");
        }
    }

    private void messages(Exchange ex, String model, ObjectNode root, boolean stream) {
        // Bedrock's own checks of vendor A's body (Bedrock User Guide, "Anthropic Claude Messages API")
        for (String extraneous : List.of("model", "stream")) {
            if (root.has(extraneous)) {
                ex.fail(400, "Malformed input request: #: extraneous key [" + extraneous + "] is not permitted, please reformat"
                        + " your input and try again.", "ValidationException");
                return;
            }
        }
        // required; its value is not checked: Bedrock's guide names bedrock-2023-05-31, and Anthropic's own Bedrock
        // client sends its API version there
        if (!root.hasNonNull("anthropic_version")) {
            ex.fail(400, "Malformed input request: #: required key [anthropic_version] not found, please reformat"
                    + " your input and try again.", "ValidationException");
            return;
        }
        // Bedrock takes vendor A's betas in the body's anthropic_beta array, not in a header
        if (refusedComputerUse(ex, root)) return;
        ObjectNode messages = root.deepCopy();
        messages.remove("anthropic_version");
        messages.remove("anthropic_beta");
        messages.put("model", model);
        if (stream) messages.put("stream", true);
        AnthropicApi.Reply reply = anthropic.reply(ex, messages);
        if (reply == null) return;
        if (!stream) {
            JsonNode usage = Json.MAPPER.valueToTree(parse(reply.json()).path("usage"));
            ex.header("X-Amzn-Bedrock-Input-Token-Count", usage.path("input_tokens").asText("0"));
            ex.header("X-Amzn-Bedrock-Output-Token-Count", usage.path("output_tokens").asText("0"));
            ex.ok(reply.json());
            return;
        }
        List<Buffer> frames = new ArrayList<>();
        for (String event : reply.events()) frames.add(chunk(invocationMetrics(data(event), reply.events())));
        Directive d = ex.directive;
        if (d.malformed() && frames.size() > 1) frames.get(1).setByte(frames.get(1).length() - 1, (byte) (frames.get(1).getByte(frames.get(1).length() - 1) ^ 1));
        if (d.errorAfter() >= 0) {
            frames = new ArrayList<>(frames.subList(0, Math.min(d.errorAfter(), frames.size() - 1)));
            String type = option(d, "exception", "modelStreamErrorException");
            frames.add(exception(type, streamError(type)));
        }
        // the content type of the chunks' bytes, which Anthropic's Bedrock client checks
        ex.header("x-amzn-bedrock-content-type", "application/json");
        ex.binary(EVENT_STREAM, frames);
    }

    /** Bedrock's refusal of a computer use tool whose beta the body's {@code anthropic_beta} lacks: true when refused. */
    private static boolean refusedComputerUse(Exchange ex, JsonNode root) {
        String missing = ComputerUse.missingBeta(root, ComputerUse.bodyBetas(root));
        if (missing != null) ex.fail(400, missing, "ValidationException");
        return missing != null;
    }

    /** Bedrock adds its invocation metrics to vendor A's {@code message_stop}. */
    private static String invocationMetrics(String json, List<String> events) {
        if (!json.contains("\"message_stop\"")) return json;
        JsonNode delta = null;
        for (String e : events) if (e.startsWith("event: message_delta")) delta = parse(data(e)).path("usage");
        JsonNode start = parse(data(events.getFirst())).path("message").path("usage");
        ObjectNode stop = (ObjectNode) parse(json);
        stop.putObject("amazon-bedrock-invocationMetrics").put("inputTokenCount", start.path("input_tokens").asLong())
                .put("outputTokenCount", delta == null ? 0 : delta.path("output_tokens").asLong())
                .put("invocationLatency", 12).put("firstByteLatency", 5);
        return Json.write(stop);
    }

    private void countTokens(Exchange ex, String model, JsonNode root) {
        if (model.matches("(global|[a-z]{2,4}(-[a-z]{2,4})?)\\.[a-z0-9-]+\\..+")) {
            ex.fail(400, "The provided model doesn't support counting tokens.", "ValidationException");
            return;
        }
        String encoded = root.path("input").path("invokeModel").path("body").asText(null);
        JsonNode invoke;
        try {
            invoke = encoded == null ? null : Json.MAPPER.readTree(Base64.getDecoder().decode(encoded));
        } catch (Exception e) {
            invoke = null;
        }
        if (!(invoke instanceof ObjectNode body) || !body.has("anthropic_version")) {
            ex.fail(400, "Malformed input request, please reformat your input and try again.", "ValidationException");
            return;
        }
        ObjectNode messages = body.deepCopy();
        messages.remove("anthropic_version");
        messages.remove("anthropic_beta");
        messages.put("model", model);
        int tokens = anthropic.countTokens(ex, messages);
        if (tokens >= 0) ex.ok("{\"inputTokens\":" + tokens + "}");
    }

    /** Titan Text Embeddings ({@code inputText}, {@code dimensions}, {@code normalize}) and Cohere Embed ({@code texts}, {@code input_type}). */
    private static void embed(Exchange ex, String model, JsonNode root) {
        if (model.contains("titan-embed")) {
            String text = Json.text(root, "inputText");
            if (text == null) {
                ex.fail(400, "Malformed input request: #: required key [inputText] not found, please reformat your input and try again.", "ValidationException");
                return;
            }
            int dims = root.path("dimensions").asInt(1024);
            ObjectNode out = Json.obj();
            ArrayNode v = out.putArray("embedding");
            for (float f : Embeddings.vector(model + "|" + text, dims)) v.add(f);
            out.putObject("embeddingsByType").set("float", v.deepCopy());
            out.put("inputTextTokenCount", Tokens.of(text));
            ex.ok(Json.write(out));
            return;
        }
        JsonNode texts = root.get("texts");
        if (texts == null || !texts.isArray() || Json.text(root, "input_type") == null) {
            ex.fail(400, "Malformed input request: #: required key [" + (texts == null ? "texts" : "input_type")
                    + "] not found, please reformat your input and try again.", "ValidationException");
            return;
        }
        int dims = root.path("output_dimension").asInt(model.contains("embed-v4") ? 1536 : 1024);
        ObjectNode out = Json.obj().put("id", VendorErrors.requestId("emb-"));
        ArrayNode vectors = out.putArray("embeddings");
        for (JsonNode t : texts) {
            ArrayNode v = vectors.addArray();
            for (float f : Embeddings.vector(model + "|" + t.asText(), dims)) v.add(f);
        }
        out.set("texts", texts);
        out.put("response_type", "embeddings_floats");
        ex.ok(Json.write(out));
    }

    /** Bedrock's error: {@code {"message": …}} (or {@code {}} with {@code empty_body}) and its type in {@code x-amzn-ErrorType}. */
    private static String error(Exchange ex, int status, String message, String code) {
        String type = code != null && code.endsWith("Exception") ? code : switch (status) {
            case 400 -> "ValidationException";
            case 403 -> "AccessDeniedException";
            case 404 -> "ResourceNotFoundException";
            case 408 -> "ModelTimeoutException";
            case 424 -> "ModelErrorException";
            case 429 -> "ThrottlingException";
            case 503 -> "ServiceUnavailableException";
            default -> "InternalServerException";
        };
        String text = message != null ? message : switch (type) {
            case "ThrottlingException" -> "Too many requests, please wait before trying again.";
            case "AccessDeniedException" -> "You don't have access to the model with the specified model ID.";
            case "ServiceUnavailableException" -> "Bedrock is unable to process your request.";
            case "ResourceNotFoundException" -> "The provided model identifier is invalid.";
            case "ModelTimeoutException" -> "Model has timed out in processing the request. Try your request again.";
            default -> "The system encountered an unexpected error during processing. Try your request again.";
        };
        ex.header("x-amzn-ErrorType", type + ":http://internal.amazon.com/coral/com.amazon.bedrock/");
        if (ex.directive.text().contains("empty_body")) {
            ex.header("x-amzn-errormessage", text);
            return "{}";
        }
        return Json.write(Json.obj().put("message", text));
    }

    private static String streamError(String type) {
        ObjectNode payload = Json.obj().put("message", switch (type) {
            case "throttlingException" -> "Too many tokens, please wait before trying again.";
            case "serviceUnavailableException" -> "Bedrock is unable to process your request.";
            case "internalServerException" -> "The system encountered an unexpected error during processing. Try your request again.";
            case "validationException" -> "Input is too long for requested model.";
            case "modelTimeoutException" -> "Model has timed out in processing the request. Try your request again.";
            default -> "The model encountered an error while streaming the response.";
        });
        if (type.equals("modelStreamErrorException")) payload.put("originalStatusCode", 500).put("originalMessage", "Internal server error");
        return Json.write(payload);
    }

    /** One of vendor A's SSE events as Bedrock's {@code chunk} message. */
    static Buffer chunk(String eventJson) {
        String b64 = Base64.getEncoder().encodeToString(eventJson.getBytes(StandardCharsets.UTF_8));
        // Bedrock pads chunk payloads with a "p" field of varying length (its length hides the content's)
        String padding = PADDING.substring(0, 1 + Math.floorMod(eventJson.hashCode(), PADDING.length() - 1));
        return frame("event", ":event-type", "chunk", "{\"bytes\":\"" + b64 + "\",\"p\":\"" + padding + "\"}");
    }

    static Buffer exception(String type, String payload) {
        return frame("exception", ":exception-type", type, payload);
    }

    private static Buffer frame(String messageType, String typeHeader, String type, String payload) {
        Map<String, HeaderValue> headers = new LinkedHashMap<>();
        headers.put(typeHeader, HeaderValue.fromString(type));
        headers.put(":content-type", HeaderValue.fromString("application/json"));
        headers.put(":message-type", HeaderValue.fromString(messageType));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new Message(headers, payload.getBytes(StandardCharsets.UTF_8)).encode(out);
        return Buffer.buffer(out.toByteArray());
    }

    private static String data(String sseEvent) {
        int at = sseEvent.indexOf("\ndata: ") + "\ndata: ".length();
        return sseEvent.substring(at, sseEvent.length() - 2);
    }

    private static String option(Directive d, String key, String fallback) {
        for (String item : d.text().split(";")) {
            String kv = item.trim();
            if (kv.startsWith(key + "=")) return kv.substring(key.length() + 1).trim();
        }
        return fallback;
    }

    private static JsonNode parse(String json) {
        return AnthropicApi.parseJson(json);
    }
}
