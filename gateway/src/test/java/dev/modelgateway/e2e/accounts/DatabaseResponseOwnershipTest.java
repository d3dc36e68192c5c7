package dev.modelgateway.e2e.accounts;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.e2e.AdminApi;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.SharedStores;
import dev.modelgateway.json.Json;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.ExternalStores;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two instances on one PostgreSQL and no Redis: who created each vendor B response is kept in the database, so a
 * key's vendor B conversation continues through the other instance, and another key is refused on both.
 */
@E2e
@ExternalStores
class DatabaseResponseOwnershipTest {
    static final String MODEL = "platform/vendorB-5.5";

    SharedStores stores;
    GatewayHarness a;
    GatewayHarness b;

    @BeforeEach
    void start() throws Exception {
        stores = new SharedStores();
        a = GatewayHarness.builder().database(stores.databaseUrl()).start();
        b = GatewayHarness.builder().database(stores.databaseUrl()).simulator(a.sim).start();
    }

    @AfterEach
    void stop() throws Exception {
        if (b != null) b.close();
        if (a != null) a.close();
        stores.close();
    }

    private static HttpResponse<String> respond(GatewayHarness g, String key, String previous) {
        return g.post("/api/v1/responses", "{\"model\":\"" + MODEL + "\",\"input\":\"hi\""
                + (previous == null ? "" : ",\"previous_response_id\":\"" + previous + "\"") + "}", "authorization", "Bearer " + key);
    }

    @Test
    void aVendorResponseMadeThroughOneInstanceIsItsKeysOnTheOther() {
        AdminApi admin = new AdminApi(a);
        AdminApi.CreatedKey owner = admin.create("{\"name\":\"db-owner\"}");
        AdminApi.CreatedKey other = admin.create("{\"name\":\"db-other\"}");

        HttpResponse<String> created = respond(a, owner.secret(), null);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
        JsonNode response = Json.parseOrNull(created.body());
        String id = response.path("id").asText();
        assertThat(id).doesNotStartWith("resp_gw_");

        HttpResponse<String> continued = respond(b, owner.secret(), id);
        assertThat(continued.statusCode()).as("continued through the other instance: " + continued.body()).isEqualTo(200);
        HttpResponse<String> retrieved = b.get("/api/v1/responses/" + id, "authorization", "Bearer " + owner.secret());
        assertThat(retrieved.statusCode()).as(retrieved.body()).isEqualTo(200);

        for (GatewayHarness g : List.of(a, b)) {
            HttpResponse<String> refused = respond(g, other.secret(), id);
            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
            assertThat(Json.parseOrNull(refused.body()).at("/error/param").asText()).isEqualTo("previous_response_id");
            assertThat(g.get("/api/v1/responses/" + id, "authorization", "Bearer " + other.secret()).statusCode()).isEqualTo(404);
        }
    }
}
