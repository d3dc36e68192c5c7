package dev.modelgateway.config;

import java.time.Duration;

/**
 * When a deployment is taken out of rotation and for how long (docs/configuration.md, "Cooldowns"):
 * {@code routing.cooldown}.
 *
 * @param failures         failures in a row (5xx, refused credentials, connection failures) that cool a deployment
 *                         serving a model alone
 * @param sharedFailures   the same for a deployment that shares its model with others: they take its traffic, so
 *                         it is cooled sooner
 * @param first            the first cooldown; each further one while it keeps failing doubles it
 * @param max              the longest cooldown, and the longest {@code retry-after} honoured
 */
public record Cooldown(int failures, int sharedFailures, Duration first, Duration max) {
    public static final Cooldown DEFAULT = new Cooldown(10, 3, Duration.ofSeconds(30), Duration.ofMinutes(10));

    public Cooldown {
        if (failures < 1 || sharedFailures < 1) throw new IllegalArgumentException("routing.cooldown.failures must be at least 1");
        if (first.isNegative() || first.isZero()) throw new IllegalArgumentException("routing.cooldown.seconds must be positive");
        if (max.compareTo(first) < 0) max = first;
    }
}
