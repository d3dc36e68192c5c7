package dev.modelgateway.accounts;

import dev.modelgateway.testing.ExternalStores;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.sql.SQLException;

@ExternalStores
class PostgresLedgerTest extends LedgerContract {
    private static Fixtures.PgSchema schema;

    @BeforeAll
    static void createSchema() throws SQLException {
        schema = Fixtures.PgSchema.create();
    }

    @AfterAll
    static void dropSchema() throws SQLException {
        schema.close();
    }

    @Override
    String databaseUrl() {
        return schema.url();
    }
}
