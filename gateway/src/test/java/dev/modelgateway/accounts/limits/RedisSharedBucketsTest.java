package dev.modelgateway.accounts.limits;

import dev.modelgateway.accounts.Fixtures;
import dev.modelgateway.accounts.keys.Team;
import dev.modelgateway.testing.Eventually;
import dev.modelgateway.testing.ExternalStores;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static dev.modelgateway.accounts.Fixtures.await;
import static dev.modelgateway.accounts.Fixtures.onLoop;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What only the Redis limiter does: local admissions far from the limit written in batches, exact decisions
 * near it even with two instances bursting, commands pipelined on one connection per event loop, token
 * settlements carried by the bucket's next call or the flush, a lost connection replaced. Real Redis on 127.0.0.1.
 */
@ExternalStores
@Isolated
class RedisSharedBucketsTest {
    private final String prefix = Fixtures.random("mgtest-") + ":";
    private Vertx vertx;
    private Redis admin;
    private RedisRateLimiter one;
    private RedisRateLimiter other;

    @BeforeEach
    void open() {
        vertx = Vertx.vertx();
        admin = Redis.createClient(vertx, Fixtures.REDIS_URL);
        one = await(RedisRateLimiter.connect(vertx, Fixtures.REDIS_URL, prefix));
        other = await(RedisRateLimiter.connect(vertx, Fixtures.REDIS_URL, prefix));
    }

    @AfterEach
    void close() {
        await(one.close());
        await(other.close());
        Fixtures.deleteRedisKeys(vertx, prefix);
        await(admin.close());
        await(vertx.close());
    }

    @Test
    void farFromTheLimitAdmissionsAreLocalAndWrittenInBatches() {
        List<RateScope> scope = List.of(scopeRequests(1000));
        assertThat(await(one.acquire(scope, 0)).getFirst().remainingRequests()).isEqualTo(999); // asks Redis: nothing known yet
        long callsBefore = one.scriptRuns();
        RateDecision last = null;
        for (int i = 0; i < 60; i++) last = await(one.acquire(scope, 0)).getFirst();
        // At most a tenth of the room above the floor (999 - 250) between two reports: 60 fit.
        assertThat(one.scriptRuns() - callsBefore).isLessThan(10); // only flushes, no call per request
        assertThat(last.allowed()).isTrue();
        assertThat(last.remainingRequests()).isBetween(939L, 942L);

        // The flush writes the 60 local takes: another instance sees them.
        long start = System.nanoTime();
        double seen;
        do {
            seen = await(other.peek(scope)).getFirst().requestLevel();
        } while (seen > 945 && System.nanoTime() - start < 5_000_000_000L);
        assertThat(seen).isBetween(939.0, 945.0);
    }

    @Test
    void twoInstancesBurstingOnOneKeyGetExactlyTheLimit() {
        List<RateScope> scope = List.of(scopeRequests(200));
        int admitted = 0;
        for (int i = 0; i < 400; i++) {
            if (await((i % 2 == 0 ? one : other).acquire(scope, 0)).getFirst().allowed()) admitted++;
        }
        // 200 a minute refill 3.3 a second while the loop runs.
        assertThat(admitted).isBetween(200, 202);
        assertThat(one.scriptRuns() + other.scriptRuns()).as("some admissions were local").isLessThan(400);
    }

    @Test
    void twoInstancesBurstingThroughManyKeysOfOneTeamGetExactlyTheTeamsLimit() {
        RateScope team = new RateScope(Team.HOLDER_PREFIX + Fixtures.random("t"), null, new RateLimits(200, 0), "t");
        List<List<RateScope>> keys = new java.util.ArrayList<>();
        for (int k = 0; k < 4; k++) keys.add(List.of(scopeRequests(100_000), team));
        int admitted = 0;
        for (int i = 0; i < 400; i++) {
            if (await((i % 2 == 0 ? one : other).acquire(keys.get(i % 4), 0)).getFirst().allowed()) admitted++;
        }
        assertThat(admitted).isBetween(200, 202);
        assertThat(one.scriptRuns() + other.scriptRuns()).as("some admissions were local").isLessThan(400);
    }

    @Test
    void concurrentAcquiresFromOneEventLoopArePipelinedOnOneConnection() {
        Context loop = vertx.getOrCreateContext();
        // 40 a minute is under the floor for local admissions: every acquire asks Redis.
        onLoop(loop, () -> one.acquire(scope(40, 0), 0)).getFirst(); // opens the loop's connection
        assertThat(loopConnections()).hasSize(1);

        List<List<RateDecision>> decisions = onLoop(loop, () -> {
            List<Future<List<RateDecision>>> all = new ArrayList<>();
            for (int i = 0; i < 99; i++) all.add(one.acquire(scope(40, 0), 0));
            return Future.all(all).map(f -> f.<List<RateDecision>>list());
        });

        assertThat(decisions.stream().filter(d -> d.getFirst().allowed())).hasSize(39);
        assertThat(decisions.stream().filter(d -> !d.getFirst().allowed())).hasSize(60);
        // A pool would have opened connections for the concurrent commands; the loop's one connection carried them.
        assertThat(loopConnections()).hasSize(1);
    }

