package dev.modelgateway.wire.openai.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.CacheMarker;
import dev.modelgateway.canonical.CanonicalRequest;
import dev.modelgateway.canonical.ContentBlock;
import dev.modelgateway.canonical.DataUrl;
import dev.modelgateway.canonical.Message;
import dev.modelgateway.canonical.ReasoningBudgets;
import dev.modelgateway.canonical.ReasoningConfig;
import dev.modelgateway.canonical.ResponseFormat;
import dev.modelgateway.canonical.ToolArguments;
import dev.modelgateway.canonical.ToolCallIds;
import dev.modelgateway.canonical.ToolDefinition;
import dev.modelgateway.canonical.UnmappedFields;
import dev.modelgateway.canonical.VendorTool;
import dev.modelgateway.error.GatewayException;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Canonical request → chat completions body for OpenAI-shaped upstreams. A user turn holding tool results
 * becomes one {@code tool} message per result, then a user message with whatever followed them (and with
 * images from tool results, which tool messages cannot hold). One instance per request.
 */
public final class ChatCompletionsRequestEncoder {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private final ChatDialect dialect;
    private final List<String> warnings = new ArrayList<>();
    private final Set<String> warned = new LinkedHashSet<>();

    public ChatCompletionsRequestEncoder(ChatDialect dialect) {
        this.dialect = dialect;
    }

    public List<String> warnings() { return warnings; }

    public ObjectNode encode(CanonicalRequest r, String model, boolean stream) {
        ObjectNode body = F.objectNode();
        body.put("model", model);
        ArrayNode messages = body.putArray("messages");
        if (!r.system().isEmpty()) messages.add(system(r.system()));
        for (int i = 0; i < r.messages().size(); i++) {
            message(r.messages().get(i), "messages[" + i + "]", i == r.messages().size() - 1, messages);
        }
        tools(r, body);
        if (r.maxTokens() != null) body.put(dialect.maxTokensField(), r.maxTokens());
        if (r.temperature() != null) body.put("temperature", r.temperature());
        if (r.topP() != null) body.put("top_p", r.topP());
        if (r.topK() != null) {
            if (dialect.topK()) body.put("top_k", r.topK());
            else warn("top_k", "dropped: not supported by this upstream");
        }
        if (!r.stop().isEmpty()) {
            if (r.stop().size() > dialect.maxStop()) {
                throw GatewayException.invalid("stop", "at most " + dialect.maxStop() + " stop sequences are supported by this model");
            }
            ArrayNode stop = body.putArray("stop");
            r.stop().forEach(stop::add);
        }
        responseFormat(r, body);
        reasoning(r, body);
        if (r.user() != null) body.put("user", r.user());
        unmapped(r.unmapped(), body);
        if (stream) {
            body.put("stream", true);
            // Always ask for usage: billing needs it; the inbound encoder strips it if the client did not ask.
            body.putObject("stream_options").put("include_usage", true);
        }
        return body;
    }

    private ObjectNode system(List<ContentBlock.Text> blocks) {
        ObjectNode m = F.objectNode().put("role", "system");
        boolean cached = dialect.cacheControl() && blocks.stream().anyMatch(b -> b.cache() != null);
        if (blocks.size() == 1 && !cached) {
            m.put("content", blocks.getFirst().text());
        } else {
            ArrayNode parts = m.putArray("content");
            for (ContentBlock.Text t : blocks) parts.add(textPart(t));
        }
        return m;
    }

    private void message(Message m, String p, boolean last, ArrayNode out) {
        switch (m.role()) {
            case SYSTEM -> {
                List<ContentBlock.Text> texts = new ArrayList<>();
                for (ContentBlock b : m.content()) if (b instanceof ContentBlock.Text t && !t.text().isEmpty()) texts.add(t);
                if (!texts.isEmpty()) out.add(system(texts));
            }
            case USER -> user(m, p, out);
            case ASSISTANT -> assistant(m, last, out);
        }
    }

