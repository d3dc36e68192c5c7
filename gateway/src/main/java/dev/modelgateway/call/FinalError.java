package dev.modelgateway.call;

import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.error.VendorError;
import dev.modelgateway.http.Exchange;
import dev.modelgateway.observability.ErrorBodies;
import dev.modelgateway.routing.AttemptPlan.Verdict;
import dev.modelgateway.upstream.TransportFailures;
import io.vertx.core.http.HttpServerResponse;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/** Renders the final failure of a call to the caller (docs/platform-options.md, "Final error"). */
public final class FinalError {
    private static final String[] RETRY_HINTS = {"retry-after", "retry-after-ms", "x-should-retry"};

    private FinalError() {
    }

    /**
     * Ends a call whose attempts all failed, and returns the status the caller got. A failure that is the
     * request's own fault, or a lone attempt refused by an unusable deployment, goes back as it is.
     * Otherwise the caller gets one error listing every attempt: 429 stays 429 with the vendor's retry hint, a
     * passed deadline or a last timeout is 504, an unavailable deployment 503, and any other vendor failure 502.
     *
     * @param deadlinePassed true when the call's deadline had passed when the plan ended
     */
    public static int render(Exchange ex, List<FailedAttempt> attempts, Throwable last, Verdict verdict,
                             String vendor, boolean deadlinePassed) {
        // Nothing to list: the request's own fault, or one deployment that could not serve (its message says why).
        if (verdict == Verdict.STOP || (verdict == Verdict.NEXT_MODEL && attempts.size() == 1)) {
            return renderNative(ex, last, vendor);
        }
        GatewayException summary = summary(attempts, last, deadlinePassed);
        ex.fail(summary);
        return summary.status();
    }

    private static GatewayException summary(List<FailedAttempt> attempts, Throwable last, boolean deadlinePassed) {
        FailedAttempt end = attempts.getLast();
        boolean timedOut = deadlinePassed || (last instanceof GatewayException g && g.kind() == ErrorKind.TIMEOUT);
        ErrorKind kind = timedOut ? ErrorKind.TIMEOUT
                : end.status() == 429 ? ErrorKind.RATE_LIMIT
                : end.status() == 503 && last instanceof GatewayException ? ErrorKind.UNAVAILABLE
                : ErrorKind.UPSTREAM;
        Map<String, String> headers = new HashMap<>();
        String code = null;
        if (kind == ErrorKind.RATE_LIMIT || kind == ErrorKind.UNAVAILABLE) {
            for (String h : RETRY_HINTS) {
                String v = hint(last, h);
                if (v != null) headers.put(h, v);
            }
            if (last instanceof GatewayException g) code = g.code();
        }
        String list = attempts.size() == 1 ? attempts.getFirst().toString()
                : IntStream.range(0, attempts.size())
                .mapToObj(i -> (i + 1) + ". " + attempts.get(i)).collect(Collectors.joining("; "));
        String lead = timedOut ? "The call's deadline passed" : "The call failed";
        String message = lead + " after " + attempts.size() + (attempts.size() == 1 ? " attempt: " : " attempts: ") + list;
        return GatewayException.of(kind, message).withCode(code).withHeaders(headers);
    }

    private static String hint(Throwable failure, String header) {
        return switch (failure) {
            case VendorError e -> e.headers().get(header);
            case GatewayException g -> g.headers().get(header);
            default -> null;
        };
    }

    /**
     * On the native path the vendor's error body is already in the caller's protocol, so it goes back
     * unchanged with its status and retry hints; except 401/403, which mean the gateway's own vendor
     * credential is wrong and must not look like the caller's key was refused.
     */
    public static int renderNative(Exchange ex, Throwable failure, String vendor) {
        if (failure instanceof VendorError e) {
            if (e.status() == 401 || e.status() == 403) {
                GatewayException refused = new GatewayException.CredentialRefused(vendor, e.status());
                ex.fail(refused);
                return refused.status();
            }
            HttpServerResponse out = ex.response();
            if (out.headWritten() || out.closed()) return e.status();
            for (String h : RETRY_HINTS) {
                String v = e.headers().get(h);
                if (v != null) out.putHeader(h, v);
            }
            out.setStatusCode(e.status()).putHeader("content-type", "application/json").end(ErrorBodies.sent(e.status(), e.body()));
            return e.status();
        }
        GatewayException g = TransportFailures.classify(failure, vendor);
        ex.fail(g);
        return g.status();
    }
}
