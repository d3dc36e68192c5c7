package dev.modelgateway.accounts.limits;

import java.math.BigDecimal;

/** Durations the way OpenAI's rate-limit headers write them (Go's format): {@code 17ms}, {@code 1.5s}, {@code 6m0s}, {@code 1h2m3s}. */
public final class GoDuration {
    private GoDuration() {}

    public static String format(long ms) {
        if (ms <= 0) return "0s";
        if (ms < 1000) return ms + "ms";
        long hours = ms / 3_600_000;
        long minutes = ms / 60_000 % 60;
        String seconds = BigDecimal.valueOf(ms % 60_000, 3).stripTrailingZeros().toPlainString() + "s";
        if (hours > 0) return hours + "h" + minutes + "m" + seconds;
        if (minutes > 0) return minutes + "m" + seconds;
        return seconds;
    }
}
