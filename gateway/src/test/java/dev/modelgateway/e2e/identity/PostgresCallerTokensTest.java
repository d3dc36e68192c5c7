package dev.modelgateway.e2e.identity;

import dev.modelgateway.e2e.SharedStores;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.ExternalStores;

/**
 * {@link CallerTokensContract} on PostgreSQL with the counters in Redis: the key id a token user is admitted under fits
 * the columns PostgreSQL holds to their length (SQLite does not), and per-user limits hold in the shared counters.
 */
@E2e
@ExternalStores
class PostgresCallerTokensTest extends CallerTokensContract {
    @Override
    SharedStores stores() throws Exception {
        return new SharedStores();
    }
}
