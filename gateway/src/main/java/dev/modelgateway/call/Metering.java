package dev.modelgateway.call;

import dev.modelgateway.accounts.Accounts;
import dev.modelgateway.accounts.Admission;
import dev.modelgateway.accounts.UsageRecord;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.http.Exchange;
import dev.modelgateway.upstream.RelayOutcome;
import io.vertx.core.Future;

import java.time.Instant;
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

    public Metering(Accounts accounts) {
        this.accounts = accounts;
    }

    /**
     * Admits the call and puts the rate-limit headers on the response. The token estimate is the
     * request's size in bytes / 4 (a common rule of thumb for English text and JSON) plus its output cap.
     */
    public Future<Admission> admit(Exchange ex, ModelEntry model, long requestBytes, long maxOutputTokens) {
        return accounts.admit(ex.caller().key(), model.id(), estimate(requestBytes, maxOutputTokens)).onSuccess(admission ->
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

    /** Why the caller's key may no longer be used by a long-lived call, empty while it may go on. */
    public Future<Optional<GatewayException>> stillAllowed(Exchange ex) {
        return accounts.stillAllowed(ex.caller().key());
    }

    /**
     * Admits a fallback of an admitted call through {@code model}'s own per-model limits (the call's key-wide
     * buckets and budget were taken on its primary).
     */
    public Future<Admission> admitFallback(Exchange ex, ModelEntry model, long requestBytes, long maxOutputTokens) {
        return accounts.admitFallback(ex.caller().key(), model.id(), estimate(requestBytes, maxOutputTokens));
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

        /** What the caller got from a relayed answer: status, usage and time to first byte. */
        public Record outcome(RelayOutcome o) {
            this.status = o.status();
            this.usage = o.usage() == null ? Usage.ZERO : o.usage();
            this.ttftMs = o.ttftMs();
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

        /** Writes the row (once) and corrects the token counters with what was really used. */
        public void write() {
            if (written) return;
            written = true;
            // the record first: its cost is queued as spend before the budget reservation is released
            accounts.record(new UsageRecord(ex.traceId(), ex.caller().keyId(), requested.id(),
                    answered == null ? null : answered.id(), (answered == null ? requested : answered).vendor().id(),
                    usage, attempts, status, ex.elapsedMs(), ttftMs, Instant.now(), ex.caller().key().teamId()));
            if (admission != null) admission.settle(usage.totalTokens());
            fallbackAdmissions.forEach((model, a) ->
                    a.settle(answered != null && answered.id().equals(model) ? usage.totalTokens() : 0));
        }
    }
}
