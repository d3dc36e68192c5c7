package dev.modelgateway.accounts.limits;

import dev.modelgateway.accounts.keys.BudgetPeriod;
import dev.modelgateway.observability.LogThrottle;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Holds shared by every instance through Redis, as leases that expire: a crashed instance's slots and
 * reservations vanish within {@link #LEASE_MS}, while a live instance renews its own every third of that.
 * Per holder (a key, or a team), one sorted set of leases (member {@code <lease id>:<reserved e10>}, score its expiry
 * on Redis's clock) and one spend counter per budget span ({@link BudgetPeriod#of}: a new span starts a new counter); one Lua script checks and takes atomically, so N instances cannot together exceed
 * {@code max_concurrent} or overshoot a budget by more than one call's maximum. When Redis does not answer, the
 * call is held in this process alone ({@link LocalHolds}), as the rate limiter admits without Redis.
 */
public final class RedisHolds implements CallHolds {
    private static final Logger LOG = LoggerFactory.getLogger(RedisHolds.class);
    /** How long a lease outlives its last renewal: the longest a dead instance's holds are counted. */
    public static final long LEASE_MS = 30_000;
    /**
     * How long a key's spend counter lives after its last budgeted admission. Seeded again from the database
     * afterwards, when every call of that time has long been written.
     */
    static final long SPEND_TTL_MS = 3_600_000;

    /**
     * KEYS: the holder's leases, then spend counters (take: the budget's span; spend: every span of the call). ARGV: op, lease ms, then per op:
     * take: lease member, max in flight (0: none), budget e10 (-1: none), the caller's spend e10 (raises the
     * counter when it knows more, e.g. after Redis lost it); returns {0} (taken), {1} (concurrency), {2} (budget
     * reserved) or {3, spent} (budget spent).
     * release: the member. renew: the members. spend: the cost, added only to a counter that exists (one that
     * does not is seeded from the database, which will have this cost).
     */
    private static final String SCRIPT = """
            local t = redis.call('TIME')
            local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
            local op, ttl = ARGV[1], tonumber(ARGV[2])
            if op == 'spend' then
              for i = 2, #KEYS do
                if redis.call('EXISTS', KEYS[i]) == 1 then redis.call('INCRBY', KEYS[i], ARGV[3]) end
              end
              return 0
            end
            if op == 'release' then
              redis.call('ZREM', KEYS[1], ARGV[3])
              return 0
            end
            if op == 'renew' then
              for i = 3, #ARGV do redis.call('ZADD', KEYS[1], 'XX', now + ttl, ARGV[i]) end
              redis.call('PEXPIRE', KEYS[1], ttl)
              return 0
            end
            local max, budget, seed = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
            redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
            if max > 0 and redis.call('ZCARD', KEYS[1]) >= max then return {1} end
            if budget >= 0 then
              local spent = tonumber(redis.call('GET', KEYS[2]) or '-1')
              if seed > spent then
                redis.call('SET', KEYS[2], ARGV[6])
                spent = seed
              end
              redis.call('PEXPIRE', KEYS[2], %d)
              if spent >= budget then return {3, tostring(spent)} end
              local reserved = 0
              for _, m in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
                reserved = reserved + tonumber(string.match(m, ':(%%d+)$'))
              end
              if spent + reserved >= budget then return {2} end
            end
            redis.call('ZADD', KEYS[1], now + ttl, ARGV[3])
            redis.call('PEXPIRE', KEYS[1], ttl)
            return {0}
            """.formatted(SPEND_TTL_MS);

    private final Vertx vertx;
    private final EventLoopRedis redis;
    private final String prefix;
    private final String sha;
    private final long leaseMs;
    private final LocalHolds fallback;
    /** Names this instance's leases, so they never collide with another instance's. */
    private final String instance = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
    private final AtomicLong leaseCount = new AtomicLong();
    /** The leases this instance holds, member → key id: renewed until released. */
    private final Map<String, String> leases = new ConcurrentHashMap<>();
    /** Once per 10 s: during an outage every call fails the same way. */
    private final LogThrottle warnings = new LogThrottle(Duration.ofSeconds(10));
    private final long renewTimer;

    private RedisHolds(Vertx vertx, EventLoopRedis redis, String prefix, String sha, long leaseMs, LocalHolds fallback) {
        this.vertx = vertx;
        this.redis = redis;
        this.prefix = prefix;
        this.sha = sha;
        this.leaseMs = leaseMs;
        this.fallback = fallback;
        this.renewTimer = vertx.setPeriodic(leaseMs / 3, id -> renew());
    }

    public static Future<RedisHolds> connect(Vertx vertx, String url, String prefix, long leaseMs, LocalHolds fallback) {
        EventLoopRedis redis = EventLoopRedis.create(vertx, url, "model-gateway-holds:" + prefix);
        return redis.send(Request.cmd(Command.SCRIPT).arg("LOAD").arg(SCRIPT))
                .map(sha -> new RedisHolds(vertx, redis, prefix, sha.toString(), leaseMs, fallback))
                .onFailure(e -> redis.close());
    }

    @Override
    public Future<HoldDecision> take(HoldRequest r) {
        long reserve = r.budgeted() ? Math.max(r.reserveE10(), 0) : 0;
        String member = instance + "." + leaseCount.incrementAndGet() + ":" + reserve;
        return run(r.holder(), List.of(r.period()), "take", List.of(member, Integer.toString(r.maxConcurrent()), Long.toString(r.budgetE10()),
                Long.toString(r.spentE10())))
                .map(answer -> switch (answer.get(0).toInteger()) {
                    case 0 -> {
                        leases.put(member, r.holder());
                        yield HoldDecision.granted(() -> release(member));
                    }
                    case 1 -> HoldDecision.refused(HoldDecision.Refusal.CONCURRENCY);
                    case 2 -> HoldDecision.refused(HoldDecision.Refusal.BUDGET_RESERVED);
                    default -> HoldDecision.spent((long) Double.parseDouble(answer.get(1).toString()));
                })
                .recover(e -> {
                    warn("holds counted on this instance alone, Redis unavailable: " + e);
                    return Future.succeededFuture(fallback.takeNow(r));
                });
    }

    /**
     * Sent on the calling event loop's connection, like the release that follows it in the same call's record, so
     * Redis counts the cost before it frees the reservation.
     */
    @Override
    public void spent(String holder, Instant at, long costE10) {
        if (costE10 <= 0) return;
        run(holder, BudgetPeriod.all(at), "spend", List.of(Long.toString(costE10)))
                .onFailure(e -> warn("spend not shared, Redis unavailable (the database will have it): " + e));
    }

    /** Stops renewing: the leases still held expire on their own, as a crashed instance's would. */
    @Override
    public Future<Void> close() {
        vertx.cancelTimer(renewTimer);
        return redis.close();
    }

    private void release(String member) {
        String keyId = leases.remove(member);
        if (keyId != null) run(keyId, List.of(), "release", List.of(member)).onFailure(e -> warn("lease left to expire: " + e));
    }

    private void renew() {
        Map<String, List<String>> byKey = new HashMap<>();
        leases.forEach((member, keyId) -> byKey.computeIfAbsent(keyId, k -> new ArrayList<>()).add(member));
        byKey.forEach((keyId, members) -> run(keyId, List.of(), "renew", members)
                .onFailure(e -> warn("leases not renewed: " + e)));
    }

    private Future<Response> run(String holder, List<String> periods, String op, List<String> args) {
        return redis.send(script(Command.EVALSHA, sha, holder, periods, op, args))
                .recover(e -> e.getMessage() != null && e.getMessage().startsWith("NOSCRIPT")
                        // Redis restarted or was flushed since the script was loaded.
                        ? redis.send(script(Command.EVAL, SCRIPT, holder, periods, op, args))
                        : Future.failedFuture(e));
    }

    private Request script(Command command, String script, String holder, List<String> periods, String op, List<String> args) {
        // The braces are a cluster hash tag: all keys of a holder live on one shard, as the script needs.
        Request r = Request.cmd(command).arg(script).arg(1 + periods.size()).arg(prefix + "hold:{" + holder + "}");
        for (String period : periods) r.arg(prefix + "spent:{" + holder + "}:" + period);
        r.arg(op).arg(leaseMs);
        for (String a : args) r.arg(a);
        return r;
    }

    private void warn(String message) {
        warnings.warn(LOG, message);
    }
}
