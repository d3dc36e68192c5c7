package dev.modelgateway.e2e.accounts;

/** Rate limits through a gateway on PostgreSQL with counters in Redis. */
class PostgresRedisRateLimitsTest extends RateLimitsThroughGatewayContract {
    PostgresRedisRateLimitsTest() {
        super(Stores.POSTGRES_REDIS);
    }
}
