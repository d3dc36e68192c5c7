package dev.modelgateway.server;

import dev.modelgateway.accounts.Accounts;
import dev.modelgateway.call.CallRunner;
import dev.modelgateway.call.CallServices;
import dev.modelgateway.config.ServerLimits;
import dev.modelgateway.console.Console;
import dev.modelgateway.endpoint.audio.SpeechEndpoint;
import dev.modelgateway.endpoint.audio.TranscriptionTasksEndpoint;
import dev.modelgateway.endpoint.audio.TranscriptionsEndpoint;
import dev.modelgateway.endpoint.chat.ChatCompletionsEndpoint;
import dev.modelgateway.endpoint.embeddings.EmbeddingsEndpoint;
import dev.modelgateway.endpoint.images.ImageScalesEndpoint;
import dev.modelgateway.endpoint.images.ImagesEndpoint;
import dev.modelgateway.endpoint.messages.MessagesEndpoint;
import dev.modelgateway.endpoint.models.ModelsEndpoint;
import dev.modelgateway.endpoint.realtime.RealtimeEndpoint;
import dev.modelgateway.endpoint.responses.ResponsesEndpoint;
import dev.modelgateway.endpoint.responses.StoredResponsesEndpoint;
import dev.modelgateway.endpoint.tokens.CountTokensEndpoint;
import dev.modelgateway.endpoint.unavailable.UnavailableFeatures;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.http.ErrorShape;
import dev.modelgateway.http.BadInput;
import dev.modelgateway.http.Exchange;
import dev.modelgateway.http.TraceId;
import dev.modelgateway.observability.RequestTrace;
import dev.modelgateway.observability.Telemetry;
import dev.modelgateway.services.SharedServices;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/** The gateway's routes under {@code /api/v1}, plus trace ids, auth and error rendering for all of them. */
public final class GatewayRouter {
    private static final Logger LOG = LoggerFactory.getLogger(GatewayRouter.class);
    /** docs/contract.md §4's token-counting path; it takes a messages-protocol body, so it answers in that protocol's shape. */
    static final String COUNT_MESSAGE_TOKENS = "/api/count-message-tokens";

    private GatewayRouter() {
    }

    /** The label of a request no route took (bounded: never the caller's path). */
    static final String UNMATCHED = "unmatched";

    /**
     * @param health {@code /health}, {@code /ready} and {@code /metrics} on this router; null when they are served on
     *               a port of their own ({@code observability.metrics_port})
     */
    public static Router create(Vertx vertx, CallServices platform, Authenticator authenticator, Accounts accounts,
                                SharedServices services, ServerLimits limits, BodyBudget budget, AdminConfigRoutes admin,
                                Telemetry telemetry, HealthEndpoints health) {
        Router router = Router.router(vertx);
        Set<String> routes = new java.util.concurrent.CopyOnWriteArraySet<>();
        router.route().handler(ctx -> begin(ctx, telemetry, routes));
        router.get("/health").handler(HealthEndpoints::live);
        if (health != null) health.mount(router);
        // The key is checked before a byte of the body is read: the request stays paused through the (async)
        // authentication, so a caller without a key cannot make the gateway buffer anything. An upgrade has no
        // body, but once its end is read it can no longer be upgraded: it stays paused until its handler accepts it.
        router.route("/api/*").handler(ctx -> {
            ctx.request().pause();
            ctx.next();
        });
        router.route("/api/*").handler(new BearerAuth(authenticator));
        BodyReader bodies = new BodyReader(vertx, limits, budget);
        router.route("/api/*").handler(bodies::read);
        router.route("/api/*").handler(bodies::done);
        // Accounts routes check the master key themselves (admin) or the caller's own key (usage).
        accounts.mountRoutes(router);
        admin.mount(router);

        CallRunner runner = new CallRunner(platform);
        ChatCompletionsEndpoint chat = new ChatCompletionsEndpoint(platform, runner);
        MessagesEndpoint messages = new MessagesEndpoint(platform, runner, services.owners());
        ModelsEndpoint models = new ModelsEndpoint(platform);
        router.post("/api/v1/chat/completions").handler(chat::handle);
        router.post("/api/v1/messages").handler(messages::handle);
        router.get("/api/v1/models").handler(models::list);
        CountTokensEndpoint countTokens = new CountTokensEndpoint(platform);
        router.post(COUNT_MESSAGE_TOKENS).handler(countTokens::handle);
        router.post("/api/v1/messages/count_tokens").handler(countTokens::handle);
        UnavailableFeatures.mount(router);
        TranscriptionTasksEndpoint transcriptions = new TranscriptionTasksEndpoint(platform, services.transcriptions());
        router.post("/api/v1/audio/transcriptions").handler(new TranscriptionsEndpoint(platform)::handle);
        router.post("/api/v1/audio/transcriptions/tasks").handler(transcriptions::submit);
        router.get("/api/v1/audio/transcriptions/tasks/:id").handler(transcriptions::get);
        router.post("/api/v1/audio/speech").handler(new SpeechEndpoint(platform)::handle);
        ImagesEndpoint images = new ImagesEndpoint(platform);
        router.post("/api/v1/images/generations").handler(images::generations);
        router.post("/api/v1/images/edits").handler(images::edits);
        router.post("/api/v1/images/scales").handler(new ImageScalesEndpoint(platform)::handle);
        router.get("/api/v1/realtime").handler(new RealtimeEndpoint(vertx, platform)::handle);
        router.post("/api/v1/embeddings").handler(new EmbeddingsEndpoint(platform)::handle);
        router.post("/api/v1/responses").handler(new ResponsesEndpoint(platform, runner, services.responses(), services.owners())::handle);
        StoredResponsesEndpoint storedResponses = new StoredResponsesEndpoint(platform, services.responses(), services.owners());
        router.get("/api/v1/responses/:id").handler(storedResponses::retrieve);
        router.delete("/api/v1/responses/:id").handler(storedResponses::delete);
        router.get("/api/v1/responses/:id/input_items").handler(storedResponses::inputItems);
        router.getWithRegex("/api/v1/models/(?<id>.+)").setName("/api/v1/models/{id}").handler(models::get);
        // after every endpoint, so that no call's route matching passes the console's routes
        Console.mount(router, vertx, accounts);
        // the routes' own patterns are the only values of the http.route label (bounded cardinality)
        routes.addAll(router.getRoutes().stream().filter(r -> r.getPath() != null && r.isExactPath() && !r.getPath().contains(":"))
                .map(Route::getPath).collect(Collectors.toSet()));

        router.route().last().handler(ctx -> Exchange.fail(ctx, GatewayException.of(ErrorKind.NOT_FOUND, "Unknown endpoint: " + ctx.request().method() + " " + ctx.request().path())
                .withCode("unknown_url")));
        router.route().failureHandler(GatewayRouter::failure);
        return router;
    }

