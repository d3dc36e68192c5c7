package dev.modelgateway.wire.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.CacheMarker;
import dev.modelgateway.canonical.CanonicalRequest;
import dev.modelgateway.canonical.ContentBlock;
import dev.modelgateway.canonical.MediaKind;
import dev.modelgateway.canonical.Message;
import dev.modelgateway.canonical.ReasoningBudgets;
import dev.modelgateway.canonical.ReasoningConfig;
import dev.modelgateway.canonical.ResponseFormat;
import dev.modelgateway.canonical.Role;
import dev.modelgateway.canonical.SignatureOrigin;
import dev.modelgateway.canonical.ToolArguments;
import dev.modelgateway.canonical.ToolCallIds;
import dev.modelgateway.canonical.ToolChoice;
import dev.modelgateway.canonical.ToolDefinition;
import dev.modelgateway.canonical.UnmappedFields;
import dev.modelgateway.canonical.VendorTool;
import dev.modelgateway.error.GatewayException;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Canonical request → Anthropic Messages body. One instance per request (collects warnings). */
final class AnthropicRequestEncoder {
    static final String JSON_OBJECT_INSTRUCTION = "Respond with a single valid JSON object and nothing else.";
    private static final Set<String> IMAGE_TYPES = Set.of("image/jpeg", "image/png", "image/gif", "image/webp");
    /** Chat fields whose absence changes what the caller gets back, not just how it is produced. */
    private static final Set<String> MEANINGFUL_CHAT_FIELDS = Set.of("n", "modalities", "audio", "prediction");

    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private final int defaultMaxTokens;
    private final List<String> warnings = new ArrayList<>();
    private final Set<String> warned = new LinkedHashSet<>();

    AnthropicRequestEncoder(int defaultMaxTokens) {
        this.defaultMaxTokens = defaultMaxTokens;
    }

    List<String> warnings() { return warnings; }

    ObjectNode encode(CanonicalRequest r, String model, boolean stream) {
        ObjectNode body = F.objectNode();
        body.put("model", model);
        ReasoningConfig reasoning = r.reasoning();
        boolean thinkingOn = reasoning != null && reasoning.isOn();
        int maxTokens = r.maxTokens() != null ? r.maxTokens()
                : defaultMaxTokens + (thinkingOn && reasoning.mode() == ReasoningConfig.Mode.ENABLED
                        ? ReasoningBudgets.budgetOf(reasoning) : 0);
        body.put("max_tokens", maxTokens);

        ArrayNode system = F.arrayNode();
        for (ContentBlock.Text t : r.system()) system.add(text(t));
        // Position of a mid-conversation system prompt is lost: hoisting is what every Anthropic-protocol
        // backend accepts (in-message system is first-party only).
        for (Message m : r.messages()) {
            if (m.role() == Role.SYSTEM) {
                for (ContentBlock b : m.content()) if (b instanceof ContentBlock.Text t && !t.isBlank()) system.add(text(t));
            }
        }
        if (r.responseFormat() instanceof ResponseFormat.JsonObject) {
            system.addObject().put("type", "text").put("text", JSON_OBJECT_INSTRUCTION);
        }
        if (!system.isEmpty()) body.set("system", system);

        body.set("messages", messages(r.messages()));
        tools(r, body);
        toolChoice(r, body, thinkingOn);
        sampling(r, body, thinkingOn);
        thinking(reasoning, maxTokens, body);
        if (r.responseFormat() instanceof ResponseFormat.JsonSchema js) {
            if (js.schema() == null) throw GatewayException.invalid("response_format.json_schema.schema", "a schema is required");
            ObjectNode oc = body.has("output_config") ? (ObjectNode) body.get("output_config") : body.putObject("output_config");
            oc.putObject("format").put("type", "json_schema").set("schema", js.schema());
        }
        if (r.user() != null) {
            if (r.user().contains("@")) warn("user", "not forwarded: Anthropic metadata.user_id must not be an e-mail address");
            else body.putObject("metadata").put("user_id", r.user());
        }
        unmapped(r.unmapped(), body);
        if (stream) body.put("stream", true);
        return body;
    }

