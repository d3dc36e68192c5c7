package dev.modelgateway.e2e.accounts;

import dev.modelgateway.testing.E2e;

/** Rate limits through a gateway on SQLite with in-process counters. */
@E2e
class SqliteRateLimitsTest extends RateLimitsThroughGatewayContract {
    SqliteRateLimitsTest() {
        super(Stores.SQLITE);
    }
}
