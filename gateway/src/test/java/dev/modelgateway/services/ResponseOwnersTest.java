package dev.modelgateway.services;

import dev.modelgateway.config.RedisSettings;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.testing.ExternalStores;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Ownership through Redis answers on the asking event loop, and fails closed, quickly, when Redis does not answer. */
@ExternalStores
class ResponseOwnersTest {
    static final String REDIS = "redis://127.0.0.1:6379";

    Vertx vertx;

    @BeforeEach
    void start() {
        vertx = Vertx.vertx();
    }

    @AfterEach
    void stop() {
        vertx.close().await();
    }

    /** Runs {@code work} on an event loop and checks that its answer arrives on that same context. */
    private <T> T onEventLoop(Supplier<Future<T>> work) {
        Context loop = vertx.getOrCreateContext();
        Promise<T> result = Promise.promise();
        loop.runOnContext(v -> work.get().onComplete(ar -> {
            if (Vertx.currentContext() != loop) result.fail(new AssertionError("answered on another context: " + Thread.currentThread()));
            else result.handle(ar);
        }));
        return result.future().await();
    }

    @Test
    void anOwnerWrittenByOneInstanceIsReadByAnother() {
        String prefix = "mgtest-" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong()) + ":";
        ResponseOwners first = ResponseOwners.create(vertx, REDIS, RedisSettings.DEFAULT, prefix);
        ResponseOwners second = ResponseOwners.create(vertx, REDIS, RedisSettings.DEFAULT, prefix);
        try {
            first.own("resp_1", "key-a");
            // the write is not awaited by own(); the other instance sees it once Redis has it
            long until = System.nanoTime() + 2_000_000_000L;
            while (!onEventLoop(() -> second.owns("resp_1", "key-a")) && System.nanoTime() < until) Thread.onSpinWait();
            assertThat(onEventLoop(() -> second.owns("resp_1", "key-a"))).isTrue();
            assertThat(onEventLoop(() -> second.owns("resp_1", "key-b"))).isFalse();
            assertThat(onEventLoop(() -> second.notOwned(List.of("resp_1", "resp_unknown"), "key-a"))).containsExactly("resp_unknown");
            second.disown("resp_1");
            assertThat(onEventLoop(() -> second.owns("resp_1", "key-a"))).as("deleted at the vendor").isFalse();
            ResponseOwners restarted = ResponseOwners.create(vertx, REDIS, RedisSettings.DEFAULT, prefix);
            until = System.nanoTime() + 2_000_000_000L;
            while (onEventLoop(() -> restarted.owns("resp_1", "key-a")) && System.nanoTime() < until) Thread.onSpinWait();
            assertThat(onEventLoop(() -> restarted.owns("resp_1", "key-a"))).as("forgotten in Redis too").isFalse();
            restarted.close().await();
        } finally {
            first.close().await();
            second.close().await();
        }
    }

    @Test
    void aSilentRedisIsA503WithinASecondAndTheCacheStillAnswers() {
        // accepts connections and never answers, like a hung Redis
        NetServer silent = vertx.createNetServer().connectHandler(socket -> { }).listen(0, "127.0.0.1").await();
        ResponseOwners owners = ResponseOwners.create(vertx, "redis://127.0.0.1:" + silent.actualPort(), RedisSettings.DEFAULT, "mg:");
        try {
            long started = System.nanoTime();
            assertThatThrownBy(() -> onEventLoop(() -> owners.owns("resp_elsewhere", "key-a")))
                    .isInstanceOfSatisfying(GatewayException.class, e -> {
                        assertThat(e.status()).isEqualTo(503);
                        assertThat(e.code()).isEqualTo("ownership_unavailable");
                    });
            assertThat((System.nanoTime() - started) / 1_000_000).isLessThan(RedisOwners.TIMEOUT_MS + 1000);

            owners.own("resp_here", "key-a");
            assertThat(onEventLoop(() -> owners.owns("resp_here", "key-a"))).as("known to this instance").isTrue();
            assertThat(onEventLoop(() -> owners.owns("resp_here", "key-b"))).isFalse();
        } finally {
            owners.close().await();
            silent.close().await();
        }
    }
}
