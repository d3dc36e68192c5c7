package dev.modelgateway.call;

import dev.modelgateway.accounts.Admission;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.config.VendorEndpoint;
import dev.modelgateway.error.AttemptFailure;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.http.Exchange;
import dev.modelgateway.observability.AttemptSpan;
import dev.modelgateway.observability.FailureType;
import dev.modelgateway.routing.AttemptPlan;
import dev.modelgateway.routing.Deadline;
import dev.modelgateway.routing.Deployment;
import dev.modelgateway.routing.RetryRule;
import dev.modelgateway.routing.Routes;
import dev.modelgateway.upstream.RelayOutcome;
import dev.modelgateway.upstream.TransportFailures;
import io.vertx.core.Future;
import io.vertx.core.http.HttpServerResponse;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Runs a call: admission, then the attempt plan (the primary model, then each fallback, each tried
 * 1 + max_retries times on retryable failures, with backoff, while nothing has been sent to the caller and
 * the deadline allows), each attempt on a deployment of its model chosen by the routes in force, choosing the
 * native or the translated path per model, and finally one ledger record.
 */
public final class CallRunner {
    /** Response headers telling the caller how it was served (docs/platform-options.md, "Headers"). */
    public static final String MODEL_HEADER = "x-platform-model";
    public static final String ATTEMPTS_HEADER = "x-platform-attempts";
    public static final String FALLBACK_HEADER = "x-platform-fallback";

    /** The request fields that carry content, for the opt-in content capture (docs/observability.md). */
    private static final String[] CONTENT_FIELDS = {"system", "instructions", "messages", "input"};

    private final CallServices services;

    public CallRunner(CallServices services) {
        this.services = services;
    }

    /**
     * A call, step by step: each step hands its result to the next, and every way out writes the call's one ledger
     * row. The steps of each attempt are {@link Run#attempt}'s, and those after a failed one {@link Run#failed}'s.
     */
    public void run(Call call) {
        captureInput(call);
        fallbacksAllowed(call)                              // a fallback the key may not use refuses the call
                .compose(v -> admit(call))                  // admit: allow-list, budget, concurrency, rate limits
                .map(admission -> new Run(call, admission)) // plan: the models in order, their retries, the deadline
                .onSuccess(run -> run.attempt(0))           // attempt after attempt, then the record
                .onFailure(refusal -> refused(call, refusal)); // or refused: the error, the record
    }

    /** The request's content on its trace, when the operator opted in (docs/observability.md). */
    private static void captureInput(Call call) {
        call.exchange().trace().captureInput(() -> {
            ObjectNode content = JsonNodeFactory.instance.objectNode();
            for (String f : CONTENT_FIELDS) if (call.body().has(f)) content.set(f, call.body().get(f));
            return content.toString();
        });
    }

    /**
     * A fallback the key may not use refuses the whole call up front: otherwise a key limited to one model would
     * be served by another once its primary failed.
     */
    private Future<Void> fallbacksAllowed(Call call) {
        List<ModelEntry> fallbacks = call.options().fallbacks();
        for (int i = 0; i < fallbacks.size(); i++) {
            if (!services.metering().allows(call.exchange(), fallbacks.get(i))) {
                return Future.failedFuture(GatewayException.of(ErrorKind.PERMISSION, "This API key may not use model '"
                        + fallbacks.get(i).id() + "', named as a fallback.").withParam("platform_options.fallbacks[" + i + "]")
                        .withCode("model_not_allowed"));
            }
        }
        return Future.succeededFuture();
    }

    private Future<Admission> admit(Call call) {
        return services.metering().admit(call.exchange(), call.primary(), call.requestBytes(), call.maxOutputTokens());
    }

    /** A call refused before any attempt: its error, and its ledger row. */
    private void refused(Call call, Throwable refusal) {
        GatewayException refused = TransportFailures.classify(refusal, "accounts");
        call.exchange().fail(refused);
        services.metering().record(call.exchange(), null, call.primary()).status(refused.status()).write();
    }

