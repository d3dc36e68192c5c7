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

    /** The steps of a call: admit → plan → attempt (native or translated, relayed) → record. */
    public void run(Call call) {
        Exchange ex = call.exchange();
        ex.trace().captureInput(() -> {
            ObjectNode content = JsonNodeFactory.instance.objectNode();
            for (String f : CONTENT_FIELDS) if (call.body().has(f)) content.set(f, call.body().get(f));
            return content.toString();
        });
        GatewayException fallbackRefused = fallbackOutsideAllowList(call);
        if (fallbackRefused != null) {
            ex.fail(fallbackRefused);
            services.metering().record(ex, null, call.primary()).status(fallbackRefused.status()).write();
            return;
        }
        services.metering().admit(ex, call.primary(), call.requestBytes(), call.maxOutputTokens()).onComplete(admitted -> {
            if (admitted.failed()) {
                GatewayException refused = TransportFailures.classify(admitted.cause(), "accounts");
                ex.fail(refused);
                services.metering().record(ex, null, call.primary()).status(refused.status()).write();
                return;
            }
            AttemptPlan plan = new AttemptPlan(call.primary(), call.options());
            new Run(call, admitted.result(), plan).attempt();
        });
    }

    /**
     * A fallback the key may not use refuses the whole call up front: otherwise a key limited to one model would
     * be served by another once its primary failed.
     */
    private GatewayException fallbackOutsideAllowList(Call call) {
        List<ModelEntry> fallbacks = call.options().fallbacks();
        for (int i = 0; i < fallbacks.size(); i++) {
            if (!services.metering().allows(call.exchange(), fallbacks.get(i))) {
                return GatewayException.of(ErrorKind.PERMISSION, "This API key may not use model '" + fallbacks.get(i).id()
                        + "', named as a fallback.").withParam("platform_options.fallbacks[" + i + "]").withCode("model_not_allowed");
            }
        }
        return null;
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
        /** The current attempt's span (none when tracing is off, or once it has ended). */
        private AttemptSpan span = AttemptSpan.NONE;

        /** The successful attempt's row was written as its answer ended. */
        private boolean answerRecorded;

        Run(Call call, Admission admission, AttemptPlan plan) {
            this.call = call;
            this.admission = admission;
            this.plan = plan;
            this.deadline = Deadline.of(call.options(), call.exchange().startNanos());
            this.out = call.exchange().response();
        }

        void attempt() {
            ModelEntry model = plan.model();
            if (plan.fallback() > 0 && !fallbackAdmissions.containsKey(model.id())) {
                services.metering().admitFallback(call.exchange(), model, call.requestBytes(), call.maxOutputTokens())
                        .onComplete(admitted -> {
                            if (admitted.failed()) {
                                // this model's own limit is spent: the plan moves on, as for an unusable deployment
                                failed(model, admitted.cause(), AttemptPlan.Verdict.NEXT_MODEL);
                                return;
                            }
                            fallbackAdmissions.put(model.id(), admitted.result());
                            attempt();
                        });
                return;
            }
            Routes.Choice choice;
            try {
                choice = services.routes().choose(model, tried);
            } catch (GatewayException e) {
                failed(model, null, e);
                return;
            }
            if (!choice.ready() && plan.lastModel() && choice.waitMs() < deadline.remainingMs()) {
                // Every deployment is cooling down and there is nothing to fall back to: wait for the first to
                // recover within the deadline, rather than fail at once (LiteLLM failed such calls, #3646).
                call.exchange().vertx().setTimer(Math.max(1, choice.waitMs()), id -> {
                    if (out.closed()) record(model).status(499).write();
                    else attempt();
                });
                return;
            }
            Deployment deployment = choice.deployment();
            tried.add(deployment.id());
            // the row is journaled just before the answer ends (docs/accounts.md, "A ledger that loses nothing")
            call.exchange().beforeAnswerEnds((status, usage, ttftMs) -> {
                answerRecorded = true;
                record(model).answerEnding(status, usage, ttftMs);
            });
            ModelEntry upstream = model.withUpstream(deployment.upstreamModel());
            start(upstream, deployment.endpoint()).onComplete(ar -> {
                if (ar.succeeded()) {
                    span.succeeded(ar.result().status(), upstream.upstreamId(), ar.result().usage());
                    span = AttemptSpan.NONE;
                    if (!answerRecorded) record(model).outcome(ar.result()).write();
                } else {
                    failed(model, deployment, ar.cause());
                }
            });
        }

        private Future<RelayOutcome> start(ModelEntry model, VendorEndpoint endpoint) {
            sent++;
            out.putHeader(MODEL_HEADER, model.id()).putHeader(ATTEMPTS_HEADER, Integer.toString(sent));
            if (plan.fallback() > 0) out.putHeader(FALLBACK_HEADER, Integer.toString(plan.fallback()));
            span = call.exchange().trace().attempt(endpoint.type().id(), endpoint.id(), model.id(), model.upstreamId(), sent,
                    plan.fallback(), resend);
            try {
                return call.protocol().nativeTo(model.vendor())
                        ? NativeAttempt.run(services, call, model, endpoint, deadline)
                        : TranslatedAttempt.run(services, call, model, endpoint, deadline);
            } catch (GatewayException e) {
                return Future.failedFuture(e);
            } catch (RuntimeException e) {
                // a bug must still answer the caller (and write its ledger row), never leave the request hanging
                return Future.failedFuture(Attempts.internal(call.exchange(), e));
            }
        }

        /** @param deployment the deployment that failed; null when none was reached */
        private void failed(ModelEntry model, Deployment deployment, Throwable failure) {
            AttemptFailure why = AttemptFailure.of(failure);
            if (deployment != null && why instanceof AttemptFailure.Status s && s.status() == 429) {
                services.routes().rateLimited(model, deployment, RetryRule.retryAfterMs(why));
            }
            // only a deployment's failure may hand over to another deployment: a refusal before any (a model's own
            // limit spent) concerns the model whichever deployment serves it
            failed(model, failure, RetryRule.verdict(why), deployment != null && services.routes().otherReady(model, tried));
        }

        private void failed(ModelEntry model, Throwable failure, AttemptPlan.Verdict verdict) {
            failed(model, failure, verdict, false);
        }

        private void failed(ModelEntry model, Throwable failure, AttemptPlan.Verdict verdict, boolean otherDeployment) {
            failures.add(FailedAttempt.of(model.id(), failure));
            AttemptFailure why = AttemptFailure.of(failure);
            span.failed(FailureType.status(why), FailureType.of(why), failures.getLast().reason());
            span = AttemptSpan.NONE;
            if (out.closed()) {
                record(model).status(499).write();
                return;
            }
            int fallbackBefore = plan.fallback();
            long waitMs = out.headWritten() ? -1
                    : plan.afterFailure(verdict, RetryRule.retryAfterMs(why), deadline.remainingMs(), otherDeployment);
            if (waitMs >= 0) {
                boolean fallback = plan.fallback() != fallbackBefore;
                resend = fallback ? 0 : resend + 1;
                call.exchange().trace().retried(fallback ? "fallback" : "retry", model.vendor().id(), model.id(), FailureType.of(why));
            }
            if (waitMs < 0) {
                int status = FinalError.render(call.exchange(), failures, failure, verdict, model.vendor().id(),
                        deadline.expired());
                record(model).status(status).write();
            } else if (waitMs == 0) {
                attempt();
            } else {
                call.exchange().vertx().setTimer(waitMs, id -> {
                    if (out.closed()) record(model).status(499).write();
                    else attempt();
                });
            }
        }

        private Metering.Record record(ModelEntry model) {
            return services.metering().record(call.exchange(), admission, call.primary()).attempted(model, sent)
                    .fallbackAdmissions(fallbackAdmissions);
        }
    }
}
