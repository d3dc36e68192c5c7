package dev.modelgateway.e2e.identity;

import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.testing.E2e;

/** SCIM provisioning on a gateway whose accounts are in SQLite. */
@E2e
class ScimProvisioningTest extends ScimProvisioningContract {
    @Override
    GatewayHarness.Builder gateway() {
        return GatewayHarness.builder();
    }
}
