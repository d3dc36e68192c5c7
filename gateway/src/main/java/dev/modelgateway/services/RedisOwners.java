package dev.modelgateway.services;

import dev.modelgateway.config.RedisSettings;
import dev.modelgateway.redis.RedisClients;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

import java.util.concurrent.TimeUnit;

/**
 * The owners of vendor B objects in Redis, shared by every instance: one string key per id,
 * {@code <prefix>resp-owner:<id>} → key id, expiring with vendor B's retention. One key per id (no multi-key
 * command), so it works on a Redis Cluster too: each id's key lives in its own slot, on whichever node has it. During
 * a failover an id whose node has no primary yet is not answered within the timeout: a 503, as a Redis that is down. The client's own waits are unbounded on a hung server, so
 * every command is cut at {@link #TIMEOUT_MS}.
 */
final class RedisOwners implements SharedOwners {
    /** A Responses call waits on this before it is sent: past it, the caller gets a 503 rather than a hang. */
    static final long TIMEOUT_MS = 1000;
    /** A hung Redis must not hold up the gateway's shutdown (docs/configuration.md, "Shutdown"). */
    static final long CLOSE_TIMEOUT_MS = 2000;
    /** Commands are single round trips, but a burst of streams ending together sends many at once. */
    private static final int POOL = 16;
    private static final int POOL_WAITING = 4096;

    private final Redis redis;
    private final String prefix;

    private RedisOwners(Redis redis, String prefix) {
        this.redis = redis;
        this.prefix = prefix + "resp-owner:";
    }

    /** Connects lazily: the gateway checked at start-up that Redis answers. */
    static RedisOwners create(Vertx vertx, String url, RedisSettings settings, String prefix) {
        return new RedisOwners(RedisClients.create(vertx, url, settings, (int) TIMEOUT_MS, POOL, POOL_WAITING), prefix);
    }

    @Override
    public String name() {
        return "Redis";
    }

    /** First writer wins ({@code NX}). */
    @Override
    public Future<Void> put(String id, String keyId, long ttlMs) {
        return send(Request.cmd(Command.SET).arg(prefix + id).arg(keyId).arg("PX").arg(ttlMs).arg("NX")).mapEmpty();
    }

    @Override
    public Future<String> get(String id) {
        return send(Request.cmd(Command.GET).arg(prefix + id)).map(r -> r == null ? null : r.toString());
    }

    @Override
    public Future<Void> delete(String id) {
        return send(Request.cmd(Command.DEL).arg(prefix + id)).mapEmpty();
    }

    /**
     * Bounded: a pooled connection still opening or waiting on a hung Redis would otherwise hold up the
     * gateway's shutdown; past {@link #CLOSE_TIMEOUT_MS} the client is left closing and the stop goes on.
     */
    @Override
    public Future<Void> close() {
        return redis.close().timeout(CLOSE_TIMEOUT_MS, TimeUnit.MILLISECONDS).otherwiseEmpty();
    }

    /** Answered on the caller's context, as the client completes its futures there (ResponseOwnersTest checks it). */
    private Future<Response> send(Request request) {
        return redis.send(request).timeout(TIMEOUT_MS, TimeUnit.MILLISECONDS);
    }
}