    private static void begin(RoutingContext ctx, Telemetry telemetry, Set<String> routes) {
        String path = ctx.request().path();
        ErrorShape protocol = path.startsWith("/api/v1/messages") || path.equals(COUNT_MESSAGE_TOKENS) ? ErrorShape.ANTHROPIC : ErrorShape.OPENAI;
        RequestTrace trace = telemetry.begin(ctx.request(), protocol.name().toLowerCase(Locale.ROOT));
        Exchange ex = Exchange.begin(ctx, protocol, trace);
        ctx.response().putHeader(TraceId.HEADER, ex.traceId());
        // the access line waits for the call's record, so that it carries the tokens, TTFT and cost
        boolean json = telemetry.config().accessLogJson();
        trace.onFinish(() -> AccessLog.write(ctx, ex, json));
        ctx.addEndHandler(v -> trace.responseEnded(ctx.response().getStatusCode(), route(ctx, routes)));
        ctx.next();
    }

    /** The {@code http.route} of a request: its route's pattern, or {@value #UNMATCHED}. */
    static String route(RoutingContext ctx, Set<String> routes) {
        String path = ctx.request().path();
        if (routes.contains(path)) return path;
        Route r = ctx.currentRoute();
        if (r == null) return UNMATCHED;
        if (r.getName() != null && r.getName().startsWith("/")) return r.getName();
        if (r.getPath() != null && r.isExactPath() && r.getPath().contains(":")) return r.getPath();
        return UNMATCHED;
    }

    private static void failure(RoutingContext ctx) {
        Throwable t = ctx.failure();
        if (t instanceof GatewayException e) {
            Exchange.fail(ctx, e);
        } else if (BadInput.callerLeft(t)) {
            LOG.info("caller closed the connection before its request was read, trace id {}", traceId(ctx));
        } else if (BadInput.framing(t) != null) {
            LOG.info("malformed request framing, trace id {}: {}", traceId(ctx), t.toString());
            Exchange.fail(ctx, BadInput.framing(t));
        } else if (ctx.statusCode() == 413) {
            BodyReader.tooLarge(ctx);
        } else if (ctx.statusCode() >= 400 && ctx.statusCode() < 500) {
            Exchange.fail(ctx, GatewayException.of(ErrorKind.INVALID_REQUEST, "The request could not be processed (HTTP " + ctx.statusCode() + ").")
                    .withStatus(ctx.statusCode()));
        } else {
            LOG.error("internal error, trace id {}", traceId(ctx), t);
            Exchange.fail(ctx, GatewayException.of(ErrorKind.INTERNAL,
                    "The gateway failed to process the request; quote the X-Platform-Trace-Id header when reporting it."));
        }
    }

    private static String traceId(RoutingContext ctx) {
        Exchange ex = Exchange.of(ctx);
        return ex == null ? "-" : ex.traceId();
    }
}
