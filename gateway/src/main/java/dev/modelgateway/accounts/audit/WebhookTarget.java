package dev.modelgateway.accounts.audit;

import dev.modelgateway.net.AddressClass;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Locale;

/**
 * Where one round of alerts goes: the webhook URL's host resolved at send time, and every address it resolves to
 * checked as the media fetcher checks a caller's URL ({@link AddressClass}): loopback, private and link-local targets
 * are refused unless {@code accounts.alerts_allow_private}. The delivery connects to the checked address, so a second
 * DNS answer cannot swap in another one. Blocking (DNS).
 *
 * @param refusal null when the target may be used, else the neutral reason {@code last_error} shows (the detail is
 *                logged: what an address is, or whether a port answers, is not for the admin API to tell)
 */
record WebhookTarget(URI uri, boolean tls, int port, InetAddress address, String refusal) {
    private static final Logger LOG = LoggerFactory.getLogger(WebhookTarget.class);
    static final String NOT_ALLOWED = "address not allowed";
    static final String CONNECTION_FAILED = "connection failed";

    static WebhookTarget resolve(String url, boolean allowPrivate) {
        URI uri = URI.create(url); // checked when it was set (AlertSettings)
        boolean tls = uri.getScheme().toLowerCase(Locale.ROOT).equals("https");
        int port = uri.getPort() > 0 ? uri.getPort() : tls ? 443 : 80;
        String host = uri.getHost().startsWith("[") ? uri.getHost().substring(1, uri.getHost().length() - 1) : uri.getHost();
        InetAddress[] addresses;
        try {
            addresses = InetAddress.getAllByName(host);
        } catch (UnknownHostException e) {
            LOG.warn("alert webhook host '{}' does not resolve", host);
            return new WebhookTarget(uri, tls, port, null, CONNECTION_FAILED);
        }
        if (!allowPrivate) {
            for (InetAddress a : addresses) {
                String why = AddressClass.nonPublicReason(a);
                if (why != null) {
                    LOG.warn("alert webhook refused: host '{}' resolves to {} ({}); set accounts.alerts_allow_private to"
                            + " allow it", host, why, a.getHostAddress());
                    return new WebhookTarget(uri, tls, port, null, NOT_ALLOWED);
                }
            }
        }
        return new WebhookTarget(uri, tls, port, addresses[0], null);
    }

    /** The host as the request names it (Host header, SNI, certificate check). */
    String host() {
        String host = uri.getHost();
        return host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
    }

    /** The path and query the request asks for. */
    String requestUri() {
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        return uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery();
    }
}
