package dev.modelgateway.call;

import dev.modelgateway.canonical.Usage;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.config.OperationTimeouts;
import dev.modelgateway.config.Vendor;
import dev.modelgateway.error.AttemptFailure;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.http.Exchange;
import dev.modelgateway.observability.AttemptSpan;
import dev.modelgateway.observability.FailureType;
import dev.modelgateway.routing.Deadline;
import dev.modelgateway.routing.Deployment;
import dev.modelgateway.upstream.JsonAnswer;
import dev.modelgateway.upstream.RelayOutcome;
import dev.modelgateway.upstream.TransportFailures;
import dev.modelgateway.upstream.VendorErrorMapper;
import dev.modelgateway.upstream.VendorRequest;
import dev.modelgateway.wire.DeploymentOperation;
import dev.modelgateway.wire.FannedOperation;
import dev.modelgateway.wire.LocalAnswer;
import dev.modelgateway.wire.OperationAnswer;
import dev.modelgateway.wire.VendorErrors;
import dev.modelgateway.wire.VendorOperation;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;

import java.time.Duration;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The one path of every vendor call without {@code platform_options} (embeddings, images, image scales, speech,
 * transcriptions, token counting, stored responses): admit → choose the deployment through the routes in force
 * (by weight among those ready; when all are cooling, the one recovering first, whose breaker then refuses with a
 * retry hint) → the operation on that deployment ({@link DeploymentOperation}: its vendor's or its cloud's, which the
 * endpoint's function picks) → build its request ({@link VendorRequest#of}) → relay → record one ledger row whatever
 * the outcome. One attempt, no retry: these calls never had one. The upstream deadline is the operation's
 * {@code timeouts.*} setting in force, for the whole operation (all the requests of a {@link FannedOperation}).
 */
public final class OperationCall {
    private OperationCall() {
    }

    /**
     * An operation that is the same on every deployment of its model (the vendor's only API serves it).
     *
     * @param requestBytes the caller's body size, for the rate-limit estimate
     * @param timeout      the operation's setting among the configuration's {@code timeouts}
     */
    public static void run(CallServices services, Exchange ex, long requestBytes, ModelEntry model, VendorOperation op,
                           Function<OperationTimeouts, Duration> timeout) {
        run(services, ex, requestBytes, model, d -> op, timeout);
    }

    /**
     * An operation whose form depends on the deployment chosen (a cloud's own API, a count the gateway makes itself).
     *
     * @param operation the operation on the chosen deployment; it may throw a {@link GatewayException} when the
     *                  deployment cannot take the request (a 400 naming the field)
     */
    public static void run(CallServices services, Exchange ex, long requestBytes, ModelEntry model,
                           Function<Deployment, DeploymentOperation> operation, Function<OperationTimeouts, Duration> timeout) {
        admitted(services, ex, requestBytes, model, () -> {
            Deployment d = services.routes().choose(model, Set.of()).deployment();
            ModelEntry served = model.withUpstream(d.upstreamModel());
            DeploymentOperation op = operation.apply(d);
            AttemptSpan span = ex.trace().attempt(d.endpoint().type().id(), d.endpoint().id(), model.id(), served.upstreamId(),
                    1, 0, 0);
            Deadline deadline = Deadline.ofMillis(timeout.apply(services.config().timeouts()).toMillis());
            // the requests copy or encode the caller's body, the local answer decodes it: beside the event loop when large
            Future<RelayOutcome> outcome = switch (op) {
                case VendorOperation one -> Attempts.bodyWork(ex, Math.max(requestBytes, one.payloadBytes()),
                                () -> VendorRequest.of(d.endpoint(), one.encode(served.upstreamId()), deadline))
                        .compose(request -> relay(services, ex, request, one));
                case FannedOperation many -> Attempts.bodyWork(ex, requestBytes, () -> many.encode(served.upstreamId()).stream()
                                .map(r -> VendorRequest.of(d.endpoint(), r, deadline)).toList())
                        .compose(requests -> FannedCall.relay(services, ex, requests,
                                bodies -> many.answer().join(served.upstreamId(), bodies), errors(many.errors())));
                case LocalAnswer local -> Attempts.bodyWork(ex, requestBytes, local.json()::get).map(json -> answerHere(ex, json));
            };
            return new Attempt(served, d, span, outcome);
        });
    }

    /** The gateway's own answer (a local token count), with no usage. */
    private static RelayOutcome answerHere(Exchange ex, Buffer json) {
        if (ex.response().closed()) return new RelayOutcome.CallerLeft(Usage.ZERO, null);
        ex.response().putHeader("content-type", "application/json").end(json);
        return new RelayOutcome.Answered(200, Usage.ZERO, null);
    }

    /**
     * A call that spends no tokens and concerns a vendor rather than a model (a vendor B stored response): neither
     * admitted nor recorded; the deployment is chosen among those of the vendor's models ({@code Routes.choose(Vendor)}).
     * Fails once the caller has its error.
     */
    public static Future<Void> unmetered(CallServices services, Exchange ex, Vendor vendor, VendorOperation op,
                                         Function<OperationTimeouts, Duration> timeout) {
        Future<RelayOutcome> outcome;
        try {
            Deployment d = services.routes().choose(vendor).deployment();
            Deadline deadline = Deadline.ofMillis(timeout.apply(services.config().timeouts()).toMillis());
            outcome = relay(services, ex, VendorRequest.of(d.endpoint(), op.encode(d.upstreamModel()), deadline), op);
        } catch (GatewayException e) {
            outcome = Future.failedFuture(e);
        }
        return outcome.<Void>mapEmpty().onFailure(e -> FinalError.renderNative(ex, e, vendor.id()));
    }

    /**
     * A call handed to a background task that writes its own ledger row when it ends (a transcription task): admitted
     * here (allow-list, budget, limits; no token estimate), the admission's slot and reservation released once
     * {@code handOver} completes. Fails with the refusal, or the hand-over's failure, in the gateway's vocabulary.
     */
    public static <T> Future<T> handOver(CallServices services, Exchange ex, ModelEntry model, Supplier<Future<T>> handOver) {
        return services.metering().admit(ex, model, 0, 0)
                .compose(admitted -> handOver.get().andThen(done -> admitted.releaseHold()))
                .recover(e -> Future.failedFuture(TransportFailures.classify(e, "accounts")));
    }

    /**
     * The attempt under way: the model as the chosen deployment serves it, that deployment (null: the gateway
     * answers itself), its span, its outcome.
     */
    private record Attempt(ModelEntry served, Deployment deployment, AttemptSpan span, Future<RelayOutcome> outcome) {
    }

    @FunctionalInterface
    private interface AttemptStart {
        /** Starts the attempt; throws a {@link GatewayException} (or a bug) when it cannot. */
        Attempt start();
    }

    private static void admitted(CallServices services, Exchange ex, long requestBytes, ModelEntry model, AttemptStart attempt) {
        Metering metering = services.metering();
        metering.admit(ex, model, requestBytes, 1).onComplete(admitted -> {
            if (admitted.failed()) {
                GatewayException refused = TransportFailures.classify(admitted.cause(), "accounts");
                ex.fail(refused);
                metering.record(ex, null, model).status(refused.status()).write();
                return;
            }
            Metering.Record record = metering.record(ex, admitted.result(), model).attempted(model, 1);
            ex.beforeAnswerEnds(record::answerEnding);
            Attempt started;
            try {
                started = attempt.start();
            } catch (GatewayException e) {
                started = new Attempt(model, null, AttemptSpan.NONE, Future.failedFuture(e));
            } catch (RuntimeException e) {
                started = new Attempt(model, null, AttemptSpan.NONE, Future.failedFuture(Attempts.internal(ex, e)));
            }
            Attempt a = started;
            record.servedBy(a.deployment());
            a.outcome().onComplete(done -> {
                if (done.succeeded()) {
                    a.span().succeeded(done.result().status(), a.served().upstreamId(), done.result().usage());
                    record.outcome(done.result()).write();
                } else {
                    AttemptFailure why = AttemptFailure.of(done.cause());
                    a.span().failed(FailureType.status(why), FailureType.of(why), String.valueOf(done.cause().getMessage()));
                    record.status(FinalError.renderNative(ex, done.cause(), model.vendor().id())).write();
                }
            });
        });
    }

    /** Relays the answer as the operation says: a JSON body decoded whole, or bytes piped; a vendor error as it says. */
    private static Future<RelayOutcome> relay(CallServices services, Exchange ex, VendorRequest request, VendorOperation op) {
        VendorErrorMapper errors = errors(op.errors());
        return switch (op.answer()) {
            case OperationAnswer.Json json -> services.relay().json(ex, request, vendorBody -> {
                OperationAnswer.Decoded decoded = json.decoder().decode(vendorBody);
                return new JsonAnswer.Answer(decoded.body(), decoded.usage());
            }, errors);
            case OperationAnswer.Bytes bytes -> services.relay().bytes(ex, request, bytes.usage(), errors);
        };
    }

    private static VendorErrorMapper errors(VendorErrors errors) {
        return switch (errors) {
            case VendorErrors.AsSent asSent -> VendorErrorMapper.NATIVE;
            case VendorErrors.Decoded d -> e -> d.codec().decodeError(e.status(), e.body().toString());
            case VendorErrors.Mapped m -> m.map()::apply;
        };
    }
}
