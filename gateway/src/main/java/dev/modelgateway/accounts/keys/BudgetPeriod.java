package dev.modelgateway.accounts.keys;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.TemporalAdjusters;
import java.util.List;

/**
 * The span a budget counts spend over: a calendar day, an ISO week (Monday to Sunday) or a calendar month in UTC,
 * or the key's or team's whole life. Each span has a name ({@link #of}) under which its spend is kept, so that a
 * new span starts from zero without anything being reset (docs/accounts.md, "Budgets").
 */
public enum BudgetPeriod {
    DAY("day"), WEEK("week"), MONTH("month"), LIFETIME("lifetime");

    public final String wire;

    BudgetPeriod(String wire) {
        this.wire = wire;
    }

    /** The span containing {@code at}: {@code d2026-11-24}, {@code w2026-11-23} (its Monday), {@code m2026-11}, {@code lifetime}. */
    public String of(Instant at) {
        LocalDate day = LocalDate.ofInstant(at, ZoneOffset.UTC);
        return switch (this) {
            case DAY -> "d" + day;
            case WEEK -> "w" + day.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY));
            case MONTH -> "m" + day.toString().substring(0, 7);
            case LIFETIME -> "lifetime";
        };
    }

    /** When the span containing {@code at} ends (null for lifetime): the moment a spent budget is free again. */
    public Instant endOf(Instant at) {
        LocalDate day = LocalDate.ofInstant(at, ZoneOffset.UTC);
        LocalDate next = switch (this) {
            case DAY -> day.plusDays(1);
            case WEEK -> day.with(TemporalAdjusters.next(DayOfWeek.MONDAY));
            case MONTH -> day.withDayOfMonth(1).plusMonths(1);
            case LIFETIME -> null;
        };
        return next == null ? null : next.atStartOfDay(ZoneOffset.UTC).toInstant();
    }

    /** Every span containing {@code at}: spend is counted in all of them, whichever a budget uses. */
    public static List<String> all(Instant at) {
        return List.of(DAY.of(at), WEEK.of(at), MONTH.of(at), LIFETIME.of(at));
    }

    /** {@code day}, {@code week}, {@code month} or {@code lifetime}; null for anything else. */
    public static BudgetPeriod parse(String s) {
        for (BudgetPeriod p : values()) if (p.wire.equals(s)) return p;
        return null;
    }

    public static BudgetPeriod orLifetime(BudgetPeriod p) {
        return p == null ? LIFETIME : p;
    }
}
