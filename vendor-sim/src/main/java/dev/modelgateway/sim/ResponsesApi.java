package dev.modelgateway.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * OpenAI Responses API ({@code POST /openai/v1/responses}): JSON and the full SSE event sequence with
 * {@code sequence_number}s, reasoning items (summary / encrypted_content on request) and function calls.
 */
final class ResponsesApi {
    /** The {@code text.format} types OpenAI takes; another is a 400 (protocols/openai-responses.md). */
    private static final Set<String> FORMAT_TYPES = Set.of("text", "json_object", "json_schema");

    private record Parsed(Conversation conversation, PromptMeter meter, JsonNode root, boolean stream,
                          boolean summary, boolean encrypted) {
    }

    private final VendorSimulator sim;
    private final StoredResponses stored = new StoredResponses();

    ResponsesApi(VendorSimulator sim) {
        this.sim = sim;
    }

    StoredResponses stored() {
        return stored;
    }

    void handle(Exchange ex, String body) {
        ex.header("x-request-id", VendorErrors.requestId("req_sim"));
        JsonNode root = Prelude.begin(sim, ex, body, null, m -> "The requested model '" + m + "' does not exist.");
        if (root == null) return;
        Parsed p = parse(ex, root);
        if (p == null) return;
        CacheLedger.Usage usage = sim.cache.implicitUsage(p.meter);
        Answer a = AnswerPlanner.plan(p.conversation, ex.directive, "call_sim_", sim.toolIds::incrementAndGet);
        long n = sim.messageIds.incrementAndGet();
        Ids ids = new Ids("resp_sim_" + n, "rs_sim_" + n, "msg_sim_" + n, "fc_sim_" + n + "_");
        long created = System.currentTimeMillis() / 1000;
        if (p.root.path("store").asBoolean(true)) stored.put(response(ids, created, p, a, usage, true), p.root.get("input"));
        if (!p.stream) {
            ex.ok(Json.write(response(ids, created, p, a, usage, true)));
            return;
        }
        List<String> events = events(ids, created, p, a, usage);
        int at = ex.directive.errorAfter() >= 0 ? Math.min(ex.directive.errorAfter(), events.size() - 1) : 0;
        ObjectNode err = Json.obj().put("type", "error").put("sequence_number", at);
        err.putObject("error").put("type", "server_error").put("code", "server_error")
                .put("message", "The server had an error processing your request. Sorry about that!").putNull("param");
        ObjectNode failed = response(ids, created, p, a, usage, false);
        failed.put("status", "failed").putObject("error").put("code", "server_error")
                .put("message", "The server had an error processing your request. Sorry about that!");
        failed.putArray("output");
        failed.putNull("usage");
        String errorEvents = event("error", Json.write(err))
                + event("response.failed", Json.write(Json.obj().put("type", "response.failed").put("sequence_number", at + 1).set("response", failed)));
        ex.stream(Exchange.SSE, events, errorEvents, "event: response.output_item.added\ndata: {\"type\":\"response.output_item.added\",\"item\":\n\n");
    }

    private record Ids(String response, String reasoning, String message, String callPrefix) {
    }

    // ------------------------------------------------------------------ request

