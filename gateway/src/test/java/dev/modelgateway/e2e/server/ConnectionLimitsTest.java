package dev.modelgateway.e2e.server;

import dev.modelgateway.config.ServerLimits;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.json.Json;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.Eventually;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Slowloris and descriptor exhaustion without a key (hardening item 3), with small limits: 1 s request-head
 * timeout, 1 s idle timeout, 1 s body-read timeout, 4 connections per client address. A long SSE stream
 * still outlives every one of them.
 */
@E2e
class ConnectionLimitsTest {
    static GatewayHarness h;
    static final ServerLimits LIMITS = new ServerLimits(1, 1, 1, 4, 8192, 0);

    @BeforeAll
    static void start() {
        h = GatewayHarness.builder().limits(LIMITS).start();
    }

    @AfterAll
    static void stop() {
        h.close();
    }

    @Test
    void aConnectionThatSendsNothingIsClosedAfterTheHeadTimeout() {
        try (RawHttp c = new RawHttp(h.gateway.port())) {
            assertThat(c.closedWithin(4_000)).isTrue();
        }
    }

    @Test
    void aHeadTrickledSlowlyIsCutOff() throws Exception {
        try (RawHttp c = new RawHttp(h.gateway.port())) {
            c.send("POST /api/v1/chat/completions HTTP/1.1\r\nHost: gw\r\n");
            long start = System.nanoTime();
            boolean closed = false;
            for (int i = 0; i < 20 && !closed; i++) {
                try {
                    c.send("X-Slow-" + i + ": 1\r\n");
                } catch (RuntimeException e) {
                    closed = true;
                }
                if (!closed) closed = c.closedWithin(250);
            }
            assertThat(closed).isTrue();
            assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(4_000);
        }
    }

    @Test
    void anIdleKeepAliveConnectionIsClosed() {
        try (RawHttp c = new RawHttp(h.gateway.port())) {
            c.send("GET /health HTTP/1.1\r\nHost: gw\r\n\r\n");
            assertThat(c.read(3_000).status()).isEqualTo(200);
            assertThat(c.closedWithin(4_000)).isTrue();
        }
    }

    @Test
    void connectionsBeyondThePerClientCapAreClosedAtOnce() throws Exception {
        List<RawHttp> open = new ArrayList<>();
        try {
            for (int i = 0; i < 4; i++) open.add(new RawHttp(h.gateway.port()));
            open.forEach(ConnectionLimitsTest::served); // each one counted by the gateway
            try (RawHttp fifth = new RawHttp(h.gateway.port())) {
                assertThat(fifth.closedWithin(500)).as("the fifth connection from one address").isTrue();
            }
            // the four admitted ones are still served
            open.getFirst().send("GET /health HTTP/1.1\r\nHost: gw\r\n\r\n");
            assertThat(open.getFirst().read(2_000).status()).isEqualTo(200);
        } finally {
            open.forEach(RawHttp::close);
        }
        // closing them gave their places back, once the gateway has seen them closed
        Eventually.until("a connection served again", () -> {
            try {
                return h.get("/health").statusCode() == 200;
            } catch (IllegalStateException closed) {
                return false;
            }
        });
    }

    @Test
    void connectionsBeyondTheOverallCapAreClosedAtOnce() throws Exception {
        try (GatewayHarness small = GatewayHarness.builder().limits(new ServerLimits(60, 30, 60, 0, 2, 0)).start();
             RawHttp a = new RawHttp(small.gateway.port()); RawHttp b = new RawHttp(small.gateway.port())) {
            served(a);
            served(b);
            try (RawHttp third = new RawHttp(small.gateway.port())) {
                assertThat(third.closedWithin(500)).as("the third connection in all").isTrue();
            }
            b.send("GET /health HTTP/1.1\r\nHost: gw\r\n\r\n");
            assertThat(b.read(2_000).status()).isEqualTo(200);
        }
    }

    @Test
    void aBodyThatDoesNotArriveInTimeIs408() {
        // the idle timeout outlasts the body-read one here: with both at 1 s, whichever timer fired first decided
        // between the 408 and a bare close, and the test failed now and then
        try (GatewayHarness slowIdle = GatewayHarness.builder().limits(new ServerLimits(5, 1, 1, 4, 8192, 0)).start();
             RawHttp c = new RawHttp(slowIdle.gateway.port())) {
            c.head("/api/v1/chat/completions", "Bearer " + GatewayHarness.KEY, 200, "application/json").send("{\"model\":");
            RawHttp.Response r = c.read(4_000);
            assertThat(r.status()).isEqualTo(408);
            assertThat(Json.parseOrNull(r.body()).path("error").path("message").asText()).contains("1 seconds");
        }
    }

    @Test
    void aStreamLongerThanEveryTimeoutIsNotCut() {
        String body = "{\"model\":\"platform/vendorB-5.5\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":"
                + "\"[[sim:chunks=8;chunk_delay_ms=400]] Hello\"}]}";
        for (HttpResponse<String> r : List.of(h.postHttp1("/api/v1/chat/completions", body, "authorization", "Bearer " + GatewayHarness.KEY),
                h.postAuthed("/api/v1/chat/completions", body))) {
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            assertThat(r.body()).contains("data: [DONE]");
            assertThat(r.body().split("\"content\":\"").length - 1).isGreaterThanOrEqualTo(8);
        }
    }

    /** A request answered on the connection: the gateway has accepted and counted it. */
    static void served(RawHttp c) {
        c.send("GET /health HTTP/1.1\r\nHost: gw\r\n\r\n");
        assertThat(c.read(2_000).status()).isEqualTo(200);
    }
}
