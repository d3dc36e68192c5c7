package dev.modelgateway.accounts.audit;

import dev.modelgateway.json.Json;
import dev.modelgateway.observability.LogThrottle;
import dev.modelgateway.store.Database;
import dev.modelgateway.store.Sql;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.SocketAddress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeoutException;

/**
 * Delivers pending alerts to the configured webhook (docs/accounts.md, "Alerts"): a signed JSON POST each
 * ({@link WebhookSignature}), to an address the policy allows ({@link WebhookTarget}), retried with backoff (1 s, 2 s,
 * 4 s ... up to 5 min) until a 2xx answer or {@link Alerts#MAX_ATTEMPTS} attempts. Only the answer's status counts:
 * at most {@link #MAX_ANSWER_BYTES} of its body are read, then the exchange is reset, so a receiver cannot make the
 * gateway hold a large answer. Each attempt is claimed in the database first, so that of several instances one sends
 * it. The database work and DNS run on worker threads, the HTTP on the event loop.
 */
public final class AlertSender {
    private static final Logger LOG = LoggerFactory.getLogger(AlertSender.class);
    static final long POLL_MS = 1_000;
    private static final long MAX_BACKOFF_MS = 300_000;
    /** How long a claimed attempt may take before another instance may try again. */
    private static final long CLAIM_MS = 60_000;
    /** The whole exchange, connection to the answer's end. */
    private static final int TIMEOUT_MS = 10_000;
    /** How much of an answer is read before the exchange is reset: a receiver's acknowledgement is small. */
    static final int MAX_ANSWER_BYTES = 4 * 1024;

    private final Vertx vertx;
    private final Database db;
    private final Alerts alerts;
    /** Which alerts are due, when a failed one is tried again and the signature's time; the poll runs on a real timer. */
    private final InstantSource clock;
    /** {@code accounts.alerts_allow_private}. */
    private final boolean allowPrivate;
    private final HttpClient http;
    private final long timer;
    private final LogThrottle unsignedWarnings = new LogThrottle(Duration.ofMinutes(10));
    private boolean polling;

    public AlertSender(Vertx vertx, Database db, Alerts alerts, InstantSource clock, boolean allowPrivate) {
        this.vertx = vertx;
        this.clock = clock;
        this.db = db;
        this.alerts = alerts;
        this.allowPrivate = allowPrivate;
        this.http = vertx.createHttpClient(new HttpClientOptions().setConnectTimeout(TIMEOUT_MS).setIdleTimeout(TIMEOUT_MS / 1000)
                // the connection goes to the checked address: SNI and the certificate check use the URL's host name
                .setForceSni(true).setVerifyHost(true));
        this.timer = vertx.setPeriodic(POLL_MS, id -> poll());
    }

    /** One poll at a time: the claims in flight of a slow database are not claimed twice by this instance. */
    private void poll() {
        if (polling) return;
        polling = true;
        vertx.executeBlocking(() -> {
                    AlertSettings settings = AlertSettingsStore.read(Sql.pool(db));
                    if (settings.webhookUrl() == null) return Claimed.NONE;
                    if (settings.signingSecret() == null) {
                        unsignedWarnings.warn(LOG, "alerts are held: their settings were stored before deliveries were signed;"
                                + " PATCH /api/v1/admin/alerts/settings once to generate the signing secret");
                        return Claimed.NONE;
                    }
                    List<Alerts.Alert> due = alerts.due(clock.millis(), 20);
                    List<Alerts.Alert> mine = new ArrayList<>();
                    for (Alerts.Alert a : due) if (alerts.claim(a, CLAIM_MS)) mine.add(a);
                    if (mine.isEmpty()) return Claimed.NONE;
                    return new Claimed(WebhookTarget.resolve(settings.webhookUrl(), allowPrivate), settings.signingSecret(), mine);
                }, false)
                .compose(claimed -> Future.join(claimed.alerts().stream().map(a -> deliver(claimed, a)).toList()))
                .onFailure(e -> LOG.warn("alert delivery round failed: " + e))
                .onComplete(x -> polling = false);
    }

