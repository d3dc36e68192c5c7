package dev.modelgateway.e2e.accounts;

/** The ledger through a gateway on its SQLite file. */
class SqliteLedgerThroughGatewayTest extends LedgerThroughGatewayContract {
    SqliteLedgerThroughGatewayTest() {
        super(Stores.SQLITE);
    }
}
