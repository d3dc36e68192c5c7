package dev.modelgateway.e2e.observability;

import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.Model;
import com.openai.core.http.StreamResponse;
import com.openai.helpers.ChatCompletionAccumulator;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionStreamOptions;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.observability.ObservabilityConfig;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.Eventually;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.json.Json;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real Prometheus server scrapes the gateway's {@code /metrics} (on its own port) while the official SDKs call
 * it; its query API must return the request, token and time-to-first-token series with the values the SDKs saw
 * (docs/observability.md, "Metrics").
 */
@E2e
class PrometheusMetricsTest {
    static final String CHAT_MODEL = "platform/vendorB-5.5";
    static final String MESSAGES_MODEL = "platform/vendorA-sonnet-4.5";
    /** The retry test's own model, so that the other test's counts are its alone, in whichever order they run. */
    static final String RETRY_MODEL = "platform/vendorB-5.4";

    static GatewayHarness h;
    static PrometheusServer prometheus;
    static int metricsPort;

    @BeforeAll
    static void start() throws Exception {
        Assumptions.assumeTrue(PrometheusServer.installed(), "Prometheus is not installed (" + PrometheusServer.BINARY
                + "): scripts/services.sh installs Debian's prometheus package; `./gw test` runs it");
        metricsPort = PrometheusServer.freePort();
        h = GatewayHarness.builder().observability(ObservabilityConfig.DEFAULT.withMetricsPort(metricsPort)).start();
        prometheus = PrometheusServer.start("127.0.0.1:" + metricsPort);
    }

    @AfterAll
    static void stop() {
        if (prometheus != null) prometheus.close();
        if (h != null) h.close();
    }

    @Test
    void prometheusSeesTheCallsTheirTokensAndTimeToFirstToken() {
        // two JSON answers and one stream on the chat protocol, one JSON answer on the messages protocol
        long chatOutput = 0, chatInput = 0;
        for (int i = 0; i < 2; i++) {
            ChatCompletion c = h.openai().chat().completions().create(chat().build());
            chatOutput += c.usage().orElseThrow().completionTokens();
            chatInput += c.usage().orElseThrow().promptTokens();
        }
        ChatCompletionAccumulator acc = ChatCompletionAccumulator.create();
        try (StreamResponse<ChatCompletionChunk> s = h.openai().chat().completions().createStreaming(chat()
                .streamOptions(ChatCompletionStreamOptions.builder().includeUsage(true).build()).build())) {
            s.stream().forEach(acc::accumulate);
        }
        chatOutput += acc.chatCompletion().usage().orElseThrow().completionTokens();
        chatInput += acc.chatCompletion().usage().orElseThrow().promptTokens();
        Message m = h.anthropic().messages().create(MessageCreateParams.builder().model(Model.of(MESSAGES_MODEL))
                .maxTokens(100).addUserMessage("Hello gateway").build());

        String chat = "gen_ai_request_model=\"" + CHAT_MODEL + "\"";
        String messages = "gen_ai_request_model=\"" + MESSAGES_MODEL + "\"";
        awaitValue("up{job=\"gateway\"}", 1);
        awaitValue("sum(gen_ai_server_request_duration_seconds_count{" + chat + ",status_class=\"2xx\",http_route=\"/api/v1/chat/completions\",protocol=\"openai\",gen_ai_provider_name=\"openai\"})", 3);
        awaitValue("sum(gen_ai_server_request_duration_seconds_count{" + messages + ",status_class=\"2xx\",protocol=\"anthropic\",gen_ai_response_model=\"" + MESSAGES_MODEL + "\"})", 1);
        // the HTTP-level series has no model label: the messages route is this test's alone
        awaitValue("sum(http_server_request_duration_seconds_count{http_route=\"/api/v1/messages\",status_class=\"2xx\",http_request_method=\"POST\"})", 1);
        awaitValue("sum(gateway_tokens_total{" + chat + ",token_class=\"output\"})", chatOutput);
        awaitValue("sum(gen_ai_client_token_usage_sum{" + chat + ",gen_ai_token_type=\"input\"})", chatInput);
        awaitValue("sum(gateway_tokens_total{" + messages + ",token_class=\"output\"})", m.usage().outputTokens());
        awaitValue("sum(gen_ai_client_token_usage_sum{" + messages + ",gen_ai_token_type=\"input\"})", m.usage().inputTokens()
                + m.usage().cacheReadInputTokens().orElse(0L) + m.usage().cacheCreationInputTokens().orElse(0L));
        awaitValue("sum(gen_ai_server_time_to_first_token_seconds_count{" + chat + "})", 3);
        awaitValue("sum(gen_ai_server_time_to_first_token_seconds_count{" + messages + "})", 1);
        // every call's first byte came before its end
        assertThat(prometheus.query("sum(gen_ai_server_time_to_first_token_seconds_sum{" + chat + "})"))
                .isLessThanOrEqualTo(prometheus.query("sum(gen_ai_server_request_duration_seconds_sum{" + chat + "})"));
    }

    @Test
    void retriesRefusalsAndHealthAreExposed() {
        HttpResponse<String> r = h.postAuthed("/api/v1/chat/completions", "{\"model\":\"" + RETRY_MODEL + "\","
                + "\"platform_options\":{\"max_retries\":1},"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"[[sim:status=503;times=1;id=metrics-retry]] hi\"}]}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        awaitValue("sum(gateway_retries_total{" + "gen_ai_request_model=\"" + RETRY_MODEL + "\",reason=\"5xx\"})", 1);
        String text = metricsText();
        assertThat(text).contains("gateway_circuit_breaker_state{deployment=", "gateway_upstream_pool_calls{",
                "gateway_ledger_queue_depth", "gateway_ledger_lag_seconds", "gateway_event_loop_lag_seconds_count{",
                "jvm_memory_used_bytes", "jvm_gc_memory_allocated_bytes_total", "jvm_threads_live_threads", "process_cpu_usage");
        // no key id or trace id among the labels
        assertThat(text).doesNotContain("key_id", "trace_id");
        HttpResponse<String> ready = h.get("/ready");
        // /ready and /metrics are on the metrics port here, not on the main one
        assertThat(ready.statusCode()).isEqualTo(404);
        assertThat(h.get("/health").statusCode()).isEqualTo(200);
    }

    @Test
    void theGrafanaDashboardsQueriesAreValidPromql() throws Exception {
        JsonNode dashboard = Json.parseOrNull(Files.readString(Path.of(System.getProperty("fixtures.dir"), "..", "docs", "grafana",
                "model-gateway.json")));
        List<String> exprs = new ArrayList<>();
        dashboard.path("panels").forEach(p -> p.path("targets").forEach(t -> exprs.add(t.path("expr").asText())));
        assertThat(exprs).hasSizeGreaterThan(10);
        for (String expr : exprs) {
            // Grafana's variables, as Grafana would fill them in
            String promql = expr.replace("$__rate_interval", "1m").replace("$model", ".*");
            assertThat(prometheus.check(promql)).as(promql).isEqualTo("success");
        }
    }

    static ChatCompletionCreateParams.Builder chat() {
        return ChatCompletionCreateParams.builder().model(CHAT_MODEL).addUserMessage("Hello gateway");
    }

    static String metricsText() {
        try {
            var http = java.net.http.HttpClient.newHttpClient();
            return http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + metricsPort + "/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** Polls the query API until the expression has the value (Prometheus scrapes every second). */
    static void awaitValue(String promql, double expected) {
        Eventually.value(promql + " = " + expected, Duration.ofSeconds(60), () -> prometheus.query(promql), got -> got == expected);
    }
}
