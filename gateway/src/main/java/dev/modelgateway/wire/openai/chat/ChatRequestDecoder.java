package dev.modelgateway.wire.openai.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.CacheMarker;
import dev.modelgateway.canonical.CanonicalRequest;
import dev.modelgateway.canonical.ContentBlock;
import dev.modelgateway.canonical.DataUrl;
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

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static dev.modelgateway.wire.FieldReader.*;

/**
 * Chat Completions request → canonical. Tool messages (and a user message right after them) become one user
 * turn of tool results, the Anthropic shape; leading system/developer messages become the system prompt and
 * later ones stay in place as SYSTEM messages.
 */
final class ChatRequestDecoder {
    /** Fields with a typed slot; everything else goes to the unmapped bag. */
    private static final Set<String> MAPPED = Set.of("model", "messages", "tools", "tool_choice", "parallel_tool_calls",
            "max_tokens", "max_completion_tokens", "temperature", "top_p", "top_k", "stop", "response_format",
            "reasoning_effort", "enable_thinking", "thinking_budget", "stream", "stream_options", "user",
            "platform_options");

    private ChatRequestDecoder() { }

    static CanonicalRequest decode(JsonNode body) {
        requireObject(body, "body");
        CanonicalRequest.Builder b = CanonicalRequest.builder(UnmappedFields.CHAT);
        b.model(requireString(body, "model", ""));
        decodeMessages(requireArray(body, "messages", ""), b);
        decodeTools(body, b);
        b.toolChoice(decodeToolChoice(body.get("tool_choice")));
        b.parallelToolCalls(optBool(body, "parallel_tool_calls", ""));
        Integer maxCompletion = optInt(body, "max_completion_tokens", "");
        b.maxTokens(maxCompletion != null ? maxCompletion : optInt(body, "max_tokens", ""));
        b.temperature(optNumber(body, "temperature", ""));
        b.topP(optNumber(body, "top_p", ""));
        b.topK(optInt(body, "top_k", ""));
        b.stop(optStrings(body, "stop", ""));
        b.responseFormat(decodeResponseFormat(body.get("response_format")));
        b.reasoning(decodeReasoning(body));
        b.stream(Boolean.TRUE.equals(optBool(body, "stream", "")));
        JsonNode so = body.get("stream_options");
        b.includeUsage(so != null && so.path("include_usage").asBoolean(false));
        b.user(optString(body, "user", ""));
        UnmappedFields unmapped = UnmappedFields.empty(UnmappedFields.CHAT);
        body.properties().forEach(e -> {
            if (!MAPPED.contains(e.getKey()) && !e.getValue().isNull()) unmapped.fields().set(e.getKey(), e.getValue());
        });
        b.unmapped(unmapped);
        return b.build();
    }

    private static void decodeMessages(JsonNode messages, CanonicalRequest.Builder b) {
        if (messages.isEmpty()) throw invalid("messages", "'messages' must contain at least one message");
        List<ContentBlock.Text> system = new ArrayList<>();
        List<Message> out = new ArrayList<>();
        List<ContentBlock> pendingResults = new ArrayList<>();
        boolean leading = true;
        for (int i = 0; i < messages.size(); i++) {
            String p = path("messages", i);
            JsonNode m = requireObject(messages.get(i), p);
            String role = requireString(m, "role", p);
            if (!role.equals("tool") && !role.equals("function") && !pendingResults.isEmpty() && !role.equals("user")) {
                out.add(new Message(Role.USER, pendingResults));
                pendingResults = new ArrayList<>();
            }
            switch (role) {
                case "system", "developer" -> {
                    List<ContentBlock.Text> texts = textOnly(m.get("content"), path(p, "content"));
                    if (leading) system.addAll(texts);
                    else if (!texts.isEmpty()) out.add(new Message(Role.SYSTEM, List.copyOf(texts)));
                }
                case "user" -> {
                    leading = false;
                    List<ContentBlock> content = new ArrayList<>(pendingResults);
                    pendingResults = new ArrayList<>();
                    content.addAll(userContent(m.get("content"), path(p, "content")));
                    out.add(new Message(Role.USER, content));
                }
                case "assistant" -> {
                    leading = false;
                    out.add(new Message(Role.ASSISTANT, assistantContent(m, p)));
                }
                case "tool" -> {
                    leading = false;
                    String id = requireString(m, "tool_call_id", p);
                    pendingResults.add(new ContentBlock.ToolResult(id, toolContent(m.get("content"), path(p, "content")),
                            false, null));
                }
                case "function" -> {
                    leading = false;
                    String name = requireString(m, "name", p);
                    pendingResults.add(new ContentBlock.ToolResult(name, toolContent(m.get("content"), path(p, "content")),
                            false, null));
                }
                default -> throw invalid(path(p, "role"), "unsupported role '" + role + "'");
            }
        }
        if (!pendingResults.isEmpty()) out.add(new Message(Role.USER, pendingResults));
        b.system(system).messages(out);
    }

