package dev.modelgateway.api;

import dev.modelgateway.accounts.Admission;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.relay.ErrorRelay;
import dev.modelgateway.relay.RelayOutcome;
import dev.modelgateway.relay.UpstreamError;
import dev.modelgateway.relay.UpstreamFailures;
import dev.modelgateway.server.Exchange;
import io.vertx.core.Future;
import io.vertx.ext.web.RoutingContext;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs a call: admission, then the attempt plan (the primary model, then each fallback, each tried
 * 1 + max_retries times on retryable failures while nothing has been sent to the caller), choosing the
 * native or the translated path per model, and finally one ledger record.
 */
public final class Dispatcher {
    /** Response headers telling the caller how it was served (docs/platform-options.md). */
    public static final String MODEL_HEADER = "x-platform-model";
    public static final String ATTEMPTS_HEADER = "x-platform-attempts";

    private final Platform platform;

    public Dispatcher(Platform platform) {
        this.platform = platform;
    }

    public void dispatch(Call call) {
        RoutingContext ctx = call.ctx();
        long requestBytes = ctx.body().length();
        platform.metering().admit(ctx, call.primary(), requestBytes, call.maxOutputTokens()).onComplete(ar -> {
            if (ar.failed()) {
                GatewayException refused = UpstreamFailures.classify(ar.cause(), "accounts");
                Exchange.fail(ctx, refused);
                platform.metering().record(ctx, null, call.primary(), null, null, 0, refused.status(), null);
                return;
            }
            run(call, plan(call), 0, ar.result());
        });
    }

    static List<ModelEntry> plan(Call call) {
        List<ModelEntry> plan = new ArrayList<>();
        List<ModelEntry> models = new ArrayList<>();
        models.add(call.primary());
        models.addAll(call.options().fallbacks());
        for (ModelEntry m : models) {
            for (int i = 0; i <= call.options().maxRetries(); i++) plan.add(m);
        }
        return plan;
    }

    private void run(Call call, List<ModelEntry> plan, int index, Admission admission) {
        RoutingContext ctx = call.ctx();
        ModelEntry model = plan.get(index);
        if (!ctx.response().headWritten()) {
            ctx.response().putHeader(MODEL_HEADER, model.id()).putHeader(ATTEMPTS_HEADER, Integer.toString(index + 1));
        }
        attempt(call, model).onComplete(ar -> {
            if (ar.succeeded()) {
                RelayOutcome o = ar.result();
                platform.metering().record(ctx, admission, call.primary(), model, o.usage(), index + 1, o.status(), o.ttftMs());
                return;
            }
            Throwable failure = ar.cause();
            boolean more = index + 1 < plan.size();
            if (more && UpstreamFailures.retryable(failure) && !ctx.response().headWritten() && !ctx.response().closed()) {
                run(call, plan, index + 1, admission);
                return;
            }
            int status = failure instanceof UpstreamError e ? e.status() : UpstreamFailures.classify(failure, model.vendor().id()).status();
            ErrorRelay.renderNative(ctx, failure, model.vendor().id());
            platform.metering().record(ctx, admission, call.primary(), model, null, index + 1, status, null);
        });
    }

    private Future<RelayOutcome> attempt(Call call, ModelEntry model) {
        long timeoutMs = Deadlines.idleTimeoutMs(call.options());
        try {
            return call.inbound().nativeTo(model.vendor())
                    ? NativeAttempt.run(platform, call, model, timeoutMs)
                    : TranslatedAttempt.run(platform, call, model, timeoutMs);
        } catch (GatewayException e) {
            return Future.failedFuture(e);
        }
    }
}
