package dev.modelgateway.upstream;

import dev.modelgateway.error.VendorError;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.routing.AttemptPlan.Verdict;
import dev.modelgateway.routing.CircuitBreaker;
import dev.modelgateway.routing.RetryAfter;
import io.vertx.core.http.HttpClosedException;

import java.net.ConnectException;
import java.util.concurrent.TimeoutException;

/**
 * Turns transport failures (refused, reset, timed out) into the gateway's error vocabulary, and tells what
 * a failed attempt allows next (docs/platform-options.md, "Retry rule").
 */
public final class TransportFailures {
    /** Error code of an attempt refused by an open circuit breaker. */
    public static final String CIRCUIT_OPEN = "circuit_open";
    static final String NOT_CONFIGURED = "vendor_not_configured";

    private TransportFailures() {
    }

    public static GatewayException classify(Throwable t, String vendor) {
        if (t instanceof GatewayException g) return g;
        if (t instanceof TimeoutException) {
            return GatewayException.of(ErrorKind.TIMEOUT, "Vendor '" + vendor + "' did not answer in time.");
        }
        if (t instanceof ConnectException) {
            return GatewayException.of(ErrorKind.UPSTREAM, "Could not connect to vendor '" + vendor + "': " + t.getMessage());
        }
        if (t instanceof HttpClosedException) {
            return GatewayException.of(ErrorKind.UPSTREAM, "Vendor '" + vendor + "' closed the connection before answering.");
        }
        return GatewayException.of(ErrorKind.UPSTREAM, "Call to vendor '" + vendor + "' failed: " + t.getMessage());
    }

    public static Verdict verdict(Throwable t) {
        return switch (t) {
            case VendorError e when e.status() == 401 || e.status() == 403 -> Verdict.NEXT_MODEL;
            case VendorError e -> e.retryable() ? Verdict.RETRY : Verdict.STOP;
            case GatewayException g when CIRCUIT_OPEN.equals(g.code()) || NOT_CONFIGURED.equals(g.code()) -> Verdict.NEXT_MODEL;
            // Translated vendor errors keep the vendor's status; the gateway's own 4xx (validation) are final.
            case GatewayException g -> retryableStatus(g.status()) ? Verdict.RETRY : Verdict.STOP;
            default -> Verdict.RETRY; // transport failures: connection refused, reset, timed out
        };
    }

    /** The vendor's retry hint on a failed attempt, in milliseconds; -1 when it gave none. */
    public static long retryAfterMs(Throwable t) {
        return switch (t) {
            case VendorError e -> RetryAfter.millis(e.headers()::get);
            case GatewayException g -> RetryAfter.millis(g.headers()::get);
            default -> -1;
        };
    }

    /**
     * What a failed call says about the vendor deployment, for its circuit breaker. Timeouts say nothing:
     * their length is the caller's choice, and one caller's short timeout must not cut everybody off.
     */
    static CircuitBreaker.Outcome health(Throwable t) {
        int status = switch (t) {
            case VendorError e -> e.status();
            case GatewayException g when g.kind() == ErrorKind.TIMEOUT || NOT_CONFIGURED.equals(g.code()) -> 0;
            case GatewayException g -> g.status();
            default -> 502;
        };
        if (status == 0 || status == 429 || status == 408) return CircuitBreaker.Outcome.UNKNOWN;
        return status >= 500 || status == 401 || status == 403 ? CircuitBreaker.Outcome.FAILED : CircuitBreaker.Outcome.HEALTHY;
    }

    private static boolean retryableStatus(int status) {
        return status == 429 || status == 408 || status >= 500;
    }
}
