package dev.modelgateway.accounts.audit;

import dev.modelgateway.json.Json;
import dev.modelgateway.store.Database;
import dev.modelgateway.store.Sql;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;

/**
 * Delivers pending alerts to the configured webhook (docs/accounts.md, "Alerts"): a JSON POST each, retried with
 * backoff (1 s, 2 s, 4 s ... up to 5 min) until a 2xx answer or {@link Alerts#MAX_ATTEMPTS} attempts. Each attempt
 * is claimed in the database first, so that of several instances one sends it. The database work runs on worker
 * threads, the HTTP on the event loop.
 */
public final class AlertSender {
    private static final Logger LOG = LoggerFactory.getLogger(AlertSender.class);
    static final long POLL_MS = 1_000;
    private static final long MAX_BACKOFF_MS = 300_000;
    /** How long a claimed attempt may take before another instance may try again. */
    private static final long CLAIM_MS = 60_000;
    private static final int TIMEOUT_MS = 10_000;

    private final Vertx vertx;
    private final Database db;
    private final Alerts alerts;
    /** Which alerts are due and when a failed one is tried again; the poll itself runs on a real timer. */
    private final InstantSource clock;
    private final HttpClient http;
    private final long timer;
    private boolean polling;

    public AlertSender(Vertx vertx, Database db, Alerts alerts, InstantSource clock) {
        this.vertx = vertx;
        this.clock = clock;
        this.db = db;
        this.alerts = alerts;
        this.http = vertx.createHttpClient(new HttpClientOptions().setConnectTimeout(TIMEOUT_MS).setIdleTimeout(TIMEOUT_MS / 1000));
        this.timer = vertx.setPeriodic(POLL_MS, id -> poll());
    }

    /** One poll at a time: the claims in flight of a slow database are not claimed twice by this instance. */
    private void poll() {
        if (polling) return;
        polling = true;
        vertx.executeBlocking(() -> {
                    AlertSettings settings = AlertSettingsStore.read(Sql.pool(db));
                    if (settings.webhookUrl() == null) return new Claimed(null, List.of());
                    List<Alerts.Alert> due = alerts.due(clock.millis(), 20);
                    List<Alerts.Alert> mine = new ArrayList<>();
                    for (Alerts.Alert a : due) if (alerts.claim(a, CLAIM_MS)) mine.add(a);
                    return new Claimed(settings.webhookUrl(), mine);
                }, false)
                .compose(claimed -> Future.join(claimed.alerts().stream().map(a -> deliver(claimed.url(), a)).toList()))
                .onFailure(e -> LOG.warn("alert delivery round failed: " + e))
                .onComplete(x -> polling = false);
    }

    private record Claimed(String url, List<Alerts.Alert> alerts) {}

    private Future<Void> deliver(String url, Alerts.Alert a) {
        Buffer body = Json.toBuffer(a.payload());
        return http.request(new RequestOptions().setMethod(HttpMethod.POST).setAbsoluteURI(url).setIdleTimeout(TIMEOUT_MS))
                .compose(req -> req.putHeader("content-type", "application/json").putHeader("x-alert-id", a.id()).send(body))
                .compose(resp -> resp.body().map(b -> resp.statusCode()))
                .transform(ar -> vertx.executeBlocking(() -> {
                    if (ar.succeeded() && ar.result() / 100 == 2) {
                        alerts.delivered(a.id());
                    } else {
                        String error = ar.succeeded() ? "HTTP " + ar.result() : String.valueOf(ar.cause());
                        long backoff = Math.min(MAX_BACKOFF_MS, 1_000L << Math.min(a.attempts(), 20));
                        alerts.attemptFailed(a, error, clock.millis() + backoff);
                        LOG.warn("alert {} not delivered (attempt {}): {}", a.id(), a.attempts() + 1, error);
                    }
                    return null;
                }, false));
    }

    public Future<Void> close() {
        vertx.cancelTimer(timer);
        return http.close();
    }
}
