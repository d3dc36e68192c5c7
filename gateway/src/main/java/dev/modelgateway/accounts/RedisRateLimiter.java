package dev.modelgateway.accounts;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisOptions;
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
     * KEYS: one bucket hash per scope. ARGV: op (acquire|adjust|peek), tokens, then rpm and tpm per scope
     * (0 = unlimited). Returns level of requests, level of tokens and wait in ms per scope; an acquire
     * takes from every scope only if none has to wait.
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
              local rpm, tpm = tonumber(ARGV[1 + 2 * i]), tonumber(ARGV[2 + 2 * i])
              local s = redis.call('HMGET', KEYS[i], 'r', 'k', 't')
              local elapsed = math.max(0, now - (tonumber(s[3]) or now))
              local function refill(level, cap)
                if level == nil then return cap end
                return math.min(cap, level + elapsed * cap / 60000)
              end
              local r, k, w = refill(tonumber(s[1]), rpm), refill(tonumber(s[2]), tpm), 0
              if op == 'acquire' then w = math.max(wait(r, 1, rpm), wait(k, math.min(n, tpm), tpm)) end
              if w > 0 then allowed = false end
              scopes[i] = {r = r, k = k, w = w, rpm = rpm, tpm = tpm}
            end
            local out = {}
            for i = 1, #KEYS do
              local s = scopes[i]
              if op == 'acquire' and allowed then
                if s.rpm > 0 then s.r = s.r - 1 end
                if s.tpm > 0 then s.k = s.k - n end
              elseif op == 'adjust' and s.tpm > 0 then
                s.k = math.min(s.tpm, s.k - n)
              end
              if op ~= 'peek' then
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

    /**
     * A pooled connection carries one command at a time, and every limited request makes two (acquire,
     * settle): the client's default of 6 capped a busy instance at a few thousand requests per second.
     */
    static final int REDIS_CONNECTIONS = 32;

    private final Redis redis;
    private final String prefix;
    private final String sha;

    private RedisRateLimiter(Redis redis, String prefix, String sha) {
        this.redis = redis;
        this.prefix = prefix;
        this.sha = sha;
    }

    static Future<RedisRateLimiter> connect(Vertx vertx, String url, String prefix) {
        Redis redis = Redis.createClient(vertx, new RedisOptions().setConnectionString(url)
                .setMaxPoolSize(REDIS_CONNECTIONS).setMaxPoolWaiting(1024));
        return redis.send(Request.cmd(Command.SCRIPT).arg("LOAD").arg(SCRIPT))
                .map(sha -> new RedisRateLimiter(redis, prefix, sha.toString()))
                .onFailure(e -> redis.close());
    }

    @Override
    public Future<List<RateDecision>> acquire(List<RateScope> scopes, long estimatedTokens) {
        return run("acquire", scopes, Math.max(estimatedTokens, 0)).map(r -> decisions(r, scopes));
    }

    @Override
    public Future<Void> adjust(List<RateScope> scopes, long tokenDelta) {
        return run("adjust", scopes, tokenDelta).mapEmpty();
    }

    @Override
    public Future<List<RateDecision>> peek(List<RateScope> scopes) {
        return run("peek", scopes, 0).map(r -> decisions(r, scopes));
    }

    @Override
    public Future<Void> close() {
        return redis.close();
    }

    String bucketKey(RateScope scope) {
        // The braces are a cluster hash tag: all of one key's scopes live on one shard, as the script needs.
        return prefix + "rl:{" + scope.keyId() + "}" + (scope.models() == null ? "" : ":m:" + scope.models());
    }

    private Future<Response> run(String op, List<RateScope> scopes, long tokens) {
        return redis.send(script(Command.EVALSHA, sha, op, scopes, tokens)).recover(e ->
                e.getMessage() != null && e.getMessage().startsWith("NOSCRIPT")
                        // Redis restarted or was flushed since we loaded the script.
                        ? redis.send(script(Command.EVAL, SCRIPT, op, scopes, tokens))
                        : Future.failedFuture(e));
    }

    private Request script(Command command, String script, String op, List<RateScope> scopes, long tokens) {
        Request r = Request.cmd(command).arg(script).arg(scopes.size());
        for (RateScope s : scopes) r.arg(bucketKey(s));
        r.arg(op).arg(tokens);
        for (RateScope s : scopes) r.arg(s.limits().rpm()).arg(s.limits().tpm());
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
