package dev.modelgateway.wire.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.CacheMarker;
import dev.modelgateway.canonical.CanonicalRequest;
import dev.modelgateway.canonical.ContentBlock;
import dev.modelgateway.canonical.MediaKind;
import dev.modelgateway.canonical.Message;
import dev.modelgateway.canonical.ReasoningConfig;
import dev.modelgateway.canonical.ResponseFormat;
import dev.modelgateway.canonical.Role;
import dev.modelgateway.canonical.SignatureOrigin;
import dev.modelgateway.canonical.ToolArguments;
import dev.modelgateway.canonical.ToolChoice;
import dev.modelgateway.canonical.ToolDefinition;
import dev.modelgateway.canonical.UnmappedFields;
import dev.modelgateway.canonical.VendorTool;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.wire.SignatureEnvelope;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;

import static dev.modelgateway.wire.FieldReader.*;

/** Anthropic Messages request → canonical. */
final class MessagesRequestDecoder {
    private static final Set<String> MAPPED = Set.of("model", "messages", "system", "max_tokens", "tools", "tool_choice",
            "temperature", "top_p", "top_k", "stop_sequences", "stream", "thinking", "output_config", "metadata",
            "platform_options");

    private MessagesRequestDecoder() { }

    static CanonicalRequest decode(JsonNode body) {
        requireObject(body, "body");
        CanonicalRequest.Builder b = CanonicalRequest.builder(UnmappedFields.MESSAGES);
        b.model(requireString(body, "model", ""));
        Integer maxTokens = optInt(body, "max_tokens", "");
        if (maxTokens == null) throw GatewayException.invalid("max_tokens", "max_tokens: Field required");
        b.maxTokens(maxTokens);
        b.system(system(body.get("system")));
        b.messages(messages(requireArray(body, "messages", "")));
        tools(body, b);
        toolChoice(body.get("tool_choice"), b);
        b.temperature(optNumber(body, "temperature", ""));
        b.topP(optNumber(body, "top_p", ""));
        b.topK(optInt(body, "top_k", ""));
        b.stop(optStrings(body, "stop_sequences", ""));
        b.stream(Boolean.TRUE.equals(optBool(body, "stream", "")));
        b.includeUsage(true);
        UnmappedFields unmapped = UnmappedFields.empty(UnmappedFields.MESSAGES);
        JsonNode oc = body.get("output_config");
        b.reasoning(thinking(body.get("thinking"), oc));
        if (oc != null && oc.isObject()) {
            JsonNode format = oc.get("format");
            if (format != null && !format.isNull()) {
                requireObject(format, "output_config.format");
                String type = requireString(format, "type", "output_config.format");
                if (!type.equals("json_schema")) {
                    throw GatewayException.invalid("output_config.format.type", "unsupported format type '" + type + "'");
                }
                b.responseFormat(new ResponseFormat.JsonSchema("response", null,
                        requireObject(format.get("schema"), "output_config.format.schema"), null));
            }
            // effort without adaptive thinking has no canonical slot; keep it for Anthropic.
            ObjectNode rest = ((ObjectNode) oc).deepCopy();
            rest.remove("format");
            if (isAdaptive(body.get("thinking"))) rest.remove("effort");
            if (!rest.isEmpty()) unmapped.fields().set("output_config", rest);
        }
        JsonNode metadata = body.get("metadata");
        if (metadata != null && metadata.isObject()) {
            b.user(optString(metadata, "user_id", "metadata"));
        }
        body.properties().forEach(e -> {
            if (!MAPPED.contains(e.getKey()) && !e.getValue().isNull()) unmapped.fields().set(e.getKey(), e.getValue());
        });
        b.unmapped(unmapped);
        return b.build();
    }

    private static boolean isAdaptive(JsonNode thinking) {
        return thinking != null && "adaptive".equals(thinking.path("type").asText());
    }

    private static List<ContentBlock.Text> system(JsonNode system) {
        List<ContentBlock.Text> out = new ArrayList<>();
        if (system == null || system.isNull()) return out;
        if (system.isTextual()) {
            if (!system.asText().isEmpty()) out.add(new ContentBlock.Text(system.asText()));
            return out;
        }
        if (!system.isArray()) throw GatewayException.invalid("system", "'system' must be a string or an array of text blocks");
        for (int i = 0; i < system.size(); i++) {
            String p = path("system", i);
            JsonNode blk = requireObject(system.get(i), p);
            String type = requireString(blk, "type", p);
            if (!type.equals("text")) throw GatewayException.invalid(path(p, "type"), "system blocks must be text");
            String text = requireString(blk, "text", p);
            if (!text.isEmpty()) out.add(new ContentBlock.Text(text, cache(blk)));
        }
        return out;
    }

