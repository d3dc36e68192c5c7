package dev.modelgateway.credentials;

import dev.modelgateway.testing.TestClock;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class RefreshingCredentialTest {
    private final Vertx vertx = Vertx.vertx();
    private final TestClock clock = new TestClock();

    @AfterEach
    void close() {
        vertx.close().await();
    }

    /** A source handing out "token-n", valid for ten minutes, that waits for the test to let each fetch finish. */
    private final class Source implements CredentialSource<String> {
        final AtomicInteger fetches = new AtomicInteger();
        volatile CountDownLatch gate = new CountDownLatch(0);
        volatile boolean failing;

        @Override
        public Expiring<String> fetch() throws Exception {
            int n = fetches.incrementAndGet();
            assertThat(gate.await(10, TimeUnit.SECONDS)).isTrue();
            if (failing) throw new IllegalStateException("token endpoint answered 400 invalid_grant");
            return new Expiring<>("token-" + n, clock.instant().plus(Duration.ofMinutes(10)));
        }

        @Override
        public String describe() {
            return "test source";
        }
    }

    private RefreshingCredential<String> credential(Source s) {
        return new RefreshingCredential<>(vertx, s, clock, Duration.ofMinutes(2), Duration.ofSeconds(5));
    }

    @Test
    void concurrentCallersShareOneFetchAndTheValueIsKeptUntilTheMargin() {
        Source s = new Source();
        s.gate = new CountDownLatch(1);
        RefreshingCredential<String> c = credential(s);
        List<Future<String>> calls = new ArrayList<>();
        for (int i = 0; i < 50; i++) calls.add(c.get());
        s.gate.countDown();
        assertThat(Future.all(calls).await().<String>list()).containsOnly("token-1");
        clock.advance(Duration.ofMinutes(7));
        assertThat(c.get().await()).isEqualTo("token-1");
        assertThat(s.fetches).hasValue(1);
    }

    @Test
    void withinTheMarginTheHeldValueServesWhileOneRefreshRuns() {
        Source s = new Source();
        RefreshingCredential<String> c = credential(s);
        assertThat(c.get().await()).isEqualTo("token-1");
        s.gate = new CountDownLatch(1);
        clock.advance(Duration.ofMinutes(9));
        for (int i = 0; i < 10; i++) assertThat(c.get().await()).isEqualTo("token-1");
        s.gate.countDown();
        clock.advance(Duration.ofMinutes(1).plusSeconds(1));
        assertThat(c.get().await()).isEqualTo("token-2");
        assertThat(s.fetches).hasValue(2);
    }

    @Test
    void aRejectedValueIsRefreshedOnceForEveryoneWhoSawIt() {
        Source s = new Source();
        RefreshingCredential<String> c = credential(s);
        String first = c.get().await();
        s.gate = new CountDownLatch(1);
        Future<String> a = c.refreshAfterRejection(first);
        Future<String> b = c.refreshAfterRejection(first);
        s.gate.countDown();
        assertThat(a.await()).isEqualTo("token-2");
        assertThat(b.await()).isEqualTo("token-2");
        assertThat(c.refreshAfterRejection(first).await()).isEqualTo("token-2");
        assertThat(s.fetches).hasValue(2);
    }

    @Test
    void aFailingSourceIsAHealthStateRetriedAfterTheBackoff() {
        Source s = new Source();
        s.failing = true;
        RefreshingCredential<String> c = credential(s);
        assertThat(c.get().otherwiseEmpty().await()).isNull();
        assertThat(c.health().ready()).isFalse();
        assertThat(c.health().problem()).contains("test source", "invalid_grant");
        c.get();
        assertThat(s.fetches).hasValue(1);
        clock.advance(Duration.ofSeconds(5));
        s.failing = false;
        assertThat(c.get().await()).isEqualTo("token-2");
        assertThat(c.health().ready()).isTrue();
        assertThat(c.health().since()).isEqualTo(Instant.parse("2026-01-01T00:00:05Z"));
    }
}
