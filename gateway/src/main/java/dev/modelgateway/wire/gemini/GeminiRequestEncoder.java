package dev.modelgateway.wire.gemini;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.CanonicalRequest;
import dev.modelgateway.canonical.ContentBlock;
import dev.modelgateway.canonical.Message;
import dev.modelgateway.canonical.ReasoningBudgets;
import dev.modelgateway.canonical.ReasoningConfig;
import dev.modelgateway.canonical.ResponseFormat;
import dev.modelgateway.canonical.Role;
import dev.modelgateway.canonical.SignatureOrigin;
import dev.modelgateway.canonical.ToolArguments;
import dev.modelgateway.canonical.ToolDefinition;
import dev.modelgateway.canonical.UnmappedFields;
import dev.modelgateway.error.GatewayException;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/** Canonical request → GenerateContentRequest. One instance per request. */
final class GeminiRequestEncoder {
    /**
     * Google's documented placeholder for a functionCall part whose signature was lost (history produced by
     * another vendor): Gemini 3 rejects the turn otherwise.
     */
    static final String SKIP_SIGNATURE = "skip_thought_signature_validator";
    private static final Pattern FUNCTION_NAME = Pattern.compile("^[a-zA-Z0-9_-]{1,63}$");
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private final boolean subsetSchemas;
    private final List<String> warnings = new ArrayList<>();
    private final Set<String> warned = new LinkedHashSet<>();

    GeminiRequestEncoder(boolean subsetSchemas) {
        this.subsetSchemas = subsetSchemas;
    }

    List<String> warnings() { return warnings; }

    ObjectNode encode(CanonicalRequest r, String model) {
        ObjectNode body = F.objectNode();
        boolean gemini3 = !model.startsWith("gemini-1") && !model.startsWith("gemini-2");
        ArrayNode sysParts = F.arrayNode();
        for (ContentBlock.Text t : r.system()) sysParts.addObject().put("text", t.text());
        for (Message m : r.messages()) {
            if (m.role() == Role.SYSTEM) {
                for (ContentBlock b : m.content()) if (b instanceof ContentBlock.Text t && !t.isBlank()) sysParts.addObject().put("text", t.text());
            }
        }
        if (!sysParts.isEmpty()) body.putObject("systemInstruction").set("parts", sysParts);
        body.set("contents", contents(r.messages(), gemini3));
        tools(r, body);
        body.set("generationConfig", generationConfig(r, gemini3));
        if (body.get("generationConfig").isEmpty()) body.remove("generationConfig");
        if (r.user() != null) warn("user", "dropped: no Gemini equivalent");
        return body;
    }

    private ArrayNode contents(List<Message> messages, boolean gemini3) {
        Map<String, String> callNames = new HashMap<>();
        for (Message m : messages) for (ContentBlock b : m.content()) if (b instanceof ContentBlock.ToolUse u) callNames.put(u.id(), u.name());
        ArrayNode contents = F.arrayNode();
        String lastRole = null;
        for (int i = 0; i < messages.size(); i++) {
            Message m = messages.get(i);
            if (m.role() == Role.SYSTEM) continue;
            String role = m.role() == Role.ASSISTANT ? "model" : "user";
            ArrayNode parts = F.arrayNode();
            for (int j = 0; j < m.content().size(); j++) {
                part(m.content().get(j), "messages[" + i + "].content[" + j + "]", callNames, parts);
            }
            if (parts.isEmpty()) continue;
            if (m.role() == Role.ASSISTANT && gemini3) ensureCallSignature(parts);
            // Gemini wants strictly alternating turns: merge consecutive same-role messages.
            if (role.equals(lastRole)) {
                ((ArrayNode) contents.get(contents.size() - 1).get("parts")).addAll(parts);
            } else {
                ObjectNode c = contents.addObject().put("role", role);
                c.set("parts", parts);
                lastRole = role;
            }
        }
        return contents;
    }

    private static void ensureCallSignature(ArrayNode parts) {
        for (JsonNode p : parts) {
            if (p.has("functionCall")) {
                if (!p.has("thoughtSignature")) ((ObjectNode) p).put("thoughtSignature", SKIP_SIGNATURE);
                return;
            }
        }
    }

