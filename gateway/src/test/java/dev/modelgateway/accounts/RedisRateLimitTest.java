package dev.modelgateway.accounts;

import org.junit.jupiter.api.AfterEach;

class RedisRateLimitTest extends RateLimitContract {
    private final String prefix = Fixtures.random("mgtest-") + ":";

    @Override
    String redisUrl() {
        return Fixtures.REDIS_URL;
    }

    @Override
    String redisPrefix() {
        return prefix;
    }

    @AfterEach
    void deleteKeys() {
        var v = io.vertx.core.Vertx.vertx();
        Fixtures.deleteRedisKeys(v, prefix);
        Fixtures.await(v.close());
    }
}
