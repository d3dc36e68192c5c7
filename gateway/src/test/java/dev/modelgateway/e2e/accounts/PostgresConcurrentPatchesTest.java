package dev.modelgateway.e2e.accounts;

import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.ExternalStores;

/** Concurrent admin PATCHes on a gateway's PostgreSQL accounts. */
@E2e
@ExternalStores
class PostgresConcurrentPatchesTest extends ConcurrentPatchesContract {
    PostgresConcurrentPatchesTest() {
        super(Stores.POSTGRES_REDIS);
    }
}
