package dev.modelgateway.server;

import dev.modelgateway.config.ServerLimits;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.net.SocketAddress;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Connection caps and the request-head timeout (docs/configuration.md, "Server limits"). The counts are
 * shared by every event loop; a connection beyond the per-client-address cap or the overall cap is closed at
 * once. A connection must deliver a complete request head within the head timeout of opening, and again of
 * its last response ending (an idle keep-alive connection); while a request is in progress, however long
 * its response streams, the head timeout does not apply. Vert.x has no option for it: one timer per connection.
 */
final class ConnectionGuard {
    private static final Logger LOG = LoggerFactory.getLogger(ConnectionGuard.class);

    private final ServerLimits limits;
    private final AtomicInteger total = new AtomicInteger();
    private final ConcurrentHashMap<String, AtomicInteger> byClient = new ConcurrentHashMap<>();

    ConnectionGuard(ServerLimits limits) {
        this.limits = limits;
    }

    private boolean admit(String client) {
        if (total.incrementAndGet() > limits.maxConnections() && limits.maxConnections() > 0) {
            total.decrementAndGet();
            return false;
        }
        if (limits.maxConnectionsPerClient() > 0) {
            AtomicInteger n = byClient.computeIfAbsent(client, c -> new AtomicInteger());
            if (n.incrementAndGet() > limits.maxConnectionsPerClient()) {
                release(client);
                return false;
            }
        }
        return true;
    }

    private void release(String client) {
        total.decrementAndGet();
        if (limits.maxConnectionsPerClient() > 0) {
            byClient.computeIfPresent(client, (c, n) -> n.decrementAndGet() <= 0 ? null : n);
        }
    }

    /** The guard as one event loop's server uses it: its connection handler, and a first route for the router. */
    final class OnLoop {
        private final Vertx vertx;
        /** Only ever touched from this loop's thread. */
        private final Map<HttpConnection, Watch> watches = new WeakHashMap<>();

        OnLoop(Vertx vertx) {
            this.vertx = vertx;
        }

        void connected(HttpConnection connection) {
            SocketAddress remote = connection.remoteAddress();
            String client = remote == null ? "-" : remote.hostAddress() != null ? remote.hostAddress() : remote.toString();
            if (!admit(client)) {
                LOG.warn("connection from {} refused: over the connection cap", client);
                connection.close();
                return;
            }
            Watch w = new Watch(connection);
            watches.put(connection, w);
            connection.closeHandler(v -> {
                release(client);
                w.stop();
                watches.remove(connection);
            });
            w.arm();
        }

        /** The request hook, the router's first route ({@link GatewayRouter#guard}): counts the request in and out. */
        void requestStarted(RoutingContext ctx) {
            Watch w = watches.get(ctx.request().connection());
            if (w != null) {
                w.started();
                ctx.addEndHandler(v -> w.ended());
            }
            ctx.next();
        }

        /**
         * One connection's head timer. Requests only count themselves in and out and stamp when the last one
         * ended; the one timer checks the stamp when it fires and sets itself again for what remains, so a busy
         * keep-alive connection creates no timer per request.
         */
        private final class Watch {
            private final HttpConnection connection;
            private long timer = -1;
            private int inFlight;
            private long idleSinceNanos = System.nanoTime();
            private boolean closed;

            Watch(HttpConnection connection) {
                this.connection = connection;
            }

            void arm() {
                if (closed || limits.requestHeadTimeoutSeconds() <= 0) return;
                check(TimeUnit.SECONDS.toMillis(limits.requestHeadTimeoutSeconds()));
            }

            private void check(long waitMs) {
                timer = vertx.setTimer(Math.max(1, waitMs), id -> {
                    timer = -1;
                    if (closed) return;
                    long limitMs = TimeUnit.SECONDS.toMillis(limits.requestHeadTimeoutSeconds());
                    if (inFlight > 0) {
                        check(limitMs);
                        return;
                    }
                    long idleMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - idleSinceNanos);
                    if (idleMs >= limitMs) connection.close();
                    else check(limitMs - idleMs);
                });
            }

            void started() {
                inFlight++;
            }

            void ended() {
                if (--inFlight == 0) idleSinceNanos = System.nanoTime();
            }

            void stop() {
                closed = true;
                if (timer >= 0) vertx.cancelTimer(timer);
                timer = -1;
            }
        }
    }
}
