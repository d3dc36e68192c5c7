package dev.modelgateway.e2e.accounts;

import dev.modelgateway.e2e.AdminApi;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.PerClassGateway;
import dev.modelgateway.json.Json;
import dev.modelgateway.testing.E2e;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Vendor B keeps every response under the gateway's one account: a key may continue (previous_response_id)
 * only the vendor B responses it created through the gateway, not another key's whose id it learned; and it may
 * refer to vendor B's output items (which vendor B resolves by id) only if they are its own.
 */
@ExtendWith(PerClassGateway.class)
@E2e
class ResponseOwnershipTest {
    static GatewayHarness h;
    static AdminApi admin;

    private static HttpResponse<String> respond(String key, boolean stream, String previous) {
        return h.post("/api/v1/responses", "{\"model\":\"platform/vendorB-5.5\",\"stream\":" + stream + ",\"input\":\"hi\""
                + (previous == null ? "" : ",\"previous_response_id\":\"" + previous + "\"") + "}", "authorization", "Bearer " + key);
    }

    @Test
    void onlyTheKeyThatCreatedAVendorResponseMayContinueIt() {
        AdminApi.CreatedKey owner = admin.create("{\"name\":\"owner\"}");
        AdminApi.CreatedKey other = admin.create("{\"name\":\"other\"}");

        HttpResponse<String> created = respond(owner.secret(), false, null);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
        String id = Json.parseOrNull(created.body()).path("id").asText();
        assertThat(id).isNotBlank().doesNotStartWith("resp_gw_");

        HttpResponse<String> stolen = respond(other.secret(), false, id);
        assertThat(stolen.statusCode()).as(stolen.body()).isEqualTo(400);
        assertThat(Json.parseOrNull(stolen.body()).at("/error/param").asText()).isEqualTo("previous_response_id");

        HttpResponse<String> continued = respond(owner.secret(), false, id);
        assertThat(continued.statusCode()).as(continued.body()).isEqualTo(200);
    }

    @Test
    void aStreamedVendorResponseIsOwnedToo() {
        AdminApi.CreatedKey owner = admin.create("{\"name\":\"stream-owner\"}");
        AdminApi.CreatedKey other = admin.create("{\"name\":\"stream-other\"}");

        HttpResponse<String> created = respond(owner.secret(), true, null);
        assertThat(created.statusCode()).isEqualTo(200);
        Matcher completed = Pattern.compile("event: response\\.completed\\ndata: (\\{.*})").matcher(created.body());
        assertThat(completed.find()).as(created.body()).isTrue();
        String id = Json.parseOrNull(completed.group(1)).at("/response/id").asText();

        assertThat(respond(other.secret(), true, id).statusCode()).isEqualTo(400);
        assertThat(respond(owner.secret(), true, id).statusCode()).isEqualTo(200);
    }

    private static HttpResponse<String> withInput(String key, String item) {
        return h.post("/api/v1/responses", "{\"model\":\"platform/vendorB-5.5\",\"input\":[" + item
                + ",{\"role\":\"user\",\"content\":\"and then?\"}]}", "authorization", "Bearer " + key);
    }

    @Test
    void anotherKeysVendorItemsAreNotFoundAndNeverReachTheVendor() {
        AdminApi.CreatedKey owner = admin.create("{\"name\":\"item-owner\"}");
        AdminApi.CreatedKey other = admin.create("{\"name\":\"item-other\"}");
        HttpResponse<String> created = h.post("/api/v1/responses", "{\"model\":\"platform/vendorB-5.5\",\"input\":\"hi\","
                + "\"reasoning\":{\"effort\":\"low\",\"summary\":\"auto\"}}", "authorization", "Bearer " + owner.secret());
        assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
        var output = Json.parseOrNull(created.body()).path("output");
        String reasoning = output.get(0).path("id").asText();
        String message = output.get(output.size() - 1).path("id").asText();
        assertThat(output.get(0).path("type").asText()).isEqualTo("reasoning");
        // the three ways to name a stored item that vendor B fills in from its store
        List<String> byId = List.of(
                "{\"type\":\"item_reference\",\"id\":\"" + message + "\"}",
                "{\"id\":\"" + message + "\"}",
                "{\"type\":\"reasoning\",\"id\":\"" + reasoning + "\",\"summary\":[]}");

        h.sim.clearReceived();
        for (String item : byId) {
            HttpResponse<String> stolen = withInput(other.secret(), item);
            assertThat(stolen.statusCode()).as(item + " → " + stolen.body()).isEqualTo(400);
            assertThat(Json.parseOrNull(stolen.body()).at("/error/param").asText()).isEqualTo("input[0].id");
            assertThat(Json.parseOrNull(stolen.body()).at("/error/message").asText()).contains("not found");
        }
        assertThat(h.sim.received()).as("another key's item ids never reach the vendor").isEmpty();

        for (String item : byId) {
            HttpResponse<String> own = withInput(owner.secret(), item);
            assertThat(own.statusCode()).as(item + " → " + own.body()).isEqualTo(200);
        }
        assertThat(h.sim.received()).hasSize(byId.size());
    }
}
