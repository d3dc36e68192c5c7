package dev.modelgateway.credentials.google;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.auth.oauth2.ComputeEngineCredentials;
import com.google.auth.oauth2.ExternalAccountCredentials;
import com.google.auth.oauth2.GoogleCredentials;
import com.google.auth.oauth2.ServiceAccountCredentials;
import dev.modelgateway.config.GoogleCredentialsSettings;
import dev.modelgateway.credentials.CredentialSource;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.time.InstantSource;
import java.util.Map;

/**
 * A {@code google} block as an access-token source, each kind with google-auth-library's own class (docs/clouds.md,
 * "Google credentials"): {@link ServiceAccountCredentials} (a JWT signed with the key, exchanged at the file's
 * {@code token_uri}: RFC 7523's JWT-bearer grant), {@link ComputeEngineCredentials} (the metadata server: GCE, and GKE
 * workload identity), {@link ExternalAccountCredentials} (workload identity federation: the subject token exchanged at
 * Google's STS, RFC 8693) and {@link GoogleCredentials#getApplicationDefault} (ADC).
 */
public final class GoogleTokenSources {
    /** Where the library sends an external_account's token exchange when the file names none (its DEFAULT_TOKEN_URL). */
    private static final String STS_TOKEN_URL = "https://sts.googleapis.com/v1/token";
    private static final ObjectMapper JSON = new ObjectMapper();

    private GoogleTokenSources() {
    }

    /**
     * The source of {@code settings}' access tokens. Nothing is read or asked for until its first {@code fetch} (on a
     * worker thread); {@code clock} is the one the tokens' expiry is told in, the cache's.
     */
    public static CredentialSource<String> of(GoogleCredentialsSettings settings, InstantSource clock) {
        return new LibraryTokenSource(settings, clock);
    }

    /** The library's credential for {@code settings}, scoped; reads the credential file (blocking). */
    static GoogleCredentials load(GoogleCredentialsSettings settings) throws IOException {
        return switch (settings.source()) {
            case SERVICE_ACCOUNT -> {
                RedirectingTransport transport = new RedirectingTransport(Map.of());
                ServiceAccountCredentials.Builder b;
                try (InputStream in = Files.newInputStream(settings.credentialsFile())) {
                    b = ServiceAccountCredentials.fromStream(in, transport).toBuilder();
                }
                // The library's own knob; the assertion's audience stays Google's token URL, as Google expects.
                if (settings.tokenUrl() != null) b.setTokenServerUri(settings.tokenUrl());
                yield b.setScopes(settings.scopes()).setHttpTransportFactory(transport).build();
            }
            case EXTERNAL_ACCOUNT -> {
                byte[] file = Files.readAllBytes(settings.credentialsFile());
                JsonNode tokenUrl = JSON.readTree(file).path("token_url");
                Map<String, URI> redirects = settings.tokenUrl() == null ? Map.of()
                        : Map.of(tokenUrl.isTextual() ? tokenUrl.asText() : STS_TOKEN_URL, settings.tokenUrl());
                yield ExternalAccountCredentials.fromStream(new ByteArrayInputStream(file), new RedirectingTransport(redirects))
                        .createScoped(settings.scopes());
            }
            case METADATA -> ComputeEngineCredentials.newBuilder().setHttpTransportFactory(metadataTransport(settings))
                    .setScopes(settings.scopes()).build();
            case DEFAULT -> GoogleCredentials.getApplicationDefault(metadataTransport(settings)).createScoped(settings.scopes());
        };
    }

    private static RedirectingTransport metadataTransport(GoogleCredentialsSettings settings) {
        return new RedirectingTransport(settings.metadataEndpoint() == null ? Map.of()
                : Map.of(ComputeEngineCredentials.getMetadataServerUrl(), settings.metadataEndpoint()));
    }
}
