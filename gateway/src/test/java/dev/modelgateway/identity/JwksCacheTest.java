package dev.modelgateway.identity;

import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.TestClock;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The signing keys' cache against a key-set server on loopback: a rotated key is found by fetching again, at most once
 * per {@link JwksCache#MIN_REFETCH} on the injected clock, and an unreachable or failing provider is asked once per
 * interval rather than once per token.
 */
@E2e
class JwksCacheTest {
    private Vertx vertx;
    private HttpServer server;
    private final AtomicInteger fetches = new AtomicInteger();
    private final AtomicReference<String> answer = new AtomicReference<>();
    private final AtomicInteger status = new AtomicInteger(200);
    private final TestClock clock = new TestClock();
    private JwksCache cache;
    private URI uri;

    @BeforeEach
    void serve() throws Exception {
        vertx = Vertx.vertx();
        server = vertx.createHttpServer().requestHandler(req -> {
            fetches.incrementAndGet();
            req.response().setStatusCode(status.get()).putHeader("content-type", "application/json").end(answer.get());
        }).listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        uri = URI.create("http://127.0.0.1:" + server.actualPort() + "/jwks");
        cache = new JwksCache(new IdentityHttp(vertx), clock);
    }

    @AfterEach
    void close() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    private Optional<JWK> key(String kid) throws Exception {
        return cache.key(uri, kid).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    private static JWK rsa(String kid) throws Exception {
        return new RSAKeyGenerator(2048).keyID(kid).generate().toPublicJWK();
    }

    @Test
    void aRotatedKeyIsFetchedOncePerIntervalAndFoundAfterIt() throws Exception {
        answer.set(new JWKSet(List.of(rsa("one"))).toString());
        assertThat(key("one")).isPresent();
        assertThat(key("one")).isPresent();
        assertThat(fetches).hasValue(1);

        answer.set(new JWKSet(List.of(rsa("one"), rsa("two"))).toString());
        assertThat(key("two")).as("within the interval the set is not fetched again").isEmpty();
        assertThat(fetches).hasValue(1);
        clock.advance(JwksCache.MIN_REFETCH.minusMillis(1));
        assertThat(key("two")).isEmpty();
        assertThat(fetches).hasValue(1);
        clock.advance(Duration.ofMillis(1));
        assertThat(key("two")).as("an unknown kid fetches the set again once the interval is over").isPresent();
        assertThat(fetches).hasValue(2);
        assertThat(key("random-kid")).isEmpty();
        assertThat(key("another-random-kid")).isEmpty();
        assertThat(fetches).as("random key ids cannot make the gateway hammer the provider").hasValue(2);
    }

    @Test
    void aFailingProviderIsAskedOncePerInterval() throws Exception {
        status.set(503);
        answer.set("{\"error\":\"down\"}");
        assertThatThrownBy(() -> key("one")).hasMessageContaining("HTTP 503");
        assertThatThrownBy(() -> key("one")).hasMessageContaining("HTTP 503");
        assertThat(fetches).hasValue(1);
        status.set(200);
        answer.set(new JWKSet(List.of(rsa("one"))).toString());
        clock.advance(JwksCache.MIN_REFETCH);
        assertThat(key("one")).isPresent();
        assertThat(fetches).hasValue(2);
    }
}
