package dev.modelgateway.e2e.accounts;

/** Rate limits through a gateway on SQLite with in-process counters. */
class SqliteRateLimitsTest extends RateLimitsThroughGatewayContract {
    SqliteRateLimitsTest() {
        super(Stores.SQLITE);
    }
}
