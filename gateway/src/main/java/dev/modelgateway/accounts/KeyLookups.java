package dev.modelgateway.accounts;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.modelgateway.observability.LogThrottle;
import dev.modelgateway.time.Ticker;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The stored keys the request path reads, by the caller's secret (docs/accounts.md, "Keys"). A key read less than
 * {@link #FRESH} ago is used as read. An older one is read again, once for all the calls that need it meanwhile; when
 * that read fails or has not answered within {@link #WAIT} (the database failing over to its standby:
 * docs/operations/database-failover.md), the state last read is used, for up to {@link #KNOWN_FOR}, so that the calls
 * of keys in use go on through the outage. A key not read in that time waits for the database, as a new one does.
 * {@code M} is what a secret finds: a platform key's match, or an admin key's.
 */
final class KeyLookups<M> {
    /**
     * How stale a key's settings may be while the database answers, e.g. after another instance disabled it; also the
     * shortest grace a rotation gives the previous secret, so that every instance refuses it at the same instant
     * ({@link Administration#rotateKey}).
     */
    static final Duration FRESH = Duration.ofSeconds(5);
    /** How long a call waits for the database before its key's last known state is used instead. */
    static final Duration WAIT = Duration.ofMillis(500);
    /** How long the last known state stands in for a database that does not answer. */
    static final Duration KNOWN_FOR = Duration.ofMinutes(10);
    private static final Logger LOG = LoggerFactory.getLogger(Accounts.class);

    /** A read in flight; {@code overdue} once a call stopped waiting for it, so that the next ones do not wait either. */
    private static final class Read<M> {
        final Future<Optional<M>> result;
        volatile boolean overdue;

        Read(Future<Optional<M>> result) {
            this.result = result;
        }
    }

    private final Vertx vertx;
    private final Function<String, Future<Optional<M>>> read;
    private final Cache<String, Optional<M>> fresh;
    private final Cache<String, Optional<M>> known;
    private final Map<String, Read<M>> reads = new ConcurrentHashMap<>();
    private final LogThrottle staleWarnings = new LogThrottle(Duration.ofSeconds(10));

    /**
     * @param read the key of a secret from the database (on a worker thread), empty when there is none
     * @param ticker what {@link #FRESH} and {@link #KNOWN_FOR} are measured with
     */
    KeyLookups(Vertx vertx, Function<String, Future<Optional<M>>> read, Ticker ticker) {
        this.vertx = vertx;
        this.read = read;
        // secrets stay in memory, hashes alone are stored; keyed by the secret, a cached key costs no hashing
        this.fresh = Caffeine.newBuilder().expireAfterWrite(FRESH).maximumSize(100_000).ticker(ticker::nanos).build();
        this.known = Caffeine.newBuilder().expireAfterWrite(KNOWN_FOR).maximumSize(100_000).ticker(ticker::nanos).build();
    }

    /** The key of {@code secret}, empty when there is none; completed on the caller's context. */
    Future<Optional<M>> find(String secret) {
        Optional<M> cached = fresh.getIfPresent(secret);
        if (cached != null) return Future.succeededFuture(cached);
        Read<M> r = reading(secret);
        Optional<M> last = known.getIfPresent(secret);
        if (last != null && r.overdue) return Future.succeededFuture(stale(last, null));
        // one read serves the calls of every event loop: each call's answer comes back on its own
        Context context = vertx.getOrCreateContext();
        Promise<Optional<M>> answer = Promise.promise();
        long timer = last == null ? -1 : vertx.setTimer(WAIT.toMillis(), t -> {
            r.overdue = true;
            if (!answer.future().isComplete()) answer.tryComplete(stale(last, null));
        });
        r.result.onComplete(done -> context.runOnContext(v -> {
            if (timer >= 0) vertx.cancelTimer(timer);
            if (answer.future().isComplete()) return;
            if (done.succeeded()) answer.complete(done.result());
            else if (last != null) answer.complete(stale(last, done.cause()));
            else answer.fail(done.cause());
        }));
        return answer.future();
    }

    /** After a change made through this instance: the next call of every key reads it afresh. */
    void invalidateAll() {
        fresh.invalidateAll();
        known.invalidateAll();
    }

    /** The read of {@code secret} in flight, begun if there is none. */
    @SuppressWarnings("unchecked")
    private Read<M> reading(String secret) {
        Read<M>[] begun = new Read[1];
        Read<M> r = reads.computeIfAbsent(secret, s -> begun[0] = new Read<>(read.apply(s)));
        if (r == begun[0]) {
            r.result.onComplete(done -> {
                reads.remove(secret, r);
                if (done.succeeded()) {
                    fresh.put(secret, done.result());
                    known.put(secret, done.result());
                }
            });
        }
        return r;
    }

    private Optional<M> stale(Optional<M> last, Throwable failure) {
        long n = staleWarnings.occurred();
        if (n > 0) {
            LOG.warn("a key lookup in the accounts database {}: {} calls used their key's state as last read"
                    + " (at most {} min old)", failure == null ? "took over " + WAIT.toMillis() + " ms"
                    : "failed (" + failure.getMessage() + ")", n, KNOWN_FOR.toMinutes());
        }
        return last;
    }
}
