package dev.modelgateway.e2e.accounts;

import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.ExternalStores;

/** The ledger through a gateway on PostgreSQL (and Redis for its counters). */
@E2e
@ExternalStores
class PostgresLedgerThroughGatewayTest extends LedgerThroughGatewayContract {
    PostgresLedgerThroughGatewayTest() {
        super(Stores.POSTGRES_REDIS);
    }
}
