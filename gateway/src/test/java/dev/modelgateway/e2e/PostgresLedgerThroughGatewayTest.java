package dev.modelgateway.e2e;

/** The ledger through a gateway on PostgreSQL (and Redis for its counters). */
class PostgresLedgerThroughGatewayTest extends LedgerThroughGatewayContract {
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
