package dev.modelgateway.wire.openai.responses;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.canonical.CanonicalRequest;
import dev.modelgateway.canonical.ContentBlock;
import dev.modelgateway.canonical.DataUrl;
import dev.modelgateway.canonical.MediaKind;
import dev.modelgateway.canonical.Message;
import dev.modelgateway.canonical.ReasoningConfig;
import dev.modelgateway.canonical.ResponseFormat;
import dev.modelgateway.canonical.Role;
import dev.modelgateway.canonical.SignatureOrigin;
import dev.modelgateway.canonical.ToolChoice;
import dev.modelgateway.canonical.ToolDefinition;
import dev.modelgateway.canonical.UnmappedFields;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.wire.SignatureEnvelope;

import java.util.ArrayList;
import java.util.List;

import static dev.modelgateway.wire.FieldReader.optArray;
import static dev.modelgateway.wire.FieldReader.optBool;
import static dev.modelgateway.wire.FieldReader.optInt;
import static dev.modelgateway.wire.FieldReader.optNumber;
import static dev.modelgateway.wire.FieldReader.optString;
import static dev.modelgateway.wire.FieldReader.path;
import static dev.modelgateway.wire.FieldReader.requireString;

/**
 * Responses request → canonical (docs/translation.md): {@code instructions} → system, items → messages
 * (consecutive {@code function_call}s form one assistant turn, consecutive outputs one user turn),
 * {@code reasoning} items → thinking blocks whose sealed signature travels in {@code encrypted_content}
 * ({@link SignatureEnvelope#openFromResponses}),
 * {@code namespace} tools → flat functions ({@link ToolNamespaces}). Stateful fields ({@code previous_response_id},
 * {@code item_reference} items) are resolved by the endpoint before decoding.
 */
final class ResponsesRequestDecoder {
    private ResponsesRequestDecoder() { }

    static CanonicalRequest decode(JsonNode body) {
        CanonicalRequest.Builder b = CanonicalRequest.builder(UnmappedFields.CHAT);
        b.model(requireString(body, "model", ""));
        List<ContentBlock.Text> system = new ArrayList<>();
        String instructions = optString(body, "instructions", "");
        if (instructions != null && !instructions.isEmpty()) system.add(new ContentBlock.Text(instructions));
        ToolNamespaces namespaces = ToolNamespaces.of(body);
        List<Message> messages = messages(body.get("input"), namespaces);
        // Leading system/developer items join the system prompt; later ones stay at their position.
        while (!messages.isEmpty() && messages.getFirst().role() == Role.SYSTEM) {
            for (ContentBlock c : messages.removeFirst().content()) {
                if (c instanceof ContentBlock.Text t) system.add(t);
            }
        }
        b.system(system);
        b.messages(messages);
        b.tools(tools(body, namespaces));
        b.toolChoice(toolChoice(body.get("tool_choice")));
        b.parallelToolCalls(optBool(body, "parallel_tool_calls", ""));
        b.maxTokens(optInt(body, "max_output_tokens", ""));
        b.temperature(optNumber(body, "temperature", ""));
        b.topP(optNumber(body, "top_p", ""));
        b.responseFormat(format(body.path("text").get("format")));
        b.reasoning(reasoning(body.get("reasoning")));
        b.stream(Boolean.TRUE.equals(optBool(body, "stream", "")));
        b.includeUsage(true);
        String user = optString(body, "safety_identifier", "");
        b.user(user != null ? user : optString(body, "user", ""));
        return b.build();
    }