    private static List<Message> messages(JsonNode messages) {
        List<Message> out = new ArrayList<>();
        for (int i = 0; i < messages.size(); i++) {
            String p = path("messages", i);
            JsonNode m = requireObject(messages.get(i), p);
            String role = requireString(m, "role", p);
            Role r = switch (role) {
                case "user" -> Role.USER;
                case "assistant" -> Role.ASSISTANT;
                case "system" -> Role.SYSTEM;
                default -> throw GatewayException.invalid(path(p, "role"), "unsupported role '" + role + "'");
            };
            JsonNode content = m.get("content");
            String cp = path(p, "content");
            if (content == null || content.isNull()) throw GatewayException.invalid(cp, "'" + cp + "' is required");
            out.add(new Message(r, blocks(content, cp)));
        }
        return out;
    }

    private static List<ContentBlock> blocks(JsonNode content, String p) {
        List<ContentBlock> out = new ArrayList<>();
        if (content.isTextual()) {
            if (!content.asText().isEmpty()) out.add(new ContentBlock.Text(content.asText()));
            return out;
        }
        if (!content.isArray()) throw GatewayException.invalid(p, "'" + p + "' must be a string or an array of blocks");
        String pendingCallSignature = null;
        String pendingTextSignature = null;
        for (int i = 0; i < content.size(); i++) {
            String bp = path(p, i);
            JsonNode blk = requireObject(content.get(i), bp);
            String type = requireString(blk, "type", bp);
            switch (type) {
                case "text" -> {
                    String text = requireString(blk, "text", bp);
                    if (!text.isEmpty()) out.add(new ContentBlock.Text(text, cache(blk)));
                    // The canonical place of a text part's Gemini signature: right after the text.
                    if (pendingTextSignature != null) out.add(new ContentBlock.Thinking("", pendingTextSignature, SignatureOrigin.GEMINI));
                    pendingTextSignature = null;
                }
                case "image" -> out.add(media(MediaKind.IMAGE, blk, bp));
                case "document" -> {
                    String st = blk.path("source").path("type").asText();
                    if (st.equals("content")) out.add(new ContentBlock.VendorBlock("anthropic", (ObjectNode) blk));
                    else out.add(media(MediaKind.DOCUMENT, blk, bp));
                }
                case "tool_use" -> {
                    String id = requireString(blk, "id", bp);
                    String name = requireString(blk, "name", bp);
                    JsonNode input = blk.get("input");
                    if (input != null && !input.isNull() && !input.isObject()) {
                        throw GatewayException.invalid(path(bp, "input"), "'" + path(bp, "input") + "' must be an object");
                    }
                    out.add(new ContentBlock.ToolUse(id, name, ToolArguments.toText(input), pendingCallSignature, cache(blk)));
                    pendingCallSignature = null;
                }
                case "tool_result" -> {
                    String id = requireString(blk, "tool_use_id", bp);
                    JsonNode c = blk.get("content");
                    List<ContentBlock> inner = c == null || c.isNull() ? List.of() : blocks(c, path(bp, "content"));
                    Boolean isError = optBool(blk, "is_error", bp);
                    out.add(new ContentBlock.ToolResult(id, inner, Boolean.TRUE.equals(isError), cache(blk)));
                }
                case "thinking" -> {
                    String text = requireString(blk, "thinking", bp);
                    SignatureEnvelope.Opened sig = SignatureEnvelope.open(blk.path("signature").asText(""));
                    if (sig.forNextCall()) pendingCallSignature = sig.signature();
                    else if (sig.forNextText()) pendingTextSignature = sig.signature();
                    else out.add(new ContentBlock.Thinking(text, sig.signature(), sig.origin()));
                }
                case "redacted_thinking" -> out.add(new ContentBlock.RedactedThinking(requireString(blk, "data", bp)));
                default -> out.add(new ContentBlock.VendorBlock("anthropic", (ObjectNode) blk));
            }
        }
        if (pendingTextSignature != null) out.add(new ContentBlock.Thinking("", pendingTextSignature, SignatureOrigin.GEMINI));
        return out;
    }

