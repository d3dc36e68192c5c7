package dev.modelgateway.api;

import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.relay.ErrorRelay;
import dev.modelgateway.relay.RelayOutcome;
import dev.modelgateway.relay.UpstreamError;
import dev.modelgateway.relay.UpstreamFailures;
import dev.modelgateway.server.Exchange;
import io.vertx.core.Future;
import io.vertx.ext.web.RoutingContext;

import java.util.function.Supplier;

/**
 * One admitted upstream call without retries or fallbacks, for the endpoints that have no
 * {@code platform_options} (embeddings, images, audio): admission, the attempt, its error in the caller's
 * shape, and one ledger record whatever the outcome.
 */
public final class DirectCall {
    private DirectCall() {
    }

    /**
     * @param attempt sends the request and answers the caller; fails without writing anything on errors
     *                (an {@link UpstreamError} already in the caller's shape, or a {@link GatewayException})
     */
    public static void run(Platform platform, RoutingContext ctx, ModelEntry model, long estimatedOutput,
                           Supplier<Future<RelayOutcome>> attempt) {
        Metering metering = platform.metering();
        metering.admit(ctx, model, ctx.body().length(), Math.max(1, estimatedOutput)).onComplete(ar -> {
            if (ar.failed()) {
                GatewayException refused = UpstreamFailures.classify(ar.cause(), "accounts");
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
                int status = failure instanceof UpstreamError e ? e.status()
                        : UpstreamFailures.classify(failure, model.vendor().id()).status();
                ErrorRelay.renderNative(ctx, failure, model.vendor().id());
                metering.record(ctx, ar.result(), model, model, null, 1, status, null);
            });
        });
    }
}
