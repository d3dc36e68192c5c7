package dev.modelgateway.routing;

import dev.modelgateway.error.AttemptFailure;
import dev.modelgateway.routing.AttemptPlan.Verdict;

/**
 * The one rule for what a failed attempt means (docs/platform-options.md, "Retry rule"): whether the same
 * model may be tried again, what it says about the deployment's health, and how long the vendor asked us to
 * wait.
 */
public final class RetryRule {
    private RetryRule() {
    }

    /** 429, 408 and 5xx (529 included) are worth another attempt; other 4xx are the request's fault. */
    public static boolean retryableStatus(int status) {
        return status == 429 || status == 408 || status >= 500;
    }

    public static Verdict verdict(AttemptFailure failure) {
        return switch (failure) {
            case AttemptFailure.Status s when s.credentialRefused() -> Verdict.NEXT_MODEL;
            case AttemptFailure.Status s -> retryableStatus(s.status()) ? Verdict.RETRY : Verdict.STOP;
            case AttemptFailure.CircuitOpen c -> Verdict.NEXT_MODEL;
            case AttemptFailure.NotConfigured n -> Verdict.NEXT_MODEL;
            // the same pool is still full: a fallback (another vendor, another pool) may be served at once
            case AttemptFailure.Overloaded o -> Verdict.NEXT_MODEL;
            case AttemptFailure.CallerLeft c -> Verdict.STOP;
            // the instance is going away: its caller retries elsewhere (the 503's retry-after)
            case AttemptFailure.ShuttingDown s -> Verdict.STOP;
            case AttemptFailure.TimedOut t -> Verdict.RETRY;
            case AttemptFailure.Transport t -> Verdict.RETRY;
        };
    }

    /**
     * What a failed call says about the vendor deployment, for its circuit breaker. Timeouts say nothing:
     * their length is the caller's choice, and one caller's short timeout must not cut everybody off. Neither
     * do the gateway's own saturation, a caller leaving nor the gateway's shutdown: the vendor never failed, and
     * counting them would let the gateway's load, impatient callers or a rollout take a healthy vendor offline (issue 13).
     */
    public static CircuitBreaker.Outcome health(AttemptFailure failure) {
        return switch (failure) {
            case AttemptFailure.Status s when s.status() == 429 || s.status() == 408 -> CircuitBreaker.Outcome.UNKNOWN;
            case AttemptFailure.Status s -> s.status() >= 500 || s.status() == 401 || s.status() == 403
                    ? CircuitBreaker.Outcome.FAILED : CircuitBreaker.Outcome.HEALTHY;
            case AttemptFailure.Transport t -> CircuitBreaker.Outcome.FAILED;
            case AttemptFailure.CircuitOpen c -> CircuitBreaker.Outcome.FAILED;
            case AttemptFailure.TimedOut t -> CircuitBreaker.Outcome.UNKNOWN;
            case AttemptFailure.NotConfigured n -> CircuitBreaker.Outcome.UNKNOWN;
            case AttemptFailure.Overloaded o -> CircuitBreaker.Outcome.UNKNOWN;
            case AttemptFailure.CallerLeft c -> CircuitBreaker.Outcome.UNKNOWN;
            case AttemptFailure.ShuttingDown s -> CircuitBreaker.Outcome.UNKNOWN;
        };
    }

    /** The vendor's retry hint on a failed attempt, in milliseconds; -1 when it gave none. */
    public static long retryAfterMs(AttemptFailure failure) {
        return switch (failure) {
            case AttemptFailure.Status s -> RetryAfter.millis(s.header()::apply);
            case AttemptFailure.CircuitOpen c -> RetryAfter.millis(c.header()::apply);
            case AttemptFailure.Overloaded o -> RetryAfter.millis(o.header()::apply);
            default -> -1;
        };
    }
}
