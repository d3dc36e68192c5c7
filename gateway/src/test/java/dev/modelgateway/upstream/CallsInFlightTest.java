package dev.modelgateway.upstream;

import dev.modelgateway.error.GatewayException;
import dev.modelgateway.testing.Eventually;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/** The drain's deadline ends each call in flight on its own event loop, and a call started after it as it starts. */
class CallsInFlightTest {
    final Vertx vertx = Vertx.vertx();

    @AfterEach
    void close() {
        vertx.close().await();
    }

    @Test
    void endAllEndsTheCallsInFlightOnTheirLoopsAndTheLaterOnesAsTheyStart() {
        CallsInFlight calls = new CallsInFlight();
        Context first = vertx.getOrCreateContext();
        Context second = vertx.getOrCreateContext();
        List<String> ended = new CopyOnWriteArrayList<>();
        Runnable over = calls.add(first, reason -> ended.add("over"));
        calls.add(first, reason -> ended.add("first:" + (Vertx.currentContext() == first) + ":" + reason.code()));
        calls.add(second, reason -> ended.add("second:" + (Vertx.currentContext() == second)));
        over.run();
        assertThat(calls.size()).isEqualTo(2);

        assertThat(calls.endAll(new GatewayException.ShuttingDown())).isEqualTo(2);
        Eventually.until("both calls ended", () -> ended.size() == 2);
        assertThat(ended).containsExactlyInAnyOrder("first:true:server_shutting_down", "second:true");

        calls.add(second, reason -> ended.add("late"));
        Eventually.until("the call started after the deadline ended", () -> ended.contains("late"));
    }
}
