package dev.modelgateway.upstream;

import dev.modelgateway.canonical.Usage;
import dev.modelgateway.wire.openai.media.RealtimeClientEvents;
import dev.modelgateway.wire.openai.media.RealtimeUsage;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketBase;
import io.vertx.core.http.WebSocketFrame;

import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.function.Consumer;

/**
 * One relayed realtime session: data frames pass unchanged both ways (fragmentation kept), each direction
 * paused while the other side's write queue is full; a close on either side closes the other with the same
 * code; each response's usage is handed over as it completes, and the summed usage to {@code onEnd}, once.
 * A client message that may ask for a response waits for the {@link ResponseGate} (the client's later frames
 * wait behind it): refused, it is not forwarded and the client gets the gate's event instead.
 */
public final class RealtimeRelay {
    /** RFC 6455 §7.4.1's "going away": the server is going down. */
    static final short GOING_AWAY = 1001;
    /** Close codes that may only be observed, never sent (RFC 6455 §7.4.1). */
    private static final Set<Short> UNSENDABLE = Set.of((short) 1005, (short) 1006, (short) 1015);

    private final ServerWebSocket client;
    private final WebSocket upstream;
    private final Consumer<Usage> onEnd;
    private final RealtimeUsage usage;
    private final ResponseGate gate;
    private int open = 2;
    /** A client message waits for the gate: the client stays paused whatever the vendor's write queue does. */
    private boolean gated;
    /** The continuation frames of a refused fragmented message are dropped too. */
    private boolean dropping;
    /** The vendor is midway through a fragmented message to the client: a refusal waits for its end. */
    private boolean vendorMidMessage;
    private Buffer refusalToSend;
    /** Takes the session off the calls a shutdown's drain ends. */
    private Runnable unlist = () -> { };

    /** Asked before a client message that may create a response is forwarded. */
    @FunctionalInterface
    public interface ResponseGate {
        /** The event that answers {@code clientFrame} instead of the vendor; null to forward it. */
        Future<Buffer> refusal(Buffer clientFrame);
    }

    /**
     * @param onResponse told the usage of each response as it completes (so it is recorded as it accrues)
     * @param onEnd      told the session's total usage once both sides are closed
     * @param gate       asked before each client message that may create a response
     */
    public RealtimeRelay(ServerWebSocket client, WebSocket upstream, Consumer<Usage> onResponse, Consumer<Usage> onEnd,
                         ResponseGate gate) {
        this.client = client;
        this.upstream = upstream;
        this.usage = new RealtimeUsage(onResponse);
        this.onEnd = onEnd;
        this.gate = gate;
    }

    /** Ends the session from the gateway's side (e.g. the key was revoked): both sockets close with this code. */
    public void close(short code, String reason) {
        if (!upstream.isClosed()) upstream.close(code, reason);
        if (!client.isClosed()) client.close(code, reason);
    }

    public boolean closed() {
        return open == 0;
    }

    /**
     * Relays frames until either side closes; a shutdown's drain closes both sides at its deadline with 1001 (going
     * away), after which the client reconnects to another instance.
     */
    public void start(CallsInFlight inFlight) {
        unlist = inFlight.add(Vertx.currentContext(), reason -> close(GOING_AWAY, "The gateway is shutting down."));
        client.frameHandler(this::fromClient);
        upstream.frameHandler(this::fromVendor);
        client.closeHandler(v -> closed(upstream, client));
        upstream.closeHandler(v -> closed(client, upstream));
        // a transport error closes the connection, which then runs its close handler
        client.exceptionHandler(t -> client.close());
        upstream.exceptionHandler(t -> upstream.close());
        // both arrive paused: the vendor's since the connect, the caller's since its upgrade request
        upstream.resume();
        client.resume();
    }

    private void fromClient(WebSocketFrame frame) {
        if (!isData(frame) || upstream.isClosed()) return;
        if (frame.isContinuation()) {
            if (!dropping) toVendor(frame);
            if (frame.isFinal()) dropping = false;
        } else if (frame.isText() && RealtimeClientEvents.mayCreateResponse(frame.isFinal(), frame.binaryData())) {
            gated = true;
            client.pause();
            // a failed check lets the message through, as the periodic check does (an unreachable store is no refusal)
            gate.refusal(frame.binaryData()).onComplete(checked -> {
                gated = false;
                Buffer refusal = checked.succeeded() ? checked.result() : null;
                if (refusal == null) {
                    toVendor(frame);
                } else {
                    dropping = !frame.isFinal();
                    refusalToSend = refusal;
                    if (!vendorMidMessage) sendRefusal();
                }
                if (!upstream.writeQueueFull()) client.resume();
            });
        } else {
            toVendor(frame);
        }
    }

    private void toVendor(WebSocketFrame frame) {
        if (upstream.isClosed()) return;
        upstream.writeFrame(frame);
        if (upstream.writeQueueFull()) {
            client.pause();
            upstream.drainHandler(v -> {
                if (!gated) client.resume();
            });
        }
    }

    private void fromVendor(WebSocketFrame frame) {
        if (!isData(frame) || client.isClosed()) return;
        usage.accept(frame.isText(), frame.isContinuation(), frame.isFinal(), frame.binaryData());
        client.writeFrame(frame);
        vendorMidMessage = !frame.isFinal();
        if (!vendorMidMessage && refusalToSend != null) sendRefusal();
        if (client.writeQueueFull()) {
            upstream.pause();
            client.drainHandler(v -> upstream.resume());
        }
    }

    private void sendRefusal() {
        if (!client.isClosed()) client.writeTextMessage(refusalToSend.toString(StandardCharsets.UTF_8));
        refusalToSend = null;
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
        if (--open == 0) {
            unlist.run();
            onEnd.accept(usage.total());
        }
    }
}
