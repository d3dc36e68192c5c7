package dev.modelgateway.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;

/**
 * Gemini API under {@code /gemini/v1beta/models/{model}:{method}}: generateContent, streamGenerateContent
 * (SSE with {@code alt=sse}, otherwise a JSON array), countTokens, embedContent, batchEmbedContents and predict
 * (Imagen upscaling).
 */
final class GeminiApi {

    private record Parsed(Conversation conversation, PromptMeter meter, boolean includeThoughts) {
    }

    private final VendorSimulator sim;

    GeminiApi(VendorSimulator sim) {
        this.sim = sim;
    }

    void handle(Exchange ex, String path, String body) {
        int models = path.indexOf("/models/");
        int colon = path.lastIndexOf(':');
        if (models < 0 || colon < models) {
            ex.fail(404, "Method not found.", null);
            return;
        }
        String model = path.substring(models + "/models/".length(), colon);
        String method = path.substring(colon + 1);
        JsonNode root = Prelude.begin(sim, ex, body, model, m -> "models/" + m + " is not found for API version v1beta, or is "
                + "not supported for " + method + ". Call ModelService.ListModels to see the list of available models and their supported methods.");
        if (root == null) return;
        switch (method) {
            case "generateContent", "streamGenerateContent" -> generate(ex, model, root, method.equals("streamGenerateContent"));
            case "countTokens" -> {
                JsonNode req = root.has("generateContentRequest") ? root.get("generateContentRequest") : root;
                Parsed p = parse(ex, model, req);
                if (p == null) return;
                int n = p.meter.tokens();
                ex.ok("{\"totalTokens\":" + n + ",\"promptTokensDetails\":[{\"modality\":\"TEXT\",\"tokenCount\":" + n + "}]}");
            }
            case "embedContent" -> ex.ok(Json.write(Json.obj().set("embedding", embedding(model, root))));
            case "batchEmbedContents" -> {
                ObjectNode out = Json.obj();
                ArrayNode arr = out.putArray("embeddings");
                for (JsonNode r : root.path("requests")) arr.add(embedding(model, r));
                ex.ok(Json.write(out));
            }
            case "predict" -> ImagenUpscale.handle(ex, root);
            default -> ex.fail(404, "Method not found.", null);
        }
    }

    private static ObjectNode embedding(String model, JsonNode request) {
        StringBuilder text = new StringBuilder();
        for (JsonNode part : request.path("content").path("parts")) text.append(part.path("text").asText(""));
        int dims = request.path("outputDimensionality").asInt(request.path("output_dimensionality").asInt(3072));
        ObjectNode e = Json.obj();
        ArrayNode values = e.putArray("values");
        for (float v : Embeddings.vector(model + "|" + text, dims)) values.add(v);
        return e;
    }

    private void generate(Exchange ex, String model, JsonNode root, boolean stream) {
        Parsed p = parse(ex, model, root);
        if (p == null) return;
        CacheLedger.Usage usage = sim.cache.implicitUsage(p.meter);
        Answer a = AnswerPlanner.plan(p.conversation, ex.directive, null, sim.toolIds::incrementAndGet);
        String responseId = "sim" + Long.toString(sim.messageIds.incrementAndGet(), 36) + "Gm";
        if (!stream) {
            ex.ok(Json.write(response(model, responseId, p, a, usage)));
            return;
        }
        List<ObjectNode> chunks = chunks(model, responseId, p, a, usage);
        if (!"sse".equals(ex.req.getParam("alt"))) {
            // Without alt=sse Gemini streams one JSON array; the simulator sends it whole.
            ArrayNode arr = Json.arr();
            chunks.forEach(arr::add);
            ex.ok(Json.write(arr));
            return;
        }
        List<String> events = new ArrayList<>(chunks.size());
        for (ObjectNode c : chunks) events.add(data(Json.write(c)));
        ex.stream("text/event-stream", events, data(VendorErrors.geminiStreamError()), "data: {\"candidates\": [{\"content\":\r\n\r\n");
    }

    // ------------------------------------------------------------------ request