    private ArrayNode messages(List<Message> messages) {
        ArrayNode out = F.arrayNode();
        int lastTurn = -1;
        for (int i = 0; i < messages.size(); i++) if (messages.get(i).role() != Role.SYSTEM) lastTurn = i;
        for (int i = 0; i < messages.size(); i++) {
            Message m = messages.get(i);
            if (m.role() == Role.SYSTEM) continue;
            // the caller's index, so an error names the right message (and no indexOf: it made this quadratic)
            String p = "messages[" + i + "]";
            ArrayNode content = F.arrayNode();
            for (int j = 0; j < m.content().size(); j++) {
                ObjectNode blk = block(m.content().get(j), p + ".content[" + j + "]");
                if (blk != null) content.add(blk);
            }
            dropBlankTextNextToOthers(content);
            boolean last = i == lastTurn;
            if (content.isEmpty()) {
                // Anthropic rejects empty content except for a final assistant prefill, which then means nothing.
                if (last && m.role() == Role.ASSISTANT) continue;
                content.addObject().put("type", "text").put("text", "...");
            }
            if (out.isEmpty() && m.role() == Role.ASSISTANT) {
                out.addObject().put("role", "user").putArray("content").addObject().put("type", "text").put("text", "...");
            }
            ObjectNode msg = out.addObject();
            msg.put("role", m.role() == Role.ASSISTANT ? "assistant" : "user");
            msg.set("content", content);
        }
        return out;
    }

    /** Whitespace-only text next to other blocks is noise that Anthropic may reject; empty text always is. */
    private static void dropBlankTextNextToOthers(ArrayNode content) {
        if (content.size() < 2) return;
        for (int k = content.size() - 1; k >= 0; k--) {
            JsonNode b = content.get(k);
            if ("text".equals(b.path("type").asText()) && b.path("text").asText().isBlank() && content.size() > 1) {
                content.remove(k);
            }
        }
    }

    private ObjectNode block(ContentBlock b, String p) {
        return switch (b) {
            case ContentBlock.Text t -> t.text().isEmpty() ? null : text(t);
            case ContentBlock.Media m -> media(m, p);
            case ContentBlock.ToolUse u -> {
                ObjectNode o = F.objectNode().put("type", "tool_use")
                        .put("id", ToolCallIds.sanitize(u.id(), ToolCallIds.ANTHROPIC_MAX)).put("name", u.name());
                o.set("input", ToolArguments.toObject(u.arguments()));
                yield cache(o, u.cache());
            }
            case ContentBlock.ToolResult tr -> {
                ObjectNode o = F.objectNode().put("type", "tool_result")
                        .put("tool_use_id", ToolCallIds.sanitize(tr.toolUseId(), ToolCallIds.ANTHROPIC_MAX));
                ArrayNode inner = F.arrayNode();
                for (int k = 0; k < tr.content().size(); k++) {
                    ObjectNode ib = block(tr.content().get(k), p + ".content[" + k + "]");
                    if (ib != null) inner.add(ib);
                }
                if (!inner.isEmpty()) o.set("content", inner);
                if (tr.isError()) o.put("is_error", true);
                yield cache(o, tr.cache());
            }
            case ContentBlock.Thinking t -> {
                if (t.origin() != SignatureOrigin.ANTHROPIC || t.signature() == null) {
                    warnOnce("reasoning", "reasoning produced by another vendor was not replayed to Anthropic");
                    yield null;
                }
                yield F.objectNode().put("type", "thinking").put("thinking", t.text()).put("signature", t.signature());
            }
            case ContentBlock.RedactedThinking rt -> F.objectNode().put("type", "redacted_thinking").put("data", rt.data());
            case ContentBlock.VendorBlock v -> {
                if (v.vendor().equals("anthropic")) yield v.raw();
                warnOnce("vendor-block", "a " + v.vendor() + "-specific content block was dropped");
                yield null;
            }
        };
    }

