package dev.modelgateway.e2e.accounts;

import dev.modelgateway.e2e.AdminApi;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.PerClassGateway;
import dev.modelgateway.json.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.http.HttpResponse;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Vendor B keeps every response under the gateway's one account: a key may continue (previous_response_id)
 * only the vendor B responses it created through the gateway, not another key's whose id it learned.
 */
@ExtendWith(PerClassGateway.class)
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
}
