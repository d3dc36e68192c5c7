package dev.modelgateway.e2e.accounts;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.e2e.AdminApi;
import dev.modelgateway.e2e.LedgerRows;
import dev.modelgateway.http.TraceId;
import dev.modelgateway.json.Json;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.net.http.HttpResponse;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One ledger row per request through the gateway, read back from the database: a success (with prompt
 * cache writes and reads), an upstream failure after a retry, a stream cut off mid-way, time to first
 * token, and the caller's own usage report. Costs are checked against the catalogue prices, in units of
 * 1e-10 USD (price per million tokens × 10^4 per token).
 */
abstract class LedgerThroughGatewayContract extends AccountsContract {
    static final String ANTHROPIC_MODEL = "platform/vendorA-sonnet-4.5";
    static final String OPENAI_MODEL = "platform/vendorB-5.5";

    LedgerThroughGatewayContract(Stores stores) {
        super(stores);
    }

    /** vendorA-sonnet-4.5: $3 in, $15 out, $0.30 cache read, $3.75 / $6 cache write 5m / 1h per million. */
    static long sonnetCostE10(Usage u) {
        return u.inputTokens() * 30_000 + u.cacheReadTokens() * 3_000 + u.cacheWrite5mTokens() * 37_500
                + u.cacheWrite1hTokens() * 60_000 + u.outputTokens() * 150_000;
    }

    /** vendorB-5.5: $1.50 in, $12 out (reasoning included), $0.15 cache read per million. */
    static long vendorBCostE10(Usage u) {
        return u.inputTokens() * 15_000 + u.cacheReadTokens() * 1_500 + u.outputTokens() * 120_000;
    }

    static Usage anthropicUsage(JsonNode u) {
        return new Usage(u.path("input_tokens").asLong(), u.path("cache_read_input_tokens").asLong(),
                u.at("/cache_creation/ephemeral_5m_input_tokens").asLong(),
                u.at("/cache_creation/ephemeral_1h_input_tokens").asLong(), u.path("output_tokens").asLong(), 0);
    }

    static Usage openAiUsage(JsonNode u) {
        long cached = u.at("/prompt_tokens_details/cached_tokens").asLong();
        return new Usage(u.path("prompt_tokens").asLong() - cached, cached, 0, 0, u.path("completion_tokens").asLong(),
                u.at("/completion_tokens_details/reasoning_tokens").asLong());
    }

    /** A messages body whose system prompt (1h) and first user block (5m) end cacheable prefixes. */
    static String cachedMessages(String unique, boolean stream, String directive) {
        String system = unique + " You are a careful assistant. ".repeat(80);
        String context = unique + " Context paragraph. ".repeat(60);
        return "{\"model\":\"" + ANTHROPIC_MODEL + "\",\"max_tokens\":64,\"stream\":" + stream
                + ",\"system\":[{\"type\":\"text\",\"text\":\"" + system + "\",\"cache_control\":{\"type\":\"ephemeral\",\"ttl\":\"1h\"}}],"
                + "\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"" + context
                + "\",\"cache_control\":{\"type\":\"ephemeral\"}},{\"type\":\"text\",\"text\":\"" + directive + " question\"}]}]}";
    }

    HttpResponse<String> post(AdminApi.CreatedKey key, String path, String body) {
        return h.post(path, body, "authorization", "Bearer " + key.secret());
    }

    HttpResponse<String> postHttp1(AdminApi.CreatedKey key, String path, String body) {
        return h.postHttp1(path, body, "authorization", "Bearer " + key.secret());
    }

