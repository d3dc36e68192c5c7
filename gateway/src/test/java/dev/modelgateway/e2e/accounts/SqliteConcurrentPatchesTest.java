package dev.modelgateway.e2e.accounts;

import dev.modelgateway.testing.E2e;

/** Concurrent admin PATCHes on a gateway's SQLite file. */
@E2e
class SqliteConcurrentPatchesTest extends ConcurrentPatchesContract {
    SqliteConcurrentPatchesTest() {
        super(Stores.SQLITE);
    }
}