    /** System/developer content: a string or text parts. Empty text is dropped (vendors reject it). */
    private static List<ContentBlock.Text> textOnly(JsonNode content, String p) {
        List<ContentBlock.Text> out = new ArrayList<>();
        if (content == null || content.isNull()) return out;
        if (content.isTextual()) {
            if (!content.asText().isEmpty()) out.add(new ContentBlock.Text(content.asText()));
            return out;
        }
        if (!content.isArray()) throw invalid(p, "'" + p + "' must be a string or an array of content parts");
        for (int i = 0; i < content.size(); i++) {
            String pp = path(p, i);
            JsonNode part = requireObject(content.get(i), pp);
            String type = requireString(part, "type", pp);
            if (!type.equals("text")) throw invalid(path(pp, "type"), "only text parts are allowed here, got '" + type + "'");
            String text = requireString(part, "text", pp);
            if (!text.isEmpty()) out.add(new ContentBlock.Text(text, cacheOf(part)));
        }
        return out;
    }

    private static List<ContentBlock> userContent(JsonNode content, String p) {
        List<ContentBlock> out = new ArrayList<>();
        if (content == null || content.isNull()) throw invalid(p, "'" + p + "' is required");
        if (content.isTextual()) {
            if (!content.asText().isEmpty()) out.add(new ContentBlock.Text(content.asText()));
            return out;
        }
        if (!content.isArray()) throw invalid(p, "'" + p + "' must be a string or an array of content parts");
        for (int i = 0; i < content.size(); i++) {
            ContentBlock block = part(content.get(i), path(p, i));
            if (block != null) out.add(block);
        }
        return out;
    }

    private static ContentBlock part(JsonNode node, String p) {
        JsonNode part = requireObject(node, p);
        String type = requireString(part, "type", p);
        return switch (type) {
            case "text" -> {
                String text = requireString(part, "text", p);
                yield text.isEmpty() ? null : new ContentBlock.Text(text, cacheOf(part));
            }
            case "image_url" -> {
                JsonNode iu = part.get("image_url");
                String url = iu != null && iu.isTextual() ? iu.asText()
                        : requireString(requireObject(iu, path(p, "image_url")), "url", path(p, "image_url"));
                yield media(MediaKind.IMAGE, url, null, cacheOf(part), path(p, "image_url.url"));
            }
            case "input_audio" -> {
                String pa = path(p, "input_audio");
                JsonNode a = requireObject(part.get("input_audio"), pa);
                String data = requireString(a, "data", pa);
                String format = requireString(a, "format", pa);
                yield ContentBlock.Media.base64(MediaKind.AUDIO, "audio/" + format, data);
            }
            case "file" -> {
                String pf = path(p, "file");
                JsonNode f = requireObject(part.get("file"), pf);
                String filename = optString(f, "filename", pf);
                String fileId = optString(f, "file_id", pf);
                String data = optString(f, "file_data", pf);
                if (fileId != null) {
                    yield new ContentBlock.Media(MediaKind.DOCUMENT, null, null, null, fileId, filename, cacheOf(part));
                }
                if (data == null) throw invalid(pf, "'" + pf + "' needs file_data or file_id");
                DataUrl du = DataUrl.parse(data);
                yield du != null
                        ? new ContentBlock.Media(MediaKind.DOCUMENT, du.mediaType(), du.base64(), null, null, filename, cacheOf(part))
                        : new ContentBlock.Media(MediaKind.DOCUMENT, "application/pdf", data, null, null, filename, cacheOf(part));
            }
            case "refusal" -> {
                String text = requireString(part, "refusal", p);
                yield text.isEmpty() ? null : new ContentBlock.Text(text);
            }
            default -> throw invalid(path(p, "type"), "unsupported content part type '" + type + "'");
        };
    }