    private static List<Message> messages(JsonNode input, ToolNamespaces namespaces) {
        List<Message> out = new ArrayList<>();
        if (input == null || input.isNull()) throw GatewayException.invalid("input", "Missing required parameter: 'input'.");
        if (input.isTextual()) {
            out.add(new Message(Role.USER, List.of(new ContentBlock.Text(input.asText()))));
            return out;
        }
        if (!input.isArray()) throw GatewayException.invalid("input", "'input' must be a string or an array of items");
        Turns turns = new Turns(out);
        // Gemini signatures from carrier reasoning items, for the function call or message text that follows.
        String callSignature = null;
        String textSignature = null;
        for (int i = 0; i < input.size(); i++) {
            JsonNode item = input.get(i);
            String p = path("input", i);
            if (!item.isObject()) throw GatewayException.invalid(p, "'" + p + "' must be an object");
            String type = optString(item, "type", p);
            switch (type == null ? "message" : type) {
                case "message" -> {
                    message(item, p, turns);
                    if (textSignature != null && "assistant".equals(item.path("role").asText())) {
                        turns.add(Role.ASSISTANT, new ContentBlock.Thinking("", textSignature, SignatureOrigin.GEMINI));
                        textSignature = null;
                    }
                }
                case "function_call" -> {
                    turns.add(Role.ASSISTANT, new ContentBlock.ToolUse(requireString(item, "call_id", p),
                            namespaces.flat(optString(item, "namespace", p), requireString(item, "name", p)),
                            requireString(item, "arguments", p), callSignature, null));
                    callSignature = null;
                }
                case "function_call_output" -> turns.add(Role.USER, new ContentBlock.ToolResult(
                        requireString(item, "call_id", p), output(item.get("output"), path(p, "output")), false, null));
                case "reasoning" -> {
                    SignatureEnvelope.Opened opened = SignatureEnvelope.openFromResponses(item.path("encrypted_content").asText(null));
                    if (opened.forNextCall()) callSignature = opened.signature();
                    else if (opened.forNextText()) textSignature = opened.signature();
                    else reasoning(item, opened, turns);
                }
                default -> throw GatewayException.invalid(path(p, "type"), "Input items of type '" + type
                        + "' are not supported for this model; send messages, function_call, function_call_output and reasoning items.");
            }
        }
        return out;
    }

    private static void message(JsonNode item, String p, Turns turns) {
        String roleName = requireString(item, "role", p);
        Role role = switch (roleName) {
            case "user" -> Role.USER;
            case "assistant" -> Role.ASSISTANT;
            case "system", "developer" -> Role.SYSTEM;
            default -> throw GatewayException.invalid(path(p, "role"), "'" + path(p, "role")
                    + "' must be one of user, assistant, system, developer");
        };
        JsonNode content = item.get("content");
        String cp = path(p, "content");
        if (content == null || content.isNull()) throw GatewayException.invalid(cp, "'" + cp + "' is required");
        if (content.isTextual()) {
            turns.add(role, new ContentBlock.Text(content.asText()));
            return;
        }
        if (!content.isArray()) throw GatewayException.invalid(cp, "'" + cp + "' must be a string or an array of parts");
        for (int j = 0; j < content.size(); j++) turns.add(role, part(content.get(j), path(cp, j)));
    }

    private static ContentBlock part(JsonNode part, String p) {
        String type = requireString(part, "type", p);
        return switch (type) {
            case "input_text", "output_text", "text" -> new ContentBlock.Text(requireString(part, "text", p));
            case "refusal" -> new ContentBlock.Text(requireString(part, "refusal", p));
            case "input_image" -> {
                String url = optString(part, "image_url", p);
                if (url == null) throw GatewayException.invalid(path(p, "image_url"), "'" + path(p, "image_url")
                        + "' is required: this gateway has no Files API, so file_id cannot be used.");
                yield media(MediaKind.IMAGE, url, null);
            }
            case "input_file" -> {
                String data = optString(part, "file_data", p);
                String url = data != null ? data : optString(part, "file_url", p);
                if (url == null) throw GatewayException.invalid(path(p, "file_data"), "'" + path(p, "file_data")
                        + "' or file_url is required: this gateway has no Files API, so file_id cannot be used.");
                yield media(MediaKind.DOCUMENT, url, optString(part, "filename", p));
            }
            default -> throw GatewayException.invalid(path(p, "type"), "Unsupported content part type '" + type + "'.");
        };
    }

    private static ContentBlock.Media media(MediaKind kind, String url, String filename) {
        DataUrl data = DataUrl.parse(url);
        if (data == null) return new ContentBlock.Media(kind, null, null, url, null, filename, null);
        return new ContentBlock.Media(kind, data.mediaType(), data.base64(), null, null, filename, null);
    }

    private static List<ContentBlock> output(JsonNode output, String p) {
        if (output == null || output.isNull()) throw GatewayException.invalid(p, "'" + p + "' is required");
        if (output.isTextual()) return List.of(new ContentBlock.Text(output.asText()));
        if (!output.isArray()) throw GatewayException.invalid(p, "'" + p + "' must be a string or an array of parts");
        List<ContentBlock> blocks = new ArrayList<>();
        for (int i = 0; i < output.size(); i++) blocks.add(part(output.get(i), path(p, i)));
        return blocks;
    }

    /**
     * Only reasoning this gateway produced can be replayed: its signature is sealed in encrypted_content. Vendor B's
     * own (unprefixed) encrypted content opens as unsigned: its summary is kept as unsigned reasoning, which each
     * vendor codec treats as it treats any other vendor's (vendors A and C drop it with a warning).
     */
    private static void reasoning(JsonNode item, SignatureEnvelope.Opened opened, Turns turns) {
        StringBuilder text = new StringBuilder();
        for (JsonNode s : item.path("summary")) text.append(s.path("text").asText(""));
        turns.add(Role.ASSISTANT, new ContentBlock.Thinking(text.toString(), opened.signature(), opened.origin()));
    }

