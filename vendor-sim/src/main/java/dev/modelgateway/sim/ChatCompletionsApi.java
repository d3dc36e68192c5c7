package dev.modelgateway.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;

/**
 * Chat Completions for OpenAI ({@code /openai/v1/chat/completions}) and DashScope compatible mode
 * ({@code /dashscope/compatible-mode/v1/chat/completions}). DashScope differs in key order, ids, visible
 * {@code reasoning_content} (enable_thinking) and error bodies.
 */
final class ChatCompletionsApi {

    enum Flavor { OPENAI, DASHSCOPE }

    private record Parsed(Conversation conversation, PromptMeter meter, boolean stream, boolean includeUsage) {
    }

    private final VendorSimulator sim;
    private final Flavor flavor;

    ChatCompletionsApi(VendorSimulator sim, Flavor flavor) {
        this.sim = sim;
        this.flavor = flavor;
    }

    void handle(Exchange ex, String body) {
        if (flavor == Flavor.OPENAI) ex.header("x-request-id", VendorErrors.requestId("req_sim"));
        JsonNode root = Prelude.begin(sim, ex, body, null,
                model -> "The model `" + model + "` does not exist or you do not have access to it.");
        if (root == null) return;
        Parsed p = parse(ex, root);
        if (p == null) return;
        CacheLedger.Usage usage = sim.cache.implicitUsage(p.meter);
        Answer a = AnswerPlanner.plan(p.conversation, ex.directive, "call_sim_", sim.toolIds::incrementAndGet);
        String id = "chatcmpl-sim-" + sim.messageIds.incrementAndGet();
        long created = System.currentTimeMillis() / 1000;
        if (p.stream) {
            String err = flavor == Flavor.OPENAI ? VendorErrors.openaiStreamError() : VendorErrors.dashscopeStreamError();
            ex.stream(Exchange.SSE, chunks(id, created, p, a, usage), data(err), "data: {\"id\":\"" + id + "\",\"choices\":[{\"delta\":\n\n");
        } else {
            ex.ok(Json.write(completion(id, created, p, a, usage)));
        }
    }

    // ------------------------------------------------------------------ request

    private Parsed parse(Exchange ex, JsonNode root) {
        String model = Json.text(root, "model");
        if (model == null) return bad(ex, "you must provide a model parameter", "missing_required_parameter");
        JsonNode messages = root.get("messages");
        if (messages == null || !messages.isArray() || messages.isEmpty()) {
            return bad(ex, "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.",
                    "empty_array");
        }
        if (flavor == Flavor.OPENAI) {
            ParamRanges.Refusal range = ParamRanges.openai(root);
            if (range != null) {
                ex.failOpenAiParam(range);
                return null;
            }
        } else {
            String range = ParamRanges.dashscope(root);
            if (range != null) return bad(ex, range, "InvalidParameter");
        }
        PromptMeter m = new PromptMeter(model);
        List<Conversation.Tool> tools = new ArrayList<>();
        for (JsonNode t : root.path("tools")) {
            JsonNode fn = t.path("function");
            String name = Json.text(fn, "name");
            m.text(name);
            m.text(Json.text(fn, "description"));
            JsonNode params = fn.get("parameters");
            if (params != null) m.text(Json.write(params));
            if (name != null) tools.add(new Conversation.Tool(name, params));
        }
        m.endMessage();

        String lastUserText = "", toolResult = null;
        int images = 0;
        int trailingToolStart = messages.size();
        while (trailingToolStart > 0 && "tool".equals(Json.text(messages.get(trailingToolStart - 1), "role"))) trailingToolStart--;
        for (int i = 0; i < messages.size(); i++) {
            JsonNode msg = messages.get(i);
            String role = String.valueOf(Json.text(msg, "role"));
            m.shape(role);
            StringBuilder text = new StringBuilder();
            int msgImages = 0;
            JsonNode content = msg.get("content");
            if (content != null && content.isTextual()) {
                text.append(content.asText());
            } else if (content != null && content.isArray()) {
                for (JsonNode part : content) {
                    String type = String.valueOf(Json.text(part, "type"));
                    m.shape(type);
                    switch (type) {
                        case "text" -> {
                            if (!text.isEmpty()) text.append(' ');
                            text.append(Json.text(part, "text"));
                        }
                        case "image_url" -> {
                            msgImages++;
                            m.shape(part.path("image_url").path("url").asText(""));
                        }
                        default -> m.shape(Json.write(part));
                    }
                }
            }
            m.text(text.toString());
            for (JsonNode call : msg.path("tool_calls")) {
                m.text(call.path("function").path("name").asText(""));
                m.text(call.path("function").path("arguments").asText(""));
            }
            m.endMessage();
            if (role.equals("user")) {
                if (!text.isEmpty()) lastUserText = text.toString();
                if (i == messages.size() - 1) images = msgImages;
            }
            if (role.equals("tool") && i == trailingToolStart) toolResult = text.toString();
        }

        JsonNode tc = root.get("tool_choice");
        Conversation.ToolChoice choice = Conversation.ToolChoice.AUTO;
        if (tc != null && tc.isTextual()) {
            choice = switch (tc.asText()) {
                case "none" -> Conversation.ToolChoice.NONE;
                case "required" -> Conversation.ToolChoice.REQUIRED;
                default -> Conversation.ToolChoice.AUTO;
            };
        } else if (tc != null && tc.isObject() && tc.path("function").has("name")) {
            choice = new Conversation.ToolChoice(Conversation.ChoiceMode.NAMED, tc.path("function").path("name").asText());
        }
        JsonNode maxNode = root.has("max_completion_tokens") ? root.get("max_completion_tokens") : root.get("max_tokens");
        Integer max = maxNode != null && maxNode.canConvertToInt() ? maxNode.intValue() : null;

        Conversation.OutputFormat format = null;
        JsonNode rf = root.get("response_format");
        String rfType = Json.text(rf, "type");
        if ("json_schema".equals(rfType)) format = new Conversation.OutputFormat(rf.path("json_schema").get("schema"));
        else if ("json_object".equals(rfType)) format = new Conversation.OutputFormat(null);

        boolean thinking = flavor == Flavor.DASHSCOPE
                ? root.path("enable_thinking").asBoolean(false)
                : model.startsWith("vendorB-5") || model.startsWith("vendorB-6") || model.startsWith("o");

        Conversation c = new Conversation(model, lastUserText, toolResult, tools, choice, max, images, thinking, format);
        boolean stream = root.path("stream").asBoolean(false);
        return new Parsed(c, m, stream, root.path("stream_options").path("include_usage").asBoolean(false));
    }

