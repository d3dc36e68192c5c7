package dev.modelgateway.e2e.accounts;

import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.ExternalStores;

/** Rate limits through a gateway on PostgreSQL with counters in Redis. */
@E2e
@ExternalStores
class PostgresRedisRateLimitsTest extends RateLimitsThroughGatewayContract {
    PostgresRedisRateLimitsTest() {
        super(Stores.POSTGRES_REDIS);
    }
}
