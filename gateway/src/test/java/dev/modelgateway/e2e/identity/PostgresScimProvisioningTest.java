package dev.modelgateway.e2e.identity;

import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.SharedStores;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.ExternalStores;

/** SCIM provisioning on a gateway whose accounts are in PostgreSQL: the same SQL runs on both. */
@E2e
@ExternalStores
class PostgresScimProvisioningTest extends ScimProvisioningContract {
    private SharedStores stores;

    @Override
    GatewayHarness.Builder gateway() throws Exception {
        stores = new SharedStores();
        return stores.gateway();
    }

    @Override
    void closeStores() throws Exception {
        stores.close();
    }
}