    private static Parsed bad(Exchange ex, String message, String code) {
        ex.fail(400, message, code);
        return null;
    }

    // ------------------------------------------------------------------ response

    private static String finishReason(Answer.Stop s) {
        return switch (s) {
            case END -> "stop";
            case MAX_TOKENS -> "length";
            case TOOL -> "tool_calls";
        };
    }

    private ObjectNode usage(CacheLedger.Usage u, Answer a) {
        int completion = a.outputTokens();
        ObjectNode o = Json.obj().put("prompt_tokens", u.total()).put("completion_tokens", completion)
                .put("total_tokens", u.total() + completion);
        if (flavor == Flavor.OPENAI) {
            o.putObject("prompt_tokens_details").put("cached_tokens", u.cacheRead()).put("audio_tokens", 0);
            o.putObject("completion_tokens_details").put("reasoning_tokens", a.thinkingTokens()).put("audio_tokens", 0)
                    .put("accepted_prediction_tokens", 0).put("rejected_prediction_tokens", 0);
        } else {
            o.putObject("prompt_tokens_details").put("cached_tokens", u.cacheRead());
            if (a.hasThinking()) o.putObject("completion_tokens_details").put("reasoning_tokens", a.thinkingTokens());
        }
        return o;
    }

    private ArrayNode toolCalls(Answer a) {
        ArrayNode arr = Json.arr();
        for (int i = 0; i < a.calls().size(); i++) {
            Answer.ToolCall call = a.calls().get(i);
            ObjectNode c = arr.addObject();
            if (flavor == Flavor.DASHSCOPE) c.put("index", i);
            c.put("id", call.id()).put("type", "function");
            c.putObject("function").put("name", call.name()).put("arguments", call.arguments());
        }
        return arr;
    }

    private ObjectNode completion(String id, long created, Parsed p, Answer a, CacheLedger.Usage u) {
        boolean tools = !a.calls().isEmpty();
        ObjectNode message = Json.obj().put("role", "assistant");
        if (flavor == Flavor.OPENAI) {
            if (tools) message.putNull("content"); else message.put("content", a.text());
            message.putNull("refusal");
            message.putArray("annotations");
        } else {
            message.put("content", a.text());
            if (a.hasThinking()) message.put("reasoning_content", a.thinking());
        }
        if (tools) message.set("tool_calls", toolCalls(a));
        ObjectNode choice = Json.obj().put("index", 0);
        choice.set("message", message);
        choice.putNull("logprobs").put("finish_reason", finishReason(a.stop()));

        ObjectNode root = Json.obj();
        if (flavor == Flavor.OPENAI) {
            root.put("id", id).put("object", "chat.completion").put("created", created).put("model", p.conversation.model());
            root.putArray("choices").add(choice);
            root.set("usage", usage(u, a));
            root.put("service_tier", "default").put("system_fingerprint", "fp_sim");
        } else {
            root.putArray("choices").add(choice);
            root.put("object", "chat.completion");
            root.set("usage", usage(u, a));
            root.put("created", created).putNull("system_fingerprint").put("model", p.conversation.model()).put("id", id);
        }
        return root;
    }

