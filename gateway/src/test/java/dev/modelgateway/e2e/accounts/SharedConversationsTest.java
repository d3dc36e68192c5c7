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
 * The Responses conversations the gateway makes for translated models are in PostgreSQL when the gateway has
 * one: a conversation started through one instance continues, is retrieved, listed and deleted through another,
 * with no sticky sessions; another key gets, on every instance, the answer it would get for an unknown id.
 */
@E2e
class SharedConversationsTest extends TwoInstances {
    static final String MODEL = "platform/vendorA-sonnet-5";

    private static HttpResponse<String> respond(GatewayHarness g, String key, String input, String previous) {
        return g.post("/api/v1/responses", "{\"model\":\"" + MODEL + "\",\"input\":\"" + input + "\""
                + (previous == null ? "" : ",\"previous_response_id\":\"" + previous + "\"") + "}", "authorization", "Bearer " + key);
    }

    private static HttpResponse<String> call(GatewayHarness g, String method, String path, String key) {
        return g.send(method, path, null, "authorization", "Bearer " + key);
    }

    private static JsonNode json(HttpResponse<String> r) {
        return Json.parseOrNull(r.body());
    }

    /** The last request the simulated vendor A received. */
    private String upstream() {
        return a.sim.received().getLast().body();
    }

    @Test
    void aConversationStartedOnOneInstanceContinuesOnTheOther() {
        AdminApi.CreatedKey owner = new AdminApi(a).create("{\"name\":\"conversation-owner\"}");

        HttpResponse<String> first = respond(a, owner.secret(), "The password is pelican.", null);
        assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
        String firstId = json(first).path("id").asText();
        String firstMessage = json(first).at("/output/0/id").asText();
        String firstAnswer = json(first).at("/output/0/content/0/text").asText();
        assertThat(firstId).startsWith("resp_gw_");

        HttpResponse<String> second = respond(b, owner.secret(), "What is the password?", firstId);
        assertThat(second.statusCode()).as("continued through the other instance: " + second.body()).isEqualTo(200);
        assertThat(upstream()).as("vendor A is sent the whole conversation").contains("The password is pelican.")
                .contains(firstAnswer).contains("What is the password?");
        String secondId = json(second).path("id").asText();

        // a streamed turn through the first instance again, chained on the second's response
        HttpResponse<String> third = a.post("/api/v1/responses", "{\"model\":\"" + MODEL + "\",\"stream\":true,"
                + "\"input\":\"Say it again.\",\"previous_response_id\":\"" + secondId + "\"}", "authorization", "Bearer " + owner.secret());
        assertThat(third.statusCode()).as(third.body()).isEqualTo(200);
        Matcher completed = Pattern.compile("event: response\\.completed\\ndata: (\\{.*})").matcher(third.body());
        assertThat(completed.find()).as(third.body()).isTrue();
        String thirdId = Json.parseOrNull(completed.group(1)).at("/response/id").asText();
        assertThat(upstream()).contains("The password is pelican.").contains("What is the password?").contains("Say it again.");

        // an item of the first response referred to through the second instance
        HttpResponse<String> referenced = b.post("/api/v1/responses", "{\"model\":\"" + MODEL + "\",\"input\":[{\"type\":"
                + "\"item_reference\",\"id\":\"" + firstMessage + "\"},{\"role\":\"user\",\"content\":\"Repeat that.\"}]}",
                "authorization", "Bearer " + owner.secret());
        assertThat(referenced.statusCode()).as(referenced.body()).isEqualTo(200);
        assertThat(upstream()).contains(firstAnswer).doesNotContain("item_reference");

        // retrieved and listed through the instance that did not make it
        HttpResponse<String> retrieved = call(b, "GET", "/api/v1/responses/" + thirdId, owner.secret());
        assertThat(retrieved.statusCode()).as(retrieved.body()).isEqualTo(200);
        assertThat(json(retrieved).path("id").asText()).isEqualTo(thirdId);
        HttpResponse<String> items = call(b, "GET", "/api/v1/responses/" + thirdId + "/input_items?order=asc", owner.secret());
        assertThat(items.statusCode()).as(items.body()).isEqualTo(200);
        assertThat(json(items).at("/data/0/content/0/text").asText()).isEqualTo("The password is pelican.");

        // deleted through one instance: gone on both
        HttpResponse<String> deleted = call(b, "DELETE", "/api/v1/responses/" + firstId, owner.secret());
        assertThat(deleted.statusCode()).as(deleted.body()).isEqualTo(200);
        assertThat(json(deleted).path("deleted").asBoolean()).isTrue();
        for (GatewayHarness g : List.of(a, b)) {
            assertThat(call(g, "GET", "/api/v1/responses/" + firstId, owner.secret()).statusCode()).isEqualTo(404);
            HttpResponse<String> gone = respond(g, owner.secret(), "Again?", firstId);
            assertThat(gone.statusCode()).as(gone.body()).isEqualTo(400);
            assertThat(json(gone).at("/error/code").asText()).isEqualTo("previous_response_not_found");
        }
        assertThat(call(a, "DELETE", "/api/v1/responses/" + firstId, owner.secret()).statusCode()).isEqualTo(404);
    }

    @Test
    void anotherKeyIsAnsweredAsForAnUnknownIdOnEveryInstance() {
        AdminApi admin = new AdminApi(a);
        AdminApi.CreatedKey owner = admin.create("{\"name\":\"owner\"}");
        AdminApi.CreatedKey other = admin.create("{\"name\":\"other\"}");
        HttpResponse<String> created = respond(a, owner.secret(), "hello", null);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
        String id = json(created).path("id").asText();
        String unknown = "resp_gw_" + "0".repeat(32);

        for (GatewayHarness g : List.of(a, b)) {
            for (String[] route : new String[][]{{"GET", ""}, {"GET", "/input_items"}, {"DELETE", ""}}) {
                HttpResponse<String> foreign = call(g, route[0], "/api/v1/responses/" + id + route[1], other.secret());
                HttpResponse<String> missing = call(g, route[0], "/api/v1/responses/" + unknown + route[1], other.secret());
                assertThat(foreign.statusCode()).as(foreign.body()).isEqualTo(404).isEqualTo(missing.statusCode());
                assertThat(foreign.body().replace(id, "ID")).isEqualTo(missing.body().replace(unknown, "ID"));
            }
            HttpResponse<String> foreign = respond(g, other.secret(), "hi", id);
            HttpResponse<String> missing = respond(g, other.secret(), "hi", unknown);
            assertThat(foreign.statusCode()).as(foreign.body()).isEqualTo(400).isEqualTo(missing.statusCode());
            assertThat(foreign.body().replace(id, "ID")).isEqualTo(missing.body().replace(unknown, "ID"));
            assertThat(json(foreign).at("/error/code").asText()).isEqualTo("previous_response_not_found");
            assertThat(json(foreign).at("/error/param").asText()).isEqualTo("previous_response_id");
        }

        HttpResponse<String> still = call(b, "GET", "/api/v1/responses/" + id, owner.secret());
        assertThat(still.statusCode()).as("the other key's DELETE removed nothing: " + still.body()).isEqualTo(200);
    }
}
