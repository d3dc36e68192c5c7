package dev.modelgateway.observability;

import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;

import java.nio.charset.StandardCharsets;

/**
 * The console's encoder: the pattern's whole output (message, arguments, stack trace) through {@link Redaction}, so
 * that no logger anywhere (ours, Vert.x's, a library's) can print a credential.
 */
public final class RedactingEncoder extends PatternLayoutEncoder {
    @Override
    public byte[] encode(ILoggingEvent event) {
        return Redaction.scrub(getLayout().doLayout(event)).getBytes(StandardCharsets.UTF_8);
    }
}
