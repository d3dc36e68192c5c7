package dev.modelgateway.accounts;

import dev.modelgateway.testing.ExternalStores;
import java.sql.SQLException;

@ExternalStores
class PostgresUsageApiTest extends UsageApiContract {
    private Fixtures.PgSchema schema;

    @Override
    String databaseUrl() throws SQLException {
        schema = Fixtures.PgSchema.create();
        return schema.url();
    }

    @Override
    void dropDatabase() throws SQLException {
        schema.close();
    }
}
