package dev.modelgateway.e2e.accounts;

import dev.modelgateway.e2e.AdminApi;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.LedgerRows;
import dev.modelgateway.e2e.PerClassGateway;
import dev.modelgateway.json.Json;
import dev.modelgateway.testing.E2e;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A native stream that ends before the vendor's usage event is billed at least what it relayed: a caller who reads
 * every content delta and leaves before the usage event (the vendor bills the operator for the whole generation),
 * and a stream the vendor breaks mid-way. The spend counts toward the key's budget.
 */
@E2e
@ExtendWith(PerClassGateway.class)
class CutStreamBillingTest {
    /** Content deltas per answer: each a word of one token or more. */
    private static final int WORDS = 20;
    /** Between two vendor events: the caller is gone before the usage event comes. */
    private static final String PACED = "[[sim:chunks=" + WORDS + ";chunk_delay_ms=150]] ";

    static GatewayHarness h;
    static AdminApi admin;

    private static String chat(String model, String prompt) {
        return "{\"model\":\"" + model + "\",\"stream\":true,\"max_tokens\":64,"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"" + prompt + "\"}]}";
    }

    @Test
    void chatToVendorBLeftBeforeTheUsageChunkIsBilledTheRelayedOutput() throws IOException {
        assertBilledAfterLeaving("/api/v1/chat/completions", chat("platform/vendorB-5.5", PACED + "hi"),
                "\"finish_reason\":\"stop\"", "\"usage\":{");
    }

    @Test
    void chatToVendorDLeftBeforeTheUsageChunkIsBilledTheRelayedOutput() throws IOException {
        assertBilledAfterLeaving("/api/v1/chat/completions", chat("vendorD-plus-latest", PACED + "hi"),
                "\"finish_reason\":\"stop\"", "\"usage\":{");
    }

    @Test
    void responsesToVendorBLeftBeforeCompletedIsBilledTheRelayedOutput() throws IOException {
        assertBilledAfterLeaving("/api/v1/responses", "{\"model\":\"platform/vendorB-5.5\",\"stream\":true,"
                + "\"max_output_tokens\":64,\"input\":\"" + PACED + "hi\"}", "response.output_text.done", "response.completed");
    }

    @Test
    void messagesToVendorALeftBeforeMessageDeltaIsBilledTheRelayedOutput() throws IOException {
        assertBilledAfterLeaving("/api/v1/messages", "{\"model\":\"platform/vendorA-sonnet-4.5\",\"stream\":true,"
                + "\"max_tokens\":64,\"messages\":[{\"role\":\"user\",\"content\":\"" + PACED + "hi\"}]}",
                "content_block_stop", "message_delta");
    }

    @Test
    void aStreamTheVendorBreaksIsBilledTheRelayedOutput() {
        AdminApi.CreatedKey key = admin.create("{\"name\":\"vendor-breaks\"}");
        HttpResponse<String> r = h.postHttp1("/api/v1/chat/completions",
                chat("platform/vendorB-5.5", "[[sim:chunks=" + WORDS + ";disconnect_after=12]] hi"),
                "authorization", "Bearer " + key.secret());
        assertThat(r.body()).contains("lorem").contains("\"error\"").doesNotContain("\"usage\":{");

        LedgerRows.Row row = LedgerRows.await(h.databaseUrl, key.id(), 1).getFirst();
        assertThat(row.status()).isEqualTo(502);
        assertThat(row.usage().outputTokens()).as("the deltas relayed before the break").isGreaterThanOrEqualTo(10);
        assertThat(row.usage().inputTokens()).isPositive();
        assertThat(row.costE10()).isPositive();
    }

    @Test
    void aKeyLeavingEveryStreamBeforeItsUsageRunsOutOfBudget() throws IOException {
        // each stream's input is about 2,000 tokens ($0.003 at $1.50 per million) plus what it relayed
        AdminApi.CreatedKey key = admin.create("{\"name\":\"leaves-early\",\"budget_usd\":\"0.008\"}");
        String prompt = "[[sim:chunks=5;chunk_delay_ms=150]] " + "hello ".repeat(2_000);
        int served = 0;
        while (served < 10 && leaveBeforeUsage(key.secret(), "/api/v1/chat/completions",
                chat("platform/vendorB-5.5", prompt), "\"finish_reason\":\"stop\"", "\"usage\":{") == 200) {
            served++;
            // its row written, its spend is settled before the next call is admitted
            assertThat(LedgerRows.await(h.databaseUrl, key.id(), served).getLast().status()).isEqualTo(499);
        }
        assertThat(served).as("streams served before the budget refused one").isBetween(2, 4);
        HttpResponse<String> refused = h.postHttp1("/api/v1/chat/completions", chat("platform/vendorB-5.5", "hi"),
                "authorization", "Bearer " + key.secret());
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(Json.parseOrNull(refused.body()).at("/error/code").asText()).isEqualTo("insufficient_quota");
    }

    /** One stream read up to {@code leaveAt} and left; its ledger row bills input and the relayed output. */
    private static void assertBilledAfterLeaving(String path, String body, String leaveAt, String usageEvent)
            throws IOException {
        AdminApi.CreatedKey key = admin.create("{\"name\":\"leaves-before-usage\"}");
        assertThat(leaveBeforeUsage(key.secret(), path, body, leaveAt, usageEvent)).isEqualTo(200);

        LedgerRows.Row row = LedgerRows.await(h.databaseUrl, key.id(), 1).getFirst();
        assertThat(row.status()).isEqualTo(499);
        assertThat(row.usage().outputTokens()).as("the " + WORDS + " deltas relayed").isGreaterThanOrEqualTo(WORDS);
        assertThat(row.usage().totalInputTokens()).isPositive();
        assertThat(row.costE10()).isPositive();
    }

    /**
     * Posts a stream over HTTP/1.1, reads it line by line up to the one containing {@code leaveAt} (none containing
     * {@code usageEvent} before it), and closes the connection; returns the response's status.
     */
    private static int leaveBeforeUsage(String secret, String path, String body, String leaveAt, String usageEvent)
            throws IOException {
        try (Socket socket = new Socket("127.0.0.1", h.gateway.port())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            out.write(("POST " + path + " HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + secret
                    + "\r\nContent-Type: application/json\r\nContent-Length: " + bytes.length + "\r\n\r\n")
                    .getBytes(StandardCharsets.UTF_8));
            out.write(bytes);
            out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            int status = Integer.parseInt(in.readLine().split(" ")[1]);
            if (status != 200) return status;
            for (String line; (line = in.readLine()) != null; ) {
                assertThat(line).doesNotContain(usageEvent);
                if (line.contains(leaveAt)) return status;
            }
            throw new AssertionError("the stream ended before '" + leaveAt + "'");
        }
    }
}