    private static ContentBlock.Media media(MediaKind kind, String url, String filename, CacheMarker cache, String p) {
        if (DataUrl.isDataUrl(url)) {
            DataUrl du = DataUrl.parse(url);
            if (du == null) throw invalid(p, "'" + p + "' is not a base64 data URL");
            MediaKind k = du.mediaType().equals("application/pdf") ? MediaKind.DOCUMENT : kind;
            return new ContentBlock.Media(k, du.mediaType(), du.base64(), null, null, filename, cache);
        }
        if (!(url.startsWith("http://") || url.startsWith("https://") || url.startsWith("gs://"))) {
            throw invalid(p, "'" + p + "' must be an http(s) URL or a data URL");
        }
        return new ContentBlock.Media(kind, null, null, url, null, filename, cache);
    }

    /** Tool message content: text parts (and, leniently, images, which Chat itself does not allow). */
    private static List<ContentBlock> toolContent(JsonNode content, String p) {
        if (content == null || content.isNull()) return List.of();
        return userContent(content, p);
    }

    private static List<ContentBlock> assistantContent(JsonNode m, String p) {
        List<ContentBlock> out = new ArrayList<>();
        List<String> callSignatures = new ArrayList<>();
        String textSignature = null;
        JsonNode blocks = optArray(m, "thinking_blocks", p);
        if (blocks != null) {
            for (int i = 0; i < blocks.size(); i++) {
                String bp = path(path(p, "thinking_blocks"), i);
                JsonNode tb = requireObject(blocks.get(i), bp);
                String type = requireString(tb, "type", bp);
                switch (type) {
                    case "thinking" -> {
                        String text = tb.path("thinking").asText("");
                        SignatureEnvelope.Opened sig = SignatureEnvelope.open(tb.path("signature").asText(""));
                        if (sig.forNextCall()) callSignatures.add(sig.signature());
                        else if (sig.forNextText()) textSignature = sig.signature();
                        else out.add(new ContentBlock.Thinking(text, sig.signature(), sig.origin()));
                    }
                    case "redacted_thinking" -> out.add(new ContentBlock.RedactedThinking(requireString(tb, "data", bp)));
                    default -> throw invalid(path(bp, "type"), "unknown thinking block type '" + type + "'");
                }
            }
        } else {
            String reasoning = optString(m, "reasoning_content", p);
            if (reasoning != null && !reasoning.isEmpty()) {
                out.add(new ContentBlock.Thinking(reasoning, null, SignatureOrigin.NONE));
            }
        }
        JsonNode content = m.get("content");
        if (content != null && !content.isNull()) out.addAll(userContent(content, path(p, "content")));
        if (textSignature != null) {
            // The canonical place of a text part's Gemini signature: right after the text.
            int at = out.size();
            while (at > 0 && !(out.get(at - 1) instanceof ContentBlock.Text)) at--;
            out.add(at == 0 ? out.size() : at, new ContentBlock.Thinking("", textSignature, SignatureOrigin.GEMINI));
        }
        String refusal = optString(m, "refusal", p);
        if (refusal != null && !refusal.isEmpty()) out.add(new ContentBlock.Text(refusal));
        JsonNode calls = optArray(m, "tool_calls", p);
        if (calls != null) {
            for (int i = 0; i < calls.size(); i++) {
                String cp = path(path(p, "tool_calls"), i);
                JsonNode c = requireObject(calls.get(i), cp);
                String id = requireString(c, "id", cp);
                JsonNode fn = requireObject(c.get("function"), path(cp, "function"));
                String name = requireString(fn, "name", path(cp, "function"));
                JsonNode args = fn.get("arguments");
                String argText = args == null || args.isNull() ? "" : args.isTextual() ? args.asText() : ToolArguments.toText(args);
                String sig = c.path("extra_content").path("google").path("thought_signature").asText(null);
                if (sig == null && !callSignatures.isEmpty()) sig = callSignatures.removeFirst();
                out.add(new ContentBlock.ToolUse(id, name, argText, sig, null));
            }
        }
        JsonNode fc = m.get("function_call");
        if (fc != null && fc.isObject()) {
            String name = requireString(fc, "name", path(p, "function_call"));
            out.add(new ContentBlock.ToolUse(name, name, fc.path("arguments").asText("")));
        }
        return out;
    }

