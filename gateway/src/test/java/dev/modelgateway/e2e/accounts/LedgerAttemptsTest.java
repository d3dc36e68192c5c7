package dev.modelgateway.e2e.accounts;

import dev.modelgateway.e2e.AdminApi;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.LedgerRows;
import dev.modelgateway.e2e.PerClassGateway;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.Eventually;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** The ledger's {@code attempts} counts the requests really sent to a vendor, not those only planned. */
@ExtendWith(PerClassGateway.class)
@E2e
class LedgerAttemptsTest {
    static GatewayHarness h;
    static AdminApi admin;

    @Test
    void aCallerWhoLeavesDuringTheRetryBackoffIsBilledForTheOneAttemptSent() throws Exception {
        AdminApi.CreatedKey key = admin.create("{\"name\":\"leaves-during-backoff\"}");
        String mark = "id=" + UUID.randomUUID().toString().substring(0, 8);
        // the vendor asks for a 3 s wait before the retry; the caller is gone once the gateway has read that answer
        String body = "{\"model\":\"platform/vendorB-5.5\",\"platform_options\":{\"max_retries\":1},"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"[[sim:status=503;times=1;retry_after=3;" + mark + "]] hi\"}]}";
        try (Socket socket = new Socket("127.0.0.1", h.gateway.port())) {
            OutputStream out = socket.getOutputStream();
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            out.write(("POST /api/v1/chat/completions HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + key.secret()
                    + "\r\nContent-Type: application/json\r\nContent-Length: " + bytes.length + "\r\n\r\n")
                    .getBytes(StandardCharsets.UTF_8));
            out.write(bytes);
            out.flush();
            h.sim.awaitReceived(list -> list.stream().anyMatch(r -> r.body().contains(mark)), 5_000).await();
            Eventually.until("the 503 read: the call is in its backoff", () -> h.upstreamCalls() == 0);
        }

        List<LedgerRows.Row> rows = LedgerRows.await(h.databaseUrl, key.id(), 1);
        assertThat(rows).hasSize(1);
        assertThat(rows.getFirst().status()).isEqualTo(499);
        assertThat(rows.getFirst().attempts()).as("the retry was scheduled, never sent").isEqualTo(1);
        // the row is written where the backoff ends, instead of the retry: none can follow it
        assertThat(h.sim.received().stream().filter(r -> r.body().contains(mark))).hasSize(1);
    }
}
