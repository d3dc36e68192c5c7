package dev.modelgateway.api;

import dev.modelgateway.routing.PlatformOptions;

/** How long the gateway waits on a silent vendor (see docs/platform-options.md). */
public final class Deadlines {
    /** Used when the caller sets no timeout, or 0 (meaning "the platform default"). */
    public static final long DEFAULT_TIMEOUT_MS = 600_000;

    private Deadlines() {
    }

    public static long idleTimeoutMs(PlatformOptions options) {
        Double t = options.timeoutSeconds();
        return t == null || t == 0 ? DEFAULT_TIMEOUT_MS : Math.max(1, Math.round(t * 1000));
    }
}
