package dev.modelgateway.endpoint.realtime;

import dev.modelgateway.accounts.Admission;
import dev.modelgateway.call.CallServices;
import dev.modelgateway.call.Metering;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.catalogue.ModelKind;
import dev.modelgateway.config.VendorEndpoint;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.http.Exchange;
import dev.modelgateway.upstream.RealtimeRelay;
import dev.modelgateway.upstream.RelayOutcome;
import dev.modelgateway.upstream.TransportFailures;
import dev.modelgateway.upstream.VendorSockets;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.UpgradeRejectedException;
import io.vertx.core.http.WebSocket;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code GET /api/v1/realtime?model=<id>}: vendor B's Realtime protocol over WebSocket, relayed frame for frame
 * to the vendor's {@code /realtime?model=<upstream id>}. The caller is authenticated and admitted, and the vendor
 * connection opened, before the upgrade is accepted, so every refusal is a plain HTTP error in the OpenAI shape.
 * The session writes one ledger row when it ends, with the usage of all its {@code response.done} events.
 */
public final class RealtimeEndpoint {
    /** OpenAI accepts audio appends of up to 15 MiB; frames are relayed whole, so both legs allow that much. */
    public static final int MAX_FRAME_BYTES = 16 * 1024 * 1024;
    /** The subprotocols offered by OpenAI's browser clients that the gateway selects (echoed in the handshake). */
    public static final List<String> SUBPROTOCOLS = List.of("realtime", "openai-beta.realtime-v1");
    private static final Logger LOG = LoggerFactory.getLogger(RealtimeEndpoint.class);
    private static final String BETA_SUBPROTOCOL = "openai-beta.realtime-v1";
    /** How often an open session's key is checked again (one key-store read per session). */
    static final long CHECK_EVERY_MS = 2_000;
    /** RFC 6455 §7.4.1: the endpoint terminates the connection because a message violates its policy. */
    private static final short POLICY_VIOLATION = 1008;

    private final CallServices platform;
    private final VendorSockets sockets;

    public RealtimeEndpoint(Vertx vertx, CallServices platform) {
        this.platform = platform;
        this.sockets = new VendorSockets(vertx, MAX_FRAME_BYTES);
    }

    public void handle(RoutingContext ctx) {
        HttpServerRequest request = ctx.request();
        String requested = request.getParam("model");
        if (requested == null || requested.isBlank()) throw GatewayException.invalid("model", "Missing required query parameter: 'model'.");
        ModelEntry model = platform.catalogue().resolve(requested);
        Exchange.of(ctx).model(model.id());
        if (model.kind() != ModelKind.REALTIME) {
            throw GatewayException.invalid("model", "Model '" + model.id() + "' is not a realtime model; use e.g. platform/vendorB-realtime.");
        }
        if (!"websocket".equalsIgnoreCase(request.getHeader("upgrade"))) {
            throw GatewayException.of(ErrorKind.INVALID_REQUEST, "The realtime endpoint speaks WebSocket: connect with an upgrade request.")
                    .withStatus(426).withCode("upgrade_required").withHeaders(Map.of("upgrade", "websocket"));
        }
        VendorEndpoint vendor = platform.config().vendor(model.vendor());
        if (vendor.apiKey() == null) {
            throw new GatewayException.NotConfigured("Vendor '" + model.vendor().id() + "' is not configured on this gateway.",
                    Map.of("x-should-retry", "false"));
        }
        Metering metering = platform.metering();
        metering.admit(Exchange.of(ctx), model, 0, 0).onComplete(admitted -> {
            if (admitted.failed()) {
                GatewayException refused = TransportFailures.classify(admitted.cause(), "accounts");
                Exchange.fail(ctx, refused);
                metering.record(Exchange.of(ctx), null, model).status(refused.status()).write();
                return;
            }
            Admission admission = admitted.result();
            sockets.connect(vendor, "/realtime" + upstreamQuery(request, model), upstreamHeaders(request)).onComplete(connected -> {
                if (connected.failed()) {
                    GatewayException e = connectFailure(model, connected.cause());
                    Exchange.fail(ctx, e);
                    metering.record(Exchange.of(ctx), admission, model).attempted(model, 1).status(e.status()).write();
                    return;
                }
                WebSocket upstream = connected.result();
                // the vendor greets at once (session.created): hold its frames until the caller's socket exists
                upstream.pause();
                request.toWebSocket().onComplete(upgraded -> {
                    if (upgraded.failed()) {
                        upstream.close();
                        metering.record(Exchange.of(ctx), admission, model).attempted(model, 1).status(400).write();
                        return;
                    }
                    // one ledger row per response, written as it completes (a crash loses at most the one under
                    // way); the admission is settled with the session's total when it ends
                    AtomicInteger responses = new AtomicInteger();
                    RealtimeRelay session = new RealtimeRelay(upgraded.result(), upstream,
                            usage -> {
                                responses.incrementAndGet();
                                metering.record(Exchange.of(ctx), null, model).attempted(model, 1)
                                        .outcome(new RelayOutcome.Answered(101, usage, null)).write();
                            },
                            total -> {
                                // a session that produced no response still leaves one (empty) row
                                if (responses.get() == 0) {
                                    metering.record(Exchange.of(ctx), admission, model).attempted(model, 1).status(101).write();
                                } else {
                                    admission.settle(total.totalTokens());
                                }
                            });
                    session.start();
                    watch(ctx, session);
                });
            });
        });
    }

