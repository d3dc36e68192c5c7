package dev.modelgateway.e2e.stores;

import dev.modelgateway.accounts.limits.RateLimits;
import dev.modelgateway.accounts.limits.RateScope;
import dev.modelgateway.accounts.limits.RedisRateLimiter;
import dev.modelgateway.config.RedisSettings;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.ExternalStores;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What waiting for a replica ({@code WAIT} after each admission script, docs/operations/scale-out.md) costs an
 * admission that asks Redis: admissions one after another from an event loop, as the gateway makes them, on a Sentinel
 * set's primary with two replicas on loopback, with {@code accounts.redis_replica_acks} 0, 1 and 2; and, to show the
 * wait is real, 3 (more replicas than there are: each admission waits out the 100 ms bound). Alone in the JVM: it times
 * against the machine.
 */
@E2e
@ExternalStores
@Isolated
class ReplicaAckCostTest {
    static final int ADMISSIONS = 2000;

    @Test
    void waitingForAReplicaCostsItsAcknowledgement() {
        Vertx vertx = Vertx.vertx();
        try (LocalRedisSentinel redis = new LocalRedisSentinel()) {
            String prefix = "mgack-" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong()) + ":";
            String url = redis.url(prefix).replace("?key_prefix=" + prefix, "");
            double[] none = p50p99(vertx, url, prefix, 0, ADMISSIONS);
            double[] one = p50p99(vertx, url, prefix, 1, ADMISSIONS);
            double[] two = p50p99(vertx, url, prefix, 2, ADMISSIONS);
            double[] missing = p50p99(vertx, url, prefix, 3, 20);
            System.out.printf("admission script on a Sentinel set's primary, %d one after another: p50/p99 ms: no WAIT %.2f/%.2f,"
                    + " WAIT 1 %.2f/%.2f, WAIT 2 %.2f/%.2f; WAIT 3 with 2 replicas %.1f/%.1f%n", ADMISSIONS, none[0], none[1],
                    one[0], one[1], two[0], two[1], missing[0], missing[1]);
            assertThat(one[0]).as("a replica acknowledges well within the bound").isLessThan(50);
            assertThat(missing[0]).as("a replica that is not there is waited for, up to the bound").isGreaterThanOrEqualTo(100);
        } finally {
            vertx.close().await();
        }
    }

    /** The median and 99th percentile in ms of {@code n} admissions, each on a bucket of its own so each is granted. */
    private static double[] p50p99(Vertx vertx, String url, String prefix, int acks, int n) {
        RedisRateLimiter limiter = RedisRateLimiter.connect(vertx, url, new RedisSettings(acks, null, null), prefix, null).await();
        try {
            long[] took = new long[n];
            Context loop = vertx.getOrCreateContext();
            Promise<Void> done = Promise.promise();
            loop.runOnContext(v -> next(limiter, took, 0).onComplete(done));
            done.future().await();
            Arrays.sort(took);
            return new double[]{took[n / 2] / 1e6, took[Math.min(n - 1, n * 99 / 100)] / 1e6};
        } finally {
            limiter.close().await();
        }
    }

    private static Future<Void> next(RedisRateLimiter limiter, long[] took, int i) {
        if (i == took.length) return Future.succeededFuture();
        // 40 a minute is under the floor for local admissions: every acquire runs the script
        List<RateScope> scope = List.of(new RateScope("key_" + i + "_" + System.nanoTime(), null, new RateLimits(40, 0)));
        long start = System.nanoTime();
        return limiter.acquire(scope, 0).compose(d -> {
            assertThat(d.getFirst().allowed()).isTrue();
            took[i] = System.nanoTime() - start;
            return next(limiter, took, i + 1);
        });
    }
}
