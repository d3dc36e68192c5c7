package dev.modelgateway.accounts;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

import java.util.ArrayList;
import java.util.List;

/**
 * Buckets in Redis, shared by every gateway instance. One Lua script reads, refills and updates all the
 * bucket pairs of a request atomically on Redis's clock, so instances with skewed clocks still agree.
 */
final class RedisRateLimiter implements RateLimiter {

    /**
     * KEYS: one bucket hash per scope. ARGV: op (acquire|settle), tokens to take on acquire, then per scope
     * rpm, tpm (0 = unlimited) and the tokens owed to it by finished requests (see {@link OwedTokens}), applied
     * before anything is taken. Returns level of requests, level of tokens and wait in ms per scope; an
     * acquire takes from every scope only if none has to wait. A settle takes nothing and writes only debts.
     */
    private static final String SCRIPT = """
            local t = redis.call('TIME')
            local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
            local op, n = ARGV[1], tonumber(ARGV[2])
            local function wait(level, want, cap)
              if cap <= 0 or level >= want then return 0 end
              return math.ceil((want - level) * 60000 / cap)
            end
            local scopes, allowed = {}, true
            for i = 1, #KEYS do
              local rpm, tpm, owed = tonumber(ARGV[3 * i]), tonumber(ARGV[3 * i + 1]), tonumber(ARGV[3 * i + 2])
              local s = redis.call('HMGET', KEYS[i], 'r', 'k', 't')
              local elapsed = math.max(0, now - (tonumber(s[3]) or now))
              local function refill(level, cap)
                if level == nil then return cap end
                return math.min(cap, level + elapsed * cap / 60000)
              end
              local r, k, w = refill(tonumber(s[1]), rpm), refill(tonumber(s[2]), tpm), 0
              if tpm > 0 and owed ~= 0 then k = math.min(tpm, k - owed) end
              if op == 'acquire' then w = math.max(wait(r, 1, rpm), wait(k, math.min(n, tpm), tpm)) end
              if w > 0 then allowed = false end
              scopes[i] = {r = r, k = k, w = w, rpm = rpm, tpm = tpm, write = op == 'acquire' or owed ~= 0}
            end
            local out = {}
            for i = 1, #KEYS do
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
            return out
            """;

    /** How stale another instance's view of this one's token corrections may get when no request carries them. */
    static final long FLUSH_MS = 100;

    private final Vertx vertx;
    private final EventLoopRedis redis;
    private final String prefix;
    private final String sha;
    private final OwedTokens owed = new OwedTokens();
    private final long flushTimer;

    private RedisRateLimiter(Vertx vertx, EventLoopRedis redis, String prefix, String sha) {
        this.vertx = vertx;
        this.redis = redis;
        this.prefix = prefix;
        this.sha = sha;
        this.flushTimer = vertx.setPeriodic(FLUSH_MS, id -> flush());
    }

    static Future<RedisRateLimiter> connect(Vertx vertx, String url, String prefix) {
        EventLoopRedis redis = EventLoopRedis.create(vertx, url);
        return redis.send(Request.cmd(Command.SCRIPT).arg("LOAD").arg(SCRIPT))
                .map(sha -> new RedisRateLimiter(vertx, redis, prefix, sha.toString()))
                .onFailure(e -> redis.close());
    }

    @Override
    public Future<List<RateDecision>> acquire(List<RateScope> scopes, long estimatedTokens) {
        return run("acquire", scopes, Math.max(estimatedTokens, 0)).map(r -> decisions(r, scopes));
    }

    /** Owed until the bucket's next call or the next flush, at most {@link #FLUSH_MS} away. */
    @Override
    public Future<Void> adjust(List<RateScope> scopes, long tokenDelta) {
        for (RateScope s : scopes) owed.add(bucketKey(s), s, tokenDelta);
        return Future.succeededFuture();
    }

    @Override
    public Future<List<RateDecision>> peek(List<RateScope> scopes) {
        return run("settle", scopes, 0).map(r -> decisions(r, scopes));
    }

    /** Writes what is still owed, then closes the connections. */
    @Override
    public Future<Void> close() {
        vertx.cancelTimer(flushTimer);
        return flush().eventually(redis::close);
    }

    String bucketKey(RateScope scope) {
        // The braces are a cluster hash tag: all of one key's scopes live on one shard, as the script needs.
        return prefix + "rl:{" + scope.keyId() + "}" + (scope.models() == null ? "" : ":m:" + scope.models());
    }

    private Future<Void> flush() {
        List<Future<Response>> writes = new ArrayList<>();
        for (OwedTokens.Owed o : owed.takeAll()) writes.add(run("settle", List.of(o.scope()), 0, new long[] {o.tokens()}));
        return Future.join(writes).mapEmpty();
    }

    private Future<Response> run(String op, List<RateScope> scopes, long tokens) {
        long[] debts = new long[scopes.size()];
        for (int i = 0; i < debts.length; i++) debts[i] = owed.take(bucketKey(scopes.get(i)));
        return run(op, scopes, tokens, debts);
    }

    /** A failed call gives the debts back to be carried by a later one. */
    private Future<Response> run(String op, List<RateScope> scopes, long tokens, long[] debts) {
        return redis.send(script(Command.EVALSHA, sha, op, scopes, tokens, debts))
                .recover(e -> e.getMessage() != null && e.getMessage().startsWith("NOSCRIPT")
                        // Redis restarted or was flushed since we loaded the script.
                        ? redis.send(script(Command.EVAL, SCRIPT, op, scopes, tokens, debts))
                        : Future.failedFuture(e))
                .onFailure(e -> {
                    for (int i = 0; i < debts.length; i++) owed.add(bucketKey(scopes.get(i)), scopes.get(i), debts[i]);
                });
    }

    private Request script(Command command, String script, String op, List<RateScope> scopes, long tokens, long[] debts) {
        Request r = Request.cmd(command).arg(script).arg(scopes.size());
        for (RateScope s : scopes) r.arg(bucketKey(s));
        r.arg(op).arg(tokens);
        for (int i = 0; i < debts.length; i++) {
            RateLimits l = scopes.get(i).limits();
            r.arg(l.rpm()).arg(l.tpm()).arg(debts[i]);
        }
        return r;
    }
    private static List<RateDecision> decisions(Response r, List<RateScope> scopes) {
        boolean allowed = true;
        for (int i = 0; i < scopes.size(); i++) allowed &= r.get(3 * i + 2).toLong() == 0;
        List<RateDecision> decisions = new ArrayList<>(scopes.size());
        for (int i = 0; i < scopes.size(); i++) {
            decisions.add(new RateDecision(allowed, scopes.get(i).limits(), Double.parseDouble(r.get(3 * i).toString()),
                    Double.parseDouble(r.get(3 * i + 1).toString()), r.get(3 * i + 2).toLong()));
        }
        return decisions;
    }
}
