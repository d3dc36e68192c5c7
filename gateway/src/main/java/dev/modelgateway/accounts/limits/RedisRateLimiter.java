package dev.modelgateway.accounts.limits;

import dev.modelgateway.config.RedisSettings;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Buckets in Redis, shared by every gateway instance. One Lua script reads, refills and updates all the
 * bucket pairs of a request atomically on Redis's clock, so instances with skewed clocks still agree.
 * Requests far from their limits are admitted on this instance's recent knowledge of the buckets
 * ({@link BucketShares}) and written in batches; near the limits each admission waits for the script.
 * All the buckets of one request share a hash tag ({@link RateScope#hashTag}), so the script runs on one node of a
 * Redis Cluster; each run leaves a record of its answer for a while, so that one retried after a failover
 * (its answer lost, its write perhaps not) takes nothing twice.
 */
public final class RedisRateLimiter implements RateLimiter {

    /**
     * KEYS: one bucket hash per scope, then this run's record. ARGV: op (acquire|settle), tokens to take on acquire,
     * the time in ms (-1: Redis's clock), how long the record is kept in ms, then per scope rpm, tpm (0 = unlimited)
     * and the requests and tokens this instance owes it (taken on local admissions, or token corrections), applied
     * before anything else. Returns level of requests, level of tokens and wait in ms per scope, then the clock in
     * ms; an acquire takes from every scope only if none has to wait. A settle takes nothing and writes only what is
     * owed. A run whose record exists answers what it answered then, and changes nothing.
     */
    private static final RedisScript SCRIPT = RedisScript.of("""
            local record = KEYS[#KEYS]
            local done = redis.call('GET', record)
            if done then return cjson.decode(done) end
            local now = tonumber(ARGV[3])
            if now < 0 then
              local t = redis.call('TIME')
              now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
            end
            local op, n = ARGV[1], tonumber(ARGV[2])
            local function wait(level, want, cap)
              if cap <= 0 or level >= want then return 0 end
              return math.ceil((want - level) * 60000 / cap)
            end
            local scopes, allowed = {}, true
            for i = 1, #KEYS - 1 do
              local a = 4 * i
              local rpm, tpm = tonumber(ARGV[a + 1]), tonumber(ARGV[a + 2])
              local owedR, owedT = tonumber(ARGV[a + 3]), tonumber(ARGV[a + 4])
              local s = redis.call('HMGET', KEYS[i], 'r', 'k', 't')
              local elapsed = math.max(0, now - (tonumber(s[3]) or now))
              local function refill(level, cap)
                if level == nil then return cap end
                return math.min(cap, level + elapsed * cap / 60000)
              end
              local r, k, w = refill(tonumber(s[1]), rpm), refill(tonumber(s[2]), tpm), 0
              if rpm > 0 then r = r - owedR end
              if tpm > 0 then k = math.min(tpm, k - owedT) end
              if op == 'acquire' then w = math.max(wait(r, 1, rpm), wait(k, math.min(n, tpm), tpm)) end
              if w > 0 then allowed = false end
              scopes[i] = {r = r, k = k, w = w, rpm = rpm, tpm = tpm, write = op == 'acquire' or owedR ~= 0 or owedT ~= 0}
            end
            local out = {}
            for i = 1, #KEYS - 1 do
              local s = scopes[i]
              if op == 'acquire' and allowed then
                if s.rpm > 0 then s.r = s.r - 1 end
                if s.tpm > 0 then s.k = s.k - n end
              end
              if s.write then
                local untilFull = math.max(wait(s.r, s.rpm, s.rpm), wait(s.k, s.tpm, s.tpm))
                if untilFull == 0 then
                  redis.call('DEL', KEYS[i])
                else
                  redis.call('HSET', KEYS[i], 'r', tostring(s.r), 'k', tostring(s.k), 't', now)
                  redis.call('PEXPIRE', KEYS[i], untilFull + 1000)
                end
              end
              out[#out + 1] = tostring(s.r)
              out[#out + 1] = tostring(s.k)
              out[#out + 1] = s.w
            end
            out[#out + 1] = now
            redis.call('SET', record, cjson.encode(out), 'PX', ARGV[4])
            return out
            """);

    /** How often what local admissions took (and token corrections) is written, and the shared levels re-read. */
    static final long FLUSH_MS = 50;

    private final Vertx vertx;
    private final EventLoopRedis redis;
    private final String prefix;
    /** The limiter's clock when a test sets one; null: Redis's, and this process's monotonic clock for local knowledge. */
    private final InstantSource clock;
    private final BucketShares shares = new BucketShares();
    private final LongAdder scriptRuns = new LongAdder();
    /** Names this instance's runs, so their records never collide with another instance's. */
    private final String instance = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
    private final AtomicLong runCount = new AtomicLong();
    private final long flushTimer;

    private RedisRateLimiter(Vertx vertx, EventLoopRedis redis, String prefix, InstantSource clock) {
        this.vertx = vertx;
        this.redis = redis;
        this.prefix = prefix;
        this.clock = clock;
        this.flushTimer = vertx.setPeriodic(FLUSH_MS, id -> flush());
    }

    /** On Redis's clock, with the settings' defaults. */
    public static Future<RedisRateLimiter> connect(Vertx vertx, String url, String prefix) {
        return connect(vertx, url, RedisSettings.DEFAULT, prefix, null);
    }

    /**
     * Connects and checks that Redis answers. {@code clock}: null in production (Redis's own clock, which every
     * instance shares); a test's clock makes the buckets refill only when the test moves it.
     */
    public static Future<RedisRateLimiter> connect(Vertx vertx, String url, RedisSettings settings, String prefix,
                                                   InstantSource clock) {
        EventLoopRedis redis = EventLoopRedis.create(vertx, url, settings, "model-gateway:" + prefix);
        return redis.sendAtStart(Request.cmd(Command.SCRIPT).arg("LOAD").arg(SCRIPT.source()))
                .map(sha -> new RedisRateLimiter(vertx, redis, prefix, clock))
                .onFailure(e -> redis.close());
    }

    @Override
    public Future<List<RateDecision>> acquire(List<RateScope> scopes, long estimatedTokens) {
        long tokens = Math.max(estimatedTokens, 0);
        List<RateDecision> local = shares.tryTake(scopes, tokens, nowMs());
        if (local != null) return Future.succeededFuture(local);
        return write("acquire", owedBy(scopes), tokens).map(r -> decisions(r, scopes));
    }

    /** Owed until the next flush, at most {@link #FLUSH_MS} away, or the bucket's next call to Redis. */
    @Override
    public Future<Void> adjust(List<RateScope> scopes, long tokenDelta) {
        for (RateScope s : scopes) shares.owe(s, tokenDelta);
        return Future.succeededFuture();
    }

    @Override
    public Future<List<RateDecision>> peek(List<RateScope> scopes) {
        return write("settle", owedBy(scopes), 0).map(r -> decisions(r, scopes));
    }

    /**
     * Writes what is still owed, then closes the connections. The write gets one attempt's time, not the failover
     * wait: a stop must not wait out a failover (docs/configuration.md, "Shutdown").
     */
    @Override
    public Future<Void> close() {
        vertx.cancelTimer(flushTimer);
        return flush().timeout(EventLoopRedis.TIMEOUT_MS, TimeUnit.MILLISECONDS).eventually(redis::close);
    }

    /** Script calls this instance has made: how many admissions and flushes went to Redis. */
    long scriptRuns() {
        return scriptRuns.sum();
    }

    String bucketKey(RateScope scope) {
        // The braces are a cluster hash tag: all the buckets of one request live in one slot, as the script needs.
        return prefix + "rl:{" + scope.hashTag() + "}" + (scope.hashTag().equals(scope.keyId()) ? "" : ":" + scope.keyId())
                + (scope.models() == null ? "" : ":m:" + scope.models());
    }

    private List<BucketShares.Owed> owedBy(List<RateScope> scopes) {
        List<BucketShares.Owed> owed = new ArrayList<>(scopes.size());
        for (RateScope s : scopes) owed.add(shares.send(s));
        return owed;
    }

    private Future<Void> flush() {
        List<Future<Response>> writes = new ArrayList<>();
        for (BucketShares.Owed o : shares.sendAll(nowMs())) writes.add(write("settle", List.of(o), 0));
        return Future.join(writes).mapEmpty();
    }

    /** Runs the script carrying {@code owed}; its answer updates what this instance knows of the buckets. */
    private Future<Response> write(String op, List<BucketShares.Owed> owed, long tokens) {
        scriptRuns.increment();
        List<String> keys = new ArrayList<>(owed.size() + 1);
        for (BucketShares.Owed o : owed) keys.add(bucketKey(o.scope()));
        keys.add(prefix + "rl:{" + owed.getFirst().scope().hashTag() + "}:run:" + instance + "." + runCount.incrementAndGet());
        List<String> args = new ArrayList<>(4 + 4 * owed.size());
        // the record outlives every retry of this run
        args.addAll(List.of(op, Long.toString(tokens), Long.toString(clock == null ? -1 : clock.millis()),
                Long.toString(redis.failoverWaitMs() + 2 * EventLoopRedis.TIMEOUT_MS)));
        for (BucketShares.Owed o : owed) {
            RateLimits l = o.scope().limits();
            args.addAll(List.of(Long.toString(l.rpm()), Long.toString(l.tpm()), Long.toString(o.requests()), Long.toString(o.tokens())));
        }
        return redis.run(SCRIPT, keys, args, true)
                .onSuccess(r -> {
                    long redisMs = r.get(3 * owed.size()).toLong();
                    for (int i = 0; i < owed.size(); i++) {
                        shares.reported(owed.get(i), level(r, 3 * i), level(r, 3 * i + 1), redisMs, nowMs());
                    }
                })
                .onFailure(e -> owed.forEach(shares::failed));
    }

    private long nowMs() {
        return clock == null ? System.nanoTime() / 1_000_000 : clock.millis();
    }

    private static double level(Response r, int index) {
        return Double.parseDouble(r.get(index).toString());
    }

    private static List<RateDecision> decisions(Response r, List<RateScope> scopes) {
        boolean allowed = true;
        for (int i = 0; i < scopes.size(); i++) allowed &= r.get(3 * i + 2).toLong() == 0;
        List<RateDecision> decisions = new ArrayList<>(scopes.size());
        for (int i = 0; i < scopes.size(); i++) {
            decisions.add(new RateDecision(allowed, scopes.get(i).limits(), level(r, 3 * i), level(r, 3 * i + 1),
                    r.get(3 * i + 2).toLong()));
        }
        return decisions;
    }
}