    private void part(ContentBlock b, String p, Map<String, String> callNames, ArrayNode parts) {
        switch (b) {
            case ContentBlock.Text t -> {
                if (!t.text().isEmpty()) parts.addObject().put("text", t.text());
            }
            case ContentBlock.Media m -> parts.add(media(m, p));
            case ContentBlock.ToolUse u -> {
                ObjectNode fc = parts.addObject();
                ObjectNode call = fc.putObject("functionCall").put("name", u.name());
                call.set("args", ToolArguments.toObject(u.arguments()));
                if (u.thoughtSignature() != null) fc.put("thoughtSignature", u.thoughtSignature());
            }
            case ContentBlock.ToolResult tr -> {
                String name = callNames.get(tr.toolUseId());
                if (name == null) {
                    throw GatewayException.invalid(p + ".tool_use_id",
                            "no earlier tool call with id '" + tr.toolUseId() + "' (Gemini needs the function name)");
                }
                StringBuilder text = new StringBuilder();
                List<ObjectNode> media = new ArrayList<>();
                for (int k = 0; k < tr.content().size(); k++) {
                    ContentBlock inner = tr.content().get(k);
                    if (inner instanceof ContentBlock.Text t) {
                        if (!text.isEmpty()) text.append('\n');
                        text.append(t.text());
                    } else if (inner instanceof ContentBlock.Media md) media.add(media(md, p + ".content[" + k + "]"));
                }
                ObjectNode fr = parts.addObject().putObject("functionResponse").put("name", name);
                fr.putObject("response").put(tr.isError() ? "error" : "output", text.toString());
                media.forEach(parts::add);
            }
            case ContentBlock.Thinking t -> {
                if (t.origin() != SignatureOrigin.GEMINI) {
                    warnOnce("reasoning", "reasoning produced by another vendor was not replayed to Gemini");
                    return;
                }
                // An unsigned thought summary: Gemini needs only the signatures back (ai.google.dev thought-signatures).
                if (t.signature() == null) return;
                JsonNode prev = parts.isEmpty() ? null : parts.get(parts.size() - 1);
                if (t.text().isEmpty() && t.signature() != null && prev != null && !prev.has("thoughtSignature")
                        && !prev.path("thought").asBoolean(false)) {
                    // A signature Gemini had put on the preceding (text) part: put it back there.
                    ((ObjectNode) prev).put("thoughtSignature", t.signature());
                    return;
                }
                ObjectNode tp = parts.addObject().put("text", t.text()).put("thought", true);
                if (t.signature() != null) tp.put("thoughtSignature", t.signature());
            }
            case ContentBlock.RedactedThinking ignored ->
                    warnOnce("reasoning", "reasoning produced by another vendor was not replayed to Gemini");
            case ContentBlock.VendorBlock v -> warnOnce("vendor-block", "a " + v.vendor() + "-specific content block was dropped");
        }
    }

    private static ObjectNode media(ContentBlock.Media m, String p) {
        ObjectNode part = F.objectNode();
        if (m.fileId() != null) throw GatewayException.invalid(p, "file references are not supported by this model");
        if (m.isUrl()) {
            ObjectNode fd = part.putObject("fileData").put("fileUri", m.url());
            if (m.mediaType() != null) fd.put("mimeType", m.mediaType());
        } else {
            part.putObject("inlineData").put("mimeType", m.mediaType()).put("data", m.data());
        }
        return part;
    }

    private void tools(CanonicalRequest r, ObjectNode body) {
        if (!r.vendorTools().isEmpty()) {
            throw GatewayException.invalid("tools[" + r.tools().size() + "]",
                    "tool type '" + r.vendorTools().getFirst().raw().path("type").asText() + "' is not supported by this model");
        }
        if (r.tools().isEmpty()) return;
        ArrayNode decls = body.putArray("tools").addObject().putArray("functionDeclarations");
        for (int i = 0; i < r.tools().size(); i++) {
            ToolDefinition t = r.tools().get(i);
            if (!FUNCTION_NAME.matcher(t.name()).matches()) {
                throw GatewayException.invalid("tools[" + i + "].name",
                        "tool name '" + t.name() + "' is invalid for this model (letters, digits, _ and -, at most 63)");
            }
            ObjectNode d = decls.addObject().put("name", t.name());
            if (t.description() != null) d.put("description", t.description());
            if (t.schema() != null) {
                if (subsetSchemas) d.set("parameters", GeminiSchema.subset(t.schema()));
                else d.set("parametersJsonSchema", t.schema());
            }
            if (Boolean.TRUE.equals(t.strict())) warnOnce("strict", "strict tool schemas are not enforced by Gemini");
        }
        if (r.toolChoice() != null) {
            ObjectNode fcc = body.putObject("toolConfig").putObject("functionCallingConfig");
            switch (r.toolChoice().mode()) {
                case AUTO -> fcc.put("mode", "AUTO");
                case NONE -> fcc.put("mode", "NONE");
                case REQUIRED -> fcc.put("mode", "ANY");
                case NAMED -> {
                    fcc.put("mode", "ANY");
                    fcc.putArray("allowedFunctionNames").add(r.toolChoice().name());
                }
            }
        }
        if (Boolean.FALSE.equals(r.parallelToolCalls())) warn("parallel_tool_calls", "dropped: Gemini has no switch for it");
    }

