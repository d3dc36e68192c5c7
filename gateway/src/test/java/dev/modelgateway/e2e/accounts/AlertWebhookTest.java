package dev.modelgateway.e2e.accounts;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.e2e.AdminApi;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.json.Json;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.Eventually;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.math.BigDecimal;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The alert webhook as a receiver and an administrator see it (docs/accounts.md, "Alerts"; docs/security.md): each
 * delivery is signed with the secret the settings' answer showed once; a receiver's huge answer is not read past a
 * few KiB; a failure's {@code last_error} names its kind, never an address; a loopback receiver is refused unless
 * {@code accounts.alerts_allow_private}.
 */
@E2e
class AlertWebhookTest {
    static final int HUGE = 64 << 20;

    GatewayHarness g;
    final Vertx receiverVertx = Vertx.vertx();
    HttpServer receiver;
    final List<String[]> received = Collections.synchronizedList(new ArrayList<>());
    final AtomicLong bytesWritten = new AtomicLong();
    final AtomicInteger answersCompleted = new AtomicInteger();

    @BeforeEach
    void startReceiver() {
        Buffer mib = Buffer.buffer(new byte[1 << 20]);
        receiver = receiverVertx.createHttpServer().requestHandler(req -> req.body().onSuccess(body -> {
            received.add(new String[]{req.getHeader("x-platform-signature"), body.toString(StandardCharsets.UTF_8)});
            HttpServerResponse resp = req.response().putHeader("content-length", String.valueOf(HUGE));
            pump(resp, mib, HUGE / mib.length());
        })).listen(0, "127.0.0.1").await();
    }

    /**
     * Writes the answer a MiB every 5 ms at most (loopback would otherwise fill its buffers faster than a reset's close
     * arrives), and no faster than the gateway reads it.
     */
    private void pump(HttpServerResponse resp, Buffer mib, int left) {
        if (resp.closed()) return;
        if (left == 0) {
            resp.end().onSuccess(v -> answersCompleted.incrementAndGet());
            return;
        }
        resp.write(mib);
        bytesWritten.addAndGet(mib.length());
        Runnable next = () -> receiverVertx.setTimer(5, t -> pump(resp, mib, left - 1));
        if (resp.writeQueueFull()) resp.drainHandler(v -> next.run());
        else next.run();
    }

    @AfterEach
    void stop() {
        if (g != null) g.close();
        receiverVertx.close().await();
    }

    @Test
    void deliveriesAreSignedAndAHugeAnswerIsNotReadWhole() throws Exception {
        g = GatewayHarness.builder().alertsAllowPrivate(true).start();
        AdminApi admin = new AdminApi(g);
        HttpResponse<String> set = admin.call("PATCH", "/api/v1/admin/alerts/settings",
                "{\"webhook_url\":\"http://127.0.0.1:" + receiver.actualPort() + "/hook\"}");
        assertThat(set.statusCode()).as(set.body()).isEqualTo(200);
        String secret = Json.parseOrNull(set.body()).path("signing_secret").asText();

        raiseTwoAlerts();
        JsonNode alerts = Eventually.value("both alerts delivered", Duration.ofSeconds(60), () -> admin.get("/api/v1/admin/alerts"),
                all -> all.path("data").size() == 2
                        && all.path("data").valueStream().allMatch(a -> a.path("state").asText().equals("delivered")));

        assertThat(answersCompleted.get()).as("no 64 MiB answer was read to its end").isZero();
        assertThat(bytesWritten.get()).as("the receiver could write little of its answers").isLessThan(2L * (8 << 20));
        assertThat(secret).as("the generated secret, shown once").startsWith("whsec_").hasSizeGreaterThan(40);
        assertThat(received).hasSize(2).allSatisfy(r -> {
            String[] parts = r[0].split(",");
            assertThat(parts).hasSize(2);
            long t = Long.parseLong(parts[0].substring("t=".length()));
            assertThat(Math.abs(Instant.now().getEpochSecond() - t)).isLessThan(300);
            assertThat(parts[1]).isEqualTo("v1=" + hmac(secret, t + "." + r[1]));
        });
        assertThat(alerts.path("settings").path("signing_secret_set").asBoolean()).isTrue();
        assertThat(alerts.toString()).doesNotContain(secret);
        assertThat(admin.call("GET", "/api/v1/admin/audit", null).body()).as("the audit log").doesNotContain(secret);
        assertThat(admin.call("PATCH", "/api/v1/admin/alerts/settings", "{\"thresholds\":[50,80]}").body())
                .as("shown once").doesNotContain(secret);
    }

    @Test
    void aFailedDeliveryNamesNoAddress() throws Exception {
        g = GatewayHarness.builder().alertsAllowPrivate(true).start();
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        JsonNode alert = failedAlert("http://127.0.0.1:" + closed + "/hook");
        assertThat(alert.path("last_error").asText()).isEqualTo("connection failed")
                .doesNotContain("127.0.0.1").doesNotContain(String.valueOf(closed));
    }

    @Test
    void aLoopbackReceiverIsRefusedWithoutTheOperatorsOptIn() throws Exception {
        g = GatewayHarness.start(); // accounts.alerts_allow_private at its default, off
        JsonNode alert = failedAlert("http://127.0.0.1:" + receiver.actualPort() + "/hook");
        assertThat(alert.path("last_error").asText()).isEqualTo("address not allowed");
        assertThat(received).as("nothing reached the receiver").isEmpty();
    }

    private JsonNode failedAlert(String url) throws Exception {
        AdminApi admin = new AdminApi(g);
        assertThat(admin.call("PATCH", "/api/v1/admin/alerts/settings", "{\"webhook_url\":\"" + url + "\"}").statusCode())
                .isEqualTo(200);
        raiseTwoAlerts();
        JsonNode alerts = Eventually.value("a failed attempt", Duration.ofSeconds(30), () -> admin.get("/api/v1/admin/alerts"),
                all -> all.path("data").size() > 0 && !all.path("data").get(0).path("last_error").isNull());
        return alerts.path("data").get(0);
    }

    /** Two calls on a key whose day budget is two and a half calls: its 50% and 80% alerts. */
    private void raiseTwoAlerts() {
        AdminApi admin = new AdminApi(g);
        AdminApi.CreatedKey probe = admin.create("{\"name\":\"probe\"}");
        HttpResponse<String> first = g.post("/api/v1/messages", BudgetAlertsTest.BODY, "authorization", "Bearer " + probe.secret());
        Usage usage = LedgerThroughGatewayContract.anthropicUsage(Json.parseOrNull(first.body()).path("usage"));
        BigDecimal budget = BigDecimal.valueOf(LedgerThroughGatewayContract.sonnetCostE10(usage) * 5 / 2, 10);
        AdminApi.CreatedKey key = admin.create("{\"name\":\"alerted\",\"budget_usd\":\"" + budget.toPlainString()
                + "\",\"budget_period\":\"day\"}");
        for (int i = 0; i < 2; i++) {
            assertThat(g.post("/api/v1/messages", BudgetAlertsTest.BODY, "authorization", "Bearer " + key.secret()).statusCode())
                    .isEqualTo(200);
            g.awaitLedgerWritten();
        }
    }

    private static String hmac(String secret, String text) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        return HexFormat.of().formatHex(mac.doFinal(text.getBytes(StandardCharsets.UTF_8)));
    }
}
