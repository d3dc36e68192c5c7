package dev.modelgateway.accounts.audit;

import io.vertx.core.buffer.Buffer;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;

/**
 * The signature of one webhook delivery, as Stripe and GitHub sign theirs (docs/accounts.md, "Alerts"):
 * {@code X-Platform-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">}, keyed with the signing secret's
 * text (UTF-8). The timestamp inside the signed text lets a receiver refuse a replayed delivery.
 */
final class WebhookSignature {
    static final String HEADER = "X-Platform-Signature";

    private WebhookSignature() {
    }

    static String header(String secret, long unixSeconds, Buffer body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            mac.update((unixSeconds + ".").getBytes(StandardCharsets.US_ASCII));
            mac.update(body.getBytes());
            return "t=" + unixSeconds + ",v1=" + HexFormat.of().formatHex(mac.doFinal());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }
}