    private static ContentBlock.Media media(MediaKind kind, JsonNode blk, String p) {
        String sp = path(p, "source");
        JsonNode src = requireObject(blk.get("source"), sp);
        String type = requireString(src, "type", sp);
        CacheMarker cache = cache(blk);
        String title = blk.path("title").asText(null);
        return switch (type) {
            case "base64" -> new ContentBlock.Media(kind, requireString(src, "media_type", sp), requireString(src, "data", sp),
                    null, null, title, cache);
            case "url" -> new ContentBlock.Media(kind, null, null, requireString(src, "url", sp), null, title, cache);
            case "text" -> new ContentBlock.Media(kind, "text/plain", Base64.getEncoder().encodeToString(
                    requireString(src, "data", sp).getBytes(StandardCharsets.UTF_8)), null, null, title, cache);
            case "file" -> new ContentBlock.Media(kind, null, null, null, requireString(src, "file_id", sp), title, cache);
            default -> throw GatewayException.invalid(path(sp, "type"), "unsupported source type '" + type + "'");
        };
    }

    private static void tools(JsonNode body, CanonicalRequest.Builder b) {
        JsonNode tools = optArray(body, "tools", "");
        List<ToolDefinition> defs = new ArrayList<>();
        List<VendorTool> vendor = new ArrayList<>();
        if (tools != null) {
            for (int i = 0; i < tools.size(); i++) {
                String p = path("tools", i);
                JsonNode t = requireObject(tools.get(i), p);
                String type = t.path("type").asText("custom");
                if (type.equals("custom")) {
                    JsonNode schema = t.get("input_schema");
                    if (schema == null || !schema.isObject()) {
                        throw GatewayException.invalid(path(p, "input_schema"), "'" + path(p, "input_schema") + "' is required");
                    }
                    defs.add(new ToolDefinition(requireString(t, "name", p), optString(t, "description", p), schema,
                            optBool(t, "strict", p), cache(t)));
                } else {
                    vendor.add(new VendorTool("anthropic", (ObjectNode) t));
                }
            }
        }
        b.tools(defs).vendorTools(vendor);
    }

    private static void toolChoice(JsonNode tc, CanonicalRequest.Builder b) {
        if (tc == null || tc.isNull()) return;
        requireObject(tc, "tool_choice");
        String type = requireString(tc, "type", "tool_choice");
        b.toolChoice(switch (type) {
            case "auto" -> ToolChoice.AUTO;
            case "any" -> ToolChoice.REQUIRED;
            case "none" -> ToolChoice.NONE;
            case "tool" -> ToolChoice.named(requireString(tc, "name", "tool_choice"));
            default -> throw GatewayException.invalid("tool_choice.type", "unsupported tool_choice type '" + type + "'");
        });
        if (Boolean.TRUE.equals(optBool(tc, "disable_parallel_tool_use", "tool_choice"))) b.parallelToolCalls(false);
    }

    private static ReasoningConfig thinking(JsonNode t, JsonNode outputConfig) {
        if (t == null || t.isNull()) return null;
        requireObject(t, "thinking");
        String type = requireString(t, "type", "thinking");
        return switch (type) {
            case "enabled" -> {
                Integer budget = optInt(t, "budget_tokens", "thinking");
                if (budget == null) throw GatewayException.invalid("thinking.budget_tokens", "thinking.budget_tokens: Field required");
                yield new ReasoningConfig(ReasoningConfig.Mode.ENABLED, budget, null);
            }
            case "adaptive" -> new ReasoningConfig(ReasoningConfig.Mode.ADAPTIVE, null,
                    outputConfig == null ? null : outputConfig.path("effort").asText(null));
            case "disabled" -> ReasoningConfig.DISABLED;
            default -> throw GatewayException.invalid("thinking.type", "unsupported thinking type '" + type + "'");
        };
    }

    private static CacheMarker cache(JsonNode blk) {
        JsonNode cc = blk.get("cache_control");
        if (cc == null || !cc.isObject()) return null;
        return new CacheMarker(cc.path("ttl").asText(null));
    }
}
