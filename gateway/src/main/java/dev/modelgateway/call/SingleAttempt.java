package dev.modelgateway.call;

import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.upstream.RelayOutcome;
import dev.modelgateway.error.VendorError;
import dev.modelgateway.upstream.TransportFailures;
import dev.modelgateway.http.Exchange;
import io.vertx.core.Future;
import io.vertx.ext.web.RoutingContext;

import java.util.function.Supplier;

/**
 * One admitted upstream call without retries or fallbacks, for the endpoints that have no
 * {@code platform_options} (embeddings, images, audio): admission, the attempt, its error in the caller's
 * shape, and one ledger record whatever the outcome.
 */
public final class SingleAttempt {
    private SingleAttempt() {
    }

    /**
     * @param attempt sends the request and answers the caller; fails without writing anything on errors
     *                (an {@link VendorError} already in the caller's shape, or a {@link GatewayException})
     */
    public static void run(CallServices platform, RoutingContext ctx, ModelEntry model, long estimatedOutput,
                           Supplier<Future<RelayOutcome>> attempt) {
        Metering metering = platform.metering();
        metering.admit(ctx, model, ctx.body().length(), Math.max(1, estimatedOutput)).onComplete(ar -> {
            if (ar.failed()) {
                GatewayException refused = TransportFailures.classify(ar.cause(), "accounts");
                Exchange.fail(ctx, refused);
                metering.record(ctx, null, model, null, null, 0, refused.status(), null);
                return;
            }
            Future<RelayOutcome> outcome;
            try {
                outcome = attempt.get();
            } catch (GatewayException e) {
                outcome = Future.failedFuture(e);
            }
            outcome.onComplete(done -> {
                if (done.succeeded()) {
                    RelayOutcome o = done.result();
                    metering.record(ctx, ar.result(), model, model, o.usage(), 1, o.status(), o.ttftMs());
                    return;
                }
                Throwable failure = done.cause();
                int status = failure instanceof VendorError e ? e.status()
                        : TransportFailures.classify(failure, model.vendor().id()).status();
                FinalError.renderNative(ctx, failure, model.vendor().id());
                metering.record(ctx, ar.result(), model, model, null, 1, status, null);
            });
        });
    }
}
