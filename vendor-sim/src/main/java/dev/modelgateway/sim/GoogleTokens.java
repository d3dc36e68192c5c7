package dev.modelgateway.sim;

import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * The access tokens the simulated Google token endpoint and metadata server issued: opaque, short-lived, and the only
 * Bearer tokens the Vertex double accepts ({@link #test} is {@link #valid}). Expiry is read on a clock a test may
 * replace ({@link #useClock}) to expire tokens without waiting.
 */
public final class GoogleTokens implements Predicate<String> {
    private record Issued(String subject, Instant expiresAt) {
    }

    private final Map<String, Issued> tokens = new ConcurrentHashMap<>();
    private final AtomicInteger issued = new AtomicInteger();
    private final SecureRandom random = new SecureRandom();
    private volatile InstantSource clock = InstantSource.system();
    private volatile Duration lifetime = Duration.ofHours(1);

    /** Reads expiry on {@code clock} from now on (the system clock by default). */
    public void useClock(InstantSource clock) {
        this.clock = clock;
    }

    /** The lifetime of the tokens issued from now on ({@code expires_in}); an hour by default, as Google's. */
    public void lifetime(Duration lifetime) {
        if (lifetime.isNegative() || lifetime.isZero()) throw new IllegalArgumentException("a token lifetime is positive: " + lifetime);
        this.lifetime = lifetime;
    }

    /** Whether {@code accessToken} was issued here, is not revoked and has not expired. */
    public boolean valid(String accessToken) {
        Issued t = accessToken == null ? null : tokens.get(accessToken);
        return t != null && clock.instant().isBefore(t.expiresAt());
    }

    @Override
    public boolean test(String accessToken) {
        return valid(accessToken);
    }

    /** How many tokens were issued so far (a metadata server's cached token counts once). */
    public int issued() {
        return issued.get();
    }

    /** The token stops being accepted, as a revoked one at Google. */
    public void revoke(String accessToken) {
        tokens.remove(accessToken);
    }

    /** The identity {@code accessToken} was issued to (a client_email, an STS subject, the metadata's account); null if not valid. */
    public String subjectOf(String accessToken) {
        Issued t = accessToken == null ? null : tokens.get(accessToken);
        return t != null && valid(accessToken) ? t.subject() : null;
    }

    /** A new token for {@code subject}; Google's access tokens start with {@code ya29.}. */
    String issue(String subject) {
        byte[] bytes = new byte[24];
        random.nextBytes(bytes);
        String token = "ya29.sim-" + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        tokens.put(token, new Issued(subject, clock.instant().plus(lifetime)));
        issued.incrementAndGet();
        return token;
    }

    /** Seconds {@code token} has left (0 when it is not valid): the {@code expires_in} of an answer. */
    long secondsLeft(String token) {
        Issued t = tokens.get(token);
        return t == null ? 0 : Math.max(0, Duration.between(clock.instant(), t.expiresAt()).toSeconds());
    }
}
