package dev.modelgateway.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.MultiMap;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.http.ServerWebSocketHandshake;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * OpenAI Realtime over WebSocket at {@code /openai/v1/realtime?model=...} (GA event names). Auth is the Bearer
 * header on the upgrade or the browser subprotocol {@code openai-insecure-api-key.<key>}. Text-only: the answer
 * to {@code response.create} is streamed as {@code response.output_text.delta} events.
 */
final class RealtimeApi {
    static final String PATH = "/openai/v1/realtime";
    private static final String KEY_PROTOCOL = "openai-insecure-api-key.";

    private final VendorSimulator sim;

    RealtimeApi(VendorSimulator sim) {
        this.sim = sim;
    }

    void handshake(ServerWebSocketHandshake h) {
        if (!PATH.equals(h.path())) {
            h.reject(404);
            return;
        }
        String key = VendorSimulator.bearer(h.headers().get("authorization"));
        String protocols = h.headers().get("sec-websocket-protocol");
        if (key == null && protocols != null) {
            for (String p : protocols.split(",")) if (p.trim().startsWith(KEY_PROTOCOL)) key = p.trim().substring(KEY_PROTOCOL.length());
        }
        if (!sim.keys.accepts("openai", key)) {
            log(h.uri(), h.headers());
            h.reject(401);
            return;
        }
        // a queued fault with status=N refuses the upgrade with that status
        Directive fault = sim.faults.resolve("openai", Directive.NONE);
        if (fault.status() > 0) {
            log(h.uri(), h.headers());
            h.reject(fault.status());
            return;
        }
        h.accept();
    }

    void connected(ServerWebSocket ws) {
        RequestLog.Entry entry = log(ws.uri(), ws.headers());
        new Session(ws, entry, ws.query() == null ? "gpt-realtime" : queryModel(ws.query())).start();
    }

    private RequestLog.Entry log(String uri, MultiMap headers) {
        Map<String, String> h = new LinkedHashMap<>();
        headers.forEach(e -> {
            String name = e.getKey().toLowerCase(Locale.ROOT);
            // the browser subprotocol carries the API key: never log it
            String value = name.equals("sec-websocket-protocol") ? e.getValue().replaceAll(KEY_PROTOCOL + "[^, ]*", KEY_PROTOCOL + "***") : e.getValue();
            h.merge(name, value, (a, b) -> a + ", " + b);
        });
        return sim.log.add(new RequestLog.Entry("openai", "GET", uri, Collections.unmodifiableMap(h), ""));
    }

    private static String queryModel(String query) {
        for (String kv : query.split("&")) if (kv.startsWith("model=")) return URLDecoder.decode(kv.substring(6), StandardCharsets.UTF_8);
        return "gpt-realtime";
    }

    /** One connection: session state, the conversation's last user text and an event id counter. */
    private final class Session {
        final ServerWebSocket ws;
        final RequestLog.Entry entry;
        final String model;
        final ObjectNode session = Json.obj();
        String lastUserText = "";
        int inputChars;
        long events, items;
        boolean responding;
        /** With {@code disconnect_after=N}: the response's events left before the socket is closed (1011); -1 = never. */
        int eventsBeforeDisconnect = -1;

        Session(ServerWebSocket ws, RequestLog.Entry entry, String model) {
            this.ws = ws;
            this.entry = entry;
            this.model = model;
        }

        void start() {
            session.put("type", "realtime").put("object", "realtime.session").put("id", "sess_sim_" + sim.messageIds.incrementAndGet())
                    .put("model", model).put("instructions", "").put("tool_choice", "auto").put("max_output_tokens", "inf");
            session.putArray("output_modalities").add("text");
            session.putArray("tools");
            session.putNull("tracing").putNull("prompt").put("expires_at", System.currentTimeMillis() / 1000 + 3600);
            send("session.created", Json.obj().set("session", session));
            ws.textMessageHandler(this::onMessage);
            ws.closeHandler(v -> {
                if (responding) entry.clientClosedEarly = true;
            });
        }

        void send(String type, ObjectNode payload) {
            if (ws.isClosed()) return;
            if (eventsBeforeDisconnect == 0) {
                ws.close((short) 1011, "simulated disconnect");
                return;
            }
            if (eventsBeforeDisconnect > 0) eventsBeforeDisconnect--;
            ObjectNode o = Json.obj().put("type", type).put("event_id", "event_sim_" + (++events));
            o.setAll(payload);
            ws.writeTextMessage(Json.write(o));
        }

