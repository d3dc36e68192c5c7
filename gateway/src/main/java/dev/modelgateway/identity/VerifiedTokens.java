package dev.modelgateway.identity;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.nimbusds.jwt.JWTClaimsSet;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Base64;
import java.util.concurrent.TimeUnit;

/**
 * Tokens whose signature was verified lately, so that a caller sending the same access token on every call (an OIDC
 * access token or a Kubernetes service-account token lives an hour) pays the signature check (≈ 140 µs for RS256 on
 * this project's 2-core machine, bench/TokenCheckBench) once per {@link #KEEP}, not per call. A hit still has its
 * issuer, audience and times checked against the configuration in force ({@link SignedJwts#check}), so an expired token
 * is refused even while kept. Keyed by the issuer's id and the token's SHA-256, never the token itself; only tokens
 * that verified enter, at most {@link #MAX} of them, so nobody outside can fill it.
 */
public final class VerifiedTokens {
    /** How long a verification stands: a key the provider withdraws stops a token kept here within this. */
    public static final Duration KEEP = Duration.ofMinutes(5);
    static final int MAX = 4096;

    private final Cache<String, JWTClaimsSet> cache;

    public VerifiedTokens(InstantSource clock) {
        this.cache = Caffeine.newBuilder().maximumSize(MAX).expireAfterWrite(KEEP)
                .ticker(() -> TimeUnit.MILLISECONDS.toNanos(clock.millis())).build();
    }

    /** The claims of {@code token}, verified for the issuer {@code issuerId} within {@link #KEEP}; null otherwise. */
    public JWTClaimsSet get(String issuerId, String token) {
        return cache.getIfPresent(key(issuerId, token));
    }

    public void put(String issuerId, String token, JWTClaimsSet claims) {
        cache.put(key(issuerId, token), claims);
    }

    private static String key(String issuerId, String token) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
            return issuerId + ":" + Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
