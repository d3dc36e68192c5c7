package dev.modelgateway.endpoint.realtime;

import dev.modelgateway.call.CallServices;
import dev.modelgateway.call.RealtimeSessions;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.catalogue.ModelKind;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.http.Exchange;
import dev.modelgateway.wire.openai.media.RealtimeConnect;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /api/v1/realtime?model=<id>}: vendor B's Realtime protocol over WebSocket, relayed frame for frame
 * to the vendor's {@code /realtime?model=<upstream id>} ({@link RealtimeConnect}) on a deployment chosen by the
 * routes ({@link RealtimeSessions}). The caller is authenticated and admitted, and the vendor connection opened,
 * before the upgrade is accepted, so every refusal is a plain HTTP error in the OpenAI shape. The session writes one
 * ledger row per response, with the usage of its {@code response.done} event.
 */
public final class RealtimeEndpoint {
    /** OpenAI accepts audio appends of up to 15 MiB; frames are relayed whole, so both legs allow that much. */
    public static final int MAX_FRAME_BYTES = 16 * 1024 * 1024;
    /** The subprotocols offered by OpenAI's browser clients that the gateway selects (echoed in the handshake). */
    public static final List<String> SUBPROTOCOLS = List.of("realtime", "openai-beta.realtime-v1");

    private final CallServices platform;
    private final RealtimeSessions sessions;

    public RealtimeEndpoint(Vertx vertx, CallServices platform) {
        this.platform = platform;
        this.sessions = new RealtimeSessions(vertx, platform, MAX_FRAME_BYTES);
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
        List<Map.Entry<String, String>> params = new ArrayList<>();
        request.params().forEach((name, value) -> {
            if (!name.equals("model")) params.add(Map.entry(name, value));
        });
        sessions.open(Exchange.of(ctx), request, model,
                new RealtimeConnect(params, request.getHeader("openai-beta"), request.getHeader("sec-websocket-protocol")));
    }
}
