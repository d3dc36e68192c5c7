package dev.modelgateway.call;

import dev.modelgateway.accounts.Accounts;
import dev.modelgateway.accounts.Admission;
import dev.modelgateway.accounts.UsageRecord;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.catalogue.ModelPrice;
import dev.modelgateway.catalogue.PriceBook;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.http.Exchange;
import dev.modelgateway.observability.CallFacts;
import dev.modelgateway.routing.Deployment;
import dev.modelgateway.upstream.RelayOutcome;
import io.vertx.core.Future;

import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The accounts side of a call: admission (key's model allow-list, budget, rate limits) before the
 * upstream call, and one ledger record after it, whatever its outcome.
 */
public final class Metering {
    /** Output tokens assumed at admission when the request sets no cap. */
    static final long DEFAULT_OUTPUT_ESTIMATE = 1024;

    private final Accounts accounts;
    /** The catalogue's prices, for the cost metric (the ledger prices the row itself); null: no cost metric. */
    private final PriceBook prices;

    public Metering(Accounts accounts) {
        this(accounts, null);
    }

    public Metering(Accounts accounts, PriceBook prices) {
        this.accounts = accounts;
        this.prices = prices;
    }

    /** A refusal's reason for the refusals metric: its error code (a fixed vocabulary), else its kind. */
    private static void refused(Exchange ex, Throwable cause) {
        ex.trace().refused(cause instanceof GatewayException g
                ? (g.code() != null ? g.code() : g.kind().name().toLowerCase(Locale.ROOT)) : "accounts_unavailable");
    }

    /**
     * Admits the call and puts the rate-limit headers on the response. The token estimate is the
     * request's size in bytes / 4 (a common rule of thumb for English text and JSON) plus its output cap.
     */
    public Future<Admission> admit(Exchange ex, ModelEntry model, long requestBytes, long maxOutputTokens) {
        // the request's trace waits for this call's record before it ends (access log, span, metrics)
        ex.trace().callStarted();
        return accounts.admit(ex.caller().key(), model.id(), estimate(requestBytes, maxOutputTokens))
                .onFailure(e -> refused(ex, e)).onSuccess(admission ->
                admission.headers().forEach((k, v) -> {
                    if (!ex.response().headWritten()) ex.response().putHeader(k, v);
                }));
    }

    private static long estimate(long requestBytes, long maxOutputTokens) {
        return requestBytes / 4 + (maxOutputTokens > 0 ? maxOutputTokens : DEFAULT_OUTPUT_ESTIMATE);
    }

    /** Whether the caller's key may use {@code model} at all (its allow-list), before anything is sent. */
    public boolean allows(Exchange ex, ModelEntry model) {
        return accounts.allows(ex.caller().key(), model.id());
    }

    /** Why the caller's key may no longer use {@code model} in a long-lived call, empty while it may go on. */
    public Future<Optional<GatewayException>> stillAllowed(Exchange ex, ModelEntry model) {
        return accounts.stillAllowed(ex.caller().key(), model.id());
    }

    /**
     * Admits a fallback of an admitted call through {@code model}'s own per-model limits (the call's key-wide
     * buckets and budget were taken on its primary).
     */
    public Future<Admission> admitFallback(Exchange ex, ModelEntry model, long requestBytes, long maxOutputTokens) {
        return accounts.admitFallback(ex.caller().key(), model.id(), estimate(requestBytes, maxOutputTokens))
                .onFailure(e -> refused(ex, e));
    }

    /**
     * Starts the ledger record of a call to {@code requested}; {@code admission} is null when the call was
     * refused before it was admitted.
     */
    public Record record(Exchange ex, Admission admission, ModelEntry requested) {
        return new Record(ex, admission, requested);
    }

    /** One ledger record under construction; {@link #write()} settles the admission and queues the row. */
    public final class Record {
        private final Exchange ex;
        private final Admission admission;
        private final ModelEntry requested;
        private ModelEntry answered;
        private Deployment deployment;
        private Usage usage = Usage.ZERO;
        private int attempts;
        private int status;
        private Long ttftMs;
        private Map<String, Admission> fallbackAdmissions = Map.of();
        private boolean written;

        private Record(Exchange ex, Admission admission, ModelEntry requested) {
            this.ex = ex;
            this.admission = admission;
            this.requested = requested;
        }

        /** The model that was attempted last, and how many attempts the call made. */
        public Record attempted(ModelEntry model, int attempts) {
            this.answered = model;
            this.attempts = attempts;
            return this;
        }

        /**
         * The deployment of the last attempt (null: none was chosen): the row names it, and is billed at its own
         * price when it has one (docs/clouds.md, "Prices").
         */
        public Record servedBy(Deployment deployment) {
            this.deployment = deployment;
            return this;
        }

        /** What the caller got from a relayed answer: status, usage and time to first byte. */
        public Record outcome(RelayOutcome o) {
            this.status = o.status();
            this.usage = o.usage() == null ? Usage.ZERO : o.usage();
            this.ttftMs = o.ttftMs();
            return this;
        }

        /** The usage billed instead of the outcome's own: a cut stream's estimate ({@link CutStreamUsage}). */
        public Record billed(Usage usage) {
            this.usage = usage;
            return this;
        }

        /** The status of a call that ended without a relayed answer. */
        public Record status(int status) {
            this.status = status;
            return this;
        }

        /** Admissions taken for fallback models, by model id: the one that answered is settled with the usage. */
        public Record fallbackAdmissions(Map<String, Admission> admissions) {
            this.fallbackAdmissions = admissions;
            return this;
        }

        /**
         * Writes the row when the relay is about to end the answer ({@link Exchange#beforeAnswerEnds}); the call's
         * own {@link #write()} afterwards then does nothing.
         */
        public void answerEnding(int status, Usage usage, Long ttftMs) {
            this.status = status;
            this.usage = usage == null ? Usage.ZERO : usage;
            this.ttftMs = ttftMs;
            write();
        }

        private String deploymentId() {
            return deployment == null ? null : deployment.id();
        }

        private double cost() {
            ModelPrice price = prices == null ? null : prices.priceOf((answered == null ? requested : answered).id(), deploymentId());
            return price == null ? 0 : price.cost(usage).doubleValue();
        }

        /** Writes the row (once) and corrects the token counters with what was really used. */
        public void write() {
            if (written) return;
            written = true;
            // the record first: its cost is queued as spend before the budget reservation is released
            String vendor = (answered == null ? requested : answered).vendor().id();
            long latencyMs = ex.elapsedMs();
            accounts.record(new UsageRecord(ex.traceId(), ex.caller().keyId(), requested.id(),
                    answered == null ? null : answered.id(), vendor, usage, attempts, status, latencyMs, ttftMs, Instant.now(),
                    ex.caller().key().teamId(), deploymentId(), ex.caller().userId()));
            ex.trace().recorded(new CallFacts(requested.id(), answered == null ? null : answered.id(), vendor, status, usage,
                    attempts, latencyMs, ttftMs, cost()), ex.caller().keyId());
            if (admission != null) admission.settle(usage.totalTokens());
            fallbackAdmissions.forEach((model, a) ->
                    a.settle(answered != null && answered.id().equals(model) ? usage.totalTokens() : 0));
        }
    }
}