    /** Chunks are assembled from pre-rendered prefix/suffix strings: only the delta changes per chunk. */
    private List<String> chunks(String id, long created, Parsed p, Answer a, CacheLedger.Usage u) {
        String model = Json.write(Json.F.textNode(p.conversation.model()));
        boolean ds = flavor == Flavor.DASHSCOPE;
        String head, tail, tailNoFinish;
        if (ds) {
            head = "{\"choices\":[{\"delta\":";
            tail = ",\"index\":0,\"logprobs\":null}],\"object\":\"chat.completion.chunk\",\"usage\":null,\"created\":" + created
                    + ",\"system_fingerprint\":null,\"model\":" + model + ",\"id\":\"" + id + "\"}";
        } else {
            head = "{\"id\":\"" + id + "\",\"object\":\"chat.completion.chunk\",\"created\":" + created + ",\"model\":" + model
                    + ",\"system_fingerprint\":\"fp_sim\",\"choices\":[{\"index\":0,\"delta\":";
            tail = ",\"logprobs\":null}]" + (p.includeUsage ? ",\"usage\":null" : "") + "}";
        }
        tailNoFinish = ",\"finish_reason\":null" + tail;

        List<String> out = new ArrayList<>(a.pieces().size() + a.thinkingPieces().size() + 8);
        boolean tools = !a.calls().isEmpty();
        boolean reasoning = ds && a.hasThinking();
        String first = reasoning ? "{\"content\":null,\"role\":\"assistant\",\"reasoning_content\":\"\"}"
                : tools ? "{\"role\":\"assistant\",\"content\":null}"
                : ds ? "{\"content\":\"\",\"role\":\"assistant\"}"
                : "{\"role\":\"assistant\",\"content\":\"\",\"refusal\":null}";
        // DashScope folds the role into the first tool-call fragment instead of sending a role-only chunk.
        boolean roleInFirstToolChunk = ds && tools && !reasoning;
        if (!roleInFirstToolChunk) out.add(data(head + first + tailNoFinish));
        if (reasoning) {
            for (String piece : a.thinkingPieces()) {
                out.add(data(head + "{\"content\":null,\"reasoning_content\":" + str(piece) + "}" + tailNoFinish));
            }
        }
        String afterContent = reasoning ? ",\"reasoning_content\":null}" : "}";
        for (String piece : a.pieces()) out.add(data(head + "{\"content\":" + str(piece) + afterContent + tailNoFinish));
        for (int k = 0; k < a.calls().size(); k++) {
            Answer.ToolCall call = a.calls().get(k);
            String startFrag = "[{\"index\":" + k + ",\"id\":\"" + call.id() + "\",\"type\":\"function\",\"function\":{\"name\":"
                    + str(call.name()) + ",\"arguments\":\"\"}}]";
            out.add(data(head + (k == 0 && roleInFirstToolChunk
                    ? "{\"content\":null,\"tool_calls\":" + startFrag + ",\"role\":\"assistant\"}"
                    : "{\"tool_calls\":" + startFrag + "}") + tailNoFinish));
            String idType = ds ? ",\"id\":\"\",\"type\":\"function\"" : "";
            for (String frag : AnswerPlanner.thirds(call.arguments())) {
                out.add(data(head + (ds ? "{\"content\":null," : "{") + "\"tool_calls\":[{\"index\":" + k + idType + ",\"function\":{\"arguments\":" + str(frag) + "}}]}" + tailNoFinish));
            }
        }
        // DashScope closes a text answer with an empty content delta; tool calls and OpenAI use {}.
        String last = !ds || tools ? "{}" : reasoning ? "{\"content\":\"\",\"reasoning_content\":null}" : "{\"content\":\"\"}";
        out.add(data(head + last + ",\"finish_reason\":\"" + finishReason(a.stop()) + "\"" + tail));
        if (p.includeUsage) {
            String usage = Json.write(usage(u, a));
            out.add(data(ds
                    ? "{\"choices\":[],\"object\":\"chat.completion.chunk\",\"usage\":" + usage + ",\"created\":" + created
                    + ",\"system_fingerprint\":null,\"model\":" + model + ",\"id\":\"" + id + "\"}"
                    : "{\"id\":\"" + id + "\",\"object\":\"chat.completion.chunk\",\"created\":" + created + ",\"model\":" + model
                    + ",\"system_fingerprint\":\"fp_sim\",\"choices\":[],\"usage\":" + usage + "}"));
        }
        out.add("data: [DONE]\n\n");
        return out;
    }

    private static String str(String s) {
        return Json.write(Json.F.textNode(s));
    }

    static String data(String json) {
        return "data: " + json + "\n\n";
    }
}
