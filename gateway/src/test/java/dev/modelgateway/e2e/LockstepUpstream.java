package dev.modelgateway.e2e;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerResponse;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * An OpenAI-compatible upstream whose streams the test writes event by event ({@code POST /v1/chat/completions} with
 * {@code stream: true}), so that it can send the next event only once the client has read the previous one and time
 * each event from the moment it is written to the moment the client reads it: the latency a proxy adds, measured
 * without the noise of the events' own spacing.
 */
public final class LockstepUpstream implements AutoCloseable {
    private final HttpServer server;
    private final BlockingQueue<HttpServerResponse> streams = new LinkedBlockingQueue<>();

    private LockstepUpstream(Vertx vertx) {
        this.server = vertx.createHttpServer().requestHandler(req -> req.body().onSuccess(body -> {
            if (!req.path().endsWith("/chat/completions")) {
                req.response().setStatusCode(404).end();
                return;
            }
            HttpServerResponse response = req.response().setChunked(true).putHeader("content-type", "text/event-stream");
            response.writeHead();
            streams.add(response);
        })).listen(0, "127.0.0.1").await();
    }

    public static LockstepUpstream start(Vertx vertx) {
        return new LockstepUpstream(vertx);
    }

    /** {@code http://127.0.0.1:<port>/v1}: an {@code openai-compatible} provider's {@code base_url}. */
    public String baseUrl() {
        return "http://127.0.0.1:" + server.actualPort() + "/v1";
    }

    /** The next stream a caller asked for, waiting up to 30 s for its request. */
    public Stream nextStream() throws InterruptedException {
        HttpServerResponse response = streams.poll(30, TimeUnit.SECONDS);
        if (response == null) throw new AssertionError("no stream was asked for within 30 s");
        return new Stream(response);
    }

    /** One stream in progress: its chunks written one at a time. */
    public record Stream(HttpServerResponse response) {
        /** Writes one content delta as a chat completion chunk; returns when it was handed to the connection. */
        public long write(String text) {
            long at = System.nanoTime();
            response.write("data: {\"id\":\"chatcmpl-lockstep\",\"object\":\"chat.completion.chunk\",\"created\":0,"
                    + "\"model\":\"lockstep\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + text
                    + "\"},\"finish_reason\":null}]}\n\n");
            return at;
        }

        /** The final chunk with its finish reason and usage, then {@code [DONE]}. */
        public void end() {
            response.end("data: {\"id\":\"chatcmpl-lockstep\",\"object\":\"chat.completion.chunk\",\"created\":0,"
                    + "\"model\":\"lockstep\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}],"
                    + "\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":10,\"total_tokens\":11}}\n\ndata: [DONE]\n\n");
        }
    }

    @Override
    public void close() {
        server.close().await();
    }
}