    /** One call's way through its attempt plan. */
    private final class Run {
        private final Call call;
        private final Admission admission;
        private final AttemptPlan plan;
        private final Deadline deadline;
        private final HttpServerResponse out;
        private final List<FailedAttempt> failures = new ArrayList<>();
        /** Fallback models admitted through their own per-model limits, by id. */
        private final Map<String, Admission> fallbackAdmissions = new HashMap<>();
        /** The deployments this call has tried: a retry goes to another one first. */
        private final Set<String> tried = new HashSet<>();
        /**
         * Attempts really sent: the plan also counts one it has scheduled (a retry waiting out its backoff, a
         * fallback its per-model limit then refuses), and the ledger bills only what reached a vendor.
         */
        private int sent;
        /** Attempts of the current model before this one ({@code http.request.resend_count}). */
        private int resend;
        /** The current attempt's deployment; null until it is chosen. */
        private Deployment deployment;
        /** The current attempt's span (none when tracing is off, or once it has ended). */
        private AttemptSpan span = AttemptSpan.NONE;

        /** The successful attempt's row was written as its answer ended. */
        private boolean answerRecorded;

        Run(Call call, Admission admission) {
            this.call = call;
            this.admission = admission;
            this.plan = new AttemptPlan(call.primary(), call.options());
            this.deadline = Deadline.of(call.options(), call.exchange().startNanos());
            this.out = call.exchange().response();
        }

        /**
         * One attempt, step by step, {@code afterMs} from now; a step that fails hands its failure to
         * {@link #failed}, which starts the next attempt or ends the call.
         */
        void attempt(long afterMs) {
            ModelEntry model = plan.model();
            deployment = null;
            waited(afterMs)                                 // a retry's backoff
                    .compose(v -> ownLimits(model))         // a fallback model's own per-model limits, once
                    .compose(v -> choose(model))            // a deployment: by weight, one not tried first
                    .compose(d -> send(model, d))           // native or translated, relayed to the caller
                    .onComplete(ar -> {
                        if (ar.succeeded()) answered(model, ar.result()); // the record
                        else failed(model, ar.cause());                  // verdict → retry, next model or stop
                    });
        }

        /** {@code ms} later, unless the caller has left meanwhile. */
        private Future<Void> waited(long ms) {
            if (ms == 0) return Future.succeededFuture();
            return call.exchange().vertx().timer(ms).compose(v -> out.closed()
                    ? Future.failedFuture(new GatewayException.CallerLeft("The caller went away while the call waited."))
                    : Future.succeededFuture());
        }

        /** A fallback model is admitted through its own per-model limits (the key-wide ones were taken on the primary). */
        private Future<Void> ownLimits(ModelEntry model) {
            if (plan.fallback() == 0 || fallbackAdmissions.containsKey(model.id())) return Future.succeededFuture();
            return services.metering().admitFallback(call.exchange(), model, call.requestBytes(), call.maxOutputTokens())
                    .map(admitted -> {
                        fallbackAdmissions.put(model.id(), admitted);
                        return null;
                    });
        }

        /**
         * The deployment for this attempt, by the routes in force. When every one is cooling down and there is
         * nothing to fall back to, the first to recover is waited for within the deadline and
         * {@code routing.max_cooldown_wait_seconds}, rather than fail at once (LiteLLM failed such calls, #3646).
         */
        private Future<Deployment> choose(ModelEntry model) {
            Routes.Choice choice = services.routes().choose(model, tried);
            long mayWait = Math.min(deadline.remainingMs() - 1, services.routes().maxCooldownWaitMs());
            if (!choice.ready() && plan.lastModel() && choice.waitMs() <= mayWait) {
                return waited(Math.max(1, choice.waitMs())).compose(v -> choose(model));
            }
            deployment = choice.deployment();
            tried.add(deployment.id());
            return Future.succeededFuture(deployment);
        }

