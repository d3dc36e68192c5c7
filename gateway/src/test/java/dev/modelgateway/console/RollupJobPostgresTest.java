package dev.modelgateway.console;

import dev.modelgateway.e2e.SharedStores;
import dev.modelgateway.testing.ExternalStores;
import org.junit.jupiter.api.AfterEach;

import java.sql.SQLException;

/** {@link RollupJobTest}'s cases on the local PostgreSQL, in a schema of their own: the rollup SQL is portable. */
@ExternalStores
class RollupJobPostgresTest extends RollupJobTest {
    private SharedStores stores;

    @Override
    String databaseUrl() throws SQLException {
        stores = new SharedStores();
        return stores.databaseUrl();
    }

    @AfterEach
    @Override
    void close() throws SQLException {
        super.close();
        stores.close();
    }
}
