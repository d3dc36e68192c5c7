package dev.modelgateway.bench;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.modelgateway.identity.IdentityHttp;
import dev.modelgateway.identity.JwksCache;
import dev.modelgateway.identity.JwtShape;
import dev.modelgateway.identity.SignedJwts;
import dev.modelgateway.identity.VerifiedTokens;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.Date;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * What an identity provider's token costs a caller's request on top of a platform key (docs/identity/caller-tokens.md):
 * the JWT shape check every bearer credential meets, and the signature, issuer, audience and time checks of a token
 * whose issuer's keys are cached ({@link JwksCache}, served once from loopback at set-up), for RSA (RS256, 2048-bit,
 * what most providers and Kubernetes sign with) and ECDSA (ES256); and a token seen again while its verification is
 * kept ({@link VerifiedTokens}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
public class TokenCheckBench {
    private static final String ISSUER = "https://issuer.bench.test";

    @Param({"RS256", "ES256"})
    public String alg;

    private Vertx vertx;
    private URI jwks;
    private JwksCache cache;
    private String token;
    private SignedJwts.Expect expect;
    private final Clock clock = Clock.systemUTC();
    private VerifiedTokens verified;

    @Setup(Level.Trial)
    public void open() throws Exception {
        JWK key;
        JWSSigner signer;
        if (alg.equals("RS256")) {
            RSAKey rsa = new RSAKeyGenerator(2048).keyID("bench").generate();
            key = rsa;
            signer = new RSASSASigner(rsa);
        } else {
            ECKey ec = new ECKeyGenerator(Curve.P_256).keyID("bench").generate();
            key = ec;
            signer = new ECDSASigner(ec);
        }
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.parse(alg)).keyID("bench").build(),
                new JWTClaimsSet.Builder().issuer(ISSUER).audience("model-gateway").subject("system:serviceaccount:ml:trainer")
                        .expirationTime(new Date(System.currentTimeMillis() + 3_600_000)).issueTime(new Date()).build());
        jwt.sign(signer);
        token = jwt.serialize();
        String set = new JWKSet(List.of(key.toPublicJWK())).toString();
        vertx = Vertx.vertx();
        HttpServer server = vertx.createHttpServer().requestHandler(r -> r.response().putHeader("content-type", "application/json").end(set))
                .listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        jwks = URI.create("http://127.0.0.1:" + server.actualPort() + "/jwks");
        cache = new JwksCache(new IdentityHttp(vertx), clock);
        expect = new SignedJwts.Expect(ISSUER, Set.of("model-gateway"), Duration.ofSeconds(30));
        verified = new VerifiedTokens(clock);
        verified.put("bench", token, verify()); // verify() fetches the key set once; every measured call finds it cached
    }

    @TearDown(Level.Trial)
    public void close() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    /** The check every bearer credential meets: is it a JWT? */
    @Benchmark
    public boolean shape() {
        return JwtShape.looksLikeJwt(token);
    }

    /** The same token again within a kept verification: its hash looked up (the times are then checked again). */
    @Benchmark
    public JWTClaimsSet kept() {
        return verified.get("bench", token);
    }

    /** A token's whole check with its issuer's keys cached. */
    @Benchmark
    public JWTClaimsSet verify() throws Exception {
        return SignedJwts.verify(token, jwks, cache, expect, clock).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
}
