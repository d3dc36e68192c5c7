package dev.modelgateway.e2e.accounts;

/** The ledger through a gateway on PostgreSQL (and Redis for its counters). */
class PostgresLedgerThroughGatewayTest extends LedgerThroughGatewayContract {
    PostgresLedgerThroughGatewayTest() {
        super(Stores.POSTGRES_REDIS);
    }
}
