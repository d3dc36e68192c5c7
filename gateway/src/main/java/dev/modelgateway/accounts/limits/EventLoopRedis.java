package dev.modelgateway.accounts.limits;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetClientOptions;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.RedisOptions;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One Redis connection per event loop, commands pipelined on it. The pooled client checks a connection out
 * and back in for every command, so a connection carries one command at a time and each result crosses
 * threads; on the request path that cost the gateway more than half its throughput (bench/results/
 * accounts-overhead.md). Here a command from an event loop is written on that loop's own socket, behind
 * whatever is already in flight, and its answer arrives on the same thread.
 */
public final class EventLoopRedis {
    private static final Logger LOG = LoggerFactory.getLogger(EventLoopRedis.class);

    /** Rate limiting must not hold a request up for long: past this, the caller treats Redis as unavailable. */
    public static final long TIMEOUT_MS = 1000;
    /** A hung Redis must not hold up the gateway's shutdown (docs/configuration.md, "Shutdown"). */
    public static final long CLOSE_TIMEOUT_MS = 2000;

    /** Vert.x's default number of event loops, with room for connections being replaced. */
    private static final int LOOPS = 2 * Runtime.getRuntime().availableProcessors() + 8;

    /**
     * Lends each event loop one connection, opened from that loop so its socket lives there, and never gets
     * it back; a client of its own so a loop never picks up an idle connection opened by another thread.
     */
    private final Redis loops;
    /** For callers off an event loop (start-up, shutdown, tests). */
    private final Redis shared;
    private final Map<Thread, Future<RedisConnection>> byLoop = new ConcurrentHashMap<>();
    /** Shown by Redis's CLIENT LIST, so an operator can tell whose connections these are. */
    private final String clientName;

    private EventLoopRedis(Redis loops, Redis shared, String clientName) {
        this.loops = loops;
        this.shared = shared;
        this.clientName = clientName;
    }

    /** {@code clientName}: letters, digits and {@code -_:.} are kept, anything else becomes {@code _}. */
    static EventLoopRedis create(Vertx vertx, String url, String clientName) {
        return new EventLoopRedis(Redis.createClient(vertx, options(url).setMaxPoolSize(LOOPS)),
                Redis.createClient(vertx, options(url)), clientName.replaceAll("[^A-Za-z0-9_:.-]", "_"));
    }

    /**
     * Fails after {@link #TIMEOUT_MS} if Redis does not answer (the client itself would wait for ever on a hung
     * server, and a minute to connect to an unreachable one).
     */
    Future<Response> send(Request request) {
        if (!Context.isOnEventLoopThread()) return shared.send(request).timeout(TIMEOUT_MS, TimeUnit.MILLISECONDS);
        Thread loop = Thread.currentThread();
        Future<RedisConnection> connection = connectionOfThisLoop();
        return connection.compose(c -> c.send(request)).timeout(TIMEOUT_MS, TimeUnit.MILLISECONDS).onFailure(e -> {
            // A connection that stopped answering (a half-open socket, say) is dropped; the next command opens another.
            if (e instanceof TimeoutException && byLoop.remove(loop, connection)) connection.onSuccess(RedisConnection::close);
        });
    }

    /**
     * Gives the connections back and closes both clients, within {@link #CLOSE_TIMEOUT_MS}. A connection being
     * opened on a hung Redis never completes (its {@code CLIENT SETNAME} gets no answer), and waiting for it held
     * the gateway's shutdown for ever; past the bound the clients are told to close without waiting for them.
     */
    Future<Void> close() {
        List<Future<Void>> closing = new ArrayList<>();
        byLoop.values().forEach(f -> closing.add(f.compose(RedisConnection::close).otherwiseEmpty()));
        byLoop.clear();
        return Future.join(closing).eventually(loops::close).eventually(shared::close)
                .timeout(CLOSE_TIMEOUT_MS, TimeUnit.MILLISECONDS)
                .<Void>mapEmpty()
                .recover(e -> {
                    LOG.warn("Redis did not let its connections close within {} ms, dropping them: {}", CLOSE_TIMEOUT_MS, e.toString());
                    loops.close();
                    shared.close();
                    return Future.succeededFuture();
                });
    }

    private static RedisOptions options(String url) {
        return new RedisOptions().setConnectionString(url)
                .setNetClientOptions(new NetClientOptions().setConnectTimeout((int) TIMEOUT_MS).setTcpNoDelay(true));
    }

    /** Only this loop's thread reads or writes its entry, so get-then-put cannot race. */
    private Future<RedisConnection> connectionOfThisLoop() {
        Thread loop = Thread.currentThread();
        Future<RedisConnection> existing = byLoop.get(loop);
        if (existing != null) return existing;
        Future<RedisConnection> connecting = loops.connect()
                .compose(c -> c.send(Request.cmd(Command.CLIENT).arg("SETNAME").arg(clientName)).map(c)
                        .onFailure(e -> c.close()));
        byLoop.put(loop, connecting);
        connecting.onComplete(ar -> {
            if (ar.failed()) {
                byLoop.remove(loop, connecting);
                return;
            }
            // A broken connection is dropped (and given back, which frees its slot); the loop's next command opens a new one.
            RedisConnection c = ar.result();
            c.exceptionHandler(e -> {
                LOG.warn("Redis connection failed, opening another: " + e);
                if (byLoop.remove(loop, connecting)) c.close();
            });
            c.endHandler(v -> byLoop.remove(loop, connecting));
        });
        return connecting;
    }
}
