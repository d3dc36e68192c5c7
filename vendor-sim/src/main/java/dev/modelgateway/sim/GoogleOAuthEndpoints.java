package dev.modelgateway.sim;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.interfaces.RSAPublicKey;
import java.text.ParseException;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Google's token endpoint at {@code POST /oauth2/token}, for the two grants the gateway's Google credentials use:
 * <ul>
 *   <li>the JWT-bearer grant of a service account (RFC 7523; developers.google.com/identity/protocols/oauth2/service-account,
 *       "Preparing to make an authorized API call"): the {@code assertion} is an RS256 JWT whose signature is checked
 *       against the public key of a service account trusted here ({@link #trustServiceAccount}), whose {@code iss} is
 *       its client_email, {@code aud} Google's token URL (whatever URL the assertion is posted to: "the value is always
 *       https://oauth2.googleapis.com/token", and the client libraries sign it so), {@code scope} present, and {@code iat}/{@code exp} at most an
 *       hour apart around now;</li>
 *   <li>STS's token exchange (RFC 8693; cloud.google.com/iam/docs/reference/sts/rest/v1/TopLevel/token) for workload
 *       identity federation: the {@code subject_token} is a JWT of a trusted pool's issuer
 *       ({@link #trustWorkloadIdentityPool}), signed by its key, for that provider's default audience.</li>
 * </ul>
 * Issued tokens go to {@link GoogleTokens}. The JWTs' times are checked on the system clock, which the client
 * libraries sign with; the tokens' lifetimes on {@link GoogleTokens}' clock.
 */
public final class GoogleOAuthEndpoints {
    static final String PATH = "/oauth2/token";
    static final String AUDIENCE = "https://oauth2.googleapis.com/token";
    static final String JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
    static final String TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
    static final String ACCESS_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:access_token";
    private static final Set<String> SUBJECT_TOKEN_TYPES = Set.of("urn:ietf:params:oauth:token-type:jwt",
            "urn:ietf:params:oauth:token-type:id_token");
    private static final Duration MAX_ASSERTION_LIFETIME = Duration.ofHours(1);
    private static final Duration SKEW = Duration.ofMinutes(5);

    private record Pool(String issuer, RSAPublicKey key) {
    }

    private final GoogleTokens tokens;
    private final Map<String, RSAPublicKey> serviceAccounts = new ConcurrentHashMap<>();
    private final Map<String, Pool> pools = new ConcurrentHashMap<>();

    GoogleOAuthEndpoints(GoogleTokens tokens) {
        this.tokens = tokens;
    }

    /** Accepts assertions signed by {@code key} for {@code clientEmail}, as Google knows a service account's keys. */
    public void trustServiceAccount(String clientEmail, RSAPublicKey key) {
        serviceAccounts.put(clientEmail, key);
    }

    /**
     * Accepts subject tokens of {@code issuer} signed by {@code key} for the workload identity pool provider
     * {@code audience} ({@code //iam.googleapis.com/projects/N/locations/global/workloadIdentityPools/P/providers/R}).
     */
    public void trustWorkloadIdentityPool(String audience, String issuer, RSAPublicKey key) {
        pools.put(audience, new Pool(issuer, key));
    }

    void handle(HttpServerRequest req) {
        if (req.method() != HttpMethod.POST) {
            error(req, 405, "invalid_request", "The token endpoint takes POST.");
            return;
        }
        req.body().onSuccess(buf -> {
            Map<String, String> form = form(buf.toString(StandardCharsets.UTF_8));
            String grant = form.getOrDefault("grant_type", "");
            switch (grant) {
                case JWT_BEARER -> jwtBearer(req, form);
                case TOKEN_EXCHANGE -> tokenExchange(req, form);
                default -> error(req, 400, "unsupported_grant_type", "Invalid grant_type: " + grant);
            }
        });
    }

    private void jwtBearer(HttpServerRequest req, Map<String, String> form) {
        SignedJWT jwt = parse(form.get("assertion"));
        if (jwt == null || !JWSAlgorithm.RS256.equals(jwt.getHeader().getAlgorithm())) {
            error(req, 400, "invalid_grant", "Invalid JWT: the assertion is not an RS256 JWT.");
            return;
        }
        JWTClaimsSet claims = claims(jwt);
        RSAPublicKey key = claims == null || claims.getIssuer() == null ? null : serviceAccounts.get(claims.getIssuer());
        if (key == null) {
            error(req, 400, "invalid_grant", "Invalid grant: account not found");
        } else if (!verifies(jwt, key)) {
            error(req, 400, "invalid_grant", "Invalid JWT Signature.");
        } else if (claims.getAudience() == null || !claims.getAudience().contains(AUDIENCE)) {
            error(req, 400, "invalid_grant", "Invalid JWT: Failed audience check. The expected value was " + AUDIENCE);
        } else if (!shortLived(claims.getIssueTime(), claims.getExpirationTime())) {
            error(req, 400, "invalid_grant", "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable"
                    + " timeframe. Check your iat and exp values in the JWT claim.");
        } else if (!(claims.getClaim("scope") instanceof String scope) || scope.isBlank()) {
            error(req, 400, "invalid_scope", "Invalid OAuth scope or ID token audience provided.");
        } else {
            String token = tokens.issue(claims.getIssuer());
            ok(req, Json.obj().put("access_token", token).put("expires_in", tokens.secondsLeft(token)).put("token_type", "Bearer"));
        }
    }

    private void tokenExchange(HttpServerRequest req, Map<String, String> form) {
        Pool pool = pools.get(form.getOrDefault("audience", ""));
        SignedJWT subject = parse(form.get("subject_token"));
        JWTClaimsSet claims = subject == null ? null : claims(subject);
        if (!SUBJECT_TOKEN_TYPES.contains(form.getOrDefault("subject_token_type", ""))
                || !ACCESS_TOKEN_TYPE.equals(form.get("requested_token_type"))) {
            error(req, 400, "invalid_request", "Invalid subject_token_type or requested_token_type.");
        } else if (pool == null) {
            error(req, 400, "invalid_target", "The target service indicated by the \"audience\" parameters is invalid.");
        } else if (claims == null || !pool.issuer().equals(claims.getIssuer()) || !verifies(subject, pool.key())) {
            error(req, 400, "invalid_grant", "The provided subject token is not valid for this pool provider.");
        } else if (claims.getAudience() == null || !claims.getAudience().contains("https:" + form.get("audience"))) {
            // An OIDC provider's default allowed audience (cloud.google.com/iam/docs/workload-identity-federation-with-other-providers)
            error(req, 400, "invalid_grant", "The audience in ID Token does not match the expected audience.");
        } else if (claims.getExpirationTime() == null || !Instant.now().isBefore(claims.getExpirationTime().toInstant())) {
            error(req, 400, "invalid_grant", "The subject token has expired.");
        } else if (form.getOrDefault("scope", "").isBlank()) {
            error(req, 400, "invalid_scope", "A scope is required.");
        } else {
            String token = tokens.issue("principal://" + form.get("audience").substring(2) + "/subject/" + claims.getSubject());
            ok(req, Json.obj().put("access_token", token).put("issued_token_type", ACCESS_TOKEN_TYPE)
                    .put("token_type", "Bearer").put("expires_in", tokens.secondsLeft(token)));
        }
    }

    private static boolean shortLived(Date iat, Date exp) {
        if (iat == null || exp == null) return false;
        Instant now = Instant.now(), issued = iat.toInstant(), expires = exp.toInstant();
        return expires.isAfter(issued) && !Duration.between(issued, expires).minus(MAX_ASSERTION_LIFETIME).isPositive()
                && issued.isBefore(now.plus(SKEW)) && expires.isAfter(now.minus(SKEW));
    }

    private static SignedJWT parse(String jwt) {
        try {
            return jwt == null ? null : SignedJWT.parse(jwt);
        } catch (ParseException e) {
            return null;
        }
    }

    private static JWTClaimsSet claims(SignedJWT jwt) {
        try {
            return jwt.getJWTClaimsSet();
        } catch (ParseException e) {
            return null;
        }
    }

    private static boolean verifies(SignedJWT jwt, RSAPublicKey key) {
        try {
            return jwt.verify(new RSASSAVerifier(key));
        } catch (JOSEException e) {
            return false;
        }
    }

    static Map<String, String> form(String body) {
        Map<String, String> out = new HashMap<>();
        for (String pair : body.split("&")) {
            if (pair.isEmpty()) continue;
            int eq = pair.indexOf('=');
            String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            out.put(name, eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return out;
    }

    private static void ok(HttpServerRequest req, ObjectNode body) {
        req.response().putHeader("content-type", "application/json; charset=utf-8").end(Json.write(body));
    }

    /** Google's OAuth error shape (RFC 6749 §5.2). */
    private static void error(HttpServerRequest req, int status, String error, String description) {
        req.response().setStatusCode(status).putHeader("content-type", "application/json; charset=utf-8")
                .end(Json.write(Json.obj().put("error", error).put("error_description", description)));
    }
}
