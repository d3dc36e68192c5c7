package dev.modelgateway.call;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.accounts.Admission;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.http.ErrorShape;
import dev.modelgateway.http.Exchange;
import dev.modelgateway.routing.Deployment;
import dev.modelgateway.upstream.RealtimeRelay;
import dev.modelgateway.upstream.RelayOutcome;
import dev.modelgateway.upstream.TransportFailures;
import dev.modelgateway.upstream.VendorSockets;
import dev.modelgateway.wire.openai.media.RealtimeClientEvents;
import dev.modelgateway.wire.openai.media.RealtimeConnect;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.UpgradeRejectedException;
import io.vertx.core.http.WebSocket;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Realtime sessions, run like every other vendor call: the deployment chosen through the routes in force (its key and
 * address), admitted, the vendor's WebSocket opened with {@link RealtimeConnect}'s request, and only then the caller's
 * upgrade accepted, so every refusal is a plain HTTP error; then frames relayed ({@link RealtimeRelay}) and one ledger
 * row written per response as it completes. One per event loop (its vendor sockets share the loop's thread).
 */
public final class RealtimeSessions {
    private static final Logger LOG = LoggerFactory.getLogger(RealtimeSessions.class);
    /** How often an open session's key is checked again (one key-store read per session). */
    static final long CHECK_EVERY_MS = 2_000;
    /** RFC 6455 §7.4.1: the endpoint terminates the connection because a message violates its policy. */
    private static final short POLICY_VIOLATION = 1008;

    private final CallServices services;
    private final VendorSockets sockets;

    /** @param maxFrameBytes the largest frame accepted from the vendor (frames are relayed whole) */
    public RealtimeSessions(Vertx vertx, CallServices services, int maxFrameBytes) {
        this.services = services;
        this.sockets = new VendorSockets(vertx, maxFrameBytes);
    }

    /**
     * Opens the session of the caller's upgrade request {@code ex} for {@code model}.
     *
     * @throws GatewayException when the chosen deployment has no key (before admission, as it always was)
     */
    public void open(Exchange ex, HttpServerRequest request, ModelEntry model, RealtimeConnect connect) {
        Deployment d = services.routes().choose(model, Set.of()).deployment();
        if (!d.endpoint().configured()) {
            throw new GatewayException.NotConfigured("Vendor '" + model.vendor().id() + "' is not configured on this gateway.",
                    Map.of("x-should-retry", "false"));
        }
        Metering metering = services.metering();
        metering.admit(ex, model, 0, 0).onComplete(admitted -> {
            if (admitted.failed()) {
                GatewayException refused = TransportFailures.classify(admitted.cause(), "accounts");
                ex.fail(refused);
                metering.record(ex, null, model).status(refused.status()).write();
                return;
            }
            Admission admission = admitted.result();
            sockets.connect(d.endpoint(), connect.request(d.upstreamModel())).onComplete(connected -> {
                if (connected.failed()) {
                    GatewayException e = connectFailure(model, connected.cause());
                    ex.fail(e);
                    metering.record(ex, admission, model).attempted(model, 1).servedBy(d).status(e.status()).write();
                    return;
                }
                WebSocket upstream = connected.result();
                // the vendor greets at once (session.created): hold its frames until the caller's socket exists
                upstream.pause();
                request.toWebSocket().onComplete(upgraded -> {
                    if (upgraded.failed()) {
                        upstream.close();
                        metering.record(ex, admission, model).attempted(model, 1).servedBy(d).status(400).write();
                        return;
                    }
                    // one ledger row per response, written as it completes (a crash loses at most the one under
                    // way); the admission is settled with the session's total when it ends
                    AtomicInteger responses = new AtomicInteger();
                    RealtimeRelay session = new RealtimeRelay(upgraded.result(), upstream,
                            usage -> {
                                responses.incrementAndGet();
                                metering.record(ex, null, model).attempted(model, 1).servedBy(d)
                                        .outcome(new RelayOutcome.Answered(101, usage, null)).write();
                            },
                            total -> {
                                // a session that produced no response still leaves one (empty) row
                                if (responses.get() == 0) {
                                    metering.record(ex, admission, model).attempted(model, 1).servedBy(d).status(101).write();
                                } else {
                                    admission.settle(total.totalTokens());
                                }
                            },
                            clientEvent -> beforeResponse(ex, model, clientEvent));
                    session.start(services.relay().inFlight());
                    watch(ex, model, session);
                });
            });
        });
    }

    /**
     * Before each client event that may buy a response ({@code response.create}): the key checked afresh (state,
     * allow-list, budget), so a session cannot outrun its budget between two periodic checks; refused, the client
     * gets vendor B's realtime {@code error} event and the vendor nothing. Null when it may go on.
     */
    private Future<Buffer> beforeResponse(Exchange ex, ModelEntry model, Buffer clientEvent) {
        return services.metering().stillAllowed(ex, model).map(refusal -> refusal.map(e ->
                RealtimeClientEvents.refused((ObjectNode) ErrorShape.OPENAI.errorBody(e, ex.traceId()).get("error"),
                        clientEvent)).orElse(null));
    }

    /**
     * Checks the session's key every {@link #CHECK_EVERY_MS} ms while it is open: a key deleted, disabled,
     * expired or over its budget since the upgrade ends the session (close code 1008, policy violation), so a
     * revoked key or a spent budget cannot keep a session going (responses the vendor starts by itself, on voice
     * activity, included).
     */
    private void watch(Exchange ex, ModelEntry model, RealtimeRelay session) {
        ex.vertx().setPeriodic(CHECK_EVERY_MS, timer -> {
            if (session.closed()) {
                ex.vertx().cancelTimer(timer);
                return;
            }
            services.metering().stillAllowed(ex, model).onSuccess(refusal -> refusal.ifPresent(e -> {
                ex.vertx().cancelTimer(timer);
                session.close(POLICY_VIOLATION, e.getMessage().length() > 120 ? e.getMessage().substring(0, 120) : e.getMessage());
            }));
        });
    }

    private static GatewayException connectFailure(ModelEntry model, Throwable cause) {
        String vendor = model.vendor().id();
        String detail = cause instanceof UpgradeRejectedException r ? "HTTP " + r.getStatus() : TransportFailures.kind(cause);
        if (!(cause instanceof UpgradeRejectedException)) {
            LOG.warn("vendor {}: realtime connection failed ({})", vendor, String.valueOf(cause).replaceAll("[\\r\\n]+", " "));
        }
        return GatewayException.of(ErrorKind.UPSTREAM, "Vendor '" + vendor + "' refused or failed the realtime connection ("
                + detail + ").").withCode("upstream_connect_failed").withHeaders(Map.of());
    }
}
