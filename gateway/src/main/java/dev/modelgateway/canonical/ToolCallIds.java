package dev.modelgateway.canonical;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * Tool-call ids cross vendor families (Kimi's {@code functions.Bash:0}, Gemini's missing ids, long Responses
 * ids). Vendors constrain them (Anthropic {@code ^[a-zA-Z0-9_-]+$}, OpenAI ≤ 40 chars), so encoders pass
 * every id — on the call and on its result alike — through {@link #sanitize}, which is deterministic and
 * leaves already valid ids untouched.
 */
public final class ToolCallIds {
    public static final int OPENAI_MAX = 40;
    public static final int ANTHROPIC_MAX = 64;
    private static final Pattern VALID = Pattern.compile("^[a-zA-Z0-9_-]+$");
    private static final Pattern INVALID_CHAR = Pattern.compile("[^a-zA-Z0-9_-]");

    private ToolCallIds() { }

    public static String sanitize(String id, int maxLength) {
        if (id == null || id.isEmpty()) return "call_" + shortHash("");
        if (id.length() <= maxLength && VALID.matcher(id).matches()) return id;
        String cleaned = INVALID_CHAR.matcher(id).replaceAll("_");
        String hash = shortHash(id);
        int keep = Math.min(cleaned.length(), maxLength - hash.length() - 1);
        return cleaned.substring(0, keep) + "_" + hash;
    }

    /** A stable id for a call the vendor did not name (Gemini): derived from where it appeared. */
    public static String synthesize(String responseId, int position) {
        return "call_" + shortHash(responseId + "#" + position) + position;
    }

    private static String shortHash(String s) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 5);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