    private Parsed parse(Exchange ex, String model, JsonNode root) {
        JsonNode contents = root.get("contents");
        if (contents == null || !contents.isArray() || contents.isEmpty()) {
            ex.fail(400, "* GenerateContentRequest.contents: contents is not specified\n", null);
            return null;
        }
        PromptMeter m = new PromptMeter(model);
        List<Conversation.Tool> tools = new ArrayList<>();
        for (JsonNode t : root.path("tools")) {
            JsonNode decls = t.has("functionDeclarations") ? t.get("functionDeclarations") : t.path("function_declarations");
            for (JsonNode d : decls) {
                String name = Json.text(d, "name");
                m.text(name);
                m.text(Json.text(d, "description"));
                JsonNode schema = d.has("parametersJsonSchema") ? d.get("parametersJsonSchema") : d.get("parameters");
                if (schema != null) m.text(Json.write(schema));
                if (name != null) tools.add(new Conversation.Tool(name, schema));
            }
        }
        JsonNode system = root.has("systemInstruction") ? root.get("systemInstruction") : root.get("system_instruction");
        if (system != null) for (JsonNode part : system.path("parts")) m.text(Json.text(part, "text"));
        m.endMessage();

        boolean gemini3 = model.contains("gemini-3");
        int turnStart = 0; // index after the last user content that carries text: the "current turn"
        for (int i = 0; i < contents.size(); i++) {
            JsonNode c = contents.get(i);
            if (!"model".equals(Json.text(c, "role")) && hasText(c)) turnStart = i;
        }
        String lastUserText = "", toolResult = null;
        int images = 0;
        for (int i = 0; i < contents.size(); i++) {
            JsonNode c = contents.get(i);
            String role = String.valueOf(Json.text(c, "role"));
            m.shape(role);
            boolean user = !role.equals("model");
            boolean last = i == contents.size() - 1;
            StringBuilder text = new StringBuilder();
            String result = null;
            int msgImages = 0;
            boolean firstCall = true;
            for (JsonNode part : c.path("parts")) {
                if (part.has("text")) {
                    m.text(part.get("text").asText());
                    if (!part.path("thought").asBoolean(false)) {
                        if (!text.isEmpty()) text.append(' ');
                        text.append(part.get("text").asText());
                    }
                } else if (part.has("inlineData") || part.has("inline_data") || part.has("fileData") || part.has("file_data")) {
                    JsonNode d = part.has("inlineData") ? part.get("inlineData") : part.has("inline_data") ? part.get("inline_data")
                            : part.has("fileData") ? part.get("fileData") : part.get("file_data");
                    String mime = d.path("mimeType").asText(d.path("mime_type").asText(""));
                    if (mime.isEmpty() || mime.startsWith("image/")) msgImages++;
                    m.shape(d.path("data").asText(d.path("fileUri").asText("")));
                } else if (part.has("functionCall")) {
                    JsonNode fc = part.get("functionCall");
                    m.text(Json.text(fc, "name"));
                    m.text(Json.write(fc.path("args")));
                    if (gemini3 && firstCall && i > turnStart && !part.has("thoughtSignature")) {
                        ex.fail(400, "Function call is missing a thought_signature in functionCall parts. This is required for tools to work "
                                + "correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call `default_api:"
                                + Json.text(fc, "name") + "` , position " + (i + 1) + ". Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.", null);
                        return null;
                    }
                    firstCall = false;
                } else if (part.has("functionResponse")) {
                    String r = Json.write(part.get("functionResponse").path("response"));
                    m.text(Json.text(part.get("functionResponse"), "name"));
                    m.text(r);
                    if (result == null) result = r;
                } else {
                    m.shape(Json.write(part));
                }
            }
            m.endMessage();
            if (user && !text.isEmpty()) lastUserText = text.toString();
            if (user && last) {
                toolResult = result;
                images = msgImages;
            }
        }

        JsonNode fcc = root.path("toolConfig").path("functionCallingConfig");
        Conversation.ToolChoice choice = switch (fcc.path("mode").asText("AUTO").toUpperCase()) {
            case "NONE" -> Conversation.ToolChoice.NONE;
            case "ANY" -> fcc.path("allowedFunctionNames").size() == 1
                    ? new Conversation.ToolChoice(Conversation.ChoiceMode.NAMED, fcc.path("allowedFunctionNames").get(0).asText())
                    : Conversation.ToolChoice.REQUIRED;
            default -> Conversation.ToolChoice.AUTO;
        };
        JsonNode gc = root.has("generationConfig") ? root.get("generationConfig") : root.path("generation_config");
        Integer max = gc.has("maxOutputTokens") ? Integer.valueOf(gc.get("maxOutputTokens").asInt()) : null;
        Conversation.OutputFormat format = null;
        if ("application/json".equals(gc.path("responseMimeType").asText(""))) {
            JsonNode schema = gc.has("responseJsonSchema") ? gc.get("responseJsonSchema") : gc.get("responseSchema");
            format = new Conversation.OutputFormat(schema);
        }
        boolean thoughts = gc.path("thinkingConfig").path("includeThoughts").asBoolean(false);
        Conversation c = new Conversation(model, lastUserText, toolResult, tools, choice, max, images, thoughts, format);
        return new Parsed(c, m, thoughts);
    }

    private static boolean hasText(JsonNode content) {
        for (JsonNode p : content.path("parts")) if (p.has("text") && !p.path("thought").asBoolean(false)) return true;
        return false;
    }

    // ------------------------------------------------------------------ response

