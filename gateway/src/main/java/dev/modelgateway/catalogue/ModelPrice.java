package dev.modelgateway.catalogue;

import dev.modelgateway.canonical.Usage;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Prices in US dollars per million tokens. Cache reads are priced separately (typically 10% of
 * input, docs/contract.md §8: "up to 90 percent" cheaper); cache writes by TTL.
 */
public record ModelPrice(BigDecimal input, BigDecimal output, BigDecimal cacheRead,
                         BigDecimal cacheWrite5m, BigDecimal cacheWrite1h) {

    private static final BigDecimal MILLION = BigDecimal.valueOf(1_000_000);

    public static final ModelPrice FREE = new ModelPrice(BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO,
            BigDecimal.ZERO, BigDecimal.ZERO);

    /** Cost of one request in dollars, to 10 decimal places. Reasoning is billed as output. */
    public BigDecimal cost(Usage u) {
        BigDecimal micro = input.multiply(BigDecimal.valueOf(u.inputTokens()))
                .add(cacheRead.multiply(BigDecimal.valueOf(u.cacheReadTokens())))
                .add(cacheWrite5m.multiply(BigDecimal.valueOf(u.cacheWrite5mTokens())))
                .add(cacheWrite1h.multiply(BigDecimal.valueOf(u.cacheWrite1hTokens())))
                .add(output.multiply(BigDecimal.valueOf(u.outputTokens())));
        return micro.divide(MILLION, 10, RoundingMode.HALF_UP);
    }
}
