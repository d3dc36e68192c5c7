package dev.modelgateway.routing;

import dev.modelgateway.catalogue.ModelEntry;

import java.util.ArrayList;
import java.util.List;

/**
 * The order in which a call is attempted: the primary model, then each fallback, each model tried
 * 1 + max_retries times on retryable failures (docs/platform-options.md, "Retry rule"). A cursor: it
 * points at the current attempt and moves on when told how the attempt failed.
 */
public final class AttemptPlan {
    /** What a failed attempt allows. */
    public enum Verdict {
        /** 429, 5xx, timeout, transport failure: the same model may answer next time. */
        RETRY,
        /** The model's deployment cannot serve now (credential refused, not configured, circuit open). */
        NEXT_MODEL,
        /** The request itself is at fault (other 4xx): no other attempt can succeed. */
        STOP
    }

    private final List<ModelEntry> models;
    private final int triesPerModel;
    private int model;
    private int tryOfModel = 1;
    private int attempts = 1;

    public AttemptPlan(ModelEntry primary, PlatformOptions options) {
        List<ModelEntry> all = new ArrayList<>();
        all.add(primary);
        all.addAll(options.fallbacks());
        this.models = List.copyOf(all);
        this.triesPerModel = 1 + options.maxRetries();
    }

    public ModelEntry model() {
        return models.get(model);
    }

    /** How many attempts have been started, the current one included. */
    public int attempts() {
        return attempts;
    }

    /** True on the plan's last model: nothing to fall back to. */
    public boolean lastModel() {
        return model == models.size() - 1;
    }

    /** 0 while on the primary model; n when on {@code fallbacks[n - 1]}. */
    public int fallback() {
        return model;
    }

    /**
     * Moves to the next attempt after a failure.
     *
     * @param hintMs      the vendor's retry-after in milliseconds, -1 when none
     * @param remainingMs what is left of the call's deadline
     * @return how long to wait before the next attempt, or -1 when the plan is over
     */
    public long afterFailure(Verdict verdict, long hintMs, long remainingMs) {
        return afterFailure(verdict, hintMs, remainingMs, false);
    }

    /**
     * As above, when the model may have another deployment ready that the call has not tried: then a retry goes
     * there at once (no backoff: the wait was for the deployment that failed), counted against max_retries as any
     * retry, and a deployment that cannot serve (credentials refused, cooling down, its pool full) hands over to
     * another deployment of the same model before the plan moves to a fallback.
     */
    public long afterFailure(Verdict verdict, long hintMs, long remainingMs, boolean otherDeployment) {
        if (verdict == Verdict.STOP || remainingMs <= 0) return -1;
        if (otherDeployment && verdict == Verdict.NEXT_MODEL) {
            attempts++;
            return 0;
        }
        if (otherDeployment && verdict == Verdict.RETRY && tryOfModel < triesPerModel) {
            tryOfModel++;
            attempts++;
            return 0;
        }
        if (verdict == Verdict.RETRY && tryOfModel < triesPerModel) {
            long wait = Backoff.delayMs(tryOfModel, hintMs);
            if (wait < remainingMs) {
                tryOfModel++;
                attempts++;
                return wait;
            }
            // The wait would use up the deadline: this model is done, another one may still answer at once.
        }
        if (model + 1 < models.size()) {
            model++;
            tryOfModel = 1;
            attempts++;
            return 0;
        }
        return -1;
    }
}
