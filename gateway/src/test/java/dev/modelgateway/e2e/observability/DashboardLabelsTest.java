package dev.modelgateway.e2e.observability;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.e2e.AdminApi;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.json.Json;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.Eventually;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every panel of docs/grafana/model-gateway.json queries metrics and labels the gateway exposes: after calls that
 * make every series exist (answers, a retry, a fallback, an admission refusal), each metric an expression names is
 * in a live {@code /metrics} scrape, and each label it groups by ({@code by (...)}), selects on ({@code {...}}) or
 * names in its legend ({@code {{label}}}) is on that metric's series. A panel grouping by a label that does not exist draws one nameless line.
 */
@E2e
class DashboardLabelsTest {
    private static final Pattern BY = Pattern.compile("\\b(?:by|without)\\s*\\(([^)]*)\\)");
    private static final Pattern SELECTOR = Pattern.compile("\\{([^}]*)}");
    private static final Pattern SELECTOR_LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)\\s*(?:=~|!~|!=|=)");
    private static final Pattern LEGEND = Pattern.compile("\\{\\{\\s*([a-zA-Z_][a-zA-Z0-9_]*)\\s*}}");
    private static final Pattern IDENTIFIER = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Set<String> KEYWORDS = Set.of("by", "without", "on", "ignoring", "group_left", "group_right",
            "and", "or", "unless", "offset", "bool");
    private static final String MODEL = "platform/vendorB-5.4";

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
    void everyPanelsMetricsAndLabelsExist() throws Exception {
        makeEverySeries();
        JsonNode dashboard = Json.parseOrNull(Files.readString(Path.of(System.getProperty("fixtures.dir"), "..", "docs",
                "grafana", "model-gateway.json")));
        List<String[]> exprs = new ArrayList<>();
        collect(dashboard.path("panels"), exprs);
        assertThat(exprs).hasSizeGreaterThan(10);

        // a GC pause is recorded when one happens: make sure one did; the event-loop lag at the loops' first tick,
        // a second after the start, which a fast run can precede
        System.gc();
        String scrape = Eventually.value("a scrape with a GC pause and an event-loop lag", () -> h.get("/metrics").body(),
                s -> s.contains("jvm_gc_pause_seconds_sum") && s.contains("gateway_event_loop_lag_seconds_bucket"));
        List<String> problems = new ArrayList<>();
        for (String[] panel : exprs) {
            String expr = panel[1];
            Set<String> metrics = metrics(expr);
            if (metrics.isEmpty()) problems.add(panel[0] + ": no metric in " + expr);
            Set<String> labels = new LinkedHashSet<>();
            Matcher by = BY.matcher(expr);
            while (by.find()) for (String l : by.group(1).split(",")) if (!l.isBlank()) labels.add(l.strip());
            Matcher legend = LEGEND.matcher(panel[2]);
            while (legend.find()) labels.add(legend.group(1));
            Matcher selector = SELECTOR.matcher(expr);
            while (selector.find()) {
                Matcher l = SELECTOR_LABEL.matcher(selector.group(1));
                while (l.find()) labels.add(l.group(1));
            }
            for (String metric : metrics) {
                List<String> series = scrape.lines().filter(line -> line.startsWith(metric + "{") || line.startsWith(metric + " ")).toList();
                if (series.isEmpty()) {
                    problems.add(panel[0] + ": metric " + metric + " is not in the scrape");
                    continue;
                }
                for (String label : labels) {
                    if (series.stream().noneMatch(line -> line.contains("{" + label + "=\"") || line.contains("," + label + "=\""))) {
                        problems.add(panel[0] + ": " + metric + " has no label " + label);
                    }
                }
            }
        }
        assertThat(problems).isEmpty();
    }

    /** Answers, a retry, a fallback and an admission refusal: the series the panels read. */
    private static void makeEverySeries() {
        assertThat(h.postAuthed("/api/v1/chat/completions", "{\"model\":\"" + MODEL + "\",\"platform_options\":{\"max_retries\":1},"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"[[sim:status=503;times=1;id=dashboard-retry]] hi\"}]}").statusCode())
                .isEqualTo(200);
        assertThat(h.postAuthed("/api/v1/chat/completions", "{\"model\":\"" + MODEL + "\",\"platform_options\":{\"max_retries\":1,"
                + "\"fallbacks\":[\"platform/vendorB-5.5\"]},"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"[[sim:status=503;times=2;id=dashboard-fallback]] hi\"}]}").statusCode())
                .isEqualTo(200);
        assertThat(h.postAuthed("/api/v1/messages", "{\"model\":\"platform/vendorA-sonnet-4.5\",\"max_tokens\":32,"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}").statusCode()).isEqualTo(200);
        AdminApi.CreatedKey limited = new AdminApi(h).create("{\"name\":\"one a minute\",\"rpm\":1}");
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            HttpResponse<String> r = h.post("/api/v1/chat/completions", "{\"model\":\"" + MODEL + "\","
                    + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}", "authorization", "Bearer " + limited.secret());
            statuses.add(r.statusCode());
        }
        assertThat(statuses).containsExactly(200, 429);
        h.awaitLedgerWritten();
    }

    private static void collect(JsonNode panels, List<String[]> exprs) {
        panels.forEach(p -> {
            collect(p.path("panels"), exprs);
            p.path("targets").forEach(t -> exprs.add(new String[]{p.path("title").asText(), t.path("expr").asText(),
                    t.path("legendFormat").asText()}));
        });
    }

    /** The metric names of an expression: its identifiers but for functions, keywords, labels and Grafana's variables. */
    static Set<String> metrics(String expr) {
        String bare = BY.matcher(expr).replaceAll(" ");
        bare = SELECTOR.matcher(bare).replaceAll(" ");
        bare = bare.replaceAll("\\[[^]]*]", " ").replaceAll("\\$\\w+", " ");
        Set<String> metrics = new LinkedHashSet<>();
        Matcher m = IDENTIFIER.matcher(bare);
        while (m.find()) {
            String id = m.group();
            boolean function = bare.substring(m.end()).stripLeading().startsWith("(");
            if (!function && !KEYWORDS.contains(id)) metrics.add(id);
        }
        return metrics;
    }
}