    private void user(Message m, String p, ArrayNode out) {
        ArrayNode parts = F.arrayNode();
        ArrayNode resultMedia = F.arrayNode();
        for (int j = 0; j < m.content().size(); j++) {
            ContentBlock b = m.content().get(j);
            String bp = p + ".content[" + j + "]";
            if (b instanceof ContentBlock.ToolResult tr) {
                ObjectNode tool = out.addObject().put("role", "tool")
                        .put("tool_call_id", ToolCallIds.sanitize(tr.toolUseId(), ToolCallIds.OPENAI_MAX));
                StringBuilder text = new StringBuilder();
                for (int k = 0; k < tr.content().size(); k++) {
                    ContentBlock inner = tr.content().get(k);
                    if (inner instanceof ContentBlock.Text t) {
                        if (!text.isEmpty()) text.append('\n');
                        text.append(t.text());
                    } else if (inner instanceof ContentBlock.Media md) {
                        resultMedia.add(mediaPart(md, bp + ".content[" + k + "]"));
                    }
                }
                String content = text.toString();
                if (tr.isError()) content = content.isEmpty() ? "Error" : "Error: " + content;
                tool.put("content", content);
            } else {
                ObjectNode part = userPart(b, bp);
                if (part != null) parts.add(part);
            }
        }
        if (!resultMedia.isEmpty()) {
            // Chat tool messages only take text: images from tool results follow in a user message.
            ArrayNode merged = F.arrayNode();
            merged.addObject().put("type", "text").put("text", "Images returned by the tool calls above:");
            merged.addAll(resultMedia);
            merged.addAll(parts);
            parts = merged;
        }
        if (parts.isEmpty()) return;
        ObjectNode msg = out.addObject().put("role", "user");
        if (parts.size() == 1 && "text".equals(parts.get(0).path("type").asText()) && !parts.get(0).has("cache_control")) {
            msg.put("content", parts.get(0).path("text").asText());
        } else msg.set("content", parts);
    }

    private ObjectNode userPart(ContentBlock b, String p) {
        return switch (b) {
            case ContentBlock.Text t -> t.text().isEmpty() ? null : textPart(t);
            case ContentBlock.Media m -> mediaPart(m, p);
            case ContentBlock.VendorBlock v -> {
                warnOnce("vendor-block", "a " + v.vendor() + "-specific content block was dropped");
                yield null;
            }
            default -> null;
        };
    }

    private ObjectNode mediaPart(ContentBlock.Media m, String p) {
        ObjectNode part = F.objectNode();
        if (m.fileId() != null) {
            if (!dialect.fileIds()) throw GatewayException.invalid(p, "file references are not supported by this model");
            part.put("type", "file").putObject("file").put("file_id", m.fileId());
            return cache(part, m.cache());
        }
        switch (m.kind()) {
            case IMAGE -> part.put("type", "image_url").putObject("image_url")
                    .put("url", m.isUrl() ? m.url() : DataUrl.format(m.mediaType(), m.data()));
            case AUDIO -> {
                if (m.isUrl()) throw GatewayException.invalid(p, "audio must be inline base64");
                String fmt = m.mediaType() == null ? "wav" : m.mediaType().substring(m.mediaType().indexOf('/') + 1);
                part.put("type", "input_audio").putObject("input_audio").put("data", m.data())
                        .put("format", fmt.equals("mpeg") ? "mp3" : fmt);
            }
            case DOCUMENT -> {
                if (m.isUrl()) throw GatewayException.invalid(p, "documents must be inline (the gateway fetches URLs first)");
                ObjectNode f = part.put("type", "file").putObject("file");
                f.put("file_data", DataUrl.format(m.mediaType(), m.data()));
                f.put("filename", m.filename() != null ? m.filename() : "document" + (m.mediaType() != null
                        && m.mediaType().equals("application/pdf") ? ".pdf" : ".txt"));
            }
        }
        return cache(part, m.cache());
    }

    private void assistant(Message m, boolean last, ArrayNode out) {
        ObjectNode msg = F.objectNode().put("role", "assistant");
        StringBuilder text = new StringBuilder();
        StringBuilder reasoning = new StringBuilder();
        ArrayNode calls = F.arrayNode();
        for (ContentBlock b : m.content()) {
            switch (b) {
                case ContentBlock.Text t -> text.append(t.text());
                case ContentBlock.Thinking t -> reasoning.append(t.text());
                case ContentBlock.ToolUse u -> {
                    ObjectNode c = calls.addObject();
                    c.put("id", ToolCallIds.sanitize(u.id(), ToolCallIds.OPENAI_MAX));
                    c.put("type", "function");
                    // Replayed arguments must be valid JSON (DashScope rejects anything else).
                    c.putObject("function").put("name", u.name()).put("arguments", ToolArguments.toValidJson(u.arguments()));
                }
                case ContentBlock.RedactedThinking ignored -> { }
                case ContentBlock.VendorBlock v -> warnOnce("vendor-block", "a " + v.vendor() + "-specific content block was dropped");
                default -> { }
            }
        }
        if (text.isEmpty() && calls.isEmpty() && reasoning.isEmpty()) {
            if (last) return;
            text.append("...");
        }
        if (text.isEmpty()) msg.putNull("content"); else msg.put("content", text.toString());
        if (dialect.replaysReasoning() && !reasoning.isEmpty()) msg.put("reasoning_content", reasoning.toString());
        if (!calls.isEmpty()) msg.set("tool_calls", calls);
        if (last && dialect.partialPrefill() && calls.isEmpty() && !text.isEmpty()) msg.put("partial", true);
        out.add(msg);
    }

