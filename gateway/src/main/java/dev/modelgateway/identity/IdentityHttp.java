package dev.modelgateway.identity;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.json.Json;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The gateway's requests to identity providers: discovery documents, signing keys and the token endpoint, on one
 * Vert.x client (never blocking an event loop), each bounded in time and size. The URLs come from the configuration
 * or from the configured issuer's own discovery document, never from a caller.
 */
public final class IdentityHttp {
    /** A discovery document, a key set or a token response is a few KiB; more is refused. */
    static final int MAX_ANSWER_BYTES = 1024 * 1024;
    private static final long TIMEOUT_MS = 10_000;

    /** An identity provider answered with an error status, or not JSON. */
    public static final class Failed extends RuntimeException {
        public final int status;
        public final JsonNode body;

        Failed(String message, int status, JsonNode body) {
            super(message, null, false, false);
            this.status = status;
            this.body = body;
        }
    }

    private final HttpClient client;

    public IdentityHttp(Vertx vertx) {
        this.client = vertx.createHttpClient(new HttpClientOptions().setConnectTimeout((int) TIMEOUT_MS)
                .setKeepAlive(true).setTrustAll(false).setVerifyHost(true));
    }

    public Future<JsonNode> getJson(URI uri) {
        return send(uri, HttpMethod.GET, Map.of("accept", "application/json"), null);
    }

    /** A form POST, as OAuth's token endpoint takes it (RFC 6749 §4.1.3). */
    public Future<JsonNode> postForm(URI uri, Map<String, String> form, Map<String, String> headers) {
        String body = form.entrySet().stream().map(e -> enc(e.getKey()) + "=" + enc(e.getValue())).collect(Collectors.joining("&"));
        Map<String, String> all = new java.util.HashMap<>(headers);
        all.put("content-type", "application/x-www-form-urlencoded");
        all.put("accept", "application/json");
        return send(uri, HttpMethod.POST, all, Buffer.buffer(body));
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private Future<JsonNode> send(URI uri, HttpMethod method, Map<String, String> headers, Buffer body) {
        boolean tls = "https".equals(uri.getScheme());
        int port = uri.getPort() > 0 ? uri.getPort() : tls ? 443 : 80;
        String path = (uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath())
                + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        RequestOptions options = new RequestOptions().setMethod(method).setHost(uri.getHost()).setPort(port).setSsl(tls)
                .setURI(path).setIdleTimeout(TIMEOUT_MS).setFollowRedirects(false);
        headers.forEach(options::putHeader);
        return client.request(options)
                .compose(req -> body == null ? req.send() : req.send(body))
                .compose(resp -> {
                    String length = resp.getHeader("content-length");
                    if (length != null && length.matches("\\d{1,12}") && Long.parseLong(length) > MAX_ANSWER_BYTES) {
                        resp.request().reset();
                        return Future.failedFuture(new Failed(uri.getHost() + " answered more than " + MAX_ANSWER_BYTES + " bytes", resp.statusCode(), null));
                    }
                    Buffer collected = Buffer.buffer();
                    io.vertx.core.Promise<JsonNode> done = io.vertx.core.Promise.promise();
                    resp.handler(chunk -> {
                        if (collected.length() + chunk.length() > MAX_ANSWER_BYTES) {
                            resp.request().reset();
                            done.tryFail(new Failed(uri.getHost() + " answered more than " + MAX_ANSWER_BYTES + " bytes", resp.statusCode(), null));
                            return;
                        }
                        collected.appendBuffer(chunk);
                    });
                    resp.exceptionHandler(done::tryFail);
                    resp.endHandler(v -> {
                        JsonNode json = Json.parseOrNull(collected.toString(StandardCharsets.UTF_8));
                        if (resp.statusCode() / 100 != 2) {
                            done.tryFail(new Failed(uri.getHost() + " answered HTTP " + resp.statusCode(), resp.statusCode(), json));
                        } else if (json == null || !json.isObject()) {
                            done.tryFail(new Failed(uri.getHost() + " answered something other than a JSON object", resp.statusCode(), null));
                        } else {
                            done.tryComplete(json);
                        }
                    });
                    return done.future();
                });
    }

    public Future<Void> close() {
        return client.close();
    }
}