    private Parsed parse(Exchange ex, JsonNode root) {
        String model = Json.text(root, "model");
        if (model == null) {
            ex.fail(400, "Missing required parameter: 'model'.", "missing_required_parameter");
            return null;
        }
        ParamRanges.Refusal range = ParamRanges.openai(root);
        String ft = Json.text(root.path("text").get("format"), "type");
        if (range == null && ft != null && !FORMAT_TYPES.contains(ft)) {
            range = new ParamRanges.Refusal("Invalid value: '" + ft + "'. Supported values are: 'text', 'json_object', and 'json_schema'.",
                    "text.format.type", "invalid_value");
        }
        if (range != null) {
            ex.failOpenAiParam(range);
            return null;
        }
        PromptMeter m = new PromptMeter(model);
        List<Conversation.Tool> tools = new ArrayList<>();
        for (JsonNode t : root.path("tools")) {
            String name = Json.text(t, "name");
            m.text(name);
            m.text(Json.text(t, "description"));
            JsonNode params = t.get("parameters");
            if (params != null) m.text(Json.write(params));
            if ("function".equals(Json.text(t, "type")) && name != null) tools.add(new Conversation.Tool(name, params));
        }
        m.endMessage();
        m.text(Json.text(root, "instructions"));
        m.endMessage();

        String lastUserText = "", toolResult = null;
        int images = 0;
        JsonNode input = root.get("input");
        List<JsonNode> items = new ArrayList<>();
        if (input != null && input.isTextual()) items.add(Json.obj().put("role", "user").put("content", input.asText()));
        else if (input != null) input.forEach(items::add);
        int trailingOutputs = items.size();
        while (trailingOutputs > 0 && "function_call_output".equals(Json.text(items.get(trailingOutputs - 1), "type"))) trailingOutputs--;
        for (int i = 0; i < items.size(); i++) {
            JsonNode item = items.get(i);
            String type = Json.text(item, "type");
            if (type == null) type = "message";
            m.shape(type);
            switch (type) {
                case "message" -> {
                    String role = String.valueOf(Json.text(item, "role"));
                    m.shape(role);
                    StringBuilder text = new StringBuilder();
                    int msgImages = 0;
                    JsonNode content = item.get("content");
                    if (content != null && content.isTextual()) text.append(content.asText());
                    else if (content != null) for (JsonNode part : content) {
                        String pt = String.valueOf(Json.text(part, "type"));
                        if (pt.equals("input_text") || pt.equals("output_text") || pt.equals("text")) {
                            if (!text.isEmpty()) text.append(' ');
                            text.append(Json.text(part, "text"));
                        } else if (pt.equals("input_image")) {
                            msgImages++;
                            m.shape(part.path("image_url").asText(part.path("file_id").asText("")));
                        } else {
                            m.shape(Json.write(part));
                        }
                    }
                    m.text(text.toString());
                    if (role.equals("user")) {
                        if (!text.isEmpty()) lastUserText = text.toString();
                        if (i == items.size() - 1) images = msgImages;
                    }
                }
                case "function_call" -> {
                    m.text(Json.text(item, "name"));
                    m.text(Json.text(item, "arguments"));
                }
                case "function_call_output" -> {
                    JsonNode out = item.get("output");
                    String r = out == null ? "" : out.isTextual() ? out.asText() : Json.write(out);
                    m.text(r);
                    if (i == trailingOutputs) toolResult = r;
                }
                case "reasoning" -> {
                    if (refusedReasoning(ex, item)) return null;
                    m.shape(Json.write(item));
                }
                default -> m.shape(Json.write(item));
            }
            m.endMessage();
        }

        JsonNode tc = root.get("tool_choice");
        Conversation.ToolChoice choice = Conversation.ToolChoice.AUTO;
        if (tc != null && tc.isTextual()) {
            choice = switch (tc.asText()) {
                case "none" -> Conversation.ToolChoice.NONE;
                case "required" -> Conversation.ToolChoice.REQUIRED;
                default -> Conversation.ToolChoice.AUTO;
            };
        } else if (tc != null && "function".equals(Json.text(tc, "type"))) {
            choice = new Conversation.ToolChoice(Conversation.ChoiceMode.NAMED, Json.text(tc, "name"));
        }
        JsonNode maxNode = root.get("max_output_tokens");
        Integer max = maxNode != null && maxNode.canConvertToInt() ? maxNode.intValue() : null;
        Conversation.OutputFormat format = null;
        JsonNode fmt = root.path("text").path("format");
        if ("json_schema".equals(ft)) format = new Conversation.OutputFormat(fmt.get("schema"));
        else if ("json_object".equals(ft)) format = new Conversation.OutputFormat(null);

        String effort = Json.text(root.get("reasoning"), "effort");
        boolean thinking = effort != null ? !effort.equals("none")
                : model.startsWith("vendorB-5") || model.startsWith("vendorB-6") || model.startsWith("o");
        boolean summary = root.path("reasoning").hasNonNull("summary") || root.path("reasoning").hasNonNull("generate_summary");
        boolean encrypted = false;
        for (JsonNode inc : root.path("include")) if ("reasoning.encrypted_content".equals(inc.asText())) encrypted = true;

        Conversation c = new Conversation(model, lastUserText, toolResult, tools, choice, max, images, thinking, format);
        return new Parsed(c, m, root, root.path("stream").asBoolean(false), summary, encrypted);
    }

