package dev.modelgateway.e2e;

/** Rate limits through a gateway on PostgreSQL with counters in Redis. */
class PostgresRedisRateLimitsTest extends RateLimitsThroughGatewayContract {
    private SharedStores stores;

    @Override
    GatewayHarness startGateway() throws Exception {
        stores = new SharedStores();
        return GatewayHarness.builder().database(stores.databaseUrl()).redis(stores.redisUrl()).start();
    }

    @Override
    void stopStores() throws Exception {
        stores.close();
    }
}