        void onMessage(String text) {
            JsonNode msg;
            try {
                msg = Json.MAPPER.readTree(text);
            } catch (Exception e) {
                error("invalid_json", "The server failed to parse the event as JSON.", null);
                return;
            }
            String type = String.valueOf(Json.text(msg, "type"));
            switch (type) {
                case "session.update" -> {
                    JsonNode s = msg.path("session");
                    if (s.isObject()) s.fields().forEachRemaining(e -> {
                        if (!e.getKey().equals("type")) session.set(e.getKey(), e.getValue());
                    });
                    send("session.updated", Json.obj().set("session", session));
                }
                case "conversation.item.create" -> {
                    ObjectNode item = msg.path("item").isObject() ? ((ObjectNode) msg.get("item")).deepCopy() : Json.obj();
                    if (!item.has("id")) item.put("id", "item_sim_" + (++items));
                    item.put("object", "realtime.item").put("status", "completed");
                    StringBuilder sb = new StringBuilder();
                    for (JsonNode part : item.path("content")) {
                        String t = Json.text(part, "text");
                        if (t != null) sb.append(sb.isEmpty() ? "" : " ").append(t);
                    }
                    if (!sb.isEmpty() && "user".equals(Json.text(item, "role"))) lastUserText = sb.toString();
                    inputChars += sb.length();
                    ObjectNode payload = Json.obj().putNull("previous_item_id");
                    payload.set("item", item);
                    send("conversation.item.added", payload.deepCopy());
                    send("conversation.item.done", payload);
                }
                case "input_audio_buffer.append" -> { } // audio is accepted and ignored
                case "input_audio_buffer.commit" -> send("input_audio_buffer.committed",
                        Json.obj().putNull("previous_item_id").put("item_id", "item_sim_" + (++items)));
                case "input_audio_buffer.clear" -> send("input_audio_buffer.cleared", Json.obj());
                case "response.create" -> respond(msg.path("response"));
                case "response.cancel" -> { } // responses complete immediately; nothing to cancel
                default -> error("invalid_value", "Invalid value: '" + type + "'. Supported values are: 'session.update', "
                        + "'input_audio_buffer.append', 'input_audio_buffer.commit', 'input_audio_buffer.clear', 'conversation.item.create', "
                        + "'response.create' and 'response.cancel'.", Json.text(msg, "event_id"));
            }
        }

        void error(String code, String message, String clientEventId) {
            ObjectNode e = Json.obj();
            e.putObject("error").put("type", "invalid_request_error").put("code", code).put("message", message).put("param", "type")
                    .put("event_id", clientEventId);
            send("error", e);
        }

        void respond(JsonNode options) {
            String instructions = options.path("instructions").asText(session.path("instructions").asText(""));
            Conversation c = new Conversation(model, lastUserText, null, List.of(), Conversation.ToolChoice.NONE, null, 0, false, null);
            Directive d = sim.faults.resolve("openai", Directive.find(lastUserText));
            Answer a = AnswerPlanner.plan(c, d, null, sim.toolIds::incrementAndGet);
            if (d.disconnectAfter() >= 0) eventsBeforeDisconnect = d.disconnectAfter();
            long n = sim.messageIds.incrementAndGet();
            String responseId = "resp_sim_" + n, itemId = "item_sim_" + (++items);
            ObjectNode response = Json.obj().put("object", "realtime.response").put("id", responseId).put("status", "in_progress");
            response.putNull("status_details");
            response.putArray("output");
            response.put("conversation_id", "conv_sim_" + n);
            response.putArray("output_modalities").add("text");
            response.put("max_output_tokens", "inf");
            response.putNull("usage");
            send("response.created", Json.obj().set("response", response.deepCopy()));

            ObjectNode item = Json.obj().put("id", itemId).put("type", "message").put("object", "realtime.item").put("status", "in_progress")
                    .put("role", "assistant");
            item.putArray("content");
            send("response.output_item.added", Json.obj().put("response_id", responseId).put("output_index", 0).set("item", item.deepCopy()));
            ObjectNode base = Json.obj().put("response_id", responseId).put("item_id", itemId).put("output_index", 0).put("content_index", 0);
            send("response.content_part.added", base.deepCopy().set("part", Json.obj().put("type", "output_text").put("text", "")));
            responding = true;
            for (String piece : a.pieces()) send("response.output_text.delta", base.deepCopy().put("delta", piece));
            send("response.output_text.done", base.deepCopy().put("text", a.text()));
            send("response.content_part.done", base.deepCopy().set("part", Json.obj().put("type", "output_text").put("text", a.text())));
            item.put("status", "completed");
            ((ArrayNode) item.get("content")).addObject().put("type", "output_text").put("text", a.text());
            send("response.output_item.done", Json.obj().put("response_id", responseId).put("output_index", 0).set("item", item));

            int in = Tokens.ofChars(inputChars + instructions.length()), out = a.outputTokens();
            response.put("status", "completed");
            ((ArrayNode) response.get("output")).add(item);
            ObjectNode usage = response.putObject("usage").put("total_tokens", in + out).put("input_tokens", in).put("output_tokens", out);
            ObjectNode inDetails = usage.putObject("input_token_details").put("text_tokens", in).put("audio_tokens", 0).put("image_tokens", 0)
                    .put("cached_tokens", 0);
            inDetails.putObject("cached_tokens_details").put("text_tokens", 0).put("audio_tokens", 0).put("image_tokens", 0);
            usage.putObject("output_token_details").put("text_tokens", out).put("audio_tokens", 0);
            send("response.done", Json.obj().set("response", response));
            responding = false;
        }
    }
}
