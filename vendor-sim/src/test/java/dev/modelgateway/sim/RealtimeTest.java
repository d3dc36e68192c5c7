package dev.modelgateway.sim;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.WebSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RealtimeTest extends SimTestBase {

    /** Collects text frames into a queue. */
    static final class Frames implements WebSocket.Listener {
        final LinkedBlockingQueue<JsonNode> queue = new LinkedBlockingQueue<>();
        private final StringBuilder partial = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                queue.add(json(partial.toString()));
                partial.setLength(0);
            }
            ws.request(1);
            return null;
        }

        JsonNode next() throws InterruptedException {
            JsonNode n = queue.poll(5, TimeUnit.SECONDS);
            assertThat(n).as("expected a frame").isNotNull();
            return n;
        }

        List<JsonNode> until(String type) throws InterruptedException {
            List<JsonNode> out = new ArrayList<>();
            JsonNode n;
            do {
                n = next();
                out.add(n);
            } while (!type.equals(n.path("type").asText()));
            return out;
        }
    }

    static String wsUrl() {
        return "ws://127.0.0.1:" + sim.port() + "/openai/v1/realtime?model=gpt-realtime";
    }

    @Test
    void sessionAndTextResponse() throws Exception {
        Frames frames = new Frames();
        WebSocket ws = http.newWebSocketBuilder().header("authorization", "Bearer sim-openai-key").buildAsync(URI.create(wsUrl()), frames)
                .get(5, TimeUnit.SECONDS);
        JsonNode created = frames.next();
        assertThat(created.path("type").asText()).isEqualTo("session.created");
        assertThat(created.path("session").path("model").asText()).isEqualTo("gpt-realtime");
        assertThat(created.path("event_id").asText()).isNotEmpty();

        ws.sendText("{\"type\":\"session.update\",\"session\":{\"type\":\"realtime\",\"instructions\":\"be brief\"}}", true).join();
        assertThat(frames.next().path("session").path("instructions").asText()).isEqualTo("be brief");
        ws.sendText("{\"type\":\"conversation.item.create\",\"item\":{\"type\":\"message\",\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":\"hi there\"}]}}", true).join();
        assertThat(frames.until("conversation.item.done")).hasSize(2);
        ws.sendText("{\"type\":\"response.create\"}", true).join();
        List<JsonNode> ev = frames.until("response.done");
        List<String> types = ev.stream().map(e -> e.path("type").asText()).toList();
        assertThat(types.subList(0, 3)).containsExactly("response.created", "response.output_item.added", "response.content_part.added");
        assertThat(types.subList(types.size() - 4, types.size()))
                .containsExactly("response.output_text.done", "response.content_part.done", "response.output_item.done", "response.done");
        String text = ev.stream().filter(e -> e.path("type").asText().equals("response.output_text.delta")).map(e -> e.path("delta").asText())
                .reduce("", String::concat);
        assertThat(text).isEqualTo("Hello from gpt-realtime. You said: hi there");
        JsonNode usage = ev.getLast().path("response").path("usage");
        assertThat(usage.path("output_tokens").asInt()).isEqualTo(Tokens.of(text));
        assertThat(usage.path("total_tokens").asInt()).isEqualTo(usage.path("input_tokens").asInt() + usage.path("output_tokens").asInt());

        ws.sendText("{\"type\":\"nope\",\"event_id\":\"e1\"}", true).join();
        JsonNode err = frames.next();
        assertThat(err.path("type").asText()).isEqualTo("error");
        assertThat(err.path("error").path("event_id").asText()).isEqualTo("e1");
        ws.sendClose(WebSocket.NORMAL_CLOSURE, "bye").join();
        assertThat(sim.received()).anySatisfy(r -> assertThat(r.path()).startsWith("/openai/v1/realtime"));
    }

    @Test
    void subprotocolAuthAndRejection() throws Exception {
        Frames frames = new Frames();
        WebSocket ws = http.newWebSocketBuilder().subprotocols("realtime", "openai-insecure-api-key.sim-openai-key")
                .buildAsync(URI.create(wsUrl()), frames).get(5, TimeUnit.SECONDS);
        assertThat(ws.getSubprotocol()).isEqualTo("realtime");
        assertThat(frames.next().path("type").asText()).isEqualTo("session.created");
        ws.abort();
        assertThat(sim.received().getLast().headers().get("sec-websocket-protocol")).doesNotContain("sim-openai-key");

        CompletableFuture<WebSocket> bad = http.newWebSocketBuilder().header("authorization", "Bearer wrong")
                .buildAsync(URI.create(wsUrl()), new Frames());
        assertThatThrownBy(bad::join).isInstanceOf(CompletionException.class);
    }
}
