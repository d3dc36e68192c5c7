package dev.modelgateway.e2e.accounts;

import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.SharedStores;
import dev.modelgateway.testing.ExternalStores;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * Two gateway instances in front of one simulator, sharing one PostgreSQL schema and one Redis prefix: the
 * set-up of the tests that check what several instances hold together.
 */
@ExternalStores
abstract class TwoInstances {
    SharedStores stores;
    /** Owns the simulator that both instances call. */
    GatewayHarness a;
    GatewayHarness b;

    @BeforeEach
    void start() throws Exception {
        stores = new SharedStores();
        a = stores.gateway().start();
        b = stores.gateway().simulator(a.sim).start();
    }

    @AfterEach
    void stop() throws Exception {
        if (b != null) b.close();
        if (a != null) a.close();
        stores.close();
    }
}
