package dev.modelgateway.sim;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Opaque signatures for thinking blocks / thought signatures: base64 HMAC-SHA256 over the thinking text with
 * a fixed secret, so the simulator can verify that clients replay thinking unmodified (as Anthropic does).
 */
final class Signatures {
    private static final byte[] SECRET = "model-gateway-vendor-sim-secret".getBytes(StandardCharsets.UTF_8);
    private static final ThreadLocal<Mac> MAC = ThreadLocal.withInitial(() -> {
        try {
            Mac m = Mac.getInstance("HmacSHA256");
            m.init(new SecretKeySpec(SECRET, "HmacSHA256"));
            return m;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    });

    private Signatures() {
    }

    static String sign(String text) {
        byte[] mac = MAC.get().doFinal(text.getBytes(StandardCharsets.UTF_8));
        return Base64.getEncoder().encodeToString(mac);
    }

    static boolean verify(String text, String signature) {
        return text != null && signature != null && sign(text).equals(signature);
    }

    /** Redacted thinking payload: carries the text and its signature, so a replay can be verified. */
    static String redact(String text) {
        String payload = "sim-redacted|" + sign(text) + "|" + text;
        return Base64.getEncoder().encodeToString(payload.getBytes(StandardCharsets.UTF_8));
    }

    static boolean verifyRedacted(String data) {
        try {
            String p = new String(Base64.getDecoder().decode(data), StandardCharsets.UTF_8);
            String[] parts = p.split("\\|", 3);
            return parts.length == 3 && parts[0].equals("sim-redacted") && verify(parts[2], parts[1]);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
