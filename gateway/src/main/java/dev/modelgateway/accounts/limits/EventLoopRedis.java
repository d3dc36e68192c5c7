package dev.modelgateway.accounts.limits;

import dev.modelgateway.config.RedisSettings;
import dev.modelgateway.config.RedisUrl;
import dev.modelgateway.observability.LogThrottle;
import dev.modelgateway.redis.RedisClients;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * One Redis connection per event loop, commands pipelined on it. The pooled client checks a connection out
 * and back in for every command, so a connection carries one command at a time and each result crosses
 * threads; on the request path that cost the gateway more than half its throughput (bench/results/
 * accounts-overhead.md). Here a command from an event loop is written on that loop's own socket, behind
 * whatever is already in flight, and its answer arrives on the same thread.
 *
 * <p>The scripts that decide admissions go through {@link #run}: followed by {@code WAIT} when replicas must have
 * them, and retried on a new connection while the primary fails over, within the failover wait
 * (docs/operations/scale-out.md, "Failover, exactly").
 */
public final class EventLoopRedis {
    private static final Logger LOG = LoggerFactory.getLogger(EventLoopRedis.class);

    /**
     * One attempt at a command: past this, the connection is taken for dead (the client itself would wait for ever on a
     * hung server, and a minute to connect to an unreachable one).
     */
    public static final long TIMEOUT_MS = 1000;
    /** The first command's bound ({@link #sendAtStart}). */
    static final long START_TIMEOUT_MS = 10_000;
    /** A hung Redis must not hold up the gateway's shutdown (docs/configuration.md, "Shutdown"). */
    public static final long CLOSE_TIMEOUT_MS = 2000;
    /**
     * How long {@code WAIT} gives the replicas: on one network a replica acknowledges within a millisecond or two, so
     * this is only reached when none is connected, and then the admission stands on the primary alone.
     */
    static final long REPLICA_ACK_TIMEOUT_MS = 100;
    /** First pause before a retry; it doubles up to {@link #MAX_BACKOFF_MS}. */
    private static final long FIRST_BACKOFF_MS = 25;
    private static final long MAX_BACKOFF_MS = 400;

    /** Vert.x's default number of event loops, with room for connections being replaced. */
    private static final int LOOPS = 2 * Runtime.getRuntime().availableProcessors() + 8;

    private final Vertx vertx;
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
    private final int replicaAcks;
    private final long failoverWaitMs;
    private final LogThrottle warnings = new LogThrottle(Duration.ofSeconds(10));

    private EventLoopRedis(Vertx vertx, Redis loops, Redis shared, String clientName, int replicaAcks, long failoverWaitMs) {
        this.vertx = vertx;
        this.loops = loops;
        this.shared = shared;
        this.clientName = clientName;
        this.replicaAcks = replicaAcks;
        this.failoverWaitMs = failoverWaitMs;
    }

    /** {@code clientName}: letters, digits and {@code -_:.} are kept, anything else becomes {@code _}. */
    static EventLoopRedis create(Vertx vertx, String url, RedisSettings settings, String clientName) {
        RedisUrl.Mode mode = RedisUrl.parse(url).mode();
        return new EventLoopRedis(vertx, RedisClients.create(vertx, url, settings, (int) TIMEOUT_MS, LOOPS, LOOPS),
                RedisClients.create(vertx, url, settings, (int) TIMEOUT_MS, 6, 24),
                clientName.replaceAll("[^A-Za-z0-9_:.-]", "_"), settings.replicaAcks(mode), settings.failoverWaitMs(mode));
    }

    /** How long a write may be retried: what a script's record of its own run must outlive. */
    long failoverWaitMs() {
        return failoverWaitMs;
    }

    /**
     * A start-up's first command: the first connection may be slow (a Sentinel's topology then the primary, a cluster's
     * slots then every node, a loaded machine), and the gateway has already probed that Redis answers
     * ({@code server/Gateway}, within 10 s).
     */
    Future<Response> sendAtStart(Request request) {
        return attempt(List.of(request), START_TIMEOUT_MS).map(List::getFirst);
    }

    /**
     * Runs {@code script} (by its digest; by its text when Redis lost it), then, when {@code replicated} and replicas
     * must have it, {@code WAIT}s for them. A failure of the connection or of the primary (closed, refused, timed out,
     * {@code READONLY}, {@code CLUSTERDOWN}, {@code LOADING}...) is retried on a new connection, which finds the new
     * primary, until the failover wait is over; so a retried script must be idempotent (it may have run before the
     * answer was lost). Redis's own refusals (an error in the script, {@code CROSSSLOT}) are not retried.
     */
    Future<Response> run(RedisScript script, List<String> keys, List<String> args, boolean replicated) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(failoverWaitMs);
        return run(script, keys, args, replicated && replicaAcks > 0, deadline, FIRST_BACKOFF_MS);
    }

    private Future<Response> run(RedisScript script, List<String> keys, List<String> args, boolean replicated,
                                 long deadline, long backoffMs) {
        long leftMs = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        long timeout = Math.max(Math.min(TIMEOUT_MS, leftMs), 50);
        return attempt(commands(script.sha(), Command.EVALSHA, keys, args, replicated), timeout)
                .recover(e -> answer(e).startsWith("NOSCRIPT")
                        // Redis restarted, failed over or was flushed since the script was loaded: EVAL caches it again
                        ? attempt(commands(script.source(), Command.EVAL, keys, args, replicated), timeout)
                        : Future.failedFuture(e))
                .map(answers -> {
                    if (replicated && answers.get(1).toLong() < replicaAcks) {
                        warnings.warn(LOG, "Redis: " + answers.get(1) + " of " + replicaAcks + " replicas acknowledged within "
                                + REPLICA_ACK_TIMEOUT_MS + " ms; admissions stand on the primary alone (a failover now may lose them)");
                    }
                    return answers.getFirst();
                })
                .recover(e -> {
                    long waitMs = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                    if (!retriable(e) || waitMs < backoffMs) return Future.failedFuture(e);
                    warnings.warn(LOG, "Redis failed, retrying for up to " + waitMs + " ms (a failover?): " + e);
                    return vertx.timer(backoffMs)
                            .compose(t -> run(script, keys, args, replicated, deadline, Math.min(backoffMs * 2, MAX_BACKOFF_MS)));
                });
    }

    private List<Request> commands(String script, Command command, List<String> keys, List<String> args, boolean replicated) {
        Request r = Request.cmd(command).arg(script).arg(keys.size());
        keys.forEach(r::arg);
        args.forEach(r::arg);
        // WAIT has no key: sent in one batch with the script, it goes to the node that ran it, as it must
        return replicated ? List.of(r, Request.cmd(Command.WAIT).arg(replicaAcks).arg(REPLICA_ACK_TIMEOUT_MS)) : List.of(r);
    }

    /**
     * Redis's own answers to a command it read (not the connection's or a failing primary's) are final. Vert.x's
     * cluster client already follows {@code MOVED}, {@code ASK} and {@code TRYAGAIN} itself.
     */
    static boolean retriable(Throwable e) {
        String m = answer(e);
        for (String answer : List.of("ERR", "NOSCRIPT", "WRONGTYPE", "CROSSSLOT", "NOPERM", "WRONGPASS", "EXECABORT")) {
            if (m.startsWith(answer)) return false;
        }
        return !m.contains("(CROSSSLOT)");
    }

    /** Redis's error, without the {@code ERR [n] } by which Vert.x's batch names the command that failed. */
    private static String answer(Throwable e) {
        String m = e.getMessage() == null ? "" : e.getMessage();
        return m.replaceFirst("^ERR \\[\\d+] ", "");
    }

    private Future<List<Response>> attempt(List<Request> commands, long timeoutMs) {
        if (!Context.isOnEventLoopThread()) {
            return (commands.size() == 1 ? shared.send(commands.getFirst()).map(List::of) : shared.batch(commands))
                    .timeout(timeoutMs, TimeUnit.MILLISECONDS);
        }
        Thread loop = Thread.currentThread();
        Future<RedisConnection> connection = connectionOfThisLoop();
        return connection.compose(c -> commands.size() == 1 ? c.send(commands.getFirst()).map(List::of) : c.batch(commands))
                .timeout(timeoutMs, TimeUnit.MILLISECONDS)
                .onFailure(e -> {
                    // A connection that stopped answering (a half-open socket, a dead or demoted primary) is dropped;
                    // the next command opens another, to the primary as Sentinel or the cluster's slots now name it.
                    if (retriable(e)) drop(loop, connection);
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
                drop(loop, connecting);
            });
            // a cluster connection holds one per node: one node's end closes them all, so none is left checked out
            c.endHandler(v -> drop(loop, connecting));
        });
        return connecting;
    }

    private void drop(Thread loop, Future<RedisConnection> connection) {
        if (byLoop.remove(loop, connection)) connection.onSuccess(RedisConnection::close);
    }
}
