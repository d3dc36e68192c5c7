package dev.modelgateway.upstream;

import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import io.vertx.core.http.HttpClosedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.net.ssl.SSLException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.nio.channels.ClosedChannelException;
import java.util.Locale;
import java.util.concurrent.TimeoutException;

/**
 * Turns transport failures (refused, reset, timed out) into the gateway's error vocabulary; what they allow
 * next is {@code routing.RetryRule}'s to say. The caller's message names the vendor and the kind of failure
 * only: the exception's own text (resolved addresses, the vendor's host and port, pool internals) goes to
 * the log, as one line.
 */
public final class TransportFailures {
    private static final Logger LOG = LoggerFactory.getLogger(TransportFailures.class);

    private TransportFailures() {
    }

    public static GatewayException classify(Throwable t, String vendor) {
        if (t instanceof GatewayException g) return g;
        if (t instanceof TimeoutException) {
            return GatewayException.of(ErrorKind.TIMEOUT, "Vendor '" + vendor + "' did not answer in time.");
        }
        String kind = kind(t);
        LOG.warn("vendor {}: {} ({})", vendor, kind, String.valueOf(t).replaceAll("[\\r\\n]+", " "));
        if (t instanceof HttpClosedException) {
            return GatewayException.of(ErrorKind.UPSTREAM, "Vendor '" + vendor + "' closed the connection before answering.");
        }
        if (t instanceof ConnectException || t instanceof UnknownHostException || t instanceof NoRouteToHostException) {
            return GatewayException.of(ErrorKind.UPSTREAM, "Could not connect to vendor '" + vendor + "' (" + kind + ").");
        }
        return GatewayException.of(ErrorKind.UPSTREAM, "Call to vendor '" + vendor + "' failed (" + kind + ").");
    }

    /** The kind of failure in a few words, with no address in them. */
    public static String kind(Throwable t) {
        if (t instanceof UnknownHostException) return "its host name did not resolve";
        if (t instanceof NoRouteToHostException) return "no route to its host";
        if (t instanceof ConnectException) {
            String m = String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT);
            if (m.contains("timed out")) return "connection timed out";
            if (m.contains("refused")) return "connection refused";
            return "connection failed";
        }
        if (t instanceof SSLException) return "TLS handshake or record failure";
        if (t instanceof HttpClosedException || t instanceof ClosedChannelException) return "connection closed";
        if (t instanceof TimeoutException) return "timed out";
        String m = String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT);
        if (m.contains("reset")) return "connection reset";
        if (m.contains("closed")) return "connection closed";
        return "transport error";
    }
}
