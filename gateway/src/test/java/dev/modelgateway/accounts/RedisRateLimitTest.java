package dev.modelgateway.accounts;

import dev.modelgateway.testing.ExternalStores;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;

@ExternalStores
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
        var v = Vertx.vertx();
        Fixtures.deleteRedisKeys(v, prefix);
        Fixtures.await(v.close());
    }
}
