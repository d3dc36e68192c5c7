package dev.modelgateway.e2e.identity;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.json.Json;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** A provisioning client of a gateway's SCIM API, as an identity provider calls it: JSON in application/scim+json. */
final class Scim {
    static final String BASE = "/api/v1/scim/v2";
    static final String PATCH_OP = "urn:ietf:params:scim:api:messages:2.0:PatchOp";
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final GatewayHarness h;
    private final String credential;

    Scim(GatewayHarness h, String credential) {
        this.h = h;
        this.credential = credential;
    }

    HttpResponse<String> call(String method, String path, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + h.gateway.port() + BASE + path))
                .timeout(Duration.ofSeconds(20))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .header("accept", "application/scim+json");
        if (body != null) b.header("content-type", "application/scim+json");
        if (credential != null) b.header("authorization", "Bearer " + credential);
        try {
            return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The body of an answer with {@code status}, which must be SCIM's media type. */
    static JsonNode expect(HttpResponse<String> r, int status) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
        assertThat(r.headers().firstValue("content-type")).hasValueSatisfying(ct -> assertThat(ct).startsWith("application/scim+json"));
        return Json.parseOrNull(r.body());
    }

    /** An error in RFC 7644 §3.12's shape with this status and {@code scimType} (null: none). */
    static JsonNode error(HttpResponse<String> r, int status, String scimType) {
        JsonNode e = expect(r, status);
        assertThat(e.path("schemas").get(0).asText()).isEqualTo("urn:ietf:params:scim:api:messages:2.0:Error");
        assertThat(e.path("status").isTextual()).as("status is a string").isTrue();
        assertThat(e.path("status").asText()).isEqualTo(String.valueOf(status));
        assertThat(e.path("detail").asText()).isNotBlank();
        if (scimType == null) assertThat(e.has("scimType")).as(r.body()).isFalse();
        else assertThat(e.path("scimType").asText()).as(r.body()).isEqualTo(scimType);
        return e;
    }

    JsonNode get(String path) {
        return expect(call("GET", path, null), 200);
    }

    JsonNode post(String path, String body) {
        return expect(call("POST", path, body), 201);
    }

    JsonNode patch(String path, String operations) {
        return expect(call("PATCH", path, "{\"schemas\":[\"" + PATCH_OP + "\"],\"Operations\":" + operations + "}"), 200);
    }

    static String filter(String expression) {
        return "filter=" + URLEncoder.encode(expression, StandardCharsets.UTF_8);
    }

    /** Makes {@code userId} the owner of a platform key, as a member's own key is (the keys API sets it elsewhere). */
    static void own(GatewayHarness h, String keyId, String userId) throws Exception {
        try (Connection c = DriverManager.getConnection(h.databaseUrl);
             PreparedStatement ps = c.prepareStatement("UPDATE api_keys SET owner_user_id = ? WHERE id = ?")) {
            ps.setString(1, userId);
            ps.setString(2, keyId);
            assertThat(ps.executeUpdate()).isEqualTo(1);
        }
    }
}