    /**
     * Refuses a replayed reasoning item vendor B cannot use, as vendor B does: its {@code encrypted_content} must be
     * one this vendor minted (else 400 {@code invalid_encrypted_content}), and an item without one is looked up by
     * id among stored responses (else 404: a {@code store: false} response's items cannot be referred to).
     */
    private boolean refusedReasoning(Exchange ex, JsonNode item) {
        String id = Json.text(item, "id");
        JsonNode encrypted = item.get("encrypted_content");
        if (encrypted != null && !encrypted.isNull()) {
            if (Signatures.verifyRedacted(encrypted.asText())) return false;
            ex.failOpenAi(400, new ParamRanges.Refusal("The encrypted content for item " + id + " could not be verified."
                    + " Reason: Encrypted content could not be decrypted or parsed.", null, "invalid_encrypted_content"));
            return true;
        }
        if (id != null && stored.hasOutputItem(id)) return false;
        ex.failOpenAi(404, new ParamRanges.Refusal("Item with id '" + id + "' not found. Items are not persisted when `store`"
                + " is set to false. Try again with `store` set to true, or remove this item from your input.", "input", null));
        return true;
    }

    // ------------------------------------------------------------------ response

    private static ObjectNode usage(CacheLedger.Usage u, Answer a) {
        ObjectNode o = Json.obj().put("input_tokens", u.total());
        o.putObject("input_tokens_details").put("cached_tokens", u.cacheRead());
        o.put("output_tokens", a.outputTokens());
        o.putObject("output_tokens_details").put("reasoning_tokens", a.thinkingTokens());
        o.put("total_tokens", u.total() + a.outputTokens());
        return o;
    }

    private static ObjectNode reasoningItem(Ids ids, Parsed p, Answer a, boolean done) {
        ObjectNode item = Json.obj().put("id", ids.reasoning).put("type", "reasoning");
        if (p.encrypted) item.put("encrypted_content", Signatures.redact(a.thinking()));
        ArrayNode summary = item.putArray("summary");
        if (done && p.summary) summary.addObject().put("type", "summary_text").put("text", a.thinking());
        return item;
    }

    private static ObjectNode callItem(Ids ids, int i, Answer.ToolCall call, boolean done) {
        return Json.obj().put("id", ids.callPrefix + i).put("type", "function_call").put("status", done ? "completed" : "in_progress")
                .put("arguments", done ? call.arguments() : "").put("call_id", call.id()).put("name", call.name());
    }

    private static ObjectNode textPart(String text) {
        ObjectNode part = Json.obj().put("type", "output_text");
        part.putArray("annotations");
        part.putArray("logprobs");
        return part.put("text", text);
    }

    private static ObjectNode messageItem(Ids ids, Answer a, boolean done) {
        ObjectNode item = Json.obj().put("id", ids.message).put("type", "message")
                .put("status", !done ? "in_progress" : a.stop() == Answer.Stop.MAX_TOKENS ? "incomplete" : "completed");
        ArrayNode content = item.putArray("content");
        if (done) content.add(textPart(a.text()));
        return item.put("role", "assistant");
    }

    private static ArrayNode output(Ids ids, Parsed p, Answer a) {
        ArrayNode out = Json.arr();
        if (a.hasThinking()) out.add(reasoningItem(ids, p, a, true));
        for (int i = 0; i < a.calls().size(); i++) out.add(callItem(ids, i, a.calls().get(i), true));
        if (a.calls().isEmpty()) out.add(messageItem(ids, a, true));
        return out;
    }