    private record Claimed(WebhookTarget target, String secret, List<Alerts.Alert> alerts) {
        static final Claimed NONE = new Claimed(null, null, List.of());
    }

    private Future<Void> deliver(Claimed claimed, Alerts.Alert a) {
        Future<Integer> status = claimed.target().refusal() != null
                ? Future.failedFuture(new Undelivered(claimed.target().refusal()))
                : post(claimed.target(), claimed.secret(), a);
        return status.transform(ar -> vertx.executeBlocking(() -> {
            if (ar.succeeded() && ar.result() / 100 == 2) {
                alerts.delivered(a.id());
                return null;
            }
            String error = ar.succeeded() ? "HTTP " + ar.result() : neutral(ar.cause());
            long backoff = Math.min(MAX_BACKOFF_MS, 1_000L << Math.min(a.attempts(), 20));
            alerts.attemptFailed(a, error, clock.millis() + backoff);
            // the host alone: a webhook URL's path often holds the receiver's token
            LOG.warn("alert {} not delivered to host '{}' (attempt {}): {}", a.id(), claimed.target().host(), a.attempts() + 1,
                    ar.succeeded() ? error : String.valueOf(ar.cause()));
            return null;
        }, false));
    }

    /** The answer's status, once its end or {@link #MAX_ANSWER_BYTES} of it arrived. */
    private Future<Integer> post(WebhookTarget target, String secret, Alerts.Alert a) {
        Buffer body = Json.toBuffer(a.payload());
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.POST)
                .setServer(SocketAddress.inetSocketAddress(target.port(), target.address().getHostAddress()))
                .setHost(target.host()).setPort(target.port()).setSsl(target.tls()).setURI(target.requestUri())
                .setFollowRedirects(false).setIdleTimeout(TIMEOUT_MS)
                .putHeader("content-type", "application/json").putHeader("x-alert-id", a.id())
                .putHeader(WebhookSignature.HEADER, WebhookSignature.header(secret, clock.instant().getEpochSecond(), body));
        Promise<Integer> status = Promise.promise();
        HttpClientRequest[] sent = new HttpClientRequest[1];
        long deadline = vertx.setTimer(TIMEOUT_MS, t -> {
            if (status.tryFail(new TimeoutException("no complete answer within " + TIMEOUT_MS + " ms")) && sent[0] != null) {
                sent[0].reset();
            }
        });
        http.request(options).compose(req -> {
            sent[0] = req;
            if (status.future().isComplete()) { // timed out while connecting
                req.reset();
                return Future.failedFuture("abandoned");
            }
            // its own reset (a bounded answer, the deadline) is reported here too: the status is settled by then
            req.exceptionHandler(status::tryFail);
            return req.send(body);
        }).onComplete(ar -> {
            if (ar.failed()) status.tryFail(ar.cause());
            else readBounded(ar.result(), status);
        });
        return status.future().onComplete(x -> vertx.cancelTimer(deadline));
    }

    private static void readBounded(HttpClientResponse resp, Promise<Integer> status) {
        long[] read = {0};
        resp.exceptionHandler(status::tryFail);
        resp.handler(chunk -> {
            read[0] += chunk.length();
            if (read[0] > MAX_ANSWER_BYTES && status.tryComplete(resp.statusCode())) resp.request().reset();
        });
        resp.endHandler(v -> status.tryComplete(resp.statusCode()));
    }

    /** What {@code last_error} says of a failed exchange: its kind, never an address or the transport's message. */
    private static String neutral(Throwable cause) {
        if (cause instanceof Undelivered u) return u.getMessage();
        if (cause instanceof TimeoutException) return "timed out";
        return WebhookTarget.CONNECTION_FAILED;
    }

    /** A delivery not attempted; the message is what {@code last_error} shows. */
    private static final class Undelivered extends RuntimeException {
        Undelivered(String reason) {
            super(reason, null, false, false);
        }
    }

    public Future<Void> close() {
        vertx.cancelTimer(timer);
        return http.close();
    }
}
