package dev.modelgateway.services;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.modelgateway.config.RedisSettings;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.observability.LogThrottle;
import dev.modelgateway.store.Database;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Which API key created each vendor B response and output item relayed natively, and each vendor A code execution
 * container (docs/security.md). The vendors keep them all under the gateway's one account and resolve their ids
 * server-side ({@code previous_response_id}, {@code item_reference}, retrieve / delete; a request's {@code container}),
 * so without this any key could use another key's whose id it learned.
 *
 * <p>With Redis ({@code accounts.redis_url}), else with PostgreSQL as the accounts database, the owners are shared
 * by every instance and outlive restarts, with an in-memory cache in front; a question the cache cannot answer and
 * the shared store does not answer fails with a 503 (fail closed), from Redis within {@link RedisOwners#TIMEOUT_MS}.
 * Otherwise they live in this process only.
 */
public final class ResponseOwners {
    private static final Logger LOG = LoggerFactory.getLogger(ResponseOwners.class);
    /**
     * Vendor B keeps a stored response for 30 days ("Response objects are saved for 30 days by default",
     * OpenAI's conversation-state guide); its ids mean nothing to it afterwards.
     */
    public static final Duration EXPIRY = Duration.ofDays(30);
    static final int MAX_LOCAL = 500_000;
    /** A stop waits this long for the owners still being written (Redis bounds each write to 1 s itself). */
    private static final long CLOSE_WAIT_MS = 5_000;
    /** The waits before asking the shared store again for an id it does not have: one second in all. */
    private static final long[] LOOK_AGAIN_MS = {100, 300, 600};

    /** An id's owner never changes, so a cached one stays right; ids not in it are asked of Redis. */
    private final Cache<String, String> local = Caffeine.newBuilder()
            .maximumSize(MAX_LOCAL)
            .expireAfterWrite(EXPIRY)
            .build();
    /** Null: owners are kept in this process only. */
    private final SharedOwners shared;
    /** For the timers of {@link #LOOK_AGAIN_MS}; null with {@link #shared}. */
    private final Vertx vertx;
    /** Owners sent to Redis and not yet acknowledged: a stop waits for them, so a restart keeps them. */
    private final Set<Future<Void>> unacknowledged = ConcurrentHashMap.newKeySet();
    /** Once per 10 s: during an outage every call fails the same way. */
    private final LogThrottle warnings = new LogThrottle(Duration.ofSeconds(10));

    private ResponseOwners(Vertx vertx, SharedOwners shared) {
        this.vertx = vertx;
        this.shared = shared;
    }

    /** Owners kept in this process only. */
    public static ResponseOwners inProcess() {
        return new ResponseOwners(null, null);
    }

    /** Owners in Redis at {@code url} under {@code prefix}, shared by every instance; in this process when {@code url} is null. */
    public static ResponseOwners create(Vertx vertx, String url, RedisSettings settings, String prefix) {
        return url == null ? inProcess() : new ResponseOwners(vertx, RedisOwners.create(vertx, url, settings, prefix));
    }

    /** Owners in {@code db}'s {@code response_owners} (the services migrations applied), shared by every instance. */
    static ResponseOwners inDatabase(Vertx vertx, Database db) {
        return new ResponseOwners(vertx, new SqlOwners(vertx, db, System::currentTimeMillis, true));
    }

    /**
     * Notes that {@code keyId} created the vendor object {@code id}. Sent to Redis before the vendor's answer is
     * relayed, without waiting: if Redis misses it, this instance still knows.
     */
    public void own(String id, String keyId) {
        local.put(id, keyId);
        if (shared != null) {
            Future<Void> put = shared.put(id, keyId, EXPIRY.toMillis());
            unacknowledged.add(put);
            put.onComplete(done -> unacknowledged.remove(put))
                    .onFailure(e -> warn("owner of " + id + " not shared, " + shared.name() + " unavailable: " + e));
        }
    }

    /** Whether {@code keyId} created the vendor object {@code id}; fails with a 503 when that cannot be told. */
    public Future<Boolean> owns(String id, String keyId) {
        String cached = local.getIfPresent(id);
        if (cached != null || shared == null) return Future.succeededFuture(keyId.equals(cached));
        return sharedOwner(id, 0).<Boolean>map(owner -> {
            if (owner == null) return false;
            local.put(id, owner);
            return keyId.equals(owner);
        }).recover(e -> {
            warn("ownership not checked, " + shared.name() + " unavailable: " + e);
            return Future.failedFuture(unavailable(shared.name()));
        });
    }

    /**
     * The owner in the shared store. The owner is written there as the vendor's answer is relayed, without waiting,
     * so a client continuing at once through another instance may ask before it is there: a miss is asked again
     * after each of {@link #LOOK_AGAIN_MS}.
     */
    private Future<String> sharedOwner(String id, int round) {
        return shared.get(id).compose(owner -> {
            if (owner != null || round == LOOK_AGAIN_MS.length) return Future.succeededFuture(owner);
            Promise<Void> later = Promise.promise();
            vertx.setTimer(LOOK_AGAIN_MS[round], t -> later.complete());
            return later.future().compose(v -> sharedOwner(id, round + 1));
        });
    }

    /** The ids of {@code ids} that {@code keyId} did not create, in order; fails with a 503 when that cannot be told. */
    public Future<List<String>> notOwned(Collection<String> ids, String keyId) {
        List<String> asked = List.copyOf(ids);
        List<Future<Boolean>> answers = new ArrayList<>();
        for (String id : asked) answers.add(owns(id, keyId));
        return Future.all(answers).map(all -> {
            List<String> foreign = new ArrayList<>();
            for (int i = 0; i < asked.size(); i++) {
                if (!answers.get(i).result()) foreign.add(asked.get(i));
            }
            return foreign;
        });
    }

    /** Forgets who created {@code id} (deleted at the vendor). */
    public void disown(String id) {
        local.invalidate(id);
        if (shared != null) shared.delete(id).onFailure(e -> warn("owner of deleted " + id + " left to expire: " + e));
    }

    /** Closes the shared store's client once the owners already sent are acknowledged (a Redis write is bounded by its timeout). */
    public Future<Void> close() {
        if (shared == null) return Future.succeededFuture();
        return Future.join(List.copyOf(unacknowledged)).timeout(CLOSE_WAIT_MS, TimeUnit.MILLISECONDS).transform(done -> shared.close());
    }

    private static GatewayException unavailable(String store) {
        return GatewayException.of(ErrorKind.UNAVAILABLE, "The gateway could not check which API key created the vendor"
                        + " response or item this request refers to: its shared store (" + store + ") did not answer. Try again shortly.")
                .withCode("ownership_unavailable").withHeaders(Map.of("retry-after", "1"));
    }

    private void warn(String message) {
        warnings.warn(LOG, message);
    }
}