    @Test
    void aSettlementIsCarriedByTheBucketsNextCall() {
        RateScope scope = scopeTokens(1000);
        assertThat(await(one.acquire(List.of(scope), 600)).getFirst().tokenLevel()).isBetween(400.0, 401.0);
        await(one.adjust(List.of(scope), -500));
        // The next acquire pays the debt first: 400 + 500 back - 300 taken.
        assertThat(await(one.acquire(List.of(scope), 300)).getFirst().tokenLevel()).isBetween(600.0, 602.0);
        await(one.adjust(List.of(scope), 700)); // used 700 more than estimated: a debt beyond the bucket
        RateDecision refused = await(one.acquire(List.of(scope), 200)).getFirst();
        assertThat(refused.allowed()).isFalse();
        assertThat(refused.tokenLevel()).isBetween(-100.0, -95.0);
    }

    @Test
    void anotherInstanceSeesASettlementWithinTheFlushInterval() {
        RateScope scope = scopeTokens(1000);
        await(one.acquire(List.of(scope), 600));
        assertThat(await(other.peek(List.of(scope))).getFirst().tokenLevel()).isBetween(400.0, 402.0);

        long settledAt = System.nanoTime();
        await(one.adjust(List.of(scope), -500)); // no further request through `one`: the flush must write it
        double seen;
        do {
            seen = await(other.peek(List.of(scope))).getFirst().tokenLevel();
        } while (seen < 900 && System.nanoTime() - settledAt < 5_000_000_000L);
        long waitedMs = (System.nanoTime() - settledAt) / 1_000_000;
        assertThat(seen).isBetween(900.0, 905.0);
        assertThat(waitedMs).isLessThan(RedisRateLimiter.FLUSH_MS + 1000);
    }

    @Test
    void closingWritesWhatIsOwed() {
        RateScope scope = scopeTokens(1000);
        await(one.acquire(List.of(scope), 100));
        await(one.adjust(List.of(scope), 300));
        await(one.close());
        one = await(RedisRateLimiter.connect(vertx, Fixtures.REDIS_URL, prefix)); // for close() in @AfterEach
        assertThat(await(other.peek(List.of(scope))).getFirst().tokenLevel()).isBetween(600.0, 602.0);
    }

    @Test
    void aLostConnectionIsReplacedAndTheCountsSurvive() {
        Context loop = vertx.getOrCreateContext();
        assertThat(onLoop(loop, () -> one.acquire(scope(3, 0), 0)).getFirst().remainingRequests()).isEqualTo(2);
        Set<String> opened = loopConnections();
        assertThat(opened).hasSize(1);
        await(admin.send(Request.cmd(Command.CLIENT).arg("KILL").arg("ID").arg(opened.iterator().next())));

        // Until the loop notices the closed socket a command may fail (the gateway then admits unlimited);
        // after that a new connection carries on with the same bucket.
        List<RateDecision> next = Eventually.value("a command on a new connection", () -> {
            try {
                return onLoop(loop, () -> one.acquire(scope(3, 0), 0));
            } catch (RuntimeException e) {
                return null;
            }
        }, decisions -> decisions != null);
        assertThat(next.getFirst().allowed()).isTrue();
        assertThat(next.getFirst().remainingRequests()).isEqualTo(1);
    }

    private List<RateScope> scope(long rpm, long tpm) {
        return List.of(new RateScope("key_pipelined", null, new RateLimits(rpm, tpm)));
    }

    private RateScope scopeRequests(long rpm) {
        return new RateScope(Fixtures.random("key_"), null, new RateLimits(rpm, 0));
    }

    private RateScope scopeTokens(long tpm) {
        return new RateScope(Fixtures.random("key_"), null, new RateLimits(0, tpm));
    }


    /** Ids of the connections the limiters' event loops opened: they name themselves after the key prefix. */
    private Set<String> loopConnections() {
        Set<String> ids = new HashSet<>();
        for (String line : await(admin.send(Request.cmd(Command.CLIENT).arg("LIST"))).toString().split("\n")) {
            if (line.contains(" name=model-gateway:" + prefix + " ")) ids.add(line.substring(3, line.indexOf(' ')));
        }
        return ids;
    }
}
