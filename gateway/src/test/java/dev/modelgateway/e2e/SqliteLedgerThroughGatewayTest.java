package dev.modelgateway.e2e;

/** The ledger through a gateway on its SQLite file. */
class SqliteLedgerThroughGatewayTest extends LedgerThroughGatewayContract {
    @Override
    GatewayHarness startGateway() {
        return GatewayHarness.start();
    }
}
