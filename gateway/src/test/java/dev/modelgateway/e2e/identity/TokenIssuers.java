package dev.modelgateway.e2e.identity;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Two identity providers on loopback, as a test's gateway trusts them: {@code /corp}, an OpenID provider (discovery
 * document, RSA keys, access tokens with scope, email and groups), and {@code /k8s}, a Kubernetes API server's
 * service-account issuer (EC keys at {@code /k8s/openid/v1/jwks}, projected service-account tokens). Keys made and
 * tokens signed with nimbus-jose-jwt; the corp key can be rotated (a new kid, the old one withdrawn).
 */
final class TokenIssuers implements AutoCloseable {
    static final String AUDIENCE = "model-gateway";

    private final HttpServer server;
    final String base;
    private volatile RSAKey corpKey;
    private final ECKey k8sKey;
    final AtomicInteger corpKeyFetches = new AtomicInteger();

    TokenIssuers() throws IOException, JOSEException {
        corpKey = new RSAKeyGenerator(2048).keyID("corp-1").keyUse(KeyUse.SIGNATURE).generate();
        k8sKey = new ECKeyGenerator(Curve.P_256).keyID("k8s-1").keyUse(KeyUse.SIGNATURE).generate();
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        base = "http://127.0.0.1:" + server.getAddress().getPort();
        server.createContext("/corp/.well-known/openid-configuration", ex -> json(ex, "{\"issuer\":\"" + corp()
                + "\",\"jwks_uri\":\"" + corp() + "/jwks\",\"token_endpoint\":\"" + corp() + "/token\"}"));
        server.createContext("/corp/jwks", ex -> {
            corpKeyFetches.incrementAndGet();
            json(ex, new JWKSet((JWK) corpKey.toPublicJWK()).toString());
        });
        server.createContext("/k8s/openid/v1/jwks", ex -> json(ex, new JWKSet((JWK) k8sKey.toPublicJWK()).toString()));
        server.start();
    }

    String corp() {
        return base + "/corp";
    }

    String k8s() {
        return base + "/k8s";
    }

    /** A new signing key at the provider: tokens are signed with it, and the key set publishes only it. */
    void rotateCorpKey(String kid) throws JOSEException {
        corpKey = new RSAKeyGenerator(2048).keyID(kid).keyUse(KeyUse.SIGNATURE).generate();
    }

    /** An OIDC access token (RFC 9068's claims) for {@code subject}, issued at {@code now}, valid an hour. */
    JWTClaimsSet.Builder access(String subject, Instant now, String... groups) {
        return new JWTClaimsSet.Builder().issuer(corp()).audience(List.of(AUDIENCE, "account")).subject(subject)
                .claim("scope", "openid email llm.call").claim("email", subject + "@corp.example").claim("groups", List.of(groups))
                .claim("client_id", "gateway-cli").issueTime(Date.from(now)).notBeforeTime(Date.from(now))
                .expirationTime(Date.from(now.plus(Duration.ofHours(1)))).jwtID("jti-" + subject + "-" + now.toEpochMilli());
    }

    /** A projected service-account token as the kubelet gets it for a pod (audience set by the volume). */
    JWTClaimsSet.Builder serviceAccount(String namespace, String name, Instant now) {
        return new JWTClaimsSet.Builder().issuer(k8s()).audience(AUDIENCE).subject("system:serviceaccount:" + namespace + ":" + name)
                .claim("kubernetes.io", Map.of("namespace", namespace,
                        "serviceaccount", Map.of("name", name, "uid", "5c0ffee0-aaaa-4bbb-8ccc-" + name.hashCode()),
                        "pod", Map.of("name", name + "-7d9f", "uid", "0a1b2c3d-0000-4000-8000-000000000001")))
                .issueTime(Date.from(now)).notBeforeTime(Date.from(now)).expirationTime(Date.from(now.plus(Duration.ofHours(1))));
    }

    String signCorp(JWTClaimsSet.Builder claims) {
        return sign(claims.build(), new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(corpKey.getKeyID()).type(new JOSEObjectType("at+jwt")).build(),
                rsa(corpKey));
    }

    String signK8s(JWTClaimsSet.Builder claims) {
        try {
            return sign(claims.build(), new JWSHeader.Builder(JWSAlgorithm.ES256).keyID(k8sKey.getKeyID()).build(), new ECDSASigner(k8sKey));
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Signed with a key the provider never published, under its real kid. */
    String signWithStrangerKey(JWTClaimsSet.Builder claims) throws JOSEException {
        RSAKey stranger = new RSAKeyGenerator(2048).keyID(corpKey.getKeyID()).generate();
        return sign(claims.build(), new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(corpKey.getKeyID()).build(), rsa(stranger));
    }

    /** Signed with a kid the provider does not publish. */
    String signWithUnknownKid(JWTClaimsSet.Builder claims) throws JOSEException {
        RSAKey other = new RSAKeyGenerator(2048).keyID("nobody-knows").generate();
        return sign(claims.build(), new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("nobody-knows").build(), rsa(other));
    }

    /** The key-confusion attack: HS256 with the provider's public key's bytes as the shared secret. */
    String signHs256WithPublicKey(JWTClaimsSet.Builder claims) throws JOSEException {
        byte[] secret = corpKey.toPublicJWK().toJSONString().getBytes(StandardCharsets.UTF_8);
        return sign(claims.build(), new JWSHeader.Builder(JWSAlgorithm.HS256).keyID(corpKey.getKeyID()).build(), new MACSigner(secret));
    }

    /** {@code alg: none}: no signature at all. */
    static String unsigned(JWTClaimsSet.Builder claims) {
        return new PlainJWT(claims.build()).serialize();
    }

    /** A signed token with its payload swapped after signing. */
    String tampered(JWTClaimsSet.Builder claims, JWTClaimsSet.Builder other) {
        String[] parts = signCorp(claims).split("\\.");
        return parts[0] + "." + Base64URL.encode(other.build().toString()) + "." + parts[2];
    }

    private static RSASSASigner rsa(RSAKey key) {
        try {
            return new RSASSASigner(key);
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String sign(JWTClaimsSet claims, JWSHeader header, JWSSigner signer) {
        SignedJWT jwt = new SignedJWT(header, claims);
        try {
            jwt.sign(signer);
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
        return jwt.serialize();
    }

    private static void json(HttpExchange ex, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().add("content-type", "application/json");
        ex.sendResponseHeaders(200, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