    /** The Response object; {@code finished=false} gives the in-progress skeleton of response.created. */
    private static ObjectNode response(Ids ids, long created, Parsed p, Answer a, CacheLedger.Usage u, boolean finished) {
        JsonNode req = p.root;
        boolean incomplete = a.stop() == Answer.Stop.MAX_TOKENS;
        ObjectNode r = Json.obj().put("id", ids.response).put("object", "response").put("created_at", created)
                .put("status", !finished ? "in_progress" : incomplete ? "incomplete" : "completed").put("background", false);
        if (finished) r.put("completed_at", created); else r.putNull("completed_at");
        r.putNull("error");
        r.put("frequency_penalty", 0.0);
        if (finished && incomplete) r.putObject("incomplete_details").put("reason", "max_output_tokens");
        else r.putNull("incomplete_details");
        r.set("instructions", req.hasNonNull("instructions") ? req.get("instructions") : Json.F.nullNode());
        r.set("max_output_tokens", req.hasNonNull("max_output_tokens") ? req.get("max_output_tokens") : Json.F.nullNode());
        r.putNull("max_tool_calls");
        r.put("model", p.conversation.model());
        r.set("output", finished ? output(ids, p, a) : Json.arr());
        r.put("parallel_tool_calls", req.path("parallel_tool_calls").asBoolean(true));
        r.put("presence_penalty", 0.0);
        r.set("previous_response_id", req.hasNonNull("previous_response_id") ? req.get("previous_response_id") : Json.F.nullNode());
        r.putNull("prompt_cache_key");
        r.putNull("prompt_cache_retention");
        ObjectNode reasoning = r.putObject("reasoning");
        String effort = Json.text(req.get("reasoning"), "effort");
        if (effort != null) reasoning.put("effort", effort); else reasoning.putNull("effort");
        reasoning.set("summary", req.path("reasoning").hasNonNull("summary") ? req.path("reasoning").get("summary") : Json.F.nullNode());
        r.putNull("safety_identifier");
        r.put("service_tier", "default").put("store", req.path("store").asBoolean(true)).put("temperature", 1.0);
        ObjectNode text = r.putObject("text");
        text.set("format", req.path("text").has("format") ? req.path("text").get("format") : Json.obj().put("type", "text"));
        text.put("verbosity", "medium");
        r.set("tool_choice", req.has("tool_choice") ? req.get("tool_choice") : Json.F.textNode("auto"));
        r.set("tools", normalizedTools(req.path("tools")));
        r.put("top_logprobs", 0).put("top_p", 1.0).put("truncation", "disabled");
        if (finished) r.set("usage", usage(u, a)); else r.putNull("usage");
        r.putNull("user");
        r.putObject("metadata");
        return r;
    }

    /** Echoes tools the way the API does: function tools get explicit description/strict fields. */
    private static ArrayNode normalizedTools(JsonNode tools) {
        ArrayNode out = Json.arr();
        for (JsonNode t : tools) {
            if (!"function".equals(Json.text(t, "type"))) {
                out.add(t);
                continue;
            }
            ObjectNode f = out.addObject().put("type", "function");
            f.set("description", t.hasNonNull("description") ? t.get("description") : Json.F.nullNode());
            f.set("name", t.get("name"));
            f.set("parameters", t.hasNonNull("parameters") ? t.get("parameters") : Json.obj());
            f.put("strict", t.path("strict").asBoolean(true));
        }
        return out;
    }