    private ObjectNode media(ContentBlock.Media m, String p) {
        if (m.kind() == MediaKind.AUDIO) throw GatewayException.invalid(p, "audio input is not supported by this model");
        ObjectNode o = F.objectNode();
        boolean pdfOrText = m.kind() == MediaKind.DOCUMENT || "application/pdf".equals(m.mediaType())
                || "text/plain".equals(m.mediaType());
        o.put("type", pdfOrText ? "document" : "image");
        ObjectNode src = o.putObject("source");
        // a file id would be resolved in the gateway's own account (AccountObjects)
        if (m.fileId() != null) throw AccountObjects.fileRefused(p);
        if (m.isUrl()) {
            src.put("type", "url").put("url", m.url());
        } else if ("text/plain".equals(m.mediaType())) {
            src.put("type", "text").put("media_type", "text/plain")
                    .put("data", new String(Base64.getDecoder().decode(m.data()), StandardCharsets.UTF_8));
        } else {
            if (!pdfOrText && !IMAGE_TYPES.contains(m.mediaType())) {
                throw GatewayException.invalid(p, "image type '" + m.mediaType() + "' is not supported (use jpeg, png, gif or webp)");
            }
            if (pdfOrText && !"application/pdf".equals(m.mediaType())) {
                throw GatewayException.invalid(p, "document type '" + m.mediaType() + "' is not supported (use PDF or plain text)");
            }
            src.put("type", "base64").put("media_type", m.mediaType()).put("data", m.data());
        }
        if (pdfOrText && m.filename() != null) o.put("title", m.filename());
        return cache(o, m.cache());
    }

    private void tools(CanonicalRequest r, ObjectNode body) {
        ArrayNode tools = F.arrayNode();
        for (ToolDefinition t : r.tools()) {
            ObjectNode o = tools.addObject().put("name", t.name());
            if (t.description() != null) o.put("description", t.description());
            o.set("input_schema", t.schema() != null ? t.schema() : emptySchema());
            if (t.strict() != null) o.put("strict", t.strict());
            cache(o, t.cache());
        }
        for (int i = 0; i < r.vendorTools().size(); i++) {
            VendorTool vt = r.vendorTools().get(i);
            if (!vt.vendor().equals("anthropic")) {
                throw GatewayException.invalid("tools[" + (r.tools().size() + i) + "]",
                        "tool type '" + vt.raw().path("type").asText() + "' is not supported by this model");
            }
            tools.add(vt.raw());
        }
        if (tools.isEmpty()) {
            // Anthropic rejects tool_use/tool_result history without tool definitions: declare what was used.
            Set<String> used = new LinkedHashSet<>();
            for (Message m : r.messages()) for (ContentBlock b : m.content()) if (b instanceof ContentBlock.ToolUse u) used.add(u.name());
            for (String name : used) tools.addObject().put("name", name).set("input_schema", emptySchema());
            if (!used.isEmpty()) warn("tools", "declared tools used in the history because the request had none");
        }
        if (!tools.isEmpty()) body.set("tools", tools);
    }

    private void toolChoice(CanonicalRequest r, ObjectNode body, boolean thinkingOn) {
        if (r.toolChoice() == null && !Boolean.FALSE.equals(r.parallelToolCalls())) return;
        if (r.toolChoice() != null && r.toolChoice().forcesTool() && thinkingOn) {
            throw GatewayException.invalid("tool_choice", "forcing a tool is not compatible with extended thinking on this model");
        }
        ObjectNode tc = F.objectNode();
        switch (r.toolChoice() == null ? ToolChoice.Mode.AUTO : r.toolChoice().mode()) {
            case AUTO -> tc.put("type", "auto");
            case REQUIRED -> tc.put("type", "any");
            case NAMED -> tc.put("type", "tool").put("name", r.toolChoice().name());
            case NONE -> tc.put("type", "none");
        }
        if (Boolean.FALSE.equals(r.parallelToolCalls()) && !"none".equals(tc.path("type").asText())) {
            tc.put("disable_parallel_tool_use", true);
        }
        if (body.has("tools")) body.set("tool_choice", tc);
    }

