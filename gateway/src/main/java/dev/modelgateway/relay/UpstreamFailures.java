package dev.modelgateway.relay;

import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import io.vertx.core.http.HttpClosedException;

import java.net.ConnectException;
import java.util.concurrent.TimeoutException;

/** Turns transport failures (refused, reset, timed out) into the gateway's error vocabulary. */
public final class UpstreamFailures {
    private UpstreamFailures() {
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

    public static boolean retryable(Throwable t) {
        if (t instanceof UpstreamError e) return e.retryable();
        if (t instanceof GatewayException g) {
            // Translated vendor errors keep the vendor's status: 429 and 5xx are worth another attempt;
            // the gateway's own 4xx (validation, vendor not configured) are not.
            return g.status() == 429 || (g.status() >= 500 && !"vendor_not_configured".equals(g.code()));
        }
        return true; // transport failures: connection refused, reset, timed out
    }
}
