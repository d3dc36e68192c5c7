package dev.modelgateway.accounts;

import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

class SqliteUsageApiTest extends UsageApiContract {
    @TempDir
    Path dir;

    @Override
    String databaseUrl() {
        return "jdbc:sqlite:" + dir.resolve("gateway.db");
    }
}
