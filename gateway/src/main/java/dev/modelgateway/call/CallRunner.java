package dev.modelgateway.call;

import dev.modelgateway.accounts.Admission;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.upstream.RelayOutcome;
import dev.modelgateway.upstream.TransportFailures;
import dev.modelgateway.routing.AttemptPlan;
import dev.modelgateway.routing.Deadline;
import dev.modelgateway.http.Exchange;
import io.vertx.core.Future;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs a call: admission, then the attempt plan (the primary model, then each fallback, each tried
 * 1 + max_retries times on retryable failures, with backoff, while nothing has been sent to the caller and
 * the deadline allows), choosing the native or the translated path per model, and finally one ledger record.
 */
public final class CallRunner {
    /** Response headers telling the caller how it was served (docs/platform-options.md, "Headers"). */
    public static final String MODEL_HEADER = "x-platform-model";
    public static final String ATTEMPTS_HEADER = "x-platform-attempts";
    public static final String FALLBACK_HEADER = "x-platform-fallback";

    private final CallServices platform;

    public CallRunner(CallServices platform) {
        this.platform = platform;
    }

    public void dispatch(Call call) {
        RoutingContext ctx = call.ctx();
        long requestBytes = ctx.body().length();
        platform.metering().admit(ctx, call.primary(), requestBytes, call.maxOutputTokens()).onComplete(ar -> {
            if (ar.failed()) {
                GatewayException refused = TransportFailures.classify(ar.cause(), "accounts");
                Exchange.fail(ctx, refused);
                platform.metering().record(ctx, null, call.primary(), null, null, 0, refused.status(), null);
                return;
            }
            new Run(call, ar.result()).attempt();
        });
    }

    /** One call's way through its attempt plan. */
    private final class Run {
        private final Call call;
        private final Admission admission;
        private final AttemptPlan plan;
        private final Deadline deadline;
        private final HttpServerResponse out;
        private final List<FailedAttempt> failures = new ArrayList<>();

        Run(Call call, Admission admission) {
            this.call = call;
            this.admission = admission;
            this.plan = new AttemptPlan(call.primary(), call.options());
            this.deadline = Deadline.of(call.options(), Exchange.of(call.ctx()).startNanos());
            this.out = call.ctx().response();
        }

        void attempt() {
            ModelEntry model = plan.model();
            out.putHeader(MODEL_HEADER, model.id()).putHeader(ATTEMPTS_HEADER, Integer.toString(plan.attempts()));
            if (plan.fallback() > 0) out.putHeader(FALLBACK_HEADER, Integer.toString(plan.fallback()));
            start(model).onComplete(ar -> {
                if (ar.succeeded()) {
                    RelayOutcome o = ar.result();
                    record(model, o.usage(), o.status(), o.ttftMs());
                } else {
                    failed(model, ar.cause());
                }
            });
        }

        private void failed(ModelEntry model, Throwable failure) {
            failures.add(FailedAttempt.of(model.id(), failure));
            if (out.closed()) {
                record(model, null, 499, null);
                return;
            }
            AttemptPlan.Verdict verdict = TransportFailures.verdict(failure);
            long waitMs = out.headWritten() ? -1
                    : plan.afterFailure(verdict, TransportFailures.retryAfterMs(failure), deadline.remainingMs());
            if (waitMs < 0) {
                int status = FinalError.renderFinal(call.ctx(), failures, failure, verdict, model.vendor().id(), deadline.expired());
                record(model, null, status, null);
            } else if (waitMs == 0) {
                attempt();
            } else {
                call.ctx().vertx().setTimer(waitMs, id -> {
                    if (out.closed()) record(model, null, 499, null);
                    else attempt();
                });
            }
        }

        private Future<RelayOutcome> start(ModelEntry model) {
            try {
                return call.inbound().nativeTo(model.vendor())
                        ? NativeAttempt.run(platform, call, model, deadline)
                        : TranslatedAttempt.run(platform, call, model, deadline);
            } catch (GatewayException e) {
                return Future.failedFuture(e);
            }
        }

        private void record(ModelEntry model, Usage usage, int status, Long ttftMs) {
            platform.metering().record(call.ctx(), admission, call.primary(), model, usage, plan.attempts(), status, ttftMs);
        }
    }
}