    private ObjectNode generationConfig(CanonicalRequest r, boolean gemini3) {
        ObjectNode g = F.objectNode();
        if (r.maxTokens() != null) g.put("maxOutputTokens", r.maxTokens());
        if (r.temperature() != null) g.put("temperature", r.temperature());
        if (r.topP() != null) g.put("topP", r.topP());
        if (r.topK() != null) g.put("topK", r.topK());
        if (!r.stop().isEmpty()) {
            if (r.stop().size() > 5) throw GatewayException.invalid("stop", "at most 5 stop sequences are supported by this model");
            ArrayNode s = g.putArray("stopSequences");
            r.stop().forEach(s::add);
        }
        switch (r.responseFormat()) {
            case null -> { }
            case ResponseFormat.JsonObject ignored -> g.put("responseMimeType", "application/json");
            case ResponseFormat.JsonSchema js -> {
                g.put("responseMimeType", "application/json");
                if (js.schema() != null) {
                    if (subsetSchemas) g.set("responseSchema", GeminiSchema.subset(js.schema()));
                    else g.set("responseJsonSchema", js.schema());
                }
            }
        }
        thinking(r.reasoning(), gemini3, g);
        unmapped(r.unmapped(), g);
        return g;
    }

    private void thinking(ReasoningConfig rc, boolean gemini3, ObjectNode g) {
        if (rc == null) return;
        ObjectNode tc = g.putObject("thinkingConfig");
        if (!rc.isOn()) {
            if (gemini3) {
                warn("reasoning", "Gemini 3 cannot switch thinking off; using the lowest level");
                tc.put("thinkingLevel", "LOW");
            } else tc.put("thinkingBudget", 0);
            return;
        }
        tc.put("includeThoughts", true);
        if (gemini3) {
            String effort = ReasoningBudgets.effortOf(rc);
            tc.put("thinkingLevel", switch (effort == null ? "high" : effort) {
                case "minimal" -> "MINIMAL";
                case "low" -> "LOW";
                case "medium" -> "MEDIUM";
                default -> "HIGH";
            });
        } else if (rc.budgetTokens() == null && rc.effort() == null) {
            tc.put("thinkingBudget", -1); // adaptive: let the model decide
        } else {
            tc.put("thinkingBudget", ReasoningBudgets.budgetOf(rc));
        }
    }

    private void unmapped(UnmappedFields u, ObjectNode g) {
        if (u == null) return;
        for (Map.Entry<String, JsonNode> e : u.entries()) {
            String k = e.getKey();
            JsonNode v = e.getValue();
            if (u.protocol().equals(UnmappedFields.CHAT)) {
                switch (k) {
                    case "seed" -> { g.set("seed", v); continue; }
                    case "presence_penalty" -> { g.set("presencePenalty", v); continue; }
                    case "frequency_penalty" -> { g.set("frequencyPenalty", v); continue; }
                    case "n" -> {
                        if (v.asInt(1) != 1) throw GatewayException.invalid("n", "only n=1 is supported by this model");
                        continue;
                    }
                    case "modalities", "audio" -> {
                        if (v.toString().contains("audio") || k.equals("audio")) {
                            throw GatewayException.invalid(k, "'" + k + "' is not supported by this model");
                        }
                        continue;
                    }
                    default -> { }
                }
            }
            warn(k, "dropped: no Gemini equivalent");
        }
    }

    private void warn(String param, String message) {
        warnings.add(param + ": " + message);
    }

    private void warnOnce(String key, String message) {
        if (warned.add(key)) warnings.add(message);
    }
}
