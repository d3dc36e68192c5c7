package dev.modelgateway.credentials;

import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;

/**
 * One cached credential (per AWS account and role, per Google identity), shared by every event loop. A call gets
 * the held value at once while it is valid for longer than {@code refreshBefore}; within that margin it still gets
 * the held value and one background refresh starts; once expired, every caller waits for the same one refresh
 * (single flight: the peers' tokens were refreshed on every request, or never; docs/clouds.md). A failed refresh
 * is the credential's health, not a log line: it is retried no sooner than {@code retryAfterFailure}, and calls
 * meanwhile fail at once with the same message.
 */
public final class RefreshingCredential<T> {
    /** The code of a call's failure when its deployment's credentials cannot be had. */
    public static final String CREDENTIALS_UNAVAILABLE = "credentials_unavailable";

    private final Vertx vertx;
    private final CredentialSource<T> source;
    private final InstantSource clock;
    private final Duration refreshBefore;
    private final Duration retryAfterFailure;

    private Expiring<T> held;
    private Future<T> refreshing;
    private Instant lastAttempt;
    private String problem;

    public RefreshingCredential(Vertx vertx, CredentialSource<T> source, InstantSource clock, Duration refreshBefore,
                                Duration retryAfterFailure) {
        this.vertx = vertx;
        this.source = source;
        this.clock = clock;
        this.refreshBefore = refreshBefore;
        this.retryAfterFailure = retryAfterFailure;
    }

    /** The credential, fetched or refreshed when needed. */
    public synchronized Future<T> get() {
        Instant now = clock.instant();
        if (held != null && valid(held, now)) {
            if (refreshDue(held, now) && refreshing == null && !backingOff(now)) refresh();
            return Future.succeededFuture(held.value());
        }
        if (refreshing != null) return refreshing;
        if (backingOff(now)) return Future.failedFuture(failure(problem, Duration.between(now, lastAttempt.plus(retryAfterFailure))));
        return refresh();
    }

    /**
     * The vendor refused {@code rejected} (an expired or revoked token): one forced refresh, shared by every caller
     * that saw the same value refused; a caller whose value was already replaced gets the new one.
     */
    public synchronized Future<T> refreshAfterRejection(T rejected) {
        if (refreshing != null) return refreshing;
        if (held != null && held.value() != rejected && valid(held, clock.instant())) return Future.succeededFuture(held.value());
        return refresh();
    }

    public synchronized CredentialHealth health() {
        Instant now = clock.instant();
        boolean ready = problem == null ? held == null || valid(held, now) : held != null && valid(held, now);
        return new CredentialHealth(ready && problem == null, problem, lastAttempt);
    }

    public String describe() {
        return source.describe();
    }

    private Future<T> refresh() {
        lastAttempt = clock.instant();
        Promise<T> done = Promise.promise();
        refreshing = done.future();
        vertx.<Expiring<T>>executeBlocking(source::fetch, false).onComplete(ar -> {
            synchronized (this) {
                refreshing = null;
                lastAttempt = clock.instant();
                if (ar.succeeded()) {
                    held = ar.result();
                    problem = null;
                } else {
                    problem = source.describe() + ": " + CredentialProblems.describe(ar.cause());
                }
            }
            if (ar.succeeded()) done.complete(ar.result().value());
            else done.fail(failure(problem, retryAfterFailure));
        });
        return refreshing;
    }

    private boolean valid(Expiring<T> e, Instant now) {
        return e.expiresAt() == null || now.isBefore(e.expiresAt());
    }

    private boolean refreshDue(Expiring<T> e, Instant now) {
        return e.expiresAt() != null && !now.isBefore(e.expiresAt().minus(refreshBefore));
    }

    private boolean backingOff(Instant now) {
        return problem != null && lastAttempt != null && now.isBefore(lastAttempt.plus(retryAfterFailure));
    }

    /**
     * The failure a call sees: a 503 {@code credentials_unavailable} whose retry-after is when the source is asked
     * again, so that routing takes the deployment out of rotation until then (upstream/Relay).
     */
    private static GatewayException failure(String problem, Duration retryIn) {
        long seconds = Math.max(1, (retryIn.toMillis() + 999) / 1000);
        return GatewayException.of(ErrorKind.UNAVAILABLE, "The gateway could not obtain credentials for this deployment ("
                + problem + ").").withCode(CREDENTIALS_UNAVAILABLE).withHeaders(java.util.Map.of("retry-after", Long.toString(seconds)));
    }
}
