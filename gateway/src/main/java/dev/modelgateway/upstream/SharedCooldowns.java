package dev.modelgateway.upstream;

import dev.modelgateway.routing.CircuitBreaker;
import dev.modelgateway.routing.CircuitBreakers;
import dev.modelgateway.config.RedisSettings;
import dev.modelgateway.redis.RedisClients;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.InstantSource;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Deployments' cooldowns shared by every instance through Redis (docs/configuration.md, "Cooldowns"), so that all
 * instances agree which deployments are out of rotation: a breaker that opens here writes when its cooldown ends
 * into one hash ({@code <prefix>cooldowns}: deployment id → epoch milliseconds), and every instance reads the hash
 * every {@link #POLL_MS} and cools its own breaker of each deployment listed until then. A Redis that does not
 * answer costs nothing but the sharing: each instance keeps its own breakers. One key, so one slot of a Redis Cluster.
 */
public final class SharedCooldowns {
    private static final Logger LOG = LoggerFactory.getLogger(SharedCooldowns.class);
    static final long POLL_MS = 500;
    private static final long TIMEOUT_MS = 2_000;

    private final Vertx vertx;
    private final Redis redis;
    private final String key;
    private final CircuitBreakers breakers;
    /** The epoch milliseconds shared with the other instances; the breakers' own ticker for their cooldowns. */
    private final InstantSource clock;
    private long timer = -1;
    private boolean polling;

    private SharedCooldowns(Vertx vertx, Redis redis, String key, CircuitBreakers breakers, InstantSource clock) {
        this.vertx = vertx;
        this.clock = clock;
        this.redis = redis;
        this.key = key;
        this.breakers = breakers;
    }

    /** Starts sharing the breakers' cooldowns through the Redis at {@code url}, under {@code prefix}. */
    public static SharedCooldowns start(Vertx vertx, String url, RedisSettings settings, String prefix, CircuitBreakers breakers,
                                        InstantSource clock) {
        SharedCooldowns shared = new SharedCooldowns(vertx, RedisClients.create(vertx, url, settings, (int) TIMEOUT_MS, 2, 1024),
                prefix + "cooldowns", breakers, clock);
        breakers.onOpen(shared::publish);
        shared.timer = vertx.setPeriodic(POLL_MS, id -> shared.poll());
        return shared;
    }

    /** A breaker opened here until {@code untilNanos}: the other instances learn it on their next look. */
    private void publish(String deployment, long untilNanos) {
        long untilEpochMs = clock.millis() + Math.max(0, (untilNanos - breakers.ticker().nanos()) / 1_000_000);
        send(Request.cmd(Command.HSET).arg(key).arg(deployment).arg(untilEpochMs))
                .onFailure(e -> LOG.debug("could not share the cooldown of {}: {}", deployment, e.toString()));
    }

    private void poll() {
        if (polling) return;
        polling = true;
        send(Request.cmd(Command.HGETALL).arg(key)).onComplete(ar -> {
            polling = false;
            if (ar.failed() || ar.result() == null) return;
            Response all = ar.result();
            // a map under RESP3, a flat list of field, value under RESP2
            Map<String, String> entries = new HashMap<>();
            if (all.isMap()) for (String k : all.getKeys()) entries.put(k, all.get(k).toString());
            else for (int i = 0; i + 1 < all.size(); i += 2) entries.put(all.get(i).toString(), all.get(i + 1).toString());
            long nowMs = clock.millis();
            long nowNanos = breakers.ticker().nanos();
            for (Map.Entry<String, String> e : entries.entrySet()) {
                String deployment = e.getKey();
                long until = parse(e.getValue());
                if (until <= nowMs) {
                    // over: removed unless it was renewed meanwhile (HDEL of a renewed entry only loses one look's sharing)
                    send(Request.cmd(Command.HDEL).arg(key).arg(deployment));
                    continue;
                }
                CircuitBreaker breaker = breakers.find(deployment);
                if (breaker != null) breaker.coolUntil(nowNanos + (until - nowMs) * 1_000_000);
            }
        });
    }

    private static long parse(String s) {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private Future<Response> send(Request request) {
        return redis.send(request).timeout(TIMEOUT_MS, TimeUnit.MILLISECONDS);
    }

    public Future<Void> close() {
        vertx.cancelTimer(timer);
        redis.close();
        return Future.succeededFuture();
    }
}
