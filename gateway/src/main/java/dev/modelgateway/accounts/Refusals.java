package dev.modelgateway.accounts;

import dev.modelgateway.accounts.ledger.Money;
import dev.modelgateway.accounts.limits.Budget;
import dev.modelgateway.accounts.limits.GoDuration;
import dev.modelgateway.accounts.limits.HoldDecision;
import dev.modelgateway.accounts.limits.RateDecision;
import dev.modelgateway.accounts.limits.RateLimits;
import dev.modelgateway.accounts.limits.RateScope;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;

import java.util.List;
import java.util.Map;

/** Why a key is refused, as the errors callers see: unauthenticated, not allowed, over a budget or a limit. */
final class Refusals {
    private Refusals() {
    }

    /**
     * 403: the operator has priced nothing for the model. Refused rather than recorded at $0 (docs/accounts.md,
     * "Prices"); {@code price: unknown} in the catalogue allows it explicitly.
     */
    static GatewayException unpriced(String publicModel) {
        return GatewayException.of(ErrorKind.PERMISSION, "Model '" + publicModel + "' has no price configured, and the"
                + " gateway does not serve a model it cannot bill; the operator can set its price (or price: unknown).")
                .withParam("model").withCode("model_not_priced");
    }

    static GatewayException unauthorized(String message, String code) {
        return GatewayException.of(ErrorKind.AUTHENTICATION, message).withCode(code);
    }

    /** {@code names}: the names the model goes by (its id and aliases), which the allow-lists were matched against. */
    static GatewayException notAllowed(ApiKey key, String publicModel, List<String> names) {
        String who = key.allows(names) ? "API key '" + key.name() + "' (team '" + key.team().name() + "')"
                : "API key '" + key.name() + "'";
        return GatewayException.of(ErrorKind.PERMISSION, who + " may not use model '" + publicModel
                + "'.").withParam("model").withCode("model_not_allowed");
    }

    /**
     * 429 is how OpenAI reports exhausted credit; x-should-retry stops the official SDKs from retrying. A periodic
     * budget says when its period ends.
     */
    static GatewayException budgetSpent(ApiKey key, Budget b, long spentE10) {
        return GatewayException.of(ErrorKind.RATE_LIMIT, b.describe(key) + " has used its " + b.periodText() + "budget of $"
                + b.usd().toPlainString() + " (spent $" + Money.fromE10(spentE10).toPlainString() + ")"
                + (b.endsAt() == null ? "." : "; it renews at " + b.endsAt() + "."))
                .withCode("insufficient_quota").withHeaders(Map.of("x-should-retry", "false"));
    }

    /** Retrying soon is right for a slot or a reservation: a call in flight ends and gives it back. */
    static GatewayException refused(ApiKey key, Budget b, HoldDecision taken, int maxConcurrent) {
        return switch (taken.refusal()) {
            case BUDGET_SPENT -> budgetSpent(key, b, taken.spentE10());
            case CONCURRENCY -> GatewayException.of(ErrorKind.RATE_LIMIT, "API key '" + key.name() + "' has " + maxConcurrent
                    + " calls in flight, its limit (max_concurrent " + maxConcurrent + "); retry when one has finished.")
                    .withCode("concurrency_limit_exceeded").withHeaders(Map.of("retry-after", "1"));
            case BUDGET_RESERVED -> GatewayException.of(ErrorKind.RATE_LIMIT, b.describe(key)
                    + ": the calls in flight may use the rest of its " + b.periodText() + "budget of $" + b.usd().toPlainString()
                    + "; retry when they have finished.").withCode("budget_reserved").withHeaders(Map.of("retry-after", "1"));
        };
    }

    /** Names the scope and limit that made the request wait longest. */
    static GatewayException rateLimited(ApiKey key, List<RateScope> scopes, List<RateDecision> decisions) {
        int worst = 0;
        for (int i = 1; i < decisions.size(); i++) {
            if (decisions.get(i).retryAfterMs() > decisions.get(worst).retryAfterMs()) worst = i;
        }
        RateDecision d = decisions.get(worst);
        RateLimits l = d.limits();
        boolean requests = l.rpm() > 0 && d.remainingRequests() < 1;
        String limit = requests ? l.rpm() + " requests per minute" : l.tpm() + " tokens per minute";
        return GatewayException.of(ErrorKind.RATE_LIMIT, "Rate limit reached for " + scopes.get(worst).describe(key.name())
                + ": " + limit + ". Retry in " + GoDuration.format(d.retryAfterMs()) + ".")
                        .withCode("rate_limit_exceeded").withHeaders(RateDecision.refusalHeaders(decisions));
    }
}