    /**
     * Checks the session's key every {@link #CHECK_EVERY_MS} ms while it is open: a key deleted, disabled,
     * expired or over its budget since the upgrade ends the session (close code 1008, policy violation), so a
     * revoked key or a spent budget cannot keep a session going.
     */
    private void watch(RoutingContext ctx, RealtimeRelay session) {
        Exchange ex = Exchange.of(ctx);
        ex.vertx().setPeriodic(CHECK_EVERY_MS, timer -> {
            if (session.closed()) {
                ex.vertx().cancelTimer(timer);
                return;
            }
            platform.metering().stillAllowed(ex).onSuccess(refusal -> refusal.ifPresent(e -> {
                ex.vertx().cancelTimer(timer);
                session.close(POLICY_VIOLATION, e.getMessage().length() > 120 ? e.getMessage().substring(0, 120) : e.getMessage());
            }));
        });
    }

    /** The caller's query with the public model id replaced by the vendor's (e.g. {@code intent=transcription} is kept). */
    private static String upstreamQuery(HttpServerRequest request, ModelEntry model) {
        StringBuilder q = new StringBuilder("?model=").append(encode(model.upstreamId()));
        request.params().forEach((name, value) -> {
            if (!name.equals("model")) q.append('&').append(encode(name)).append('=').append(encode(value));
        });
        return q.toString();
    }

    /** The beta protocol is asked for with a header upstream, whether the caller used the header or the subprotocol. */
    private static MultiMap upstreamHeaders(HttpServerRequest request) {
        MultiMap headers = MultiMap.caseInsensitiveMultiMap();
        String beta = request.getHeader("openai-beta");
        String protocols = request.getHeader("sec-websocket-protocol");
        if (beta != null) headers.set("openai-beta", beta);
        else if (protocols != null && protocols.toLowerCase(Locale.ROOT).contains(BETA_SUBPROTOCOL)) headers.set("openai-beta", "realtime=v1");
        return headers;
    }

    private static GatewayException connectFailure(ModelEntry model, Throwable cause) {
        String vendor = model.vendor().id();
        String detail = cause instanceof UpgradeRejectedException r ? "HTTP " + r.getStatus() : TransportFailures.kind(cause);
        if (!(cause instanceof UpgradeRejectedException)) {
            LOG.warn("vendor {}: realtime connection failed ({})", vendor, String.valueOf(cause).replaceAll("[\\r\\n]+", " "));
        }
        return GatewayException.of(ErrorKind.UPSTREAM, "Vendor '" + vendor + "' refused or failed the realtime connection (" + detail + ").")
                .withCode("upstream_connect_failed").withHeaders(Map.of());
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