    private static List<ToolDefinition> tools(JsonNode body, ToolNamespaces namespaces) {
        JsonNode tools = optArray(body, "tools", "");
        List<ToolDefinition> out = new ArrayList<>();
        if (tools == null) return out;
        for (int i = 0; i < tools.size(); i++) {
            JsonNode t = tools.get(i);
            String p = path("tools", i);
            String type = requireString(t, "type", p);
            switch (type) {
                case "function" -> out.add(function(t, p, requireString(t, "name", p), null));
                case "namespace" -> namespace(t, p, namespaces, out);
                default -> throw GatewayException.invalid(path(p, "type"), "Tool type '" + type + "' is not available for this "
                        + "model: use function tools (type 'function', or grouped in a 'namespace') or MCP.");
            }
        }
        return out;
    }

    /** A namespace's functions become flat functions; the model reads the namespace's description with each. */
    private static void namespace(JsonNode t, String p, ToolNamespaces namespaces, List<ToolDefinition> out) {
        String namespace = requireString(t, "name", p);
        String about = optString(t, "description", p);
        JsonNode inner = optArray(t, "tools", p);
        if (inner == null || inner.isEmpty()) throw GatewayException.invalid(path(p, "tools"), "'" + path(p, "tools") + "' must list at least one function tool");
        for (int j = 0; j < inner.size(); j++) {
            JsonNode f = inner.get(j);
            String fp = path(path(p, "tools"), j);
            String type = requireString(f, "type", fp);
            if (!type.equals("function")) {
                throw GatewayException.invalid(path(fp, "type"), "Tool type '" + type + "' is not available in a namespace for this "
                        + "model: use function tools (type 'function').");
            }
            out.add(function(f, fp, namespaces.flat(namespace, requireString(f, "name", fp)), about));
        }
    }

    private static ToolDefinition function(JsonNode t, String p, String name, String namespaceAbout) {
        String description = optString(t, "description", p);
        if (namespaceAbout != null && !namespaceAbout.isBlank()) {
            description = description == null || description.isBlank() ? namespaceAbout : namespaceAbout + "\n\n" + description;
        }
        return new ToolDefinition(name, description, t.get("parameters"), optBool(t, "strict", p), null);
    }

    private static ToolChoice toolChoice(JsonNode tc) {
        if (tc == null || tc.isNull()) return null;
        if (tc.isTextual()) {
            return switch (tc.asText()) {
                case "none" -> ToolChoice.NONE;
                case "auto" -> ToolChoice.AUTO;
                case "required" -> ToolChoice.REQUIRED;
                default -> throw GatewayException.invalid("tool_choice", "'tool_choice' must be none, auto, required or a function");
            };
        }
        if ("function".equals(tc.path("type").asText())) return ToolChoice.named(requireString(tc, "name", "tool_choice"));
        throw GatewayException.invalid("tool_choice.type", "Only function tool choices are supported for this model.");
    }

    private static ResponseFormat format(JsonNode f) {
        if (f == null || f.isNull()) return null;
        String type = requireString(f, "type", "text.format");
        return switch (type) {
            case "text" -> null;
            case "json_object" -> new ResponseFormat.JsonObject();
            case "json_schema" -> new ResponseFormat.JsonSchema(requireString(f, "name", "text.format"),
                    optString(f, "description", "text.format"), f.get("schema"), optBool(f, "strict", "text.format"));
            default -> throw GatewayException.invalid("text.format.type", "unsupported text.format type '" + type + "'");
        };
    }

    private static ReasoningConfig reasoning(JsonNode r) {
        if (r == null || r.isNull()) return null;
        String effort = optString(r, "effort", "reasoning");
        if (effort == null) return null;
        if (effort.equals("none")) return ReasoningConfig.DISABLED;
        return new ReasoningConfig(ReasoningConfig.Mode.ENABLED, null, effort);
    }

    /** Appends blocks, opening a new message whenever the role changes. */
    private record Turns(List<Message> out) {
        void add(Role role, ContentBlock block) {
            if (!out.isEmpty() && out.getLast().role() == role && role != Role.SYSTEM) {
                List<ContentBlock> merged = new ArrayList<>(out.getLast().content());
                merged.add(block);
                out.set(out.size() - 1, new Message(role, merged));
            } else {
                out.add(new Message(role, List.of(block)));
            }
        }
    }
}
