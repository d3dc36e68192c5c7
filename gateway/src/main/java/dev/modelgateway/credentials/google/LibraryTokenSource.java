package dev.modelgateway.credentials.google;

import com.google.auth.oauth2.AccessToken;
import com.google.auth.oauth2.GoogleCredentials;
import dev.modelgateway.config.GoogleCredentialsSettings;
import dev.modelgateway.credentials.CredentialSource;
import dev.modelgateway.credentials.Expiring;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Date;

/**
 * Mints a token with {@link GoogleCredentials#refreshAccessToken()}, which always asks the token endpoint: the
 * library's own cache ({@code getRequestMetadata}) is bypassed so that {@code RefreshingCredential}, on the gateway's
 * clock, alone decides when a token is renewed. The library's credential is built once (on the first fetch, on a
 * worker thread) and kept; a failure to build it is retried at the next fetch.
 */
final class LibraryTokenSource implements CredentialSource<String> {
    /** Google's access tokens live an hour unless the answer says otherwise (developers.google.com/identity/protocols/oauth2). */
    private static final Duration DEFAULT_LIFETIME = Duration.ofHours(1);

    private final GoogleCredentialsSettings settings;
    private final InstantSource clock;
    private GoogleCredentials credentials;

    LibraryTokenSource(GoogleCredentialsSettings settings, InstantSource clock) {
        this.settings = settings;
        this.clock = clock;
    }

    @Override
    public Expiring<String> fetch() throws IOException {
        AccessToken token = credentials().refreshAccessToken();
        Instant received = clock.instant();
        // The library dates the expiry on the system clock (now + expires_in); the lifetime it leaves is carried
        // over to the gateway's clock, which the cache and the tests move.
        Date expiry = token.getExpirationTime();
        Duration lifetime = expiry == null ? DEFAULT_LIFETIME : Duration.ofMillis(expiry.getTime() - System.currentTimeMillis());
        return new Expiring<>(token.getTokenValue(), received.plus(lifetime));
    }

    @Override
    public String describe() {
        return settings.describe();
    }

    private synchronized GoogleCredentials credentials() throws IOException {
        if (credentials == null) credentials = GoogleTokenSources.load(settings);
        return credentials;
    }
}