    private void sampling(CanonicalRequest r, ObjectNode body, boolean thinkingOn) {
        if (r.temperature() != null) {
            double t = r.temperature();
            if (thinkingOn && t != 1.0) warn("temperature", "dropped: Anthropic requires the default temperature with thinking");
            else if (t > 1.0) {
                warn("temperature", "clamped from " + t + " to 1.0 (Anthropic's maximum)");
                body.put("temperature", 1.0);
            } else body.put("temperature", t);
        }
        if (r.topP() != null) body.put("top_p", r.topP());
        if (r.topK() != null) {
            if (thinkingOn) warn("top_k", "dropped: not allowed with thinking");
            else body.put("top_k", r.topK());
        }
        List<String> stops = new ArrayList<>();
        for (String s : r.stop()) {
            if (s.isBlank()) warn("stop", "dropped a whitespace-only stop sequence (Anthropic rejects them)");
            else stops.add(s);
        }
        if (!stops.isEmpty()) {
            ArrayNode a = body.putArray("stop_sequences");
            stops.forEach(a::add);
        }
    }

    private void thinking(ReasoningConfig r, int maxTokens, ObjectNode body) {
        if (r == null) return;
        switch (r.mode()) {
            case DISABLED -> body.putObject("thinking").put("type", "disabled");
            case ADAPTIVE -> {
                body.putObject("thinking").put("type", "adaptive");
                if (r.effort() != null) body.putObject("output_config").put("effort", r.effort());
            }
            case ENABLED -> {
                int budget = Math.max(ReasoningBudgets.ANTHROPIC_MIN_BUDGET, ReasoningBudgets.budgetOf(r));
                // budget_tokens must stay below max_tokens; a too-small max_tokens leaves no room to think.
                if (maxTokens <= ReasoningBudgets.ANTHROPIC_MIN_BUDGET) {
                    warn("reasoning", "thinking disabled: max_tokens " + maxTokens + " leaves no room for the minimum budget of 1024");
                    return;
                }
                if (budget >= maxTokens) {
                    warn("reasoning", "thinking budget lowered from " + budget + " to " + (maxTokens - 1) + " to stay below max_tokens");
                    budget = maxTokens - 1;
                }
                body.putObject("thinking").put("type", "enabled").put("budget_tokens", budget);
            }
        }
    }

    private void unmapped(UnmappedFields u, ObjectNode body) {
        if (u == null) return;
        for (Map.Entry<String, JsonNode> e : u.entries()) {
            if (u.protocol().equals(UnmappedFields.MESSAGES)) {
                if (e.getKey().equals("output_config") && body.has("output_config")) {
                    ((ObjectNode) body.get("output_config")).setAll((ObjectNode) e.getValue());
                } else body.set(e.getKey(), e.getValue());
                continue;
            }
            if (MEANINGFUL_CHAT_FIELDS.contains(e.getKey())) {
                if (e.getKey().equals("n") && e.getValue().asInt(1) == 1) continue;
                if (e.getKey().equals("modalities") && !e.getValue().toString().contains("audio")) continue;
                throw GatewayException.invalid(e.getKey(), "'" + e.getKey() + "' is not supported by this model");
            }
            warn(e.getKey(), "dropped: no Anthropic equivalent");
        }
    }

    private static ObjectNode text(ContentBlock.Text t) {
        return cache(F.objectNode().put("type", "text").put("text", t.text()), t.cache());
    }

    private static ObjectNode cache(ObjectNode o, CacheMarker c) {
        if (c != null) {
            ObjectNode cc = o.putObject("cache_control").put("type", "ephemeral");
            if (c.ttl() != null) cc.put("ttl", c.ttl());
        }
        return o;
    }

    static ObjectNode emptySchema() {
        ObjectNode s = F.objectNode().put("type", "object");
        s.putObject("properties");
        return s;
    }

    private void warn(String param, String message) {
        warnings.add(param + ": " + message);
    }

    private void warnOnce(String key, String message) {
        if (warned.add(key)) warnings.add(message);
    }
}