    private void tools(CanonicalRequest r, ObjectNode body) {
        ArrayNode tools = F.arrayNode();
        for (ToolDefinition t : r.tools()) {
            ObjectNode fn = tools.addObject().put("type", "function").putObject("function");
            fn.put("name", t.name());
            if (t.description() != null) fn.put("description", t.description());
            if (t.schema() != null) fn.set("parameters", t.schema());
            else fn.putObject("parameters").put("type", "object").putObject("properties");
            if (t.strict() != null) fn.put("strict", t.strict());
        }
        for (int i = 0; i < r.vendorTools().size(); i++) {
            VendorTool vt = r.vendorTools().get(i);
            if (!vt.vendor().equals("openai") || !dialect.fileIds()) {
                throw GatewayException.invalid("tools[" + (r.tools().size() + i) + "]",
                        "tool type '" + vt.raw().path("type").asText() + "' is not supported by this model");
            }
            tools.add(vt.raw());
        }
        if (!tools.isEmpty()) body.set("tools", tools);
        if (r.toolChoice() != null) {
            switch (r.toolChoice().mode()) {
                case AUTO -> body.put("tool_choice", "auto");
                case NONE -> body.put("tool_choice", "none");
                case REQUIRED -> body.put("tool_choice", "required");
                case NAMED -> body.putObject("tool_choice").put("type", "function")
                        .putObject("function").put("name", r.toolChoice().name());
            }
        }
        if (r.parallelToolCalls() != null && !tools.isEmpty()) body.put("parallel_tool_calls", r.parallelToolCalls());
    }

    private void responseFormat(CanonicalRequest r, ObjectNode body) {
        switch (r.responseFormat()) {
            case null -> { }
            case ResponseFormat.JsonObject ignored -> body.putObject("response_format").put("type", "json_object");
            case ResponseFormat.JsonSchema js -> {
                ObjectNode s = body.putObject("response_format").put("type", "json_schema").putObject("json_schema");
                s.put("name", js.name());
                if (js.description() != null) s.put("description", js.description());
                if (js.schema() != null) s.set("schema", js.schema());
                // Anthropic callers have no strict switch: leave it unset rather than claim strict compliance.
                if (js.strict() != null) s.put("strict", js.strict());
            }
        }
    }

    private void reasoning(CanonicalRequest r, ObjectNode body) {
        ReasoningConfig rc = r.reasoning();
        if (rc == null) return;
        if (dialect.qwenThinking()) {
            String warning = QwenThinking.apply(rc, r.responseFormat() != null, body);
            if (warning != null) warnings.add(warning);
            return;
        }
        if (!rc.isOn()) {
            warn("reasoning", "dropped: reasoning cannot be switched off on this upstream");
            return;
        }
        String effort = ReasoningBudgets.effortOf(rc);
        if (effort != null) body.put("reasoning_effort", effort);
    }

    private void unmapped(UnmappedFields u, ObjectNode body) {
        if (u == null) return;
        for (Map.Entry<String, JsonNode> e : u.entries()) {
            if (u.protocol().equals(UnmappedFields.CHAT)) body.set(e.getKey(), e.getValue());
            else warn(e.getKey(), "dropped: no equivalent on this upstream");
        }
    }

    private ObjectNode textPart(ContentBlock.Text t) {
        return cache(F.objectNode().put("type", "text").put("text", t.text()), t.cache());
    }

    private ObjectNode cache(ObjectNode part, CacheMarker c) {
        if (c != null && dialect.cacheControl()) part.putObject("cache_control").put("type", "ephemeral");
        return part;
    }

    private void warn(String param, String message) {
        warnings.add(param + ": " + message);
    }

    private void warnOnce(String key, String message) {
        if (warned.add(key)) warnings.add(message);
    }

}
