package dev.modelgateway.identity;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.vertx.core.Future;

import java.net.URI;
import java.text.ParseException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Date;
import java.util.List;
import java.util.Set;

/**
 * Checks a JWT an identity provider signed (RFC 7519 §7.2, RFC 8725): parsed and its signature verified by
 * nimbus-jose-jwt with a key from the issuer's set ({@link JwksCache}), with an asymmetric algorithm only (never
 * {@code none}, never a shared-secret HMAC a public key could be passed off as), then its issuer, audience and times
 * by the injected clock with the configured leeway. Each refusal says why, for the caller's 401.
 */
public final class SignedJwts {
    /** The algorithms accepted: RSA and ECDSA signatures. */
    static final Set<JWSAlgorithm> ALGORITHMS = Set.of(JWSAlgorithm.RS256, JWSAlgorithm.RS384, JWSAlgorithm.RS512,
            JWSAlgorithm.PS256, JWSAlgorithm.PS384, JWSAlgorithm.PS512, JWSAlgorithm.ES256, JWSAlgorithm.ES384, JWSAlgorithm.ES512);

    public enum Reason { MALFORMED, ALGORITHM, UNKNOWN_KEY, BAD_SIGNATURE, WRONG_ISSUER, WRONG_AUDIENCE, EXPIRED, NOT_YET_VALID, NO_KEYS }

    /** Why a token was refused; the message is safe to show the caller (it quotes no token). */
    public static final class Refused extends RuntimeException {
        public final Reason reason;

        Refused(Reason reason, String message) {
            super(message, null, false, false);
            this.reason = reason;
        }
    }

    /** What the token must say: its issuer exactly, one of the audiences, times within the leeway. */
    public record Expect(String issuer, Set<String> audiences, Duration leeway) {
    }

    private SignedJwts() {
    }

    public static Future<JWTClaimsSet> verify(String token, URI jwksUri, JwksCache keys, Expect expect, InstantSource clock) {
        SignedJWT jwt;
        try {
            jwt = SignedJWT.parse(token);
        } catch (ParseException e) {
            // alg "none" lands here too: nimbus parses an unsecured JWT as no JWS at all
            return Future.failedFuture(new Refused(Reason.MALFORMED, "The token is not a signed JWT."));
        }
        JWSAlgorithm alg = jwt.getHeader().getAlgorithm();
        if (!ALGORITHMS.contains(alg)) {
            return Future.failedFuture(new Refused(Reason.ALGORITHM, "The token's algorithm " + alg + " is not accepted (RS*, PS*, ES* only)."));
        }
        String kid = jwt.getHeader().getKeyID();
        return keys.key(jwksUri, kid)
                .recover(e -> Future.failedFuture(e instanceof Refused ? e
                        : new Refused(Reason.NO_KEYS, "The issuer's signing keys could not be read: " + e.getMessage())))
                .map(found -> {
                    JWK key = found.orElseThrow(() -> new Refused(Reason.UNKNOWN_KEY, "The token is signed with a key ("
                            + (kid == null ? "no kid" : "kid " + kid) + ") the issuer does not publish."));
                    if (!verified(jwt, key, alg)) throw new Refused(Reason.BAD_SIGNATURE, "The token's signature does not verify.");
                    JWTClaimsSet claims;
                    try {
                        claims = jwt.getJWTClaimsSet();
                    } catch (ParseException e) {
                        throw new Refused(Reason.MALFORMED, "The token's claims are not a JSON object.");
                    }
                    check(claims, expect, clock.instant());
                    return claims;
                });
    }

    private static boolean verified(SignedJWT jwt, JWK key, JWSAlgorithm alg) {
        if (key.getKeyUse() != null && key.getKeyUse() != KeyUse.SIGNATURE) return false;
        if (key.getAlgorithm() != null && !key.getAlgorithm().equals(alg)) return false;
        try {
            JWSVerifier verifier;
            if (key instanceof RSAKey rsa && alg.getName().matches("RS\\d+|PS\\d+")) verifier = new RSASSAVerifier(rsa);
            else if (key instanceof ECKey ec && alg.getName().startsWith("ES")) verifier = new ECDSAVerifier(ec);
            else return false;
            return jwt.verify(verifier);
        } catch (JOSEException e) {
            return false;
        }
    }

    /** The claims' issuer, audience and times, by {@code now}: the check a kept verification ({@link VerifiedTokens}) repeats. */
    static void check(JWTClaimsSet claims, Expect expect, Instant now) {
        if (!expect.issuer().equals(claims.getIssuer())) {
            throw new Refused(Reason.WRONG_ISSUER, "The token's issuer is not " + expect.issuer() + ".");
        }
        List<String> aud = claims.getAudience();
        if (aud == null || aud.stream().noneMatch(expect.audiences()::contains)) {
            throw new Refused(Reason.WRONG_AUDIENCE, "The token is not meant for this gateway (its aud is none of " + expect.audiences() + ").");
        }
        Date exp = claims.getExpirationTime();
        if (exp == null) throw new Refused(Reason.MALFORMED, "The token has no expiry (exp).");
        if (!now.isBefore(exp.toInstant().plus(expect.leeway()))) {
            throw new Refused(Reason.EXPIRED, "The token expired at " + exp.toInstant() + ".");
        }
        Date nbf = claims.getNotBeforeTime();
        if (nbf != null && now.isBefore(nbf.toInstant().minus(expect.leeway()))) {
            throw new Refused(Reason.NOT_YET_VALID, "The token is not valid before " + nbf.toInstant() + ".");
        }
    }
}