    @Test
    void successRecordsCacheWritesThenReadsWithTheirPrices() {
        AdminApi.CreatedKey key = admin.create("{\"name\":\"ledger-cache\"}");
        String body = cachedMessages(key.id(), false, "");
        HttpResponse<String> first = post(key, "/api/v1/messages", body);
        HttpResponse<String> second = post(key, "/api/v1/messages", body);
        assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
        Usage wrote = anthropicUsage(Json.parseOrNull(first.body()).path("usage"));
        Usage read = anthropicUsage(Json.parseOrNull(second.body()).path("usage"));
        assertThat(wrote.cacheWrite1hTokens()).isPositive();
        assertThat(wrote.cacheWrite5mTokens()).isPositive();
        assertThat(read.cacheReadTokens()).isEqualTo(wrote.cacheWriteTokens());

        List<LedgerRows.Row> rows = LedgerRows.await(h.databaseUrl, key.id(), 2);
        assertThat(rows).hasSize(2);
        for (int i = 0; i < 2; i++) {
            LedgerRows.Row row = rows.get(i);
            HttpResponse<String> response = i == 0 ? first : second;
            Usage usage = i == 0 ? wrote : read;
            assertThat(row.traceId()).isEqualTo(response.headers().firstValue(TraceId.HEADER).orElseThrow());
            assertThat(row.publicModel()).isEqualTo(ANTHROPIC_MODEL);
            assertThat(row.answeredModel()).isEqualTo(ANTHROPIC_MODEL);
            assertThat(row.vendor()).isEqualTo("anthropic");
            assertThat(row.usage()).isEqualTo(usage);
            assertThat(row.attempts()).isEqualTo(1);
            assertThat(row.status()).isEqualTo(200);
            assertThat(row.costE10()).isEqualTo(sonnetCostE10(usage)).isPositive();
            assertThat(row.latencyMs()).isGreaterThanOrEqualTo(row.ttftMs());
        }
        assertThat(rows.get(1).costE10()).as("reads cost a tenth of input").isLessThan(rows.get(0).costE10());
    }

    @Test
    void implicitCacheReadsAndReasoningOnTheChatProtocol() {
        AdminApi.CreatedKey key = admin.create("{\"name\":\"ledger-chat-cache\"}");
        String system = key.id() + " Follow the house style. ".repeat(200);
        String first = "{\"model\":\"" + OPENAI_MODEL + "\",\"messages\":[{\"role\":\"system\",\"content\":\"" + system
                + "\"},{\"role\":\"user\",\"content\":\"one\"}]}";
        HttpResponse<String> a = post(key, "/api/v1/chat/completions", first);
        HttpResponse<String> b = post(key, "/api/v1/chat/completions", first.replace("\"one\"", "\"two\""));
        Usage ua = openAiUsage(Json.parseOrNull(a.body()).path("usage"));
        Usage ub = openAiUsage(Json.parseOrNull(b.body()).path("usage"));
        assertThat(ub.cacheReadTokens()).isPositive();
        assertThat(ub.reasoningTokens()).isPositive();

        List<LedgerRows.Row> rows = LedgerRows.await(h.databaseUrl, key.id(), 2);
        assertThat(rows).extracting(LedgerRows.Row::usage).containsExactly(ua, ub);
        assertThat(rows).extracting(LedgerRows.Row::costE10).containsExactly(vendorBCostE10(ua), vendorBCostE10(ub));
        assertThat(rows).extracting(LedgerRows.Row::vendor).containsOnly("openai");
    }

    @Test
    void upstreamFailureAfterItsRetryIsOneRowWithTwoAttempts() {
        AdminApi.CreatedKey key = admin.create("{\"name\":\"ledger-failure\"}");
        HttpResponse<String> r = post(key, "/api/v1/messages", "{\"model\":\"" + ANTHROPIC_MODEL + "\",\"max_tokens\":64,"
                + "\"platform_options\":{\"max_retries\":1},"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"[[sim:status=500]] fail\"}]}");
        assertThat(r.statusCode()).isIn(500, 502);

        LedgerRows.Row row = LedgerRows.await(h.databaseUrl, key.id(), 1).getFirst();
        assertThat(row.traceId()).isEqualTo(r.headers().firstValue(TraceId.HEADER).orElseThrow());
        assertThat(row.attempts()).isEqualTo(2);
        assertThat(row.status()).isIn(500, 502);
        assertThat(row.usage()).isEqualTo(Usage.ZERO);
        assertThat(row.costE10()).isZero();
        assertThat(row.ttftMs()).isNull();
        h.awaitLedgerWritten();
        assertThat(LedgerRows.read(h.databaseUrl, key.id())).as("one row, not one per attempt").hasSize(1);
    }

    @Test
    void streamCutOffMidWayIsBilledForWhatTheVendorReported() {
        AdminApi.CreatedKey key = admin.create("{\"name\":\"ledger-cut\"}");
        HttpResponse<String> r = postHttp1(key, "/api/v1/messages", cachedMessages(key.id(), true, "[[sim:disconnect_after=3]]"));
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).contains("event: error").doesNotContain("message_stop");
        String start = r.body().lines().filter(l -> l.startsWith("data: ") && l.contains("\"message_start\""))
                .findFirst().orElseThrow().substring(6);
        Usage reported = anthropicUsage(Json.parseOrNull(start).at("/message/usage"));
        assertThat(reported.cacheWriteTokens()).isPositive();

