package dev.modelgateway.upstream;

import dev.modelgateway.config.VendorEndpoint;
import dev.modelgateway.wire.OperationRequest;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.http.WebSocketConnectOptions;

/**
 * WebSocket connections to the vendors (realtime sessions), authenticated with the vendor's own credential
 * header. Like {@link VendorClients}, one instance per event loop, so both legs of a session share its thread.
 */
public final class VendorSockets {
    private static final int CONNECT_TIMEOUT_MS = 10_000;

    private final WebSocketClient client;

    /** @param maxFrameBytes the largest frame accepted from the vendor (relayed frames are never re-chunked) */
    public VendorSockets(Vertx vertx, int maxFrameBytes) {
        this.client = vertx.createWebSocketClient(new WebSocketClientOptions()
                .setConnectTimeout(CONNECT_TIMEOUT_MS)
                .setTcpNoDelay(true)
                .setMaxFrameSize(maxFrameBytes)
                .setMaxMessageSize(maxFrameBytes));
    }

    /**
     * Opens {@code <base URL with ws/wss scheme><request path>}; the request's headers come on top of the vendor's
     * auth.
     */
    public Future<WebSocket> connect(VendorEndpoint endpoint, OperationRequest request) {
        String base = endpoint.baseUrl().replaceFirst("^http", "ws");
        WebSocketConnectOptions options = new WebSocketConnectOptions().setAbsoluteURI(base + request.path());
        MultiMap all = MultiMap.caseInsensitiveMultiMap();
        request.headers().forEach(all::set);
        VendorAuth.apply(endpoint, all);
        all.forEach(options::addHeader);
        return client.connect(options);
    }
}
