package dev.modelgateway.e2e.accounts;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.e2e.AdminApi;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.json.Json;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.Eventually;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A key's daily budget raises its 50/80/100% alerts once each, delivered as JSON to the configured webhook, retried
 * after a failure, and visible with their delivery in the admin API (docs/accounts.md, "Alerts").
 */
@E2e
class BudgetAlertsTest {
    static final String MODEL = "platform/vendorA-sonnet-4.5";
    static final String BODY = "{\"model\":\"" + MODEL + "\",\"max_tokens\":64,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

    GatewayHarness g;
    HttpServer webhook;
    final List<JsonNode> received = Collections.synchronizedList(new ArrayList<>());
    final AtomicInteger posts = new AtomicInteger();

    @BeforeEach
    void start() throws Exception {
        g = GatewayHarness.builder().alertsAllowPrivate(true).start(); // the webhook is on loopback
        webhook = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        webhook.createContext("/hook", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            // the first delivery fails: the gateway must retry it
            int status = posts.incrementAndGet() == 1 ? 500 : 204;
            if (status == 204) received.add(Json.parseOrNull(new String(body, StandardCharsets.UTF_8)));
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        webhook.start();
    }

    @AfterEach
    void stop() {
        webhook.stop(0);
        g.close();
    }

    @Test
    void thresholdsFireOnceEachAndReachTheWebhookAfterARetry() throws Exception {
        AdminApi admin = new AdminApi(g);
        AdminApi.CreatedKey probe = admin.create("{\"name\":\"probe\"}");
        HttpResponse<String> first = g.post("/api/v1/messages", BODY, "authorization", "Bearer " + probe.secret());
        Usage usage = LedgerThroughGatewayContract.anthropicUsage(Json.parseOrNull(first.body()).path("usage"));
        long callE10 = LedgerThroughGatewayContract.sonnetCostE10(usage);
        // two and a half calls: the second reaches 80%, the third 120%
        BigDecimal budget = BigDecimal.valueOf(callE10 * 5 / 2, 10);
        AdminApi.CreatedKey key = admin.create("{\"name\":\"alerted\",\"budget_usd\":\"" + budget.toPlainString()
                + "\",\"budget_period\":\"day\"}");
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            statuses.add(g.post("/api/v1/messages", BODY, "authorization", "Bearer " + key.secret()).statusCode());
            g.awaitLedgerWritten(); // each call's row (and spend) written before the next
        }
        assertThat(statuses).containsExactly(200, 200, 200, 429, 429);

        HttpResponse<String> bad = admin.call("PATCH", "/api/v1/admin/alerts/settings", "{\"webhook_url\":\"ftp://x\"}");
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.body()).contains("webhook_url");
        JsonNode settings = Json.parseOrNull(admin.call("PATCH", "/api/v1/admin/alerts/settings",
                "{\"webhook_url\":\"http://127.0.0.1:" + webhook.getAddress().getPort() + "/hook\"}").body());
        assertThat(settings.path("thresholds").toString()).isEqualTo("[50,80,100]");

        JsonNode alerts = Eventually.value("three alerts delivered", Duration.ofSeconds(60), () -> admin.get("/api/v1/admin/alerts"),
                all -> all.path("data").size() == 3 && all.path("data").valueStream().allMatch(a -> a.path("state").asText().equals("delivered")));
        List<Integer> thresholds = new ArrayList<>();
        alerts.path("data").forEach(a -> {
            assertThat(a.path("state").asText()).isEqualTo("delivered");
            assertThat(a.path("key_id").asText()).isEqualTo(key.id());
            assertThat(a.path("period").asText()).startsWith("d");
            thresholds.add(a.path("threshold_percent").asInt());
        });
        assertThat(thresholds).containsExactlyInAnyOrder(50, 80, 100);
        int attempts = 0;
        for (JsonNode a : alerts.path("data")) attempts += a.path("attempts").asInt();
        assertThat(attempts).as("one failed attempt, retried").isEqualTo(4);

        assertThat(posts.get()).isEqualTo(4);
        assertThat(received).hasSize(3).allSatisfy(a -> {
            assertThat(a.path("type").asText()).isEqualTo("budget.threshold");
            assertThat(a.path("holder_type").asText()).isEqualTo("key");
            assertThat(new BigDecimal(a.path("budget_usd").asText())).isEqualByComparingTo(budget);
        });
        JsonNode hundred = received.stream().filter(a -> a.path("threshold_percent").asInt() == 100).findFirst().orElseThrow();
        assertThat(new BigDecimal(hundred.path("spent_usd").asText())).isEqualByComparingTo(BigDecimal.valueOf(3 * callE10, 10));
    }
}
