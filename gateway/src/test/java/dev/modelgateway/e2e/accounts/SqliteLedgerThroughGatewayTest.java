package dev.modelgateway.e2e.accounts;

import dev.modelgateway.testing.E2e;

/** The ledger through a gateway on its SQLite file. */
@E2e
class SqliteLedgerThroughGatewayTest extends LedgerThroughGatewayContract {
    SqliteLedgerThroughGatewayTest() {
        super(Stores.SQLITE);
    }
}
