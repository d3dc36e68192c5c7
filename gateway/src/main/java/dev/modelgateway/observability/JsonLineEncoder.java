package dev.modelgateway.observability;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.encoder.EncoderBase;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * The console's encoder in JSON mode ({@code GATEWAY_ACCESS_LOG_FORMAT=json}, docs/observability.md, "Logs"): one
 * object per line, {@code {"ts","level","logger","thread","msg","error"}}, so that a log pipeline reading the access
 * log's JSON lines is not fed plain text by the other loggers on the same stream. The message and the stack trace go
 * through {@link Redaction} before they are encoded, as {@link RedactingEncoder} does for text lines.
 */
public final class JsonLineEncoder extends EncoderBase<ILoggingEvent> {
    private static final JsonFactory JSON = new JsonFactory();

    @Override
    public byte[] headerBytes() {
        return null;
    }

    @Override
    public byte[] encode(ILoggingEvent event) {
        StringWriter line = new StringWriter(128);
        try (JsonGenerator g = JSON.createGenerator(line)) {
            g.writeStartObject();
            g.writeStringField("ts", Instant.ofEpochMilli(event.getTimeStamp()).toString());
            g.writeStringField("level", event.getLevel().toString());
            g.writeStringField("logger", event.getLoggerName());
            g.writeStringField("thread", event.getThreadName());
            g.writeStringField("msg", Redaction.scrub(event.getFormattedMessage()));
            IThrowableProxy error = event.getThrowableProxy();
            if (error != null) g.writeStringField("error", Redaction.scrub(ThrowableProxyUtil.asString(error)));
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringWriter does not fail
        }
        return line.append('\n').toString().getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public byte[] footerBytes() {
        return null;
    }
}
