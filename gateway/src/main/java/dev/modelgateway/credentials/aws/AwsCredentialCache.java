package dev.modelgateway.credentials.aws;

import dev.modelgateway.config.AwsCredentialsSettings;
import dev.modelgateway.credentials.RefreshingCredential;
import io.vertx.core.Vertx;
import software.amazon.awssdk.auth.credentials.AwsCredentials;

import java.time.Duration;
import java.time.InstantSource;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One {@link RefreshingCredential} per AWS identity: providers (and deployments) whose {@code aws} blocks are equal
 * (same source, same keys, same role chain and external ids, same endpoints) share one cached credential and one
 * refresh, so ten deployments of one account and role make one STS call per session, not ten.
 */
public final class AwsCredentialCache {
    /**
     * Refresh this long before expiry. Under the five minutes by which the instance metadata service makes new
     * credentials available before the old ones expire ("Retrieve security credentials from instance metadata", EC2
     * user guide), so a refresh there gets the new ones; STS always issues new credentials.
     */
    public static final Duration REFRESH_BEFORE = Duration.ofMinutes(4);
    /** A failing source is asked again no sooner than this; calls meanwhile fail at once with its health's message. */
    public static final Duration RETRY_AFTER_FAILURE = Duration.ofSeconds(15);

    private final Vertx vertx;
    private final InstantSource clock;
    private final Map<AwsCredentialsSettings, RefreshingCredential<AwsCredentials>> bySettings = new ConcurrentHashMap<>();

    public AwsCredentialCache(Vertx vertx, InstantSource clock) {
        this.vertx = vertx;
        this.clock = clock;
    }

    /** The shared credential for these settings, created on first use; nothing is fetched until its first {@code get()}. */
    public RefreshingCredential<AwsCredentials> credential(AwsCredentialsSettings settings) {
        return bySettings.computeIfAbsent(settings, s -> new RefreshingCredential<>(vertx, AwsCredentialSources.of(s), clock,
                REFRESH_BEFORE, RETRY_AFTER_FAILURE));
    }
}
