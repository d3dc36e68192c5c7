package dev.modelgateway.e2e.accounts;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.e2e.AdminApi;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.json.Json;
import dev.modelgateway.testing.E2e;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Who created each vendor B response and output item is kept in Redis when the gateway has one: a key's
 * vendor B conversation continues through any instance behind a load balancer, and after a restart, while
 * every other key is refused on every instance.
 */
@E2e
class SharedResponseOwnershipTest extends TwoInstances {
    static final String MODEL = "platform/vendorB-5.5";

    private static HttpResponse<String> respond(GatewayHarness g, String key, String previous) {
        return g.post("/api/v1/responses", "{\"model\":\"" + MODEL + "\",\"input\":\"hi\""
                + (previous == null ? "" : ",\"previous_response_id\":\"" + previous + "\"") + "}", "authorization", "Bearer " + key);
    }

    private static HttpResponse<String> reference(GatewayHarness g, String key, String itemId) {
        return g.post("/api/v1/responses", "{\"model\":\"" + MODEL + "\",\"input\":[{\"type\":\"item_reference\",\"id\":\""
                + itemId + "\"},{\"role\":\"user\",\"content\":\"and then?\"}]}", "authorization", "Bearer " + key);
    }

    private static HttpResponse<String> retrieve(GatewayHarness g, String key, String id) {
        return g.get("/api/v1/responses/" + id, "authorization", "Bearer " + key);
    }

    private static String param(HttpResponse<String> r) {
        return Json.parseOrNull(r.body()).at("/error/param").asText();
    }

    private static void refusedToAnotherKey(List<GatewayHarness> instances, String key, String responseId, String itemId) {
        for (GatewayHarness g : instances) {
            HttpResponse<String> continued = respond(g, key, responseId);
            assertThat(continued.statusCode()).as(continued.body()).isEqualTo(400);
            assertThat(param(continued)).isEqualTo("previous_response_id");
            HttpResponse<String> retrieved = retrieve(g, key, responseId);
            assertThat(retrieved.statusCode()).as(retrieved.body()).isEqualTo(404);
            HttpResponse<String> referenced = reference(g, key, itemId);
            assertThat(referenced.statusCode()).as(referenced.body()).isEqualTo(400);
            assertThat(param(referenced)).isEqualTo("input[0].id");
        }
    }

    @Test
    void aVendorResponseMadeThroughOneInstanceIsItsKeysOnEveryInstance() {
        AdminApi admin = new AdminApi(a);
        AdminApi.CreatedKey owner = admin.create("{\"name\":\"lb-owner\"}");
        AdminApi.CreatedKey other = admin.create("{\"name\":\"lb-other\"}");

        HttpResponse<String> created = respond(a, owner.secret(), null);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
        JsonNode response = Json.parseOrNull(created.body());
        String id = response.path("id").asText();
        String itemId = response.at("/output/0/id").asText();
        assertThat(id).doesNotStartWith("resp_gw_");

        HttpResponse<String> continued = respond(b, owner.secret(), id);
        assertThat(continued.statusCode()).as("continued through the other instance: " + continued.body()).isEqualTo(200);
        HttpResponse<String> retrieved = retrieve(b, owner.secret(), id);
        assertThat(retrieved.statusCode()).as(retrieved.body()).isEqualTo(200);
        assertThat(Json.parseOrNull(retrieved.body()).path("id").asText()).isEqualTo(id);
        HttpResponse<String> referenced = reference(b, owner.secret(), itemId);
        assertThat(referenced.statusCode()).as(referenced.body()).isEqualTo(200);

        refusedToAnotherKey(List.of(a, b), other.secret(), id, itemId);
    }

    @Test
    void anUnansweredRedisIsA503NotAHang() {
        HungRedis redis = new HungRedis(a.vertx);
        String url = stores.redisUrl().replace("127.0.0.1:6379", "127.0.0.1:" + redis.port());
        GatewayHarness first = stores.gateway().redis(url).simulator(a.sim).start();
        GatewayHarness second = stores.gateway().redis(url).simulator(a.sim).start();
        try {
            HttpResponse<String> created = respond(first, GatewayHarness.KEY, null);
            assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
            String id = Json.parseOrNull(created.body()).path("id").asText();
            redis.hang();

            long started = System.nanoTime();
            HttpResponse<String> refused = respond(second, GatewayHarness.KEY, id);
            assertThat((System.nanoTime() - started) / 1_000_000_000).as("seconds to answer").isLessThan(5);
            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(503);
            JsonNode error = Json.parseOrNull(refused.body()).path("error");
            assertThat(error.path("code").asText()).isEqualTo("ownership_unavailable");
            assertThat(error.path("message").asText()).contains("Redis");
            assertThat(refused.headers().firstValue("retry-after")).hasValue("1");

            HttpResponse<String> known = respond(first, GatewayHarness.KEY, id);
            assertThat(known.statusCode()).as("the instance that relayed it still knows: " + known.body()).isEqualTo(200);
        } finally {
            // stopped while Redis is still hung: a stop does not wait on Redis (StopWithHungRedisTest)
            second.close();
            first.close();
            redis.close();
        }
    }

    @Test
    void aRestartedInstanceKeepsOwnership() {
        AdminApi admin = new AdminApi(a);
        AdminApi.CreatedKey owner = admin.create("{\"name\":\"restart-owner\"}");
        AdminApi.CreatedKey other = admin.create("{\"name\":\"restart-other\"}");

        HttpResponse<String> created = b.post("/api/v1/responses", "{\"model\":\"" + MODEL + "\",\"stream\":true,\"input\":\"hi\"}",
                "authorization", "Bearer " + owner.secret());
        assertThat(created.statusCode()).isEqualTo(200);
        Matcher completed = Pattern.compile("event: response\\.completed\\ndata: (\\{.*})").matcher(created.body());
        assertThat(completed.find()).as(created.body()).isTrue();
        JsonNode response = Json.parseOrNull(completed.group(1)).path("response");
        String id = response.path("id").asText();
        String itemId = response.at("/output/0/id").asText();

        b.close();
        b = stores.gateway().simulator(a.sim).start();

        HttpResponse<String> continued = respond(b, owner.secret(), id);
        assertThat(continued.statusCode()).as("continued after the restart: " + continued.body()).isEqualTo(200);
        assertThat(retrieve(b, owner.secret(), id).statusCode()).isEqualTo(200);
        assertThat(reference(b, owner.secret(), itemId).statusCode()).isEqualTo(200);
        refusedToAnotherKey(List.of(b), other.secret(), id, itemId);
    }
}
