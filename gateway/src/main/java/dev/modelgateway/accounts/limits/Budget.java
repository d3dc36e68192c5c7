package dev.modelgateway.accounts.limits;

import dev.modelgateway.accounts.ApiKey;
import dev.modelgateway.accounts.keys.BudgetPeriod;
import dev.modelgateway.accounts.keys.Team;
import dev.modelgateway.accounts.ledger.Money;
import dev.modelgateway.accounts.ledger.SpendTracker;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * A key's or a team's budget as it stands at admission: its amount, the period it counts over and what the holder
 * has spent in the current one (docs/accounts.md, "Budgets").
 *
 * @param holder    a key id, or {@code team:<id>}
 * @param teamName  the team's name when it is a team's budget
 * @param span      the current period's name ({@link BudgetPeriod#of})
 * @param endsAt    when the current period ends; null for a lifetime budget
 */
public record Budget(String holder, String teamName, BigDecimal usd, BudgetPeriod period, String span, Instant endsAt,
              long spentE10) {

    /** The key's own budget, or null when it has none. */
    public static Budget of(ApiKey key, Instant now, SpendTracker spend) {
        if (key.budgetUsd() == null) return null;
        String span = key.budgetPeriod().of(now);
        return new Budget(key.id(), null, key.budgetUsd(), key.budgetPeriod(), span, key.budgetPeriod().endOf(now),
                spend.spentE10(key.id(), span));
    }

    /** The team's budget, or null when there is no team or it has no budget. */
    public static Budget of(Team team, Instant now, SpendTracker spend) {
        if (team == null || team.budgetUsd() == null) return null;
        String span = team.budgetPeriod().of(now);
        return new Budget(team.holder(), team.name(), team.budgetUsd(), team.budgetPeriod(), span,
                team.budgetPeriod().endOf(now), spend.spentE10(team.holder(), span));
    }

    long budgetE10() {
        return Money.toE10(usd);
    }

    public boolean spent() {
        return spentE10 >= budgetE10();
    }

    public HoldRequest request(int maxConcurrent, long reserveE10) {
        return new HoldRequest(holder, span, maxConcurrent, budgetE10(), reserveE10, spentE10);
    }

    public String describe(ApiKey key) {
        return teamName != null ? "Team '" + teamName + "' of API key '" + key.name() + "'" : "API key '" + key.name() + "'";
    }

    /** "monthly " etc., empty for a lifetime budget. */
    public String periodText() {
        return switch (period) {
            case DAY -> "daily ";
            case WEEK -> "weekly ";
            case MONTH -> "monthly ";
            case LIFETIME -> "";
        };
    }
}
