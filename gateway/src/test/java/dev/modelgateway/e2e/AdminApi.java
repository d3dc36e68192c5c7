package dev.modelgateway.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.json.Json;

import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

/** The accounts admin API of a gateway, called with the master key as an operator would. */
public final class AdminApi {
    /** A key as the admin API hands it out: the only time the secret is seen. */
    public record CreatedKey(String id, String secret) {}

    private final GatewayHarness h;

    public AdminApi(GatewayHarness h) {
        this.h = h;
    }

    public CreatedKey create(String settingsJson) {
        HttpResponse<String> r = call("POST", "/api/v1/admin/keys", settingsJson);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        JsonNode key = Json.parseOrNull(r.body());
        return new CreatedKey(key.path("id").asText(), key.path("key").asText());
    }

    public JsonNode patch(String id, String json) {
        return ok(call("PATCH", "/api/v1/admin/keys/" + id, json));
    }

    public JsonNode get(String path) {
        return ok(call("GET", path, null));
    }

    public HttpResponse<String> call(String method, String path, String body) {
        return h.send(method, path, body, "authorization", "Bearer " + GatewayHarness.KEY);
    }

    private static JsonNode ok(HttpResponse<String> r) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return Json.parseOrNull(r.body());
    }
}
