package dev.modelgateway.e2e.accounts;

import io.vertx.core.Vertx;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetSocket;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP relay to the local Redis that can stop relaying, as a hung Redis would: connections stay open and
 * nothing answers. Closing it drops every relayed connection, as a Redis that died would.
 */
final class HungRedis implements AutoCloseable {
    private final NetServer server;
    private final NetClient client;
    private final Set<NetSocket> sockets = ConcurrentHashMap.newKeySet();
    private volatile boolean hung;

    HungRedis(Vertx vertx) {
        this.client = vertx.createNetClient();
        this.server = vertx.createNetServer().connectHandler(this::relay).listen(0, "127.0.0.1").await();
    }

    int port() {
        return server.actualPort();
    }

    /** From now on, nothing reaches Redis and nothing comes back. */
    void hang() {
        hung = true;
    }

    private void relay(NetSocket in) {
        in.pause();
        sockets.add(in);
        client.connect(6379, "127.0.0.1").onSuccess(out -> {
            sockets.add(out);
            in.handler(b -> {
                if (!hung) out.write(b);
            });
            out.handler(b -> {
                if (!hung) in.write(b);
            });
            in.closeHandler(v -> out.close());
            out.closeHandler(v -> in.close());
            in.resume();
        }).onFailure(e -> in.close());
    }

    @Override
    public void close() {
        server.close().await();
        sockets.forEach(NetSocket::close);
        client.close().await();
    }
}
