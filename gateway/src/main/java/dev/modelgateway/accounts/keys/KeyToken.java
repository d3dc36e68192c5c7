package dev.modelgateway.accounts.keys;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

/**
 * Secrets handed to callers ({@code pk-} + 40 URL-safe characters), to automation's scoped admin keys ({@code pka-} +
 * 40, recognisable in a leak scan or a log) and the only forms of them we keep.
 */
public final class KeyToken {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Base64.Encoder URL_SAFE = Base64.getUrlEncoder().withoutPadding();

    private KeyToken() {}

    /** 240 random bits: too many to guess, so an unsalted fast hash is enough at rest. */
    static String newSecret() {
        return "pk-" + URL_SAFE.encodeToString(randomBytes(30));
    }

    /** The prefix of every admin key's secret, never of a platform key's. */
    public static final String ADMIN_SECRET_PREFIX = "pka-";

    static String newAdminSecret() {
        return ADMIN_SECRET_PREFIX + URL_SAFE.encodeToString(randomBytes(30));
    }

    /** Whether a bearer token is shaped as an admin key's secret (which is then looked up with the admin keys alone). */
    public static boolean isAdminSecret(String token) {
        return token.startsWith(ADMIN_SECRET_PREFIX);
    }

    static String newAdminId() {
        return "adk_" + HexFormat.of().formatHex(randomBytes(8));
    }

    static String newId() {
        return "key_" + HexFormat.of().formatHex(randomBytes(8));
    }

    public static String hash(String secret) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /** Enough to recognise a key in a listing, far too little to use it. */
    static String displayPrefix(String secret) {
        return secret.substring(0, Math.min(secret.length(), secret.startsWith(ADMIN_SECRET_PREFIX) ? 10 : 9));
    }

    /** Compares in constant time so that response timing does not leak the master key. */
    public static boolean sameSecret(String a, String b) {
        return MessageDigest.isEqual(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] randomBytes(int n) {
        byte[] bytes = new byte[n];
        RANDOM.nextBytes(bytes);
        return bytes;
    }
}
