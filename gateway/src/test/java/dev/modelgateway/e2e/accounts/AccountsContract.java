package dev.modelgateway.e2e.accounts;

import dev.modelgateway.e2e.AdminApi;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.SharedStores;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * The prologue of the accounts contracts, each run once per kind of store: one gateway for the whole class
 * on those stores, the admin API on it, and the stores removed after the gateway has stopped.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AccountsContract {
    /** Where the gateway under test keeps its accounts. */
    enum Stores {
        /** A temporary SQLite file, in-process rate-limit counters. */
        SQLITE,
        /** A fresh PostgreSQL schema, counters in Redis under a prefix of its own ({@link SharedStores}). */
        POSTGRES_REDIS
    }

    private final Stores stores;
    private SharedStores shared;
    GatewayHarness h;
    AdminApi admin;

    AccountsContract(Stores stores) {
        this.stores = stores;
    }

    @BeforeAll
    void start() throws Exception {
        if (stores == Stores.POSTGRES_REDIS) {
            shared = new SharedStores();
            h = shared.gateway().start();
        } else {
            h = GatewayHarness.start();
        }
        admin = new AdminApi(h);
    }

    @AfterAll
    void stop() throws Exception {
        h.close();
        if (shared != null) shared.close();
    }
}
