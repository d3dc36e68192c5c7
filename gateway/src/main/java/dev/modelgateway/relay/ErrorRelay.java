package dev.modelgateway.relay;

import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.server.Exchange;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;

/** Renders the final failure of a call to the caller. */
public final class ErrorRelay {
    private ErrorRelay() {
    }

    /**
     * On the native path the vendor's error body is already in the caller's protocol, so it goes back
     * unchanged with its status and retry hints; except 401/403, which mean the gateway's own vendor
     * credential is wrong and must not look like the caller's key was refused.
     */
    public static void renderNative(RoutingContext ctx, Throwable failure, String vendor) {
        if (failure instanceof UpstreamError e) {
            if (e.status() == 401 || e.status() == 403) {
                Exchange.fail(ctx, GatewayException.of(ErrorKind.UPSTREAM, "Vendor '" + vendor
                        + "' refused the gateway's credential (HTTP " + e.status() + "); the operator must check its API key."));
                return;
            }
            HttpServerResponse out = ctx.response();
            if (out.headWritten() || out.closed()) return;
            for (String h : new String[]{"retry-after", "retry-after-ms", "x-should-retry"}) {
                String v = e.headers().get(h);
                if (v != null) out.putHeader(h, v);
            }
            out.setStatusCode(e.status()).putHeader("content-type", "application/json").end(e.body());
            return;
        }
        Exchange.fail(ctx, UpstreamFailures.classify(failure, vendor));
    }
}