    private static String finishReason(Answer.Stop s) {
        return s == Answer.Stop.MAX_TOKENS ? "MAX_TOKENS" : "STOP";
    }

    private static ObjectNode usage(CacheLedger.Usage u, int candidates, int thoughts, boolean complete) {
        ObjectNode o = Json.obj().put("promptTokenCount", u.total());
        if (complete) o.put("candidatesTokenCount", candidates);
        o.put("totalTokenCount", u.total() + thoughts + (complete ? candidates : 0));
        if (u.cacheRead() > 0) o.put("cachedContentTokenCount", u.cacheRead());
        o.putArray("promptTokensDetails").addObject().put("modality", "TEXT").put("tokenCount", u.total());
        if (complete) o.putArray("candidatesTokensDetails").addObject().put("modality", "TEXT").put("tokenCount", candidates);
        if (u.cacheRead() > 0) o.putArray("cacheTokensDetails").addObject().put("modality", "TEXT").put("tokenCount", u.cacheRead());
        if (thoughts > 0) o.put("thoughtsTokenCount", thoughts);
        return o;
    }

    private static ObjectNode functionCall(Answer.ToolCall call) {
        ObjectNode part = Json.obj();
        part.putObject("functionCall").put("name", call.name()).set("args", AnthropicApi.parseJson(call.arguments()));
        return part;
    }

    private static ObjectNode response(String model, String responseId, Parsed p, Answer a, CacheLedger.Usage u) {
        ArrayNode parts = Json.arr();
        if (a.hasThinking()) parts.addObject().put("text", a.thinking()).put("thought", true);
        if (a.calls().isEmpty()) {
            ObjectNode t = parts.addObject().put("text", a.text());
            if (a.hasThinking()) t.put("thoughtSignature", Signatures.sign(a.thinking()));
        } else {
            for (int i = 0; i < a.calls().size(); i++) {
                ObjectNode fc = functionCall(a.calls().get(i));
                if (i == 0 && a.hasThinking()) fc.put("thoughtSignature", Signatures.sign(a.thinking()));
                parts.add(fc);
            }
        }
        ObjectNode root = Json.obj();
        ObjectNode cand = root.putArray("candidates").addObject();
        cand.putObject("content").<ObjectNode>set("parts", parts).put("role", "model");
        cand.put("finishReason", finishReason(a.stop())).put("index", 0);
        root.set("usageMetadata", usage(u, a.contentTokens(), a.thinkingTokens(), true));
        root.put("modelVersion", model).put("responseId", responseId);
        return root;
    }

    private static ObjectNode chunk(String model, String responseId, ArrayNode parts, String finish, ObjectNode usage) {
        ObjectNode root = Json.obj();
        ObjectNode cand = root.putArray("candidates").addObject();
        cand.putObject("content").<ObjectNode>set("parts", parts).put("role", "model");
        if (finish != null) cand.put("finishReason", finish);
        cand.put("index", 0);
        root.set("usageMetadata", usage);
        root.put("modelVersion", model).put("responseId", responseId);
        return root;
    }

    private static List<ObjectNode> chunks(String model, String responseId, Parsed p, Answer a, CacheLedger.Usage u) {
        List<ObjectNode> out = new ArrayList<>(a.pieces().size() + 3);
        ObjectNode partial = usage(u, 0, a.thinkingTokens(), false);
        ObjectNode full = usage(u, a.contentTokens(), a.thinkingTokens(), true);
        String finish = finishReason(a.stop());
        String signature = a.hasThinking() ? Signatures.sign(a.thinking()) : null;
        if (a.hasThinking()) {
            ArrayNode parts = Json.arr();
            parts.addObject().put("text", a.thinking()).put("thought", true);
            out.add(chunk(model, responseId, parts, null, partial));
        }
        if (!a.calls().isEmpty()) {
            ArrayNode parts = Json.arr();
            for (int i = 0; i < a.calls().size(); i++) {
                ObjectNode fc = functionCall(a.calls().get(i));
                if (i == 0 && signature != null) fc.put("thoughtSignature", signature);
                parts.add(fc);
            }
            out.add(chunk(model, responseId, parts, null, partial));
            ArrayNode end = Json.arr();
            end.addObject().put("text", "");
            out.add(chunk(model, responseId, end, finish, full));
            return out;
        }
        List<String> pieces = a.pieces().isEmpty() ? List.of("") : a.pieces();
        for (int i = 0; i < pieces.size(); i++) {
            boolean last = i == pieces.size() - 1;
            ArrayNode parts = Json.arr();
            ObjectNode t = parts.addObject().put("text", pieces.get(i));
            if (last && signature != null) t.put("thoughtSignature", signature);
            out.add(chunk(model, responseId, parts, last ? finish : null, last ? full : partial));
        }
        return out;
    }

    static String data(String json) {
        return "data: " + json + "\r\n\r\n";
    }
}