    private static List<String> events(Ids ids, long created, Parsed p, Answer a, CacheLedger.Usage u) {
        Seq s = new Seq();
        ObjectNode skeleton = response(ids, created, p, a, u, false);
        s.add("response.created", Json.obj().set("response", skeleton));
        s.add("response.in_progress", Json.obj().set("response", skeleton));
        int outputIndex = 0;
        if (a.hasThinking()) {
            int oi = outputIndex++;
            s.add("response.output_item.added", Json.obj().put("output_index", oi).set("item", reasoningItem(ids, p, a, false)));
            if (p.summary) {
                ObjectNode empty = Json.obj().put("type", "summary_text").put("text", "");
                s.add("response.reasoning_summary_part.added", Json.obj().put("item_id", ids.reasoning).put("output_index", oi)
                        .put("summary_index", 0).set("part", empty));
                for (String piece : a.thinkingPieces()) {
                    s.add("response.reasoning_summary_text.delta", Json.obj().put("item_id", ids.reasoning).put("output_index", oi)
                            .put("summary_index", 0).put("delta", piece));
                }
                s.add("response.reasoning_summary_text.done", Json.obj().put("item_id", ids.reasoning).put("output_index", oi)
                        .put("summary_index", 0).put("text", a.thinking()));
                s.add("response.reasoning_summary_part.done", Json.obj().put("item_id", ids.reasoning).put("output_index", oi)
                        .put("summary_index", 0).set("part", Json.obj().put("type", "summary_text").put("text", a.thinking())));
            }
            s.add("response.output_item.done", Json.obj().put("output_index", oi).set("item", reasoningItem(ids, p, a, true)));
        }
        for (int i = 0; i < a.calls().size(); i++) {
            int oi = outputIndex++;
            Answer.ToolCall call = a.calls().get(i);
            String itemId = ids.callPrefix + i;
            s.add("response.output_item.added", Json.obj().put("output_index", oi).set("item", callItem(ids, i, call, false)));
            for (String frag : AnswerPlanner.thirds(call.arguments())) {
                s.add("response.function_call_arguments.delta", Json.obj().put("item_id", itemId).put("output_index", oi).put("delta", frag));
            }
            s.add("response.function_call_arguments.done", Json.obj().put("item_id", itemId).put("output_index", oi)
                    .put("name", call.name()).put("arguments", call.arguments()));
            s.add("response.output_item.done", Json.obj().put("output_index", oi).set("item", callItem(ids, i, call, true)));
        }
        if (a.calls().isEmpty()) {
            int oi = outputIndex;
            s.add("response.output_item.added", Json.obj().put("output_index", oi).set("item", messageItem(ids, a, false)));
            s.add("response.content_part.added", Json.obj().put("content_index", 0).put("item_id", ids.message).put("output_index", oi)
                    .set("part", textPart("")));
            for (String piece : a.pieces()) {
                ObjectNode d = Json.obj().put("content_index", 0).put("delta", piece).put("item_id", ids.message);
                d.putArray("logprobs");
                s.add("response.output_text.delta", d.put("output_index", oi));
            }
            ObjectNode done = Json.obj().put("content_index", 0).put("item_id", ids.message);
            done.putArray("logprobs");
            s.add("response.output_text.done", done.put("output_index", oi).put("text", a.text()));
            s.add("response.content_part.done", Json.obj().put("content_index", 0).put("item_id", ids.message).put("output_index", oi)
                    .set("part", textPart(a.text())));
            s.add("response.output_item.done", Json.obj().put("output_index", oi).set("item", messageItem(ids, a, true)));
        }
        String terminal = a.stop() == Answer.Stop.MAX_TOKENS ? "response.incomplete" : "response.completed";
        s.add(terminal, Json.obj().set("response", response(ids, created, p, a, u, true)));
        return s.events;
    }

    /** Accumulates events, stamping {@code type} first and the running {@code sequence_number}. */
    private static final class Seq {
        final List<String> events = new ArrayList<>();

        void add(String type, ObjectNode payload) {
            ObjectNode o = Json.obj().put("type", type);
            o.setAll(payload);
            o.put("sequence_number", events.size());
            events.add(event(type, Json.write(o)));
        }
    }

    static String event(String type, String json) {
        return "event: " + type + "\ndata: " + json + "\n\n";
    }
}
