package dev.modelgateway.call;

import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.error.VendorError;
import dev.modelgateway.error.AttemptFailure;
import dev.modelgateway.http.Exchange;
import dev.modelgateway.observability.AttemptSpan;
import dev.modelgateway.observability.FailureType;
import dev.modelgateway.upstream.RelayOutcome;
import dev.modelgateway.upstream.TransportFailures;
import io.vertx.core.Future;

import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * One admitted upstream call without retries or fallbacks, for the endpoints that have no
 * {@code platform_options} (embeddings, images, audio, token counting): admission, the attempt, its error in
 * the caller's shape, and one ledger record whatever the outcome.
 */
public final class SingleAttempt {
    private SingleAttempt() {
    }

    /**
     * @param attempt sends the request and answers the caller; fails without writing anything on errors
     *                (a {@link VendorError} already in the caller's shape, or a {@link GatewayException})
     */
    public static void run(CallServices services, Exchange ex, long requestBytes, ModelEntry model, long estimatedOutput,
                           Supplier<Future<RelayOutcome>> attempt) {
        Metering metering = services.metering();
        metering.admit(ex, model, requestBytes, Math.max(1, estimatedOutput)).onComplete(admitted -> {
            if (admitted.failed()) {
                GatewayException refused = TransportFailures.classify(admitted.cause(), "accounts");
                ex.fail(refused);
                metering.record(ex, null, model).status(refused.status()).write();
                return;
            }
            Metering.Record record = metering.record(ex, admitted.result(), model).attempted(model, 1);
            ex.beforeAnswerEnds(record::answerEnding);
            AttemptSpan span = ex.trace().attempt(model.vendor().id(), model.vendor().id(), model.id(), model.upstreamId(), 1, 0, 0);
            Future<RelayOutcome> outcome;
            try {
                outcome = attempt.get();
            } catch (GatewayException e) {
                outcome = Future.failedFuture(e);
            } catch (RuntimeException e) {
                outcome = Future.failedFuture(Attempts.internal(ex, e));
            }
            outcome.onComplete(done -> {
                if (done.succeeded()) {
                    span.succeeded(done.result().status(), model.upstreamId(), done.result().usage());
                    record.outcome(done.result()).write();
                } else {
                    AttemptFailure why = AttemptFailure.of(done.cause());
                    span.failed(FailureType.status(why), FailureType.of(why), String.valueOf(done.cause().getMessage()));
                    record.status(FinalError.renderNative(ex, done.cause(), model.vendor().id())).write();
                }
            });
        });
    }

    /**
     * The attempt's body-sized work (copying, tokenizing or encoding the caller's body), beside the event loop
     * when the body is large, as in the other attempts: a refusal stays itself, a bug becomes a 500.
     */
    public static <T> Future<T> bodyWork(Exchange ex, long requestBytes, Callable<T> work) {
        return Attempts.bodyWork(ex, requestBytes, work);
    }
}
