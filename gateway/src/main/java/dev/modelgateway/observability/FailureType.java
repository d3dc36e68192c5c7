package dev.modelgateway.observability;

import dev.modelgateway.error.AttemptFailure;

/** An attempt's failure as a low-cardinality {@code error.type} / {@code reason} value. */
public final class FailureType {
    private FailureType() {
    }

    public static String of(AttemptFailure failure) {
        return switch (failure) {
            case AttemptFailure.Status s -> s.status() == 429 ? "429" : s.status() >= 500 ? "5xx" : Integer.toString(s.status());
            case AttemptFailure.TimedOut t -> "timeout";
            case AttemptFailure.Transport t -> "transport";
            case AttemptFailure.CircuitOpen c -> "circuit_open";
            case AttemptFailure.NotConfigured n -> "not_configured";
            case AttemptFailure.Overloaded o -> "gateway_overloaded";
            case AttemptFailure.CallerLeft c -> "caller_left";
            case AttemptFailure.ShuttingDown s -> "shutting_down";
        };
    }

    /** The HTTP status an attempt's failure ended with, 0 when it had none. */
    public static int status(AttemptFailure failure) {
        return failure instanceof AttemptFailure.Status s ? s.status() : 0;
    }
}
