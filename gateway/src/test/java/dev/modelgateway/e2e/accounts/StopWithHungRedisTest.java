package dev.modelgateway.e2e.accounts;

import dev.modelgateway.e2e.AdminApi;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.LedgerRows;
import dev.modelgateway.e2e.SharedStores;
import dev.modelgateway.http.TraceId;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A gateway whose Redis has stopped answering (connections open, no replies) still stops within its bound, lets
 * the call in flight finish, and writes the usage of every call it served: a supervisor's SIGKILL after its
 * grace period finds nothing left to lose (docs/configuration.md, "Shutdown").
 */
class StopWithHungRedisTest {
    static final String MODEL = "platform/vendorA-sonnet-4.5";
    /** The drain (5 s, only while a call is in flight) and the Redis closes (2 s each), with room for a slow machine. */
    static final long STOP_BOUND_SECONDS = 12;

    SharedStores stores;
    /** Owns the simulator; its own Redis is the real one. */
    GatewayHarness owner;
    HungRedis redis;

    @BeforeEach
    void start() throws Exception {
        stores = new SharedStores();
        owner = stores.gateway().start();
        redis = new HungRedis(owner.vertx);
    }

    @AfterEach
    void stop() throws Exception {
        redis.close();
        owner.close();
        stores.close();
    }

    private static String body(String text, boolean stream) {
        return "{\"model\":\"" + MODEL + "\",\"max_tokens\":64,\"stream\":" + stream
                + ",\"messages\":[{\"role\":\"user\",\"content\":\"" + text + "\"}]}";
    }

    @Test
    void stopsWithinItsBoundAndTheLedgerHasEveryCall() throws Exception {
        String url = stores.redisUrl().replace("127.0.0.1:6379", "127.0.0.1:" + redis.port());
        GatewayHarness g = stores.gateway().redis(url).simulator(owner.sim).start();
        AdminApi.CreatedKey key = new AdminApi(g).create("{\"name\":\"hung\",\"rpm\":1000,\"max_concurrent\":10,\"budget_usd\":100}");
        String bearer = "Bearer " + key.secret();
        List<String> traces = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> r = g.post("/api/v1/messages", body("hi", false), "authorization", bearer);
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            traces.add(r.headers().firstValue(TraceId.HEADER).orElseThrow());
        }

        redis.hang();
        // admitted without Redis (each Redis step waits its 1 s timeout), then still streaming when the stop begins
        String mark = "in flight at the stop [[sim:chunk_delay_ms=300;chunks=6]]";
        CompletableFuture<HttpResponse<String>> inFlight = CompletableFuture.supplyAsync(
                () -> g.postHttp1("/api/v1/messages", body(mark, true), "authorization", bearer));
        owner.sim.awaitReceived(log -> log.stream().anyMatch(q -> q.body().contains("in flight at the stop")), 10_000).await();

        long started = System.nanoTime();
        g.gateway.stop().toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
        long tookMs = (System.nanoTime() - started) / 1_000_000;
        g.vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        assertThat(tookMs).as("ms to stop").isLessThan(STOP_BOUND_SECONDS * 1000);

        HttpResponse<String> finished = inFlight.get(10, TimeUnit.SECONDS);
        assertThat(finished.statusCode()).isEqualTo(200);
        assertThat(finished.body()).as("the call in flight was let finish").contains("event: message_stop");
        traces.add(finished.headers().firstValue(TraceId.HEADER).orElseThrow());
        assertThat(LedgerRows.read(stores.databaseUrl(), key.id())).extracting(LedgerRows.Row::traceId)
                .as("every call's ledger row, written before the stop returned").containsExactlyInAnyOrderElementsOf(traces);
    }
}
