package dev.modelgateway.e2e.accounts;

import com.openai.client.OpenAIClient;
import com.openai.errors.UnauthorizedException;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import dev.modelgateway.e2e.AdminApi;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.LedgerRows;
import dev.modelgateway.e2e.SharedStores;
import dev.modelgateway.json.Json;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.ExternalStores;
import dev.modelgateway.testing.TestClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * A platform key rotated through one of two gateways sharing PostgreSQL, called with the official OpenAI SDK on both
 * (docs/operations/key-rotation.md): old and new secrets are one key (one id in the ledger) through the grace, and from
 * its end the old one is refused by both instances alike.
 */
@E2e
@ExternalStores
class KeyRotationAcrossInstancesTest {
    static final String MODEL = "platform/vendorB-5.5";

    final TestClock clock = new TestClock(Instant.parse("2026-06-01T12:00:00Z"));
    SharedStores stores;
    GatewayHarness a;
    GatewayHarness b;

    @BeforeEach
    void start() throws Exception {
        stores = new SharedStores();
        a = stores.gateway().accountsClock(clock).start();
        b = stores.gateway().accountsClock(clock).simulator(a.sim).start();
    }

    @AfterEach
    void stop() throws Exception {
        if (b != null) b.close();
        if (a != null) a.close();
        stores.close();
    }

    static void chat(OpenAIClient client) {
        client.chat().completions().create(ChatCompletionCreateParams.builder().model(MODEL).addUserMessage("hi").build());
    }

    @Test
    void bothInstancesAcceptTheOldSecretThroughTheGraceAndRefuseItFromItsEnd() {
        AdminApi.CreatedKey key = new AdminApi(a).create("{\"name\":\"rotating\",\"rpm\":100}");
        chat(a.openai(key.secret()));
        chat(b.openai(key.secret())); // B now has the old secret in its key cache

        HttpResponse<String> rotated = new AdminApi(a).call("POST", "/api/v1/admin/keys/" + key.id() + "/rotate", "{\"grace_seconds\": 60}");
        assertThat(rotated.statusCode()).as(rotated.body()).isEqualTo(200);
        String fresh = Json.parseOrNull(rotated.body()).path("key").asText();
        for (GatewayHarness h : List.of(a, b)) {
            chat(h.openai(fresh));
            chat(h.openai(key.secret()));
        }

        clock.advance(Duration.ofSeconds(60));
        for (GatewayHarness h : List.of(b, a)) {
            UnauthorizedException refused = catchThrowableOfType(UnauthorizedException.class, () -> chat(h.openai(key.secret())));
            assertThat(refused.statusCode()).isEqualTo(401);
            assertThat(refused.getMessage()).contains("was rotated", "2026-06-01T12:01:00Z");
            chat(h.openai(fresh));
        }

        // one key for the ledger, whichever secret each call came with (the refused ones are not calls of the key)
        List<LedgerRows.Row> rows = LedgerRows.await(stores.databaseUrl(), key.id(), 8);
        assertThat(rows).hasSize(8).allSatisfy(r -> assertThat(r.keyId()).isEqualTo(key.id()));
        assertThat(rows).extracting(LedgerRows.Row::status).containsOnly(200);
    }
}
