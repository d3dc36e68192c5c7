package dev.modelgateway.e2e.stores;

import dev.modelgateway.accounts.limits.RateDecision;
import dev.modelgateway.accounts.limits.RateLimits;
import dev.modelgateway.accounts.limits.RateScope;
import dev.modelgateway.accounts.limits.RedisRateLimiter;
import dev.modelgateway.config.RedisSettings;
import dev.modelgateway.e2e.TestCert;
import dev.modelgateway.services.ResponseOwners;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.Eventually;
import dev.modelgateway.testing.ExternalStores;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * {@code rediss} in each mode, with a password: Redis processes that speak TLS only (their clients, replication, cluster
 * bus and Sentinels), a certificate of a CA of the test's own given as {@code accounts.redis_ca_file}, and a rate limit
 * held through them, and on the cluster the owners of vendor B objects. Without the CA, or with a certificate for another
 * name, the gateway does not connect.
 */
@E2e
@ExternalStores
class RedisTlsTest {
    final Vertx vertx = Vertx.vertx();
    final TestCert cert = TestCert.selfSigned("localhost");
    final String prefix = "mgtls-" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong()) + ":";

    @AfterEach
    void stop() {
        vertx.close().await();
    }

    @Test
    void oneNodeOverTls() {
        try (RedisNodes node = new RedisNodes("redis-tls", cert)) {
            int port = node.startServer();
            String url = "rediss://:" + RedisNodes.PASSWORD + "@127.0.0.1:" + port;
            assertThat(admissions(url, cert)).containsExactly(true, true, false);

            assertThat(catchThrowable(() -> RedisRateLimiter.connect(vertx, url, RedisSettings.DEFAULT, prefix, null).await()))
                    .as("a certificate the JDK's roots do not trust").isNotNull();
        }
    }

    @Test
    void aTrustedCertificateForAnotherNameIsRefused() {
        TestCert otherName = TestCert.forNameOnly("redis.example.com");
        try (RedisNodes node = new RedisNodes("redis-tls-name", otherName)) {
            String url = "rediss://:" + RedisNodes.PASSWORD + "@127.0.0.1:" + node.startServer();
            assertThat(catchThrowable(() -> RedisRateLimiter.connect(vertx, url, new RedisSettings(null, null,
                    otherName.certPem().toString()), prefix, null).await())).as("dialled 127.0.0.1, named redis.example.com").isNotNull();
        }
    }

    @Test
    void sentinelOverTls() {
        try (LocalRedisSentinel sentinel = new LocalRedisSentinel(cert)) {
            assertThat(sentinel.url("x:")).startsWith("rediss-sentinel://");
            assertThat(admissions(sentinel.url("x:").replace("?key_prefix=x:", ""), cert)).containsExactly(true, true, false);
        }
    }

    @Test
    void clusterOverTls() {
        try (LocalRedisCluster cluster = new LocalRedisCluster(cert)) {
            String url = cluster.url("x:").replace("?key_prefix=x:", "");
            assertThat(admissions(url, cert)).containsExactly(true, true, false);
            // the owners of vendor B objects: one key per id, each in its own slot, on whichever node has it
            RedisSettings trust = new RedisSettings(null, null, cert.certPem().toString());
            ResponseOwners one = ResponseOwners.create(vertx, url, trust, prefix);
            ResponseOwners other = ResponseOwners.create(vertx, url, trust, prefix);
            try {
                for (int i = 0; i < 20; i++) one.own("resp_" + i, "key-a");
                for (int i = 0; i < 20; i++) {
                    String id = "resp_" + i;
                    // a look that times out (a first connection to every node, over TLS, on a loaded machine) is a 503: look again
                    Eventually.until(id + " seen by the other instance", () -> other.owns(id, "key-a").otherwise(false).await());
                }
                assertThat(other.owns("resp_0", "key-b").await()).isFalse();
                assertThat(cluster.keys(prefix)).as("on the primaries").hasSizeGreaterThanOrEqualTo(20);
            } finally {
                one.close().await();
                other.close().await();
            }
        }
    }

    /** Three admissions on a key with 2 a minute, as Redis decides them. */
    private List<Boolean> admissions(String url, TestCert trusted) {
        RedisRateLimiter limiter = RedisRateLimiter.connect(vertx, url, new RedisSettings(null, null, trusted.certPem().toString()),
                prefix, null).await();
        try {
            List<RateScope> scope = List.of(new RateScope("key_tls", null, new RateLimits(2, 0)));
            List<Boolean> allowed = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                List<RateDecision> d = limiter.acquire(scope, 0).await();
                allowed.add(d.getFirst().allowed());
            }
            return allowed;
        } finally {
            limiter.close().await();
        }
    }
}
