package dev.modelgateway.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.RSAPublicKey;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** The Google token endpoint and metadata server refuse what Google refuses; what they issue is what GoogleTokens accepts. */
class GoogleOAuthTest extends SimTestBase {
    private static final String CLOUD_PLATFORM = "https://www.googleapis.com/auth/cloud-platform";
    private static final KeyPair KEY = rsa(), OTHER_KEY = rsa();

    private static KeyPair rsa() {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
            g.initialize(2048);
            return g.generateKeyPair();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String sign(KeyPair key, JWTClaimsSet claims) {
        try {
            SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.RS256), claims);
            jwt.sign(new RSASSASigner(key.getPrivate()));
            return jwt.serialize();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    /** An assertion as google-auth-library signs one: iss, aud Google's token URL, scope, an hour from now. */
    private static JWTClaimsSet.Builder assertion(String email) {
        Instant now = Instant.now();
        return new JWTClaimsSet.Builder().issuer(email).audience("https://oauth2.googleapis.com/token")
                .claim("scope", CLOUD_PLATFORM).issueTime(Date.from(now)).expirationTime(Date.from(now.plusSeconds(3600)));
    }

    private static HttpResponse<String> form(Map<String, String> fields) {
        String body = fields.entrySet().stream().map(e -> e.getKey() + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
        return post("/oauth2/token", body, "content-type", "application/x-www-form-urlencoded");
    }

    private static HttpResponse<String> jwtBearer(String assertion) {
        return form(Map.of("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer", "assertion", assertion));
    }

    private static String refusal(HttpResponse<String> r) {
        assertThat(r.statusCode()).isEqualTo(400);
        JsonNode body = json(r.body());
        return body.path("error").asText() + ": " + body.path("error_description").asText();
    }

    @Test
    void aServiceAccountsSignedAssertionGetsAShortLivedToken() {
        sim.googleOAuth().trustServiceAccount("ok@p.iam.gserviceaccount.com", (RSAPublicKey) KEY.getPublic());

        HttpResponse<String> r = jwtBearer(sign(KEY, assertion("ok@p.iam.gserviceaccount.com").build()));

        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode body = json(r.body());
        assertThat(body.path("token_type").asText()).isEqualTo("Bearer");
        assertThat(body.path("expires_in").asLong()).isBetween(3590L, 3600L);
        String token = body.path("access_token").asText();
        assertThat(token).startsWith("ya29.");
        assertThat(sim.googleTokens().valid(token)).isTrue();
        assertThat(sim.googleTokens().test(token)).isTrue();
        sim.googleTokens().revoke(token);
        assertThat(sim.googleTokens().valid(token)).isFalse();
    }

    @Test
    void whatGoogleChecksInTheAssertionIsChecked() {
        String email = "checked@p.iam.gserviceaccount.com";
        sim.googleOAuth().trustServiceAccount(email, (RSAPublicKey) KEY.getPublic());
        Instant now = Instant.now();
        int before = sim.googleTokens().issued();

        assertThat(refusal(jwtBearer(sign(OTHER_KEY, assertion(email).build())))).isEqualTo("invalid_grant: Invalid JWT Signature.");
        assertThat(refusal(jwtBearer(sign(KEY, assertion("unknown@p.iam.gserviceaccount.com").build()))))
                .isEqualTo("invalid_grant: Invalid grant: account not found");
        assertThat(refusal(jwtBearer(sign(KEY, assertion(email).audience(sim.baseUrl() + "/oauth2/token").build()))))
                .startsWith("invalid_grant: Invalid JWT: Failed audience check.");
        assertThat(refusal(jwtBearer(sign(KEY, assertion(email).expirationTime(Date.from(now.plusSeconds(7200))).build()))))
                .startsWith("invalid_grant: Invalid JWT: Token must be a short-lived token (60 minutes)");
        assertThat(refusal(jwtBearer(sign(KEY, assertion(email).issueTime(Date.from(now.minusSeconds(7200)))
                .expirationTime(Date.from(now.minusSeconds(3600))).build())))).contains("Token must be a short-lived token");
        assertThat(refusal(jwtBearer(sign(KEY, assertion(email).claim("scope", null).build()))))
                .isEqualTo("invalid_scope: Invalid OAuth scope or ID token audience provided.");
        assertThat(refusal(jwtBearer(hs256(assertion(email).build())))).startsWith("invalid_grant: Invalid JWT");
        assertThat(refusal(form(Map.of("grant_type", "client_credentials")))).isEqualTo("unsupported_grant_type: Invalid grant_type: client_credentials");
        assertThat(sim.googleTokens().issued()).isEqualTo(before);
    }

    private static String hs256(JWTClaimsSet claims) {
        try {
            SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), claims);
            jwt.sign(new MACSigner(new byte[32]));
            return jwt.serialize();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void stsExchangesATrustedIssuersTokenForItsPool() {
        String audience = "//iam.googleapis.com/projects/1/locations/global/workloadIdentityPools/ci/providers/oidc";
        sim.googleOAuth().trustWorkloadIdentityPool(audience, "https://issuer.example", (RSAPublicKey) KEY.getPublic());
        Instant now = Instant.now();
        JWTClaimsSet.Builder subject = new JWTClaimsSet.Builder().issuer("https://issuer.example").subject("job-7")
                .audience("https:" + audience).issueTime(Date.from(now)).expirationTime(Date.from(now.plusSeconds(600)));
        Map<String, String> exchange = new LinkedHashMap<>(Map.of("grant_type", "urn:ietf:params:oauth:grant-type:token-exchange",
                "audience", audience, "scope", CLOUD_PLATFORM, "requested_token_type", "urn:ietf:params:oauth:token-type:access_token",
                "subject_token_type", "urn:ietf:params:oauth:token-type:jwt", "subject_token", sign(KEY, subject.build())));

        HttpResponse<String> r = form(exchange);
        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode body = json(r.body());
        assertThat(body.path("issued_token_type").asText()).isEqualTo("urn:ietf:params:oauth:token-type:access_token");
        assertThat(sim.googleTokens().subjectOf(body.path("access_token").asText()))
                .isEqualTo("principal://iam.googleapis.com/projects/1/locations/global/workloadIdentityPools/ci/providers/oidc/subject/job-7");

        exchange.put("subject_token", sign(OTHER_KEY, subject.build()));
        assertThat(refusal(form(exchange))).startsWith("invalid_grant");
        exchange.put("subject_token", sign(KEY, subject.audience("https://elsewhere").build()));
        assertThat(refusal(form(exchange))).startsWith("invalid_grant");
        exchange.put("audience", audience.replace("ci", "cd"));
        assertThat(refusal(form(exchange))).startsWith("invalid_target");
    }

    @Test
    void theMetadataServerAnswersOnlyWithItsHeaderAndReissuesFiveMinutesBeforeExpiry() throws Exception {
        AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-01-01T00:00:00Z"));
        sim.googleTokens().useClock((InstantSource) now::get);
        try {
            assertThat(metadata(null).statusCode()).isEqualTo(403);
            JsonNode first = json(metadata("Google").body());
            assertThat(first.path("expires_in").asLong()).isEqualTo(3600);
            now.set(now.get().plus(Duration.ofMinutes(54)));
            JsonNode again = json(metadata("Google").body());
            assertThat(again.path("access_token").asText()).isEqualTo(first.path("access_token").asText());
            assertThat(again.path("expires_in").asLong()).isEqualTo(360);
            now.set(now.get().plus(Duration.ofMinutes(1)));
            JsonNode renewed = json(metadata("Google").body());
            assertThat(renewed.path("access_token").asText()).isNotEqualTo(first.path("access_token").asText());
            assertThat(renewed.path("expires_in").asLong()).isEqualTo(3600);
        } finally {
            sim.googleTokens().useClock(InstantSource.system());
        }
    }

    private static HttpResponse<String> metadata(String flavor) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(sim.baseUrl() + "/computeMetadata/v1/instance/service-accounts/default/token"));
        if (flavor != null) b.header("Metadata-Flavor", flavor);
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
