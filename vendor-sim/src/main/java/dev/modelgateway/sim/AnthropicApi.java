package dev.modelgateway.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Anthropic Messages API: {@code /anthropic/v1/messages} (JSON and SSE) and {@code count_tokens}. */
final class AnthropicApi {
    private final VendorSimulator sim;

    AnthropicApi(VendorSimulator sim) {
        this.sim = sim;
    }

    /** Everything parsed from one request. */
    private record Parsed(Conversation conversation, PromptMeter meter, boolean stream, boolean redacted, boolean webSearch,
                          String container) {
    }

    void handle(Exchange ex, String path, String body) {
        ex.header("request-id", VendorErrors.requestId("req_sim_"));
        boolean count = path.equals("/anthropic/v1/messages/count_tokens");
        if (!count && !path.equals("/anthropic/v1/messages")) {
            ex.fail(404, "Not found", null);
            return;
        }
        JsonNode root = Prelude.begin(sim, ex, body, null, model -> "model: " + model);
        if (root == null) return;
        if (refusedComputerUse(ex, root, ex.req.getHeader("anthropic-beta"))) return;
        answer(ex, root, count);
    }

    /** A computer use tool without its beta ({@link ComputerUse}) is refused, as vendor A refuses it: true when refused. */
    static boolean refusedComputerUse(Exchange ex, JsonNode root, String betas) {
        String missing = ComputerUse.missingBeta(root, betas);
        if (missing != null) ex.fail(400, missing, null);
        return missing != null;
    }

