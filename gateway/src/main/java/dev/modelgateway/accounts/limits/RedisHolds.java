package dev.modelgateway.accounts.limits;

import dev.modelgateway.accounts.keys.BudgetPeriod;
import dev.modelgateway.config.RedisSettings;
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
     * KEYS: the holder's leases, this run's record, then spend counters (take: the budget's span; spend: every span
     * of the call). ARGV: op, lease ms, record ms, then per op:
     * take: lease member, max in flight (0: none), budget e10 (-1: none), the caller's spend e10 (raises the
     * counter when it knows more, e.g. after Redis lost it); returns {0} (taken, or taken already by an earlier run
     * of this take), {1} (concurrency), {2} (budget reserved) or {3, spent} (budget spent).
     * release: the member. renew: the members. spend: the cost, added only to a counter that exists (one that
     * does not is seeded from the database, which will have this cost), and only once: the record says it was.
     * Each op may run twice (a retry after a failover lost its answer) without counting twice.
     */
    private static final RedisScript SCRIPT = RedisScript.of("""
            local t = redis.call('TIME')
            local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
            local op, ttl = ARGV[1], tonumber(ARGV[2])
            if op == 'spend' then
              local counters = {}
              for i = 3, #KEYS do
                if redis.call('EXISTS', KEYS[i]) == 1 then counters[#counters + 1] = KEYS[i] end
              end
              if #counters == 0 or not redis.call('SET', KEYS[2], '1', 'PX', ARGV[3], 'NX') then return 0 end
              for _, k in ipairs(counters) do redis.call('INCRBY', k, ARGV[4]) end
              return 0
            end
            if op == 'release' then
              redis.call('ZREM', KEYS[1], ARGV[4])
              return 0
            end
            if op == 'renew' then
              for i = 4, #ARGV do redis.call('ZADD', KEYS[1], 'XX', now + ttl, ARGV[i]) end
              redis.call('PEXPIRE', KEYS[1], ttl)
              return 0
            end
            if redis.call('ZSCORE', KEYS[1], ARGV[4]) then return {0} end
            local max, budget, seed = tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
            redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
            if max > 0 and redis.call('ZCARD', KEYS[1]) >= max then return {1} end
            if budget >= 0 then
              local spent = tonumber(redis.call('GET', KEYS[3]) or '-1')
              if seed > spent then
                redis.call('SET', KEYS[3], ARGV[7])
                spent = seed
              end
              redis.call('PEXPIRE', KEYS[3], %d)
              if spent >= budget then return {3, tostring(spent)} end
              local reserved = 0
              for _, m in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
                reserved = reserved + tonumber(string.match(m, ':(%%d+)$'))
              end
              if spent + reserved >= budget then return {2} end
            end
            redis.call('ZADD', KEYS[1], now + ttl, ARGV[4])
            redis.call('PEXPIRE', KEYS[1], ttl)
            return {0}
            """.formatted(SPEND_TTL_MS));

    private final Vertx vertx;
    private final EventLoopRedis redis;
    private final String prefix;
    private final long leaseMs;
    private final LocalHolds fallback;
    /** Names this instance's leases, so they never collide with another instance's. */
    private final String instance = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
    private final AtomicLong leaseCount = new AtomicLong();
    private final AtomicLong runCount = new AtomicLong();
    /** The leases this instance holds, member → key id: renewed until released. */
    private final Map<String, String> leases = new ConcurrentHashMap<>();
    /** Once per 10 s: during an outage every call fails the same way. */
    private final LogThrottle warnings = new LogThrottle(Duration.ofSeconds(10));
    private final long renewTimer;

    private RedisHolds(Vertx vertx, EventLoopRedis redis, String prefix, long leaseMs, LocalHolds fallback) {
        this.vertx = vertx;
        this.redis = redis;
        this.prefix = prefix;
        this.leaseMs = leaseMs;
        this.fallback = fallback;
        this.renewTimer = vertx.setPeriodic(leaseMs / 3, id -> renew());
    }

    public static Future<RedisHolds> connect(Vertx vertx, String url, String prefix, long leaseMs, LocalHolds fallback) {
        return connect(vertx, url, RedisSettings.DEFAULT, prefix, leaseMs, fallback);
    }

    /** Connects and checks that Redis answers. */
    public static Future<RedisHolds> connect(Vertx vertx, String url, RedisSettings settings, String prefix, long leaseMs,
                                             LocalHolds fallback) {
        EventLoopRedis redis = EventLoopRedis.create(vertx, url, settings, "model-gateway-holds:" + prefix);
        return redis.sendAtStart(Request.cmd(Command.SCRIPT).arg("LOAD").arg(SCRIPT.source()))
                .map(sha -> new RedisHolds(vertx, redis, prefix, leaseMs, fallback))
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

    /**
     * Takes and spends decide admissions: replicas must have them ({@link EventLoopRedis#run}); releases and renewals
     * only free or keep what is held, and a lost one costs a lease that lingers until it expires.
     */
    private Future<Response> run(String holder, List<String> periods, String op, List<String> args) {
        // The braces are a cluster hash tag: all keys of a holder live in one slot, as the script needs.
        List<String> keys = new ArrayList<>(2 + periods.size());
        keys.add(prefix + "hold:{" + holder + "}");
        keys.add(prefix + "hold:{" + holder + "}:run:" + instance + "." + runCount.incrementAndGet());
        for (String period : periods) keys.add(prefix + "spent:{" + holder + "}:" + period);
        List<String> argv = new ArrayList<>(3 + args.size());
        argv.addAll(List.of(op, Long.toString(leaseMs), Long.toString(redis.failoverWaitMs() + 2 * EventLoopRedis.TIMEOUT_MS)));
        argv.addAll(args);
        return redis.run(SCRIPT, keys, argv, op.equals("take") || op.equals("spend"));
    }

    private void warn(String message) {
        warnings.warn(LOG, message);
    }
}
