package dev.modelgateway.call;

import dev.modelgateway.accounts.Accounts;
import dev.modelgateway.accounts.Admission;
import dev.modelgateway.accounts.UsageRecord;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.http.Exchange;
import io.vertx.core.Future;
import io.vertx.ext.web.RoutingContext;

import java.time.Instant;

/**
 * The accounts side of a call: admission (key's model allow-list, budget, rate limits) before the
 * upstream call, and one ledger record after it, whatever its outcome.
 */
public final class Metering {
    /** Output tokens assumed at admission when the request sets no cap. */
    static final long DEFAULT_OUTPUT_ESTIMATE = 1024;

    private final Accounts accounts;

    public Metering(Accounts accounts) {
        this.accounts = accounts;
    }

    /**
     * Admits the call and puts the rate-limit headers on the response. The token estimate is the
     * request's size in bytes / 4 (a common rule of thumb for English text and JSON) plus its output cap.
     */
    public Future<Admission> admit(RoutingContext ctx, ModelEntry model, long requestBytes, long maxOutputTokens) {
        long estimate = requestBytes / 4 + (maxOutputTokens > 0 ? maxOutputTokens : DEFAULT_OUTPUT_ESTIMATE);
        Exchange ex = Exchange.of(ctx);
        return accounts.admit(ex.caller().key(), model.id(), estimate).onSuccess(admission ->
                admission.headers().forEach((k, v) -> {
                    if (!ctx.response().headWritten()) ctx.response().putHeader(k, v);
                }));
    }

    /** Writes the ledger record and corrects the token counter with what was really used. */
    public void record(RoutingContext ctx, Admission admission, ModelEntry requested, ModelEntry answered, Usage usage,
                       int attempts, int status, Long ttftMs) {
        Exchange ex = Exchange.of(ctx);
        Usage u = usage == null ? Usage.ZERO : usage;
        if (admission != null) admission.settle(u.totalTokens());
        long latencyMs = (System.nanoTime() - ex.startNanos()) / 1_000_000;
        accounts.record(new UsageRecord(ex.traceId(), ex.caller().keyId(), requested.id(),
                answered == null ? null : answered.id(), (answered == null ? requested : answered).vendor().id(),
                u, attempts, status, latencyMs, ttftMs, Instant.now()));
    }
}
