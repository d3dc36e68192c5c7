package dev.modelgateway.accounts;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisOptions;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * Buckets in Redis, shared by every gateway instance. One Lua script reads, refills and updates a
 * key's bucket pair atomically on Redis's clock, so instances with skewed clocks still agree.
 */
final class RedisRateLimiter implements RateLimiter {

    /** KEYS[1]: the key's bucket hash. ARGV: op (acquire|adjust|peek), rpm, tpm (0 = unlimited), tokens. */
    private static final String SCRIPT = """
            local t = redis.call('TIME')
            local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
            local op, rpm, tpm, n = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
            local s = redis.call('HMGET', KEYS[1], 'r', 'k', 't')
            local elapsed = math.max(0, now - (tonumber(s[3]) or now))
            local function refill(level, cap)
              if level == nil then return cap end
              return math.min(cap, level + elapsed * cap / 60000)
            end
            local function wait(level, want, cap)
              if cap <= 0 or level >= want then return 0 end
              return math.ceil((want - level) * 60000 / cap)
            end
            local r, k = refill(tonumber(s[1]), rpm), refill(tonumber(s[2]), tpm)
            local waitms = 0
            if op == 'acquire' then
              waitms = math.max(wait(r, 1, rpm), wait(k, math.min(n, tpm), tpm))
              if waitms == 0 then
                if rpm > 0 then r = r - 1 end
                if tpm > 0 then k = k - n end
              end
            elseif op == 'adjust' and tpm > 0 then
              k = math.min(tpm, k - n)
            end
            if op ~= 'peek' then
              local untilFull = math.max(wait(r, rpm, rpm), wait(k, tpm, tpm))
              if untilFull == 0 then
                redis.call('DEL', KEYS[1])
              else
                redis.call('HSET', KEYS[1], 'r', tostring(r), 'k', tostring(k), 't', now)
                redis.call('PEXPIRE', KEYS[1], untilFull + 1000)
              end
            end
            return {tostring(r), tostring(k), waitms}
            """;

    private final Redis redis;
    private final String prefix;
    private final String sha;

    private RedisRateLimiter(Redis redis, String prefix, String sha) {
        this.redis = redis;
        this.prefix = prefix;
        this.sha = sha;
    }

    static Future<RedisRateLimiter> connect(Vertx vertx, String url, String prefix) {
        Redis redis = Redis.createClient(vertx, new RedisOptions().setConnectionString(url).setMaxPoolWaiting(1024));
        return redis.send(Request.cmd(Command.SCRIPT).arg("LOAD").arg(SCRIPT))
                .map(sha -> new RedisRateLimiter(redis, prefix, sha.toString()))
                .onFailure(e -> redis.close());
    }

    @Override
    public Future<RateDecision> acquire(String keyId, RateLimits limits, long estimatedTokens) {
        return run("acquire", keyId, limits, Math.max(estimatedTokens, 0)).map(r -> decision(r, limits));
    }

    @Override
    public Future<Void> adjust(String keyId, RateLimits limits, long tokenDelta) {
        return run("adjust", keyId, limits, tokenDelta).mapEmpty();
    }

    @Override
    public Future<RateDecision> peek(String keyId, RateLimits limits) {
        return run("peek", keyId, limits, 0).map(r -> decision(r, limits));
    }

    @Override
    public Future<Void> close() {
        return redis.close();
    }

    String bucketKey(String keyId) {
        // The braces are a cluster hash tag: one key's state stays on one shard.
        return prefix + "rl:{" + keyId + "}";
    }

    private Future<Response> run(String op, String keyId, RateLimits limits, long tokens) {
        return redis.send(script(Command.EVALSHA, sha, keyId, op, limits, tokens)).recover(e ->
                e.getMessage() != null && e.getMessage().startsWith("NOSCRIPT")
                        // Redis restarted or was flushed since we loaded the script.
                        ? redis.send(script(Command.EVAL, SCRIPT, keyId, op, limits, tokens))
                        : Future.failedFuture(e));
    }

    private Request script(Command command, String script, String keyId, String op, RateLimits limits, long tokens) {
        return Request.cmd(command).arg(script).arg(1).arg(bucketKey(keyId))
                .arg(op).arg(limits.rpm()).arg(limits.tpm()).arg(tokens);
    }

    private static RateDecision decision(Response r, RateLimits limits) {
        long wait = r.get(2).toLong();
        return new RateDecision(wait == 0, limits, Double.parseDouble(r.get(0).toString()),
                Double.parseDouble(r.get(1).toString()), wait);
    }
}
