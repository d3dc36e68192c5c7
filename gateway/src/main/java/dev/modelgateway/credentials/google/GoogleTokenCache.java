package dev.modelgateway.credentials.google;

import dev.modelgateway.config.GoogleCredentialsSettings;
import dev.modelgateway.credentials.RefreshingCredential;
import io.vertx.core.Vertx;

import java.time.Duration;
import java.time.InstantSource;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One cached access token per Google identity: providers whose {@code google} blocks are equal share one
 * {@link RefreshingCredential}, so one token request serves them all. Identities stay for the life of the process,
 * as the upstream pools do (one per distinct configuration ever applied).
 */
public final class GoogleTokenCache {
    /**
     * Renewed this long before expiry: google-auth-library's own margin (OAuth2Credentials' refresh margin, 3 min 45 s),
     * which is also within the 5 minutes before expiry from which the metadata server hands out a new token rather
     * than its cached one (cloud.google.com/compute/docs/access/authenticate-workloads),
     * so that a refresh never brings back the same nearly expired token.
     */
    static final Duration REFRESH_BEFORE = Duration.ofMinutes(3).plusSeconds(45);
    /** A failing token endpoint is asked again no sooner than this; calls meanwhile fail at once with its problem. */
    static final Duration RETRY_AFTER_FAILURE = Duration.ofSeconds(10);

    private final Vertx vertx;
    private final InstantSource clock;
    private final Map<GoogleCredentialsSettings, RefreshingCredential<String>> byIdentity = new ConcurrentHashMap<>();

    public GoogleTokenCache(Vertx vertx, InstantSource clock) {
        this.vertx = vertx;
        this.clock = clock;
    }

    /** The access token of {@code settings}' identity; the same instance for equal settings. */
    public RefreshingCredential<String> credential(GoogleCredentialsSettings settings) {
        return byIdentity.computeIfAbsent(settings, s -> new RefreshingCredential<>(vertx, GoogleTokenSources.of(s, clock), clock,
                REFRESH_BEFORE, RETRY_AFTER_FAILURE));
    }
}
