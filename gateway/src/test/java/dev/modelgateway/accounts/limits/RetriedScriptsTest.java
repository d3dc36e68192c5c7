package dev.modelgateway.accounts.limits;

import dev.modelgateway.accounts.Fixtures;
import dev.modelgateway.accounts.ledger.SpendTracker;
import dev.modelgateway.config.RedisSettings;
import dev.modelgateway.testing.ExternalStores;
import dev.modelgateway.testing.TestClock;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import static dev.modelgateway.accounts.Fixtures.await;
import static dev.modelgateway.accounts.Fixtures.onLoop;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * An admission script whose answer is lost after Redis ran it (as when a primary dies between its write and its reply)
 * is retried on a new connection, and the retry takes nothing twice: a rate-limit run gets the first run's answer from
 * its record, a take finds its own lease (docs/operations/scale-out.md, "Failover, exactly"). Real Redis on 127.0.0.1 behind a relay that drops one reply.
 */
@ExternalStores
class RetriedScriptsTest {
    private final Vertx vertx = Vertx.vertx();
    private final String prefix = Fixtures.random("mgretry") + ":";

    @AfterEach
    void stop() {
        Fixtures.deleteRedisKeys(vertx, prefix);
        vertx.close().await();
    }

    @Test
    void aRetriedAdmissionWhoseAnswerWasLostTakesOnce() {
        LossyRelay relay = new LossyRelay(vertx);
        RedisRateLimiter limiter = await(RedisRateLimiter.connect(vertx, "redis://127.0.0.1:" + relay.port(),
                new RedisSettings(0, 5.0, null), prefix, new TestClock()));
        try {
            // 3 a minute is under the floor for local admissions: every acquire runs the script; the clock does not move,
            // so the bucket does not refill between the calls
            List<RateScope> scope = List.of(new RateScope(Fixtures.random("key_"), null, new RateLimits(3, 0)));
            Context loop = vertx.getOrCreateContext();
            // opens the loop's connection, so that the reply dropped next is the script's, not the connection's set-up
            onLoop(loop, () -> limiter.peek(List.of(new RateScope(Fixtures.random("key_"), null, new RateLimits(3, 0)))));
            relay.dropNextReply();
            RateDecision first = onLoop(loop, () -> limiter.acquire(scope, 0)).getFirst();
            assertThat(relay.dropped()).as("the first answer never arrived").isTrue();
            assertThat(first.allowed()).isTrue();
            assertThat(first.requestLevel()).as("taken once, although the script ran twice").isEqualTo(2.0);
            assertThat(onLoop(loop, () -> limiter.peek(scope)).getFirst().requestLevel()).isEqualTo(2.0);
            assertThat(onLoop(loop, () -> limiter.acquire(scope, 0)).getFirst().requestLevel()).isEqualTo(1.0);
        } finally {
            await(limiter.close());
            relay.close();
        }
    }

    @Test
    void aRetriedTakeWhoseAnswerWasLostFindsItsOwnLease() {
        LossyRelay relay = new LossyRelay(vertx);
        RedisHolds holds = await(RedisHolds.connect(vertx, "redis://127.0.0.1:" + relay.port(), new RedisSettings(0, 5.0, null),
                prefix, RedisHolds.LEASE_MS, new LocalHolds(new SpendTracker())));
        try {
            Context loop = vertx.getOrCreateContext();
            String key = Fixtures.random("key_");
            onLoop(loop, () -> holds.take(new HoldRequest(Fixtures.random("key_"), "", 1, -1, 0, 0))); // opens the connection
            relay.dropNextReply();
            // one call in flight at most: a retry that counted its own first lease would refuse itself
            HoldDecision first = onLoop(loop, () -> holds.take(new HoldRequest(key, "", 1, -1, 0, 0)));
            assertThat(relay.dropped()).isTrue();
            assertThat(first.refusal()).as("granted: the retry found the lease its first run took").isNull();
            assertThat(onLoop(loop, () -> holds.take(new HoldRequest(key, "", 1, -1, 0, 0))).refusal())
                    .isEqualTo(HoldDecision.Refusal.CONCURRENCY);
        } finally {
            await(holds.close());
            relay.close();
        }
    }

    /** A TCP relay to the local Redis that can drop the next reply it would relay back, keeping the connection open. */
    static final class LossyRelay {
        private final NetServer server;
        private final NetClient client;
        private final AtomicBoolean dropNext = new AtomicBoolean();
        private final AtomicBoolean dropped = new AtomicBoolean();

        LossyRelay(Vertx vertx) {
            client = vertx.createNetClient();
            server = vertx.createNetServer().connectHandler(this::relay).listen(0, "127.0.0.1").await();
        }

        int port() {
            return server.actualPort();
        }

        void dropNextReply() {
            dropNext.set(true);
        }

        boolean dropped() {
            return dropped.get();
        }

        private void relay(NetSocket in) {
            in.pause();
            client.connect(6379, "127.0.0.1").onSuccess(out -> {
                in.handler(out::write);
                out.handler(b -> {
                    if (dropNext.compareAndSet(true, false)) dropped.set(true);
                    else in.write(b);
                });
                in.closeHandler(v -> out.close());
                out.closeHandler(v -> in.close());
                in.resume();
            }).onFailure(e -> in.close());
        }

        void close() {
            server.close().await();
            client.close().await();
        }
    }
}