        /** The attempt on the deployment: the headers that tell the caller how it is served, its span, the relay. */
        private Future<RelayOutcome> send(ModelEntry model, Deployment deployment) {
            // the row is journaled just before the answer ends (docs/accounts.md, "A ledger that loses nothing")
            call.exchange().beforeAnswerEnds((status, usage, ttftMs) -> {
                answerRecorded = true;
                record(model).answerEnding(status, usage, ttftMs);
            });
            ModelEntry upstream = model.withUpstream(deployment.upstreamModel());
            VendorEndpoint endpoint = deployment.endpoint();
            sent++;
            out.putHeader(MODEL_HEADER, upstream.id()).putHeader(ATTEMPTS_HEADER, Integer.toString(sent));
            if (plan.fallback() > 0) out.putHeader(FALLBACK_HEADER, Integer.toString(plan.fallback()));
            span = call.exchange().trace().attempt(endpoint.type().id(), endpoint.id(), upstream.id(), upstream.upstreamId(),
                    sent, plan.fallback(), resend);
            try {
                // Converse is another wire format than the model vendor's: always translated
                return call.protocol().nativeTo(upstream.vendor()) && !endpoint.converse()
                        ? NativeAttempt.run(services, call, upstream, endpoint, deadline)
                        : TranslatedAttempt.run(services, call, upstream, endpoint, deadline);
            } catch (GatewayException e) {
                return Future.failedFuture(e);
            } catch (RuntimeException e) {
                // a bug must still answer the caller (and write its ledger row), never leave the request hanging
                return Future.failedFuture(Attempts.internal(call.exchange(), e));
            }
        }

        /**
         * The answer was relayed (whole, cut off, or until the caller left): the attempt's span ends, the row is written;
         * a cut one's with at least what it relayed ({@link CutStreamUsage}).
         */
        private void answered(ModelEntry model, RelayOutcome outcome) {
            span.succeeded(outcome.status(), deployment.upstreamModel(), outcome.usage());
            span = AttemptSpan.NONE;
            if (answerRecorded) return;
            CutStreamUsage.of(call, outcome).onComplete(billed ->
                    record(model).outcome(outcome).billed(billed.succeeded() ? billed.result() : outcome.usage()).write());
        }

        /**
         * After a failed attempt, step by step: why it failed, the deployment's cooldown on a 429, the verdict, the
         * failure listed and its span ended; then, unless the caller has left or the answer has begun, the plan's
         * next attempt (at once or after a backoff), or the final error, and the record.
         */
        private void failed(ModelEntry model, Throwable failure) {
            AttemptFailure why = AttemptFailure.of(failure);
            if (deployment != null && why instanceof AttemptFailure.Status s && s.status() == 429) {
                services.routes().rateLimited(model, deployment, RetryRule.retryAfterMs(why));
            }
            // A failure before any deployment (a fallback's own limit spent, the model no longer served) concerns the
            // model whichever deployment would serve it: the plan moves on. Only a deployment's failure may hand over
            // to another deployment.
            AttemptPlan.Verdict verdict = deployment == null ? AttemptPlan.Verdict.NEXT_MODEL : RetryRule.verdict(why);
            boolean otherDeployment = deployment != null && services.routes().otherReady(model, tried);
            failures.add(FailedAttempt.of(model.id(), failure));
            span.failed(FailureType.status(why), FailureType.of(why), failures.getLast().reason());
            span = AttemptSpan.NONE;
            if (out.closed()) {
                record(model).status(499).write();
                return;
            }
            int fallbackBefore = plan.fallback();
            long waitMs = out.headWritten() ? -1
                    : plan.afterFailure(verdict, RetryRule.retryAfterMs(why), deadline.remainingMs(), otherDeployment);
            if (waitMs < 0) {
                int status = FinalError.render(call.exchange(), failures, failure, verdict, model.vendor().id(),
                        deadline.expired());
                record(model).status(status).write();
                return;
            }
            boolean fallback = plan.fallback() != fallbackBefore;
            resend = fallback ? 0 : resend + 1;
            call.exchange().trace().retried(fallback ? "fallback" : "retry", model.vendor().id(), model.id(), FailureType.of(why));
            attempt(waitMs);
        }

        private Metering.Record record(ModelEntry model) {
            return services.metering().record(call.exchange(), admission, call.primary()).attempted(model, sent)
                    .servedBy(deployment).fallbackAdmissions(fallbackAdmissions);
        }
    }
}
