package dev.modelgateway.console;

import dev.modelgateway.access.Principal;
import dev.modelgateway.accounts.SignIns;
import dev.modelgateway.accounts.keys.ConsoleSession;
import dev.modelgateway.accounts.keys.User;
import io.vertx.core.Future;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * People's console sessions (docs/identity/sso.md, "Sessions"): opened by a sign-in, kept in the accounts database
 * (so any replica serves them) and named by the SHA-256 of the cookie's random value. A session ends when unused for
 * {@code console.session_idle_seconds}, {@code console.session_max_seconds} after its sign-in, at sign-out, or when
 * its user is deactivated; each is re-read with its user at most every {@code console.session_recheck_seconds}, so a
 * deactivation or a change of roles reaches a running session within that. Times are by the accounts' clock.
 */
public final class ConsoleSessions {
    /** The session cookie's name. */
    public static final String COOKIE = "mg_session";
    /** The routing context's key of a cookie-authenticated request's CSRF token, which {@code /me} shows the console. */
    public static final String CSRF_TOKEN = "console.csrf_token";
    /** Sessions held in memory at once: only sessions that exist are held, and the cache is dropped past this. */
    static final int MAX_HELD = 10_000;
    private static final SecureRandom RANDOM = new SecureRandom();

    /** How long sessions live and how often they are re-read. */
    public record Times(Duration idle, Duration max, Duration recheck) {
    }

    /** A live session: who it acts for, and the token its state-changing requests must repeat. */
    public record Active(String id, Principal principal, String csrfToken, String provider, String idToken) {
    }

    private record Held(ConsoleSession session, User user, Instant readAt, Instant lastSeen) {
    }

    private final SignIns store;
    private final InstantSource clock;
    private final Times times;
    private final Map<String, Held> held = new ConcurrentHashMap<>();

    ConsoleSessions(SignIns store, InstantSource clock, Times times) {
        this.store = store;
        this.clock = clock;
        this.times = times;
    }

    /** The session a cookie's value names, if it is live; an ended one is deleted. */
    public Future<Optional<Active>> find(String cookieValue) {
        if (cookieValue == null || cookieValue.isEmpty() || cookieValue.length() > 100) return Future.succeededFuture(Optional.empty());
        String id = sha256(cookieValue);
        Instant now = clock.instant();
        Held h = held.get(id);
        if (h != null && now.isBefore(h.readAt().plus(times.recheck()))) {
            if (ended(h.session(), h.lastSeen(), now)) return end(id).map(Optional.empty());
            held.put(id, new Held(h.session(), h.user(), h.readAt(), now));
            return Future.succeededFuture(Optional.of(active(h.session(), h.user())));
        }
        return store.read(id, h == null ? null : h.lastSeen(), times.idle(), now).map(found -> {
            if (found.isEmpty()) {
                held.remove(id);
                return Optional.empty();
            }
            if (held.size() >= MAX_HELD) held.clear();
            held.put(id, new Held(found.get().session(), found.get().user(), now, now));
            return Optional.of(active(found.get().session(), found.get().user()));
        });
    }

    private boolean ended(ConsoleSession s, Instant lastSeen, Instant now) {
        return !now.isBefore(s.expiresAt()) || !now.isBefore(lastSeen.plus(times.idle()));
    }

    private static Active active(ConsoleSession s, User u) {
        return new Active(s.id(), new Principal(Principal.Kind.USER, u.id(), u.shown(), u.grants()), s.csrfToken(), s.provider(), s.idToken());
    }

    /** A new session for a signed-in user; answers the cookie's value (only its hash is stored). */
    Future<String> open(User user, String provider, String idToken) {
        String value = random();
        Instant now = clock.instant();
        ConsoleSession s = new ConsoleSession(sha256(value), user.id(), provider, now, now, now.plus(times.max()), random(), idToken);
        return store.open(s).map(value);
    }

    /** Ends the session named by its id (sign-out). */
    Future<Void> end(String id) {
        held.remove(id);
        return store.end(id);
    }

    /** The cookie's lifetime: the session's absolute one (the server refuses it sooner when idle). */
    long cookieMaxAgeSeconds() {
        return times.max().toSeconds();
    }

    /** 256 random bits, base64url. */
    static String random() {
        byte[] b = new byte[32];
        RANDOM.nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    static String sha256(String s) {
        return HexFormat.of().formatHex(digest(s.getBytes(StandardCharsets.US_ASCII)));
    }

    static byte[] digest(byte[] b) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(b);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
