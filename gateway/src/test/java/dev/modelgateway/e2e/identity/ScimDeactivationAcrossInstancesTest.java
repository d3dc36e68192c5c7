package dev.modelgateway.e2e.identity;

import dev.modelgateway.e2e.AdminApi;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.SharedStores;
import dev.modelgateway.json.Json;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.ExternalStores;
import dev.modelgateway.testing.TestClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A SCIM deactivation through one of two gateways sharing PostgreSQL (docs/identity/scim.md, "Deactivation"): the
 * instance that took it refuses the user's key from the next request; the other, which had the key cached, refuses
 * it once its cache's life (5 s, by the accounts' clock) has passed.
 */
@E2e
@ExternalStores
class ScimDeactivationAcrossInstancesTest {
    final TestClock clock = new TestClock(Instant.parse("2026-06-01T12:00:00Z"));
    SharedStores stores;
    GatewayHarness a;
    GatewayHarness b;

    @BeforeEach
    void start() throws Exception {
        stores = new SharedStores();
        a = stores.gateway().accountsClock(clock).start();
        b = stores.gateway().accountsClock(clock).simulator(a.sim).start();
    }

    @AfterEach
    void stop() throws Exception {
        if (b != null) b.close();
        if (a != null) a.close();
        stores.close();
    }

    static HttpResponse<String> useKey(GatewayHarness h, String secret) {
        return h.get("/api/v1/models", "authorization", "Bearer " + secret);
    }

    @Test
    void bothInstancesRefuseTheKeysOfADeactivatedUserWithinFiveSeconds() throws Exception {
        Scim scim = new Scim(a, GatewayHarness.KEY);
        String id = scim.post("/Users", "{\"schemas\":[\"urn:ietf:params:scim:schemas:core:2.0:User\"],\"userName\":\"leaver@example.com\"}")
                .path("id").asText();
        AdminApi.CreatedKey key = new AdminApi(a).create("{\"name\":\"leaver\"}");
        Scim.own(a, key.id(), id);
        assertThat(useKey(a, key.secret()).statusCode()).isEqualTo(200);
        assertThat(useKey(b, key.secret()).statusCode()).isEqualTo(200); // now in B's cache

        scim.patch("/Users/" + id, "[{\"op\":\"Replace\",\"path\":\"active\",\"value\":\"False\"}]");
        assertThat(useKey(a, key.secret()).statusCode()).isEqualTo(401);

        clock.advance(Duration.ofSeconds(5));
        HttpResponse<String> refused = useKey(b, key.secret());
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(401);
        assertThat(Json.parseOrNull(refused.body()).at("/error/code").asText()).isEqualTo("api_key_disabled");
    }
}
