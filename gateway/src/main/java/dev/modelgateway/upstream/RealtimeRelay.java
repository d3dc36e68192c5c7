package dev.modelgateway.upstream;

import dev.modelgateway.canonical.Usage;
import dev.modelgateway.wire.openai.media.RealtimeUsage;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketBase;
import io.vertx.core.http.WebSocketFrame;

import java.util.Set;
import java.util.function.Consumer;

/**
 * One relayed realtime session: data frames pass unchanged both ways (fragmentation kept), each direction
 * paused while the other side's write queue is full; a close on either side closes the other with the same
 * code; each response's usage is handed over as it completes, and the summed usage to {@code onEnd}, once.
 */
public final class RealtimeRelay {
    /** Close codes that may only be observed, never sent (RFC 6455 §7.4.1). */
    private static final Set<Short> UNSENDABLE = Set.of((short) 1005, (short) 1006, (short) 1015);

    private final ServerWebSocket client;
    private final WebSocket upstream;
    private final Consumer<Usage> onEnd;
    private final RealtimeUsage usage;
    private int open = 2;

    /**
     * @param onResponse told the usage of each response as it completes (so it is recorded as it accrues)
     * @param onEnd      told the session's total usage once both sides are closed
     */
    public RealtimeRelay(ServerWebSocket client, WebSocket upstream, Consumer<Usage> onResponse, Consumer<Usage> onEnd) {
        this.client = client;
        this.upstream = upstream;
        this.usage = new RealtimeUsage(onResponse);
        this.onEnd = onEnd;
    }

    /** Ends the session from the gateway's side (e.g. the key was revoked): both sockets close with this code. */
    public void close(short code, String reason) {
        if (!upstream.isClosed()) upstream.close(code, reason);
        if (!client.isClosed()) client.close(code, reason);
    }

    public boolean closed() {
        return open == 0;
    }

    public void start() {
        pipe(client, upstream, null);
        pipe(upstream, client, usage);
        client.closeHandler(v -> closed(upstream, client));
        upstream.closeHandler(v -> closed(client, upstream));
        // a transport error closes the connection, which then runs its close handler
        client.exceptionHandler(t -> client.close());
        upstream.exceptionHandler(t -> upstream.close());
        // both arrive paused: the vendor's since the connect, the caller's since its upgrade request
        upstream.resume();
        client.resume();
    }

    private static void pipe(WebSocketBase from, WebSocketBase to, RealtimeUsage tap) {
        from.frameHandler(frame -> {
            if (!isData(frame) || to.isClosed()) return;
            if (tap != null) tap.accept(frame.isText(), frame.isContinuation(), frame.isFinal(), frame.binaryData());
            to.writeFrame(frame);
            if (to.writeQueueFull()) {
                from.pause();
                to.drainHandler(v -> from.resume());
            }
        });
    }

    private static boolean isData(WebSocketFrame frame) {
        return frame.isText() || frame.isBinary() || frame.isContinuation();
    }

    private void closed(WebSocketBase other, WebSocketBase closedSide) {
        if (!other.isClosed()) {
            Short code = closedSide.closeStatusCode();
            if (code == null || UNSENDABLE.contains(code)) other.close();
            else other.close(code, closedSide.closeReason());
        }
        if (--open == 0) onEnd.accept(usage.total());
    }
}
