package dev.modelgateway.routing;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.function.Function;

/** Reads a vendor's retry hint: {@code retry-after-ms} (OpenAI), else {@code retry-after} in seconds or as an HTTP date. */
public final class RetryAfter {
    private RetryAfter() {
    }

    /** @return the hint in milliseconds, or -1 when there is none or it cannot be read */
    public static long millis(Function<String, String> header) {
        String ms = header.apply("retry-after-ms");
        if (ms != null) {
            try {
                return Math.max(0, Math.round(Double.parseDouble(ms.trim())));
            } catch (NumberFormatException ignored) {
                // fall through to retry-after
            }
        }
        String s = header.apply("retry-after");
        if (s == null) return -1;
        try {
            return Math.max(0, Math.round(Double.parseDouble(s.trim()) * 1000));
        } catch (NumberFormatException notSeconds) {
            try {
                Instant at = ZonedDateTime.parse(s.trim(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
                return Math.max(0, Duration.between(Instant.now(), at).toMillis());
            } catch (DateTimeParseException notADate) {
                return -1;
            }
        }
    }
}
