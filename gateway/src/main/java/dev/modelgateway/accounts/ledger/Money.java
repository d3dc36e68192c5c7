package dev.modelgateway.accounts.ledger;

import dev.modelgateway.catalogue.ModelPrice;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Dollars stored as whole units of 1e-10 USD, the precision of {@link ModelPrice#cost}:
 * exact, and summed exactly by SQL on both SQLite (which has no exact decimal type) and PostgreSQL.
 */
public final class Money {
    private static final int SCALE = 10;

    private Money() {}

    public static long toE10(BigDecimal usd) {
        return usd.setScale(SCALE, RoundingMode.HALF_UP).unscaledValue().longValueExact();
    }

    public static BigDecimal fromE10(long e10) {
        return BigDecimal.valueOf(e10, SCALE).stripTrailingZeros();
    }

    /** Plain decimal text for JSON: exact, unlike a JSON number read as a double. */
    public static String text(long e10) {
        BigDecimal usd = fromE10(e10);
        return (usd.scale() < 0 ? usd.setScale(0) : usd).toPlainString();
    }
}
