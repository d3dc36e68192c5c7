package dev.modelgateway.routing;

import java.util.concurrent.ThreadLocalRandom;

/**
 * The wait before retrying the same model: the vendor's own hint when it gave one, otherwise exponential
 * with "equal jitter" (half fixed, half random) so that callers failing together do not retry together.
 */
public final class Backoff {
    static final long BASE_MS = 200;
    static final long CAP_MS = 3_000;

    private Backoff() {
    }

    /**
     * @param retry  1 for the first retry of a model, 2 for the second, ...
     * @param hintMs the upstream's retry-after in milliseconds, or -1 when it gave none
     */
    public static long delayMs(int retry, long hintMs) {
        if (hintMs >= 0) return hintMs;
        long ceiling = Math.min(CAP_MS, BASE_MS << Math.min(retry - 1, 10));
        long half = ceiling / 2;
        return half + ThreadLocalRandom.current().nextLong(half + 1);
    }
}
