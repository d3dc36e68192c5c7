package dev.modelgateway.credentials.google;

import com.google.api.client.http.javanet.NetHttpTransport;
import com.google.auth.http.HttpTransportFactory;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URL;
import java.util.Map;

/**
 * The HTTP transport handed to google-auth-library: its default one ({@link NetHttpTransport}), except that requests
 * to a redirected base URL go to the configured one instead. The library offers no per-credential setting for the
 * metadata server's host (it reads the {@code GCE_METADATA_HOST} environment variable, process-wide) and requires an
 * https STS URL in an external_account file; the transport is the one thing it takes per credential, so the overrides
 * of the {@code google} block ({@code metadata_endpoint}, {@code token_url}) are applied here.
 */
final class RedirectingTransport implements HttpTransportFactory {
    private final NetHttpTransport transport;

    /** @param redirects base URL as the library builds it (no trailing slash) → base URL to send to instead */
    RedirectingTransport(Map<String, URI> redirects) {
        Map<String, URI> copy = Map.copyOf(redirects);
        this.transport = new NetHttpTransport.Builder()
                .setConnectionFactory(url -> (HttpURLConnection) redirect(copy, url).openConnection())
                .build();
    }

    @Override
    public NetHttpTransport create() {
        return transport;
    }

    static URL redirect(Map<String, URI> redirects, URL url) throws IOException {
        String text = url.toString();
        for (Map.Entry<String, URI> r : redirects.entrySet()) {
            String from = r.getKey();
            if (text.equals(from) || text.startsWith(from + "/") || text.startsWith(from + "?")) {
                return URI.create(r.getValue() + text.substring(from.length())).toURL();
            }
        }
        return url;
    }
}