    /** Answers a messages (or count) body whose prelude has run: the body names its model. Vertex's rawPredict too. */
    void answer(Exchange ex, JsonNode root, boolean count) {
        if (count) {
            int tokens = countTokens(ex, root);
            if (tokens >= 0) ex.ok("{\"input_tokens\":" + tokens + "}");
            return;
        }
        Reply r = reply(ex, root);
        if (r == null) return;
        if (r.stream()) ex.stream(Exchange.SSE, r.events(), event("error", VendorErrors.anthropicStreamError()),
                "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":\n\n");
        else ex.ok(r.json());
    }

    /**
     * The answer to a messages body (its {@code model} set), built whole: the message's JSON, or the stream's SSE
     * events ({@code event: …\ndata: …\n\n} each); null when the request was refused (answered through {@code ex}).
     * The Bedrock double serves vendor A's models with it.
     */
    record Reply(boolean stream, String json, List<String> events) {
    }

    Reply reply(Exchange ex, JsonNode root) {
        Parsed p = parse(ex, root, false);
        if (p == null) return null;
        CacheLedger.Usage usage = sim.cache.explicitUsage(p.meter);
        Answer a = AnswerPlanner.plan(p.conversation, ex.directive, "toolu_sim_", sim.toolIds::incrementAndGet);
        String id = "msg_sim_" + sim.messageIds.incrementAndGet();
        return p.stream ? new Reply(true, null, events(id, p, a, usage)) : new Reply(false, Json.write(message(id, p, a, usage)), null);
    }

    /** The input tokens of a count_tokens body; -1 when refused (answered through {@code ex}). */
    int countTokens(Exchange ex, JsonNode root) {
        Parsed p = parse(ex, root, true);
        return p == null ? -1 : p.meter.tokens();
    }

    // ------------------------------------------------------------------ request

    private Parsed parse(Exchange ex, JsonNode root, boolean count) {
        String model = Json.text(root, "model");
        if (model == null) return bad(ex, "model: Field required");
        JsonNode messages = root.get("messages");
        if (messages == null || !messages.isArray()) return bad(ex, "messages: Field required");
        JsonNode maxNode = root.get("max_tokens");
        if (!count && (maxNode == null || !maxNode.canConvertToInt())) return bad(ex, "max_tokens: Field required");
        Integer maxTokens = maxNode != null && maxNode.canConvertToInt() ? maxNode.intValue() : null;

        boolean thinking = false;
        JsonNode th = root.get("thinking");
        String thType = Json.text(th, "type");
        if ("enabled".equals(thType)) {
            int budget = th.path("budget_tokens").asInt(0);
            if (budget < 1024) return bad(ex, "thinking.enabled.budget_tokens: Input should be greater than or equal to 1024");
            if (maxTokens != null && maxTokens <= budget) return bad(ex, "`max_tokens` must be greater than `thinking.budget_tokens`. "
                    + "Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size");
            thinking = true;
        } else if ("adaptive".equals(thType)) {
            thinking = true;
        }

        PromptMeter m = new PromptMeter(model);
        List<Conversation.Tool> tools = new ArrayList<>();
        boolean webSearch = false;
        for (JsonNode t : root.path("tools")) {
            if (String.valueOf(Json.text(t, "type")).startsWith(WebSearch.TOOL_TYPE_PREFIX)) webSearch = true;
            String name = Json.text(t, "name");
            m.text(name);
            m.text(Json.text(t, "description"));
            JsonNode schema = t.get("input_schema");
            if (schema != null) m.text(Json.write(schema));
            String type = Json.text(t, "type");
            if (name != null && schema != null && (type == null || type.equals("custom"))) tools.add(new Conversation.Tool(name, schema));
            else if (name != null && ComputerUse.isComputerTool(t)) tools.add(new Conversation.Tool(name, ComputerUse.SCHEMA));
            marker(m, t);
        }
        JsonNode system = root.get("system");
        if (system != null && system.isTextual()) m.text(system.asText());
        else if (system != null) for (JsonNode b : system) {
            m.text(Json.text(b, "text"));
            marker(m, b);
        }
        m.endMessage();

        String lastUserText = "", toolResult = null;
        int images = 0;
        for (int i = 0; i < messages.size(); i++) {
            JsonNode msg = messages.get(i);
            String role = Json.text(msg, "role");
            m.shape(role);
            JsonNode content = msg.get("content");
            boolean user = "user".equals(role), last = i == messages.size() - 1;
            StringBuilder userText = new StringBuilder();
            String result = null;
            int msgImages = 0;
            if (content != null && content.isTextual()) {
                m.text(content.asText());
                userText.append(content.asText());
            } else if (content != null) {
                for (int j = 0; j < content.size(); j++) {
                    JsonNode b = content.get(j);
                    String type = String.valueOf(Json.text(b, "type"));
                    m.shape(type);
                    switch (type) {
                        case "text" -> {
                            m.text(Json.text(b, "text"));
                            if (!userText.isEmpty()) userText.append(' ');
                            userText.append(Json.text(b, "text"));
                        }
                        case "image", "document" -> {
                            if (type.equals("image")) msgImages++;
                            JsonNode src = b.path("source");
                            m.shape(src.path("data").asText(src.path("url").asText("")));
                        }
                        case "tool_use", "server_tool_use" -> {
                            m.text(Json.text(b, "name"));
                            m.text(Json.write(b.path("input")));
                        }
                        case "tool_result" -> {
                            String r = resultText(b.get("content"));
                            m.text(r);
                            if (result == null) result = r;
                        }
                        case "thinking" -> {
                            String text = Json.text(b, "thinking");
                            if (!Signatures.verify(text == null ? "" : text, Json.text(b, "signature"))) {
                                return bad(ex, "messages." + i + ".content." + j + ": Invalid `signature` in `thinking` block");
                            }
                            m.text(text);
                        }
                        case "redacted_thinking" -> {
                            String data = Json.text(b, "data");
                            if (data == null || !Signatures.verifyRedacted(data)) {
                                return bad(ex, "messages." + i + ".content." + j + ": Invalid `data` in `redacted_thinking` block");
                            }
                            m.shape(data);
                        }
                        default -> m.shape(Json.write(b));
                    }
                    marker(m, b);
                }
            }
            m.endMessage();
            if (user && !userText.isEmpty()) {
                lastUserText = userText.toString();
            }
            if (user && last) {
                toolResult = result;
                images = msgImages;
            }
        }
        if (root.has("cache_control")) m.cacheMarker(root.path("cache_control").path("ttl").asText("5m"));

        String ttl = cacheTtls(root);
        if (ttl != null) return bad(ex, ttl);
        String unopenedTurn = thinking ? ThinkingTurn.refusal(messages) : null;
        if (unopenedTurn != null) return bad(ex, unopenedTurn);
        String forced = String.valueOf(Json.text(root.get("tool_choice"), "type"));
        if (thinking && (forced.equals("any") || forced.equals("tool"))) {
            // protocols/anthropic-messages.md §4: forced tool use is not compatible with extended thinking
            return bad(ex, "Thinking may not be enabled when tool_choice forces tool use.");
        }
        Conversation.ToolChoice choice = switch (forced) {
            case "none" -> Conversation.ToolChoice.NONE;
            case "any" -> Conversation.ToolChoice.REQUIRED;
            case "tool" -> new Conversation.ToolChoice(Conversation.ChoiceMode.NAMED, Json.text(root.get("tool_choice"), "name"));
            default -> Conversation.ToolChoice.AUTO;
        };
        Conversation.OutputFormat format = null;
        JsonNode fmt = root.path("output_config").get("format");
        if (fmt == null) fmt = root.get("output_format");
        if (fmt != null && "json_schema".equals(Json.text(fmt, "type"))) format = new Conversation.OutputFormat(fmt.get("schema"));

        Conversation c = new Conversation(model, lastUserText, toolResult, tools, choice, maxTokens, images, thinking, format);
        return new Parsed(c, m, root.path("stream").asBoolean(false), ex.directive.redacted(), webSearch && toolResult == null,
                container(root));
    }

    /**
     * The code execution container the answer names: the one the request reuses ({@code container}: its id, or
     * {@code {"id": …}}), else a new one when a code execution tool is declared; null without either.
     */
    private String container(JsonNode root) {
        JsonNode c = root.get("container");
        if (c != null && c.isObject()) c = c.get("id");
        if (c != null && c.isTextual()) return c.asText();
        for (JsonNode t : root.path("tools")) {
            if (String.valueOf(Json.text(t, "type")).startsWith("code_execution")) return "container_sim_" + sim.containerIds.incrementAndGet();
        }
        return null;
    }

    private static void container(ObjectNode message, Parsed p) {
        if (p.container != null) {
            message.putObject("container").put("id", p.container).put("expires_at", Instant.now().plusSeconds(3600).toString());
        }
    }

    /** The first cache_control with a TTL Anthropic refuses: on tools, system blocks, message blocks or top-level. */
    private static String cacheTtls(JsonNode root) {
        String bad = ParamRanges.anthropicTtl(root.get("cache_control"), "");
        for (int i = 0; bad == null && i < root.path("tools").size(); i++) {
            bad = ParamRanges.anthropicTtl(root.path("tools").get(i).get("cache_control"), "tools." + i + ".");
        }
        for (int i = 0; bad == null && i < root.path("system").size(); i++) {
            bad = ParamRanges.anthropicTtl(root.path("system").get(i).get("cache_control"), "system." + i + ".");
        }
        JsonNode messages = root.path("messages");
        for (int i = 0; bad == null && i < messages.size(); i++) {
            JsonNode content = messages.get(i).path("content");
            for (int j = 0; bad == null && j < content.size(); j++) {
                bad = ParamRanges.anthropicTtl(content.get(j).get("cache_control"), "messages." + i + ".content." + j + ".");
            }
        }
        return bad;
    }

    private static void marker(PromptMeter m, JsonNode block) {
        JsonNode cc = block.get("cache_control");
        if (cc != null && cc.isObject()) m.cacheMarker(cc.path("ttl").asText("5m"));
    }

    private static String resultText(JsonNode content) {
        if (content == null || content.isNull()) return "";
        if (content.isTextual()) return content.asText();
        StringBuilder sb = new StringBuilder();
        for (JsonNode b : content) {
            String t = Json.text(b, "text");
            if (t != null) {
                if (!sb.isEmpty()) sb.append('\n');
                sb.append(t);
            }
        }
        return sb.toString();
    }

    private static Parsed bad(Exchange ex, String message) {
        ex.fail(400, message, null);
        return null;
    }

    // ------------------------------------------------------------------ response

    private static String stopReason(Answer.Stop s) {
        return switch (s) {
            case END -> "end_turn";
            case MAX_TOKENS -> "max_tokens";
            case TOOL -> "tool_use";
        };
    }

    private static ObjectNode usage(CacheLedger.Usage u, int outputTokens) {
        ObjectNode o = Json.obj().put("input_tokens", u.uncached())
                .put("cache_creation_input_tokens", u.write5m() + u.write1h())
                .put("cache_read_input_tokens", u.cacheRead());
        o.putObject("cache_creation").put("ephemeral_5m_input_tokens", u.write5m()).put("ephemeral_1h_input_tokens", u.write1h());
        o.put("output_tokens", outputTokens).put("service_tier", "standard");
        return o;
    }

    private static ObjectNode message(String id, Parsed p, Answer a, CacheLedger.Usage u) {
        ObjectNode msg = Json.obj().put("id", id).put("type", "message").put("role", "assistant").put("model", p.conversation.model());
        var content = msg.putArray("content");
        if (a.hasThinking()) {
            if (p.redacted) content.addObject().put("type", "redacted_thinking").put("data", Signatures.redact(a.thinking()));
            else content.addObject().put("type", "thinking").put("thinking", a.thinking()).put("signature", Signatures.sign(a.thinking()));
        }
        boolean searched = p.webSearch && a.calls().isEmpty();
        if (searched) {
            String toolUseId = WebSearch.toolUseId(id);
            content.add(WebSearch.toolUse(toolUseId, p.conversation.lastUserText()));
            content.add(WebSearch.result(toolUseId, p.conversation.lastUserText()));
        }
        if (a.calls().isEmpty()) content.addObject().put("type", "text").put("text", a.text());
        for (Answer.ToolCall call : a.calls()) {
            ObjectNode b = content.addObject().put("type", "tool_use").put("id", call.id()).put("name", call.name());
            b.set("input", parseJson(call.arguments()));
            b.putObject("caller").put("type", "direct");
        }
        msg.put("stop_reason", stopReason(a.stop())).putNull("stop_sequence");
        container(msg, p);
        ObjectNode usage = usage(u, a.outputTokens());
        if (searched) WebSearch.count(usage);
        msg.set("usage", usage);
        return msg;
    }

    private static List<String> events(String id, Parsed p, Answer a, CacheLedger.Usage u) {
        List<String> ev = new ArrayList<>(a.pieces().size() + a.thinkingPieces().size() + 16);
        ObjectNode start = Json.obj().put("type", "message_start");
        ObjectNode msg = start.putObject("message").put("id", id).put("type", "message").put("role", "assistant")
                .put("model", p.conversation.model());
        msg.putArray("content");
        msg.putNull("stop_reason").putNull("stop_sequence");
        msg.set("usage", usage(u, 1));
        ev.add(event("message_start", Json.write(start)));

        int index = 0;
        if (a.hasThinking()) {
            if (p.redacted) {
                ObjectNode cb = Json.obj().put("type", "redacted_thinking").put("data", Signatures.redact(a.thinking()));
                ev.add(blockStart(index, cb));
            } else {
                ev.add(blockStart(index, Json.obj().put("type", "thinking").put("thinking", "").put("signature", "")));
                for (String piece : a.thinkingPieces()) ev.add(delta(index, Json.obj().put("type", "thinking_delta").put("thinking", piece)));
                ev.add(delta(index, Json.obj().put("type", "signature_delta").put("signature", Signatures.sign(a.thinking()))));
            }
            ev.add(blockStop(index++));
        }
        boolean searched = p.webSearch && a.calls().isEmpty();
        if (searched) {
            String toolUseId = WebSearch.toolUseId(id);
            ObjectNode use = WebSearch.toolUse(toolUseId, p.conversation.lastUserText());
            use.putObject("input");
            ev.add(blockStart(index, use));
            ev.add(delta(index, Json.obj().put("type", "input_json_delta")
                    .put("partial_json", Json.write(Json.obj().put("query", p.conversation.lastUserText())))));
            ev.add(blockStop(index++));
            ev.add(blockStart(index, WebSearch.result(toolUseId, p.conversation.lastUserText())));
            ev.add(blockStop(index++));
        }
        if (a.calls().isEmpty()) {
            ev.add(blockStart(index, Json.obj().put("type", "text").put("text", "")));
            for (String piece : a.pieces()) ev.add(delta(index, Json.obj().put("type", "text_delta").put("text", piece)));
            ev.add(blockStop(index++));
        }
        for (Answer.ToolCall call : a.calls()) {
            ObjectNode cb = Json.obj().put("type", "tool_use").put("id", call.id()).put("name", call.name());
            cb.putObject("input");
            cb.putObject("caller").put("type", "direct");
            ev.add(blockStart(index, cb));
            ev.add(delta(index, Json.obj().put("type", "input_json_delta").put("partial_json", "")));
            for (String frag : AnswerPlanner.thirds(call.arguments())) {
                ev.add(delta(index, Json.obj().put("type", "input_json_delta").put("partial_json", frag)));
            }
            ev.add(blockStop(index++));
        }
        // Anthropic sends a ping right after the first content_block_start.
        ev.add(2, event("ping", "{\"type\": \"ping\"}"));

        ObjectNode md = Json.obj().put("type", "message_delta");
        container(md.putObject("delta").put("stop_reason", stopReason(a.stop())).putNull("stop_sequence"), p);
        md.putObject("usage").put("input_tokens", u.uncached())
                .put("cache_creation_input_tokens", u.write5m() + u.write1h())
                .put("cache_read_input_tokens", u.cacheRead())
                .put("output_tokens", a.outputTokens());
        if (searched) WebSearch.count((ObjectNode) md.get("usage"));
        ev.add(event("message_delta", Json.write(md)));
        ev.add(event("message_stop", "{\"type\":\"message_stop\"}"));
        return ev;
    }

    private static String blockStart(int index, ObjectNode block) {
        ObjectNode o = Json.obj().put("type", "content_block_start").put("index", index);
        o.set("content_block", block);
        return event("content_block_start", Json.write(o));
    }

    private static String delta(int index, ObjectNode delta) {
        ObjectNode o = Json.obj().put("type", "content_block_delta").put("index", index);
        o.set("delta", delta);
        return event("content_block_delta", Json.write(o));
    }

    private static String blockStop(int index) {
        return event("content_block_stop", "{\"type\":\"content_block_stop\",\"index\":" + index + "}");
    }

    static String event(String name, String json) {
        return "event: " + name + "\ndata: " + json + "\n\n";
    }

    static JsonNode parseJson(String json) {
        try {
            return Json.MAPPER.readTree(json);
        } catch (Exception e) {
            return Json.obj();
        }
    }
}
