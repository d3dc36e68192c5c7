package dev.modelgateway.observability;

import io.vertx.core.buffer.Buffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;

/**
 * Every error body the gateway sends passes here: {@link Redaction#scrub} (a vendor's error may quote the key it was
 * given), and one DEBUG line on the logger {@value #LOGGER}, which the canary-secret test turns on to see every body
 * the suite produced (off in production: one level check).
 */
public final class ErrorBodies {
    public static final String LOGGER = "dev.modelgateway.errors";
    private static final Logger LOG = LoggerFactory.getLogger(LOGGER);

    private ErrorBodies() {
    }

    public static Buffer sent(int status, Buffer body) {
        String text = body.toString(StandardCharsets.UTF_8);
        String clean = Redaction.scrub(text);
        if (LOG.isDebugEnabled()) LOG.debug("error body {}: {}", status, clean);
        return clean == text ? body : Buffer.buffer(clean, "UTF-8");
    }
}
