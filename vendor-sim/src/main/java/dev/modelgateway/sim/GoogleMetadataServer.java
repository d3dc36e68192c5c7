package dev.modelgateway.sim;

import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;

import java.time.Duration;

/**
 * The GCE / GKE metadata server's token path (cloud.google.com/compute/docs/access/authenticate-workloads): a request
 * without {@code Metadata-Flavor: Google} is refused (the header is what keeps a page's SSRF from reading it), and the
 * current token is handed out again until it has 5 minutes left, as the real server caches it.
 */
final class GoogleMetadataServer {
    static final String PREFIX = "/computeMetadata/";
    static final String TOKEN = "/computeMetadata/v1/instance/service-accounts/default/token";
    /** The identity the tokens are issued to, as GKE's workload identity names a pod's Google service account. */
    static final String ACCOUNT = "default@sim-project.iam.gserviceaccount.com";
    private static final Duration REISSUE_BEFORE = Duration.ofMinutes(5);

    private final GoogleTokens tokens;
    private String current;

    GoogleMetadataServer(GoogleTokens tokens) {
        this.tokens = tokens;
    }

    void handle(HttpServerRequest req) {
        var res = req.response().putHeader("Metadata-Flavor", "Google");
        if (!"Google".equals(req.getHeader("Metadata-Flavor"))) {
            res.setStatusCode(403).putHeader("content-type", "text/html").end("Missing Metadata-Flavor:Google header.");
        } else if (req.method() != HttpMethod.GET || !req.path().equals(TOKEN)) {
            res.setStatusCode(404).putHeader("content-type", "text/html").end("Not Found");
        } else {
            String token = token();
            res.putHeader("content-type", "application/json").end(Json.write(Json.obj().put("access_token", token)
                    .put("expires_in", tokens.secondsLeft(token)).put("token_type", "Bearer")));
        }
    }

    private synchronized String token() {
        if (current == null || tokens.secondsLeft(current) <= REISSUE_BEFORE.toSeconds()) current = tokens.issue(ACCOUNT);
        return current;
    }
}
