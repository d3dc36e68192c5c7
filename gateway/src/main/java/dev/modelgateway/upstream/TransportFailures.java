package dev.modelgateway.upstream;

import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import io.vertx.core.http.HttpClosedException;

import java.net.ConnectException;
import java.util.concurrent.TimeoutException;

/**
 * Turns transport failures (refused, reset, timed out) into the gateway's error vocabulary; what they allow
 * next is {@code routing.RetryRule}'s to say.
 */
public final class TransportFailures {
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
}
