package dev.modelgateway.credentials.google;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URI;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class RedirectingTransportTest {
    private static final Map<String, URI> REDIRECTS = Map.of(
            "http://metadata.google.internal", URI.create("http://127.0.0.1:8181"),
            "https://sts.googleapis.com/v1/token", URI.create("http://127.0.0.1:8181/oauth2/token"));

    private static String redirect(String url) throws IOException {
        return RedirectingTransport.redirect(REDIRECTS, URI.create(url).toURL()).toString();
    }

    @Test
    void aRedirectedBaseKeepsThePathAndQueryThatFollowIt() throws IOException {
        assertThat(redirect("http://metadata.google.internal/computeMetadata/v1/instance/service-accounts/default/token?scopes=a,b"))
                .isEqualTo("http://127.0.0.1:8181/computeMetadata/v1/instance/service-accounts/default/token?scopes=a,b");
        assertThat(redirect("http://metadata.google.internal")).isEqualTo("http://127.0.0.1:8181");
        assertThat(redirect("https://sts.googleapis.com/v1/token")).isEqualTo("http://127.0.0.1:8181/oauth2/token");
    }

    @Test
    void onlyThatBaseIsRedirectedNotAHostThatStartsLikeIt() throws IOException {
        for (String url : new String[]{"http://metadata.google.internal.example.com/computeMetadata/v1/",
                "https://sts.googleapis.com/v1/tokeninfo", "https://oauth2.googleapis.com/token"}) {
            assertThat(redirect(url)).isEqualTo(url);
        }
    }
}