    private static void decodeTools(JsonNode body, CanonicalRequest.Builder b) {
        JsonNode tools = optArray(body, "tools", "");
        List<ToolDefinition> defs = new ArrayList<>();
        List<VendorTool> vendor = new ArrayList<>();
        if (tools != null) {
            for (int i = 0; i < tools.size(); i++) {
                String p = path("tools", i);
                JsonNode t = requireObject(tools.get(i), p);
                String type = requireString(t, "type", p);
                if (type.equals("function")) {
                    String fp = path(p, "function");
                    JsonNode fn = requireObject(t.get("function"), fp);
                    JsonNode params = fn.get("parameters");
                    if (params != null && !params.isNull() && !params.isObject()) {
                        throw invalid(path(fp, "parameters"), "'" + path(fp, "parameters") + "' must be a JSON Schema object");
                    }
                    defs.add(new ToolDefinition(requireString(fn, "name", fp), optString(fn, "description", fp),
                            params == null || params.isNull() ? null : params, optBool(fn, "strict", fp), null));
                } else {
                    vendor.add(new VendorTool("openai", (ObjectNode) t));
                }
            }
        }
        JsonNode functions = optArray(body, "functions", "");
        if (functions != null) {
            for (int i = 0; i < functions.size(); i++) {
                String p = path("functions", i);
                JsonNode fn = requireObject(functions.get(i), p);
                defs.add(new ToolDefinition(requireString(fn, "name", p), optString(fn, "description", p),
                        fn.get("parameters"), null, null));
            }
        }
        b.tools(defs).vendorTools(vendor);
    }

    private static ToolChoice decodeToolChoice(JsonNode tc) {
        if (tc == null || tc.isNull()) return null;
        if (tc.isTextual()) {
            return switch (tc.asText()) {
                case "auto" -> ToolChoice.AUTO;
                case "none" -> ToolChoice.NONE;
                case "required" -> ToolChoice.REQUIRED;
                default -> throw invalid("tool_choice", "tool_choice must be none, auto, required or a function");
            };
        }
        if (tc.isObject() && "function".equals(tc.path("type").asText())) {
            return ToolChoice.named(requireString(requireObject(tc.get("function"), "tool_choice.function"), "name",
                    "tool_choice.function"));
        }
        throw invalid("tool_choice", "unsupported tool_choice");
    }

    private static ResponseFormat decodeResponseFormat(JsonNode rf) {
        if (rf == null || rf.isNull()) return null;
        requireObject(rf, "response_format");
        String type = requireString(rf, "type", "response_format");
        return switch (type) {
            case "text" -> null;
            case "json_object" -> new ResponseFormat.JsonObject();
            case "json_schema" -> {
                JsonNode js = requireObject(rf.get("json_schema"), "response_format.json_schema");
                JsonNode schema = js.get("schema");
                yield new ResponseFormat.JsonSchema(requireString(js, "name", "response_format.json_schema"),
                        optString(js, "description", "response_format.json_schema"),
                        schema == null || schema.isNull() ? null : schema,
                        optBool(js, "strict", "response_format.json_schema"));
            }
            default -> throw invalid("response_format.type", "unsupported response_format type '" + type + "'");
        };
    }

    /** reasoning_effort, or Qwen's enable_thinking/thinking_budget passed through extra_body. */
    static ReasoningConfig decodeReasoning(JsonNode body) {
        String effort = optString(body, "reasoning_effort", "");
        Boolean enable = optBool(body, "enable_thinking", "");
        Integer budget = optInt(body, "thinking_budget", "");
        if ("none".equals(effort) || Boolean.FALSE.equals(enable)) return ReasoningConfig.DISABLED;
        if (effort == null && enable == null && budget == null) return null;
        return new ReasoningConfig(ReasoningConfig.Mode.ENABLED, budget, effort);
    }

    private static CacheMarker cacheOf(JsonNode part) {
        JsonNode cc = part.get("cache_control");
        if (cc == null || !cc.isObject()) return null;
        return new CacheMarker(cc.path("ttl").asText(null));
    }

    private static GatewayException invalid(String param, String message) {
        return GatewayException.invalid(param, message);
    }
}
