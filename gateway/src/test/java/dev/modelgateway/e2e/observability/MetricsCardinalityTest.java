package dev.modelgateway.e2e.observability;

import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.Eventually;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No value a caller chooses makes a series on {@code /metrics} (docs/observability.md, "Metrics"): every series is kept
 * for the life of the process, so a label taken from a request would let anyone, without a key, grow the gateway's
 * memory and its scrape without bound. Requests with random methods, paths, models and header values, with and
 * without a key, must leave the set of series as it was.
 */
@E2e
class MetricsCardinalityTest {
    static final String HTTP_COUNT = "http_server_request_duration_seconds_count";
    static GatewayHarness h;

    @BeforeAll
    static void start() {
        h = GatewayHarness.start();
    }

    @AfterAll
    static void stop() {
        if (h != null) h.close();
    }

    @Test
    void requestsOfRandomShapesAddNoSeries() {
        // a first round of each shape makes the series its bounded labels have (_OTHER, unmatched, 4xx, the refusals)
        int sent = randomRequests();
        long counted = awaitRequestsCounted(0, sent);
        Set<String> before = series(h.get("/metrics").body());

        sent = randomRequests();
        awaitRequestsCounted(counted, sent);
        Set<String> after = series(h.get("/metrics").body());

        Set<String> added = new TreeSet<>(after);
        added.removeAll(before);
        assertThat(added).as("series made by callers' values").isEmpty();
        assertThat(before).anyMatch(s -> s.startsWith(HTTP_COUNT) && s.contains("http_request_method=\"_OTHER\""));
    }

    /** One request of each shape, every caller-chosen part of it new; returns how many were sent. */
    private static int randomRequests() {
        int n = 0;
        for (boolean keyed : new boolean[] {false, true}) {
            String[] auth = keyed ? new String[] {"authorization", "Bearer " + GatewayHarness.KEY} : new String[] {"x-none", "-"};
            String r = UUID.randomUUID().toString().replace("-", "").substring(0, 12);
            String[] headers = {auth[0], auth[1], "user-agent", "agent-" + r, "x-trace-attr-" + r, r, "x-" + r, r,
                    "traceparent", "00-" + r + r + r.substring(0, 8) + "-" + r.substring(0, 8) + r.substring(4, 12) + "-01"};
            h.send("M" + r.toUpperCase(), "/api/v1/chat/completions", "{}", headers);
            h.send("GET", "/api/v1/" + r + "?q=" + r, null, headers);
            h.send("GET", "/" + r, null, headers);
            h.send("GET", "/api/v1/models/" + r, null, headers);
            h.send("POST", "/api/v1/chat/completions", "{\"model\":\"" + r + "\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}",
                    headers);
            h.send("POST", "/api/v1/messages", "{\"model\":\"platform/" + r + "\",\"max_tokens\":5,"
                    + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}", headers);
            h.send("POST", "/api/v1/embeddings", "{\"model\":\"vendorD-" + r + "\",\"input\":\"hi\"}", headers);
            n += 7;
        }
        return n;
    }

    /**
     * Waits until the requests' durations are counted (a request is counted once its response has ended, after the
     * caller has it): the scrapes themselves left out. Returns the count.
     */
    private static long awaitRequestsCounted(long before, int sent) {
        return Eventually.value((before + sent) + " requests counted", Duration.ofSeconds(20),
                () -> h.get("/metrics").body().lines()
                        .filter(l -> l.startsWith(HTTP_COUNT + "{") && !l.contains("http_route=\"/metrics\""))
                        .mapToLong(l -> (long) Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum(),
                counted -> counted >= before + sent);
    }

    /**
     * The series of a scrape (name and labels), leaving out the JVM's and the process's own, which change by
     * themselves (a new kind of GC pause, an event loop's first lag sample) and carry no request's value.
     */
    static Set<String> series(String scrape) {
        Set<String> out = new TreeSet<>();
        scrape.lines().filter(l -> !l.startsWith("#") && !l.isBlank())
                .map(l -> l.substring(0, l.lastIndexOf(' ')))
                .filter(s -> !s.startsWith("jvm_") && !s.startsWith("process_") && !s.startsWith("system_")
                        && !s.startsWith("gateway_event_loop_lag"))
                .forEach(out::add);
        return out;
    }
}
