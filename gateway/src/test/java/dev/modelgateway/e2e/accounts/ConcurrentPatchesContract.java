package dev.modelgateway.e2e.accounts;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.json.Json;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two admins PATCH different fields of one key (or team) at the same moment: each change is applied to the row as
 * the other left it, so both survive. Before, the row was read outside the write's transaction and written back
 * whole: a revocation sent beside an rpm change left the key enabled in about half the rounds.
 */
abstract class ConcurrentPatchesContract extends AccountsContract {
    private static final int ROUNDS = 20;

    ConcurrentPatchesContract(Stores stores) {
        super(stores);
    }

    @Test
    void aKeysDisablingSurvivesAConcurrentRpmChange() throws Exception {
        String id = admin.create("{\"name\":\"contended\",\"rpm\":1}").id();
        for (int round = 2; round < ROUNDS + 2; round++) {
            admin.patch(id, "{\"disabled\":false}");
            together("/api/v1/admin/keys/" + id, "{\"disabled\":true}", "{\"rpm\":" + round + "}");
            JsonNode key = admin.get("/api/v1/admin/keys/" + id);
            assertThat(key.path("disabled").asBoolean()).as("round %d: %s", round, key).isTrue();
            assertThat(key.path("rpm").asLong()).as("round %d: %s", round, key).isEqualTo(round);
        }
    }

    @Test
    void aTeamsBudgetSurvivesAConcurrentRpmChange() throws Exception {
        HttpResponse<String> made = admin.call("POST", "/api/v1/admin/teams", "{\"name\":\"contended\"}");
        assertThat(made.statusCode()).as(made.body()).isEqualTo(201);
        String id = Json.parseOrNull(made.body()).path("id").asText();
        for (int round = 1; round <= ROUNDS; round++) {
            together("/api/v1/admin/teams/" + id, "{\"budget_usd\":\"" + round + ".5\"}", "{\"rpm\":" + round + "}");
            JsonNode team = admin.get("/api/v1/admin/teams/" + id);
            assertThat(team.path("budget_usd").asText()).as("round %d: %s", round, team).isEqualTo(round + ".5");
            assertThat(team.path("rpm").asLong()).as("round %d: %s", round, team).isEqualTo(round);
        }
    }

    /** Sends each body as a PATCH of {@code path}, all released at once; each must succeed. */
    private void together(String path, String... bodies) throws Exception {
        CyclicBarrier start = new CyclicBarrier(bodies.length);
        List<CompletableFuture<HttpResponse<String>>> sent = List.of(bodies).stream()
                .map(body -> CompletableFuture.supplyAsync(() -> {
                    try {
                        start.await();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                    return admin.call("PATCH", path, body);
                })).toList();
        for (CompletableFuture<HttpResponse<String>> r : sent) {
            assertThat(r.get().statusCode()).as(r.get().body()).isEqualTo(200);
        }
    }
}
