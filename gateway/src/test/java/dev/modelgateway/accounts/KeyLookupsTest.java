package dev.modelgateway.accounts;

import dev.modelgateway.accounts.keys.KeySettings;
import dev.modelgateway.accounts.keys.KeyMatch;
import dev.modelgateway.accounts.keys.StoredKey;
import dev.modelgateway.testing.TestClock;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The request path's key lookups: fresh for five seconds, then read again once for all waiting calls; the last known
 * state while the database fails over (docs/operations/database-failover.md), never for a key it never read.
 */
class KeyLookupsTest {
    static final String SECRET = "pk-secret";
    static final Optional<KeyMatch> ENABLED = Optional.of(new KeyMatch(key(false), false));
    static final Optional<KeyMatch> DISABLED = Optional.of(new KeyMatch(key(true), false));

    final Vertx vertx = Vertx.vertx();
    final TestClock clock = new TestClock();
    /** The database: each read takes the next answer a test put here, or waits for one. */
    final Queue<Promise<Optional<KeyMatch>>> pending = new ArrayDeque<>();
    final AtomicInteger reads = new AtomicInteger();
    final KeyLookups<dev.modelgateway.accounts.keys.KeyMatch> lookups = new KeyLookups<>(vertx, secret -> {
        reads.incrementAndGet();
        Promise<Optional<KeyMatch>> p = Promise.promise();
        synchronized (pending) {
            pending.add(p);
        }
        return p.future();
    }, clock);

    @AfterEach
    void close() {
        vertx.close().await();
    }

    @Test
    void aKeyReadIsUsedForFiveSecondsThenReadAgain() {
        Future<Optional<KeyMatch>> first = lookups.find(SECRET);
        answer(ENABLED);
        assertThat(first.await()).isEqualTo(ENABLED);
        clock.advance(KeyLookups.FRESH.minusMillis(1));
        assertThat(lookups.find(SECRET).await()).isEqualTo(ENABLED);
        assertThat(reads).hasValue(1);

        clock.advanceMillis(1);
        Future<Optional<KeyMatch>> again = lookups.find(SECRET);
        answer(DISABLED); // disabled by another instance meanwhile
        assertThat(again.await()).isEqualTo(DISABLED);
        assertThat(reads).hasValue(2);
    }

    @Test
    void callsWaitingForAKeyShareOneRead() {
        List<Future<Optional<KeyMatch>>> calls = List.of(lookups.find(SECRET), lookups.find(SECRET), lookups.find(SECRET));
        answer(ENABLED);
        assertThat(calls).allSatisfy(c -> assertThat(c.await()).isEqualTo(ENABLED));
        assertThat(reads).hasValue(1);
    }

    @Test
    void aFailingDatabaseServesTheLastKnownStateOfAKeyInUse() {
        Future<Optional<KeyMatch>> first = lookups.find(SECRET);
        answer(ENABLED);
        first.await();
        clock.advance(KeyLookups.FRESH);
        Future<Optional<KeyMatch>> during = lookups.find(SECRET);
        fail();
        assertThat(during.await()).isEqualTo(ENABLED);
    }

    @Test
    void aDatabaseThatDoesNotAnswerIsWaitedForHalfASecondOnceThenNotAtAll() {
        Future<Optional<KeyMatch>> first = lookups.find(SECRET);
        answer(ENABLED);
        first.await();
        clock.advance(KeyLookups.FRESH);
        long started = System.nanoTime();
        assertThat(lookups.find(SECRET).await()).isEqualTo(ENABLED); // the read hangs: the pool waits for a primary
        assertThat((System.nanoTime() - started) / 1_000_000).isGreaterThanOrEqualTo(KeyLookups.WAIT.toMillis());
        Future<Optional<KeyMatch>> next = lookups.find(SECRET);
        assertThat(next.isComplete()).as("the read is overdue: no call waits for it again").isTrue();
        assertThat(next.result()).isEqualTo(ENABLED);
        assertThat(reads).as("still the one read").hasValue(2);

        answer(DISABLED); // the new primary answers
        assertThat(lookups.find(SECRET).await()).isEqualTo(DISABLED);
    }

    @Test
    void aKeyNeverReadOrReadTooLongAgoWaitsForTheDatabase() {
        Future<Optional<KeyMatch>> unknown = lookups.find(SECRET);
        fail();
        assertThatThrownBy(unknown::await).hasRootCauseInstanceOf(SQLException.class);

        Future<Optional<KeyMatch>> read = lookups.find(SECRET);
        answer(ENABLED);
        read.await();
        clock.advance(KeyLookups.KNOWN_FOR);
        Future<Optional<KeyMatch>> tooOld = lookups.find(SECRET);
        fail();
        assertThatThrownBy(tooOld::await).hasRootCauseInstanceOf(SQLException.class);
    }

    @Test
    void aChangeMadeHereIsReadAtTheNextCall() {
        Future<Optional<KeyMatch>> first = lookups.find(SECRET);
        answer(ENABLED);
        first.await();
        lookups.invalidateAll();
        Future<Optional<KeyMatch>> after = lookups.find(SECRET);
        fail();
        assertThatThrownBy(after::await).as("no last known state to fall back on").hasRootCauseInstanceOf(SQLException.class);
    }

    private void answer(Optional<KeyMatch> key) {
        next().complete(key);
    }

    private void fail() {
        next().fail(new IllegalStateException("no primary", new SQLException("Connection refused")));
    }

    private Promise<Optional<KeyMatch>> next() {
        synchronized (pending) {
            Promise<Optional<KeyMatch>> p = pending.poll();
            assertThat(p).as("a read in flight").isNotNull();
            return p;
        }
    }

    private static StoredKey key(boolean disabled) {
        return new StoredKey("k1", "pk-sec", new KeySettings("one", List.of(), null, null, null, null), disabled,
                Instant.EPOCH, null, null, null);
    }
}
