package dev.modelgateway.e2e.database;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.json.Json;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** What an operator asks a gateway process with the master key: keys, spend, metrics, readiness. */
final class Admin {
    record Key(String id, String secret) {
    }

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final String baseUrl;

    Admin(String baseUrl) {
        this.baseUrl = baseUrl;
    }

    Key createKey(String json) {
        HttpResponse<String> r = send(HttpRequest.newBuilder(URI.create(baseUrl + "/admin/keys"))
                .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        JsonNode key = Json.parseOrNull(r.body());
        return new Key(key.path("id").asText(), key.path("key").asText());
    }

    /** The key's lifetime spend as the gateway reports it, in 1e-10 USD (the ledger's unit). */
    long spentE10(String keyId) {
        HttpResponse<String> r = send(HttpRequest.newBuilder(URI.create(baseUrl + "/admin/keys/" + keyId)).GET());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return new BigDecimal(Json.parseOrNull(r.body()).path("spent_usd").asText()).movePointRight(10).longValueExact();
    }

    /** A gauge of {@code /metrics} without labels. */
    double metric(String name) {
        String root = baseUrl.substring(0, baseUrl.length() - "/api/v1".length());
        String body = send(HttpRequest.newBuilder(URI.create(root + "/metrics")).GET()).body();
        return body.lines().filter(l -> l.startsWith(name + " ")).mapToDouble(l -> Double.parseDouble(l.substring(name.length() + 1)))
                .findFirst().orElseThrow(() -> new AssertionError(name + " not in /metrics"));
    }

    int ready() {
        String root = baseUrl.substring(0, baseUrl.length() - "/api/v1".length());
        return send(HttpRequest.newBuilder(URI.create(root + "/ready")).GET()).statusCode();
    }

    private HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return http.send(request.timeout(Duration.ofSeconds(30)).header("authorization", "Bearer " + GatewayHarness.KEY).build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