        LedgerRows.Row row = LedgerRows.await(h.databaseUrl, key.id(), 1).getFirst();
        assertThat(row.status()).isEqualTo(502);
        assertThat(row.attempts()).isEqualTo(1);
        assertThat(row.usage()).isEqualTo(reported);
        assertThat(row.costE10()).isEqualTo(sonnetCostE10(reported)).isPositive();
        assertThat(row.ttftMs()).isNotNull();
    }

    @Test
    void streamRecordsTimeToFirstToken() {
        AdminApi.CreatedKey key = admin.create("{\"name\":\"ledger-ttft\"}");
        HttpResponse<String> r = postHttp1(key, "/api/v1/chat/completions", "{\"model\":\"" + OPENAI_MODEL + "\",\"stream\":true,"
                + "\"stream_options\":{\"include_usage\":true},"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"[[sim:chunk_delay_ms=20]] stream please\"}]}");
        String usageChunk = r.body().lines().filter(l -> l.startsWith("data: {") && l.contains("\"prompt_tokens\""))
                .findFirst().orElseThrow().substring(6);
        Usage reported = openAiUsage(Json.parseOrNull(usageChunk).path("usage"));

        LedgerRows.Row row = LedgerRows.await(h.databaseUrl, key.id(), 1).getFirst();
        assertThat(row.status()).isEqualTo(200);
        assertThat(row.usage()).isEqualTo(reported);
        // The first chunk leaves before the remaining ones, each 20 ms apart, have arrived.
        assertThat(row.ttftMs()).isNotNull().isLessThan(row.latencyMs() - 100);
    }

    @Test
    void callerSeesItsOwnUsageOnly() {
        AdminApi.CreatedKey mine = admin.create("{\"name\":\"ledger-own\",\"models\":[\"platform/vendorA-*\"]}");
        AdminApi.CreatedKey other = admin.create("{\"name\":\"ledger-other\"}");
        String hello = "{\"model\":\"" + ANTHROPIC_MODEL + "\",\"max_tokens\":64,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
        assertThat(post(mine, "/api/v1/messages", hello).statusCode()).isEqualTo(200);
        assertThat(post(mine, "/api/v1/messages", hello.replace(ANTHROPIC_MODEL, OPENAI_MODEL)).statusCode()).isEqualTo(403);
        assertThat(post(other, "/api/v1/messages", hello).statusCode()).isEqualTo(200);

        List<LedgerRows.Row> rows = LedgerRows.await(h.databaseUrl, mine.id(), 2);
        // the answered call's row is written once its answer is read, the refusal's at once: either may be first
        assertThat(rows).extracting(LedgerRows.Row::status).containsExactlyInAnyOrder(200, 403);
        LedgerRows.Row answered = rows.stream().filter(row -> row.status() == 200).findFirst().orElseThrow();
        LedgerRows.await(h.databaseUrl, other.id(), 1);

        HttpResponse<String> r = h.get("/api/v1/usage?group_by=model", "authorization", "Bearer " + mine.secret());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode report = Json.parseOrNull(r.body());
        JsonNode total = report.path("total");
        assertThat(total.path("requests").asLong()).isEqualTo(2);
        assertThat(total.path("failed_requests").asLong()).isEqualTo(1);
        assertThat(total.path("output_tokens").asLong()).isEqualTo(answered.usage().outputTokens());
        assertThat(new BigDecimal(total.path("cost_usd").asText()))
                .isEqualByComparingTo(BigDecimal.valueOf(rows.stream().mapToLong(LedgerRows.Row::costE10).sum(), 10));
        assertThat(report.path("data")).extracting(g -> g.path("model").asText()).containsExactlyInAnyOrder(ANTHROPIC_MODEL, OPENAI_MODEL);

        HttpResponse<String> adminOnly = h.get("/api/v1/admin/usage", "authorization", "Bearer " + mine.secret());
        assertThat(adminOnly.statusCode()).isEqualTo(403);
        assertThat(Json.parseOrNull(adminOnly.body()).at("/error/code").asText()).isEqualTo("permission_denied");
        JsonNode byKey = admin.get("/api/v1/admin/usage?group_by=key");
        assertThat(byKey.path("data")).filteredOn(g -> g.path("key_id").asText().equals(mine.id()))
                .singleElement().satisfies(g -> assertThat(g.path("requests").asLong()).isEqualTo(2));
    }
}
