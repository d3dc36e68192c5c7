package dev.modelgateway.server;

import dev.modelgateway.access.Permission;
import dev.modelgateway.access.Principal;
import dev.modelgateway.accounts.Accounts;
import dev.modelgateway.accounts.Administration;
import dev.modelgateway.call.CallRunner;
import dev.modelgateway.call.CallServices;
import dev.modelgateway.config.ServerLimits;
import dev.modelgateway.console.Console;
import dev.modelgateway.console.ConsoleApi;
import dev.modelgateway.console.ConsolePages;
import dev.modelgateway.console.ConsoleSessions;
import dev.modelgateway.console.SignIn;
import dev.modelgateway.config.ConfigValues;
import dev.modelgateway.config.GatewayConfig;
import dev.modelgateway.config.Settings;
import dev.modelgateway.config.VendorEndpoint;
import dev.modelgateway.endpoint.admin.AdminAccess;
import dev.modelgateway.endpoint.admin.AdminKeysEndpoint;
import dev.modelgateway.endpoint.admin.ConfigEndpoint;
import dev.modelgateway.endpoint.admin.KeysEndpoint;
import dev.modelgateway.endpoint.admin.LedgerAdminEndpoint;
import dev.modelgateway.endpoint.admin.LimitsEndpoint;
import dev.modelgateway.endpoint.admin.TeamsEndpoint;
import dev.modelgateway.endpoint.admin.UsageEndpoint;
import dev.modelgateway.endpoint.admin.UsersEndpoint;
import dev.modelgateway.endpoint.scim.ScimDiscovery;
import dev.modelgateway.endpoint.scim.ScimGroups;
import dev.modelgateway.endpoint.scim.ScimUsers;
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
import dev.modelgateway.identity.PersonClaims;
import dev.modelgateway.observability.RequestTrace;
import dev.modelgateway.observability.Telemetry;
import dev.modelgateway.routing.RoutingTable;
import dev.modelgateway.services.SharedServices;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.stream.Collectors;

/**
 * Every route the gateway serves, in one place: the model API under {@code /api/v1}, the accounts and admin API, the
 * console's API and pages, health and metrics; plus trace ids, auth, body reading and error rendering for all of
 * them. An ArchUnit rule (LayoutRules.routesOnlyInGatewayRouter) keeps routes from being mounted anywhere else.
 */
public final class GatewayRouter {
    private static final Logger LOG = LoggerFactory.getLogger(GatewayRouter.class);
    /** docs/contract.md §4's token-counting path; it takes a messages-protocol body, so it answers in that protocol's shape. */
    static final String COUNT_MESSAGE_TOKENS = "/api/count-message-tokens";

    private GatewayRouter() {
    }

    /** The label of a request no route took (bounded: never the caller's path). */
    static final String UNMATCHED = "unmatched";
    /** The accounts and admin API's routes, whose errors take {@link ErrorShape#ADMIN}. */
    private static final String ADMIN_PREFIX = "/api/v1/admin/";
    /** The SCIM 2.0 API's routes (docs/identity/scim.md), whose errors take {@link ErrorShape#SCIM}. */
    private static final String SCIM_PREFIX = "/api/v1/scim/";
    private static final Set<String> ACCOUNTS_SELF_ROUTES = Set.of("/api/v1/usage", "/api/v1/limits");
    /** Route metadata: the {@link Permission} a route declares, which {@link AdminAccess} checks before its handler. */
    static final String PERMISSION = "permission";
    /** The paths of the routes that administer the gateway: a credential that calls no model is taken here only. */
    private static final String CONSOLE_PREFIX = "/api/v1/console/";
    static final List<String> ADMINISTRATIVE = List.of(ADMIN_PREFIX, CONSOLE_PREFIX, SCIM_PREFIX);
    /** Of those, the ones a person's console session may call (never SCIM: an identity provider's client, by key). */
    private static final List<String> SESSION_ROUTES = List.of(ADMIN_PREFIX, CONSOLE_PREFIX);

    /** Whether a console session cookie is a credential on this (dispatched) path. */
    static boolean sessionRoute(String path) {
        for (String prefix : SESSION_ROUTES) if (path.startsWith(prefix)) return true;
        return false;
    }

    /**
     * @param health {@code /health}, {@code /ready} and {@code /metrics} on this router; null when they are served on
     *               a port of their own ({@code observability.metrics_port})
     * @param drain  counts every request in flight, for the shutdown
     */
    static Router create(Vertx vertx, CallServices platform, Authenticator authenticator, Accounts accounts,
                         SharedServices services, ServerLimits limits, BodyBudget budget, ConfigReload reload,
                         RoutingTable table, Telemetry telemetry, HealthEndpoints health,
                         Function<VendorEndpoint, String> credentialProblems, Drain drain) {
        Router router = Router.router(vertx);
        Set<String> routes = new CopyOnWriteArraySet<>();
        router.route().handler(ctx -> begin(ctx, telemetry, routes, drain));
        router.get("/health").handler(health != null ? health::health : HealthEndpoints::live);
        if (health != null) health(router, health);
        // The key is checked before a byte of the body is read: the request stays paused through the (async)
        // authentication, so a caller without a key cannot make the gateway buffer anything. An upgrade has no
        // body, but once its end is read it can no longer be upgraded: it stays paused until its handler accepts it.
        router.route("/api/*").handler(ctx -> {
            ctx.request().pause();
            ctx.next();
        });
        SignIn signIn = signIn(vertx, accounts, table);
        router.route("/api/*").handler(new SessionAuth(signIn));
        router.route("/api/*").handler(new BearerAuth(authenticator));
        BodyReader bodies = new BodyReader(vertx, limits, budget);
        router.route("/api/*").handler(bodies::read);
        router.route("/api/*").handler(bodies::done);
        Administration administration = accounts.admin();
        accountsApi(router, administration);
        people(router, administration, PersonClaims.rules(() -> table.current().config().routing().identity()));
        ConfigEndpoint config = new ConfigEndpoint(reload::reload, table, credentialProblems);
        admin(router, administration, Permission.CONFIG_WRITE, HttpMethod.POST, "/api/v1/admin/reload", config::reload);
        admin(router, administration, Permission.CONFIG_READ, HttpMethod.GET, "/api/v1/admin/config", config::show);

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
        UnavailableFeatures.routes().forEach((path, refusal) -> router.route(path).handler(refusal));
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
        signInRoutes(router, signIn);
        // after every endpoint, so that no call's route matching passes the console's routes
        console(router, Console.api(vertx, accounts), administration);
        // the routes' own patterns are the only values of the http.route label (bounded cardinality)
        routes.addAll(router.getRoutes().stream().filter(r -> r.getPath() != null && r.isExactPath() && !r.getPath().contains(":"))
                .map(Route::getPath).collect(Collectors.toSet()));

        router.route().last().handler(ctx -> Exchange.fail(ctx, GatewayException.of(ErrorKind.NOT_FOUND, "Unknown endpoint: " + ctx.request().method() + " " + ctx.request().path())
                .withCode("unknown_url")));
        router.route().failureHandler(GatewayRouter::failure);
        return router;
    }

    /** Console sign-in (docs/identity/sso.md): outside {@code /api}, reached by a browser before it holds a credential. */
    private static void signInRoutes(Router router, SignIn signIn) {
        router.get("/auth/providers").handler(signIn::providers);
        router.get("/auth/oidc/:id/login").handler(signIn::login);
        router.get("/auth/oidc/:id/callback").handler(signIn::callback);
        router.post("/auth/logout").handler(signIn::logout);
    }

    private static SignIn signIn(Vertx vertx, Accounts accounts, RoutingTable table) {
        GatewayConfig config = table.current().config();
        ConfigValues v = config.settings();
        String publicUrl = v.text(Settings.SERVER_PUBLIC_URL);
        return SignIn.of(vertx, accounts, publicUrl == null ? null : URI.create(publicUrl),
                new ConsoleSessions.Times(Duration.ofSeconds(v.integer(Settings.CONSOLE_SESSION_IDLE_SECONDS)),
                        Duration.ofSeconds(v.integer(Settings.CONSOLE_SESSION_MAX_SECONDS)),
                        Duration.ofSeconds(v.integer(Settings.CONSOLE_SESSION_RECHECK_SECONDS))),
                () -> table.current().config().routing().identity());
    }

    /** The connection guard's request hook, as the router's first route, whatever the order of the others. */
    static void guard(Router router, ConnectionGuard.OnLoop guard) {
        router.route().order(-1_000).handler(guard::requestStarted);
    }

    /** {@code /ready} and, when served, {@code /metrics}. */
    private static void health(Router router, HealthEndpoints health) {
        router.get("/ready").handler(health::ready);
        if (health.servesMetrics()) router.get("/metrics").handler(health::metrics);
    }

    /** The router of {@code observability.metrics_port}: {@code /health}, {@code /ready} and {@code /metrics} alone. */
    static Router metricsPort(Vertx vertx, HealthEndpoints health) {
        Router router = Router.router(vertx);
        router.get("/health").handler(health::health);
        health(router, health);
        return router;
    }

    /**
     * The accounts API (docs/accounts.md, "HTTP API"), for a router that has authenticated the caller and read the
     * body: the gateway's, and the accounts tests' own.
     */
    public static void accountsApi(Router router, Administration accounts) {
        KeysEndpoint keys = new KeysEndpoint(accounts);
        admin(router, accounts, Permission.KEYS_WRITE, HttpMethod.POST, "/api/v1/admin/keys", keys::create);
        admin(router, accounts, Permission.KEYS_READ, HttpMethod.GET, "/api/v1/admin/keys", keys::list);
        admin(router, accounts, Permission.KEYS_READ, HttpMethod.GET, "/api/v1/admin/keys/:id", keys::get);
        admin(router, accounts, Permission.KEYS_WRITE, HttpMethod.PATCH, "/api/v1/admin/keys/:id", keys::update);
        admin(router, accounts, Permission.KEYS_WRITE, HttpMethod.DELETE, "/api/v1/admin/keys/:id", keys::delete);
        admin(router, accounts, Permission.KEYS_WRITE, HttpMethod.POST, "/api/v1/admin/keys/:id/rotate", keys::rotate);
        TeamsEndpoint teams = new TeamsEndpoint(accounts);
        admin(router, accounts, Permission.TEAMS_WRITE, HttpMethod.POST, "/api/v1/admin/teams", teams::create);
        admin(router, accounts, Permission.TEAMS_READ, HttpMethod.GET, "/api/v1/admin/teams", teams::list);
        admin(router, accounts, Permission.TEAMS_READ, HttpMethod.GET, "/api/v1/admin/teams/:id", teams::get);
        admin(router, accounts, Permission.TEAMS_WRITE, HttpMethod.PATCH, "/api/v1/admin/teams/:id", teams::update);
        admin(router, accounts, Permission.TEAMS_WRITE, HttpMethod.DELETE, "/api/v1/admin/teams/:id", teams::delete);
        UsageEndpoint usage = new UsageEndpoint(accounts);
        admin(router, accounts, Permission.USAGE_READ, HttpMethod.GET, "/api/v1/admin/usage", usage::all);
        admin(router, accounts, Permission.SELF, HttpMethod.GET, "/api/v1/usage", usage::own);
        LimitsEndpoint limits = new LimitsEndpoint(accounts);
        admin(router, accounts, Permission.LIMITS_READ, HttpMethod.GET, "/api/v1/admin/rate-limits", limits::all);
        admin(router, accounts, Permission.SELF, HttpMethod.GET, "/api/v1/limits", limits::own);
        LedgerAdminEndpoint ledger = new LedgerAdminEndpoint(accounts);
        admin(router, accounts, Permission.BILLING_WRITE, HttpMethod.POST, "/api/v1/admin/reprice", ledger::reprice);
        admin(router, accounts, Permission.ALERTS_READ, HttpMethod.GET, "/api/v1/admin/alerts", ledger::alerts);
        admin(router, accounts, Permission.ALERTS_WRITE, HttpMethod.PATCH, "/api/v1/admin/alerts/settings", ledger::alertSettings);
        admin(router, accounts, Permission.AUDIT_READ, HttpMethod.GET, "/api/v1/admin/audit", ledger::audit);
        AdminKeysEndpoint adminKeys = new AdminKeysEndpoint(accounts);
        admin(router, accounts, Permission.ADMIN_KEYS_WRITE, HttpMethod.POST, "/api/v1/admin/admin-keys", adminKeys::create);
        admin(router, accounts, Permission.ADMIN_KEYS_WRITE, HttpMethod.GET, "/api/v1/admin/admin-keys", adminKeys::list);
        admin(router, accounts, Permission.ADMIN_KEYS_WRITE, HttpMethod.GET, "/api/v1/admin/admin-keys/:id", adminKeys::get);
        admin(router, accounts, Permission.ADMIN_KEYS_WRITE, HttpMethod.PATCH, "/api/v1/admin/admin-keys/:id", adminKeys::update);
        admin(router, accounts, Permission.ADMIN_KEYS_WRITE, HttpMethod.DELETE, "/api/v1/admin/admin-keys/:id", adminKeys::delete);
        admin(router, accounts, Permission.ADMIN_KEYS_WRITE, HttpMethod.POST, "/api/v1/admin/admin-keys/:id/rotate", adminKeys::rotate);
    }

    /**
     * The people the gateway knows: the users admin API (docs/accounts.md, "Users") and SCIM 2.0 provisioning
     * (docs/identity/scim.md); {@code rules} are the role mappings of the routes in force at each change.
     */
    private static void people(Router router, Administration accounts, Administration.RoleRules rules) {
        UsersEndpoint users = new UsersEndpoint(accounts, rules);
        admin(router, accounts, Permission.USERS_READ, HttpMethod.GET, "/api/v1/admin/users", users::list);
        admin(router, accounts, Permission.USERS_READ, HttpMethod.GET, "/api/v1/admin/users/:id", users::get);
        admin(router, accounts, Permission.USERS_WRITE, HttpMethod.PATCH, "/api/v1/admin/users/:id", users::update);
        String scim = SCIM_PREFIX + "v2";
        ScimDiscovery discovery = new ScimDiscovery();
        admin(router, accounts, Permission.SCIM, HttpMethod.GET, scim + "/ServiceProviderConfig", discovery::serviceProviderConfig);
        admin(router, accounts, Permission.SCIM, HttpMethod.GET, scim + "/ResourceTypes", discovery::resourceTypes);
        admin(router, accounts, Permission.SCIM, HttpMethod.GET, scim + "/Schemas", discovery::schemas);
        ScimUsers scimUsers = new ScimUsers(accounts, rules);
        admin(router, accounts, Permission.SCIM, HttpMethod.GET, scim + "/Users", scimUsers::list);
        admin(router, accounts, Permission.SCIM, HttpMethod.POST, scim + "/Users", scimUsers::create);
        admin(router, accounts, Permission.SCIM, HttpMethod.GET, scim + "/Users/:id", scimUsers::get);
        admin(router, accounts, Permission.SCIM, HttpMethod.PUT, scim + "/Users/:id", scimUsers::replace);
        admin(router, accounts, Permission.SCIM, HttpMethod.PATCH, scim + "/Users/:id", scimUsers::patch);
        admin(router, accounts, Permission.SCIM, HttpMethod.DELETE, scim + "/Users/:id", scimUsers::delete);
        ScimGroups groups = new ScimGroups(accounts, rules);
        admin(router, accounts, Permission.SCIM, HttpMethod.GET, scim + "/Groups", groups::list);
        admin(router, accounts, Permission.SCIM, HttpMethod.POST, scim + "/Groups", groups::create);
        admin(router, accounts, Permission.SCIM, HttpMethod.GET, scim + "/Groups/:id", groups::get);
        admin(router, accounts, Permission.SCIM, HttpMethod.PUT, scim + "/Groups/:id", groups::replace);
        admin(router, accounts, Permission.SCIM, HttpMethod.PATCH, scim + "/Groups/:id", groups::patch);
        admin(router, accounts, Permission.SCIM, HttpMethod.DELETE, scim + "/Groups/:id", groups::delete);
    }

    /**
     * The console's read API (docs/console.md): what a principal sees is its {@link Permission#SELF} and, where it holds
     * more, the reach of {@link Permission#USAGE_READ}; the audit log is {@link Permission#AUDIT_READ}'s. Its pages.
     */
    private static void console(Router router, ConsoleApi api, Administration accounts) {
        admin(router, accounts, Permission.SELF, HttpMethod.GET, "/api/v1/console/me", api::me);
        admin(router, accounts, Permission.SELF, HttpMethod.GET, "/api/v1/console/usage", api::usage);
        admin(router, accounts, Permission.SELF, HttpMethod.GET, "/api/v1/console/usage.csv", api::usageCsv);
        admin(router, accounts, Permission.SELF, HttpMethod.GET, "/api/v1/console/requests", api::requests);
        admin(router, accounts, Permission.SELF, HttpMethod.GET, "/api/v1/console/requests/:id", api::request);
        admin(router, accounts, Permission.AUDIT_READ, HttpMethod.GET, "/api/v1/console/audit", api::audit);
        router.get("/console").handler(ConsolePages::redirect);
        router.route("/console/*").handler(ConsolePages::headers);
        router.route("/console/*").handler(ConsolePages.files());
    }

    /**
     * A route that declares the permission it needs: the one admin rule ({@link AdminAccess}) refuses a principal
     * without it before the handler runs. A use of the break-glass master key is audited (docs/identity/admin-keys.md)
     * with the route's pattern, never the caller's path, without the request waiting for the write.
     */
    private static void admin(Router router, Administration accounts, Permission permission, HttpMethod method, String path,
                              Handler<RoutingContext> handler) {
        String route = method.name() + " " + path;
        router.route(method, path).putMetadata(PERMISSION, permission).handler(AdminAccess.require(permission)).handler(ctx -> {
            if (Exchange.of(ctx).caller().principal().kind() == Principal.Kind.MASTER) {
                accounts.recordMasterKeyUse(AdminAccess.actor(ctx), route);
            }
            ctx.next();
        }).handler(handler);
    }

    private static void begin(RoutingContext ctx, Telemetry telemetry, Set<String> routes, Drain drain) {
        String path = ctx.request().path();
        ErrorShape protocol = path.startsWith("/api/v1/messages") || path.equals(COUNT_MESSAGE_TOKENS) ? ErrorShape.ANTHROPIC : ErrorShape.OPENAI;
        RequestTrace trace = telemetry.begin(ctx.request(), protocol.name().toLowerCase(Locale.ROOT));
        boolean accountsApi = path.startsWith(ADMIN_PREFIX) || ACCOUNTS_SELF_ROUTES.contains(path);
        Exchange ex = Exchange.begin(ctx, path.startsWith(SCIM_PREFIX) ? ErrorShape.SCIM : accountsApi ? ErrorShape.ADMIN : protocol, trace);
        ctx.response().putHeader(TraceId.HEADER, ex.traceId());
        // the access line waits for the call's record, so that it carries the tokens, TTFT and cost
        boolean json = telemetry.config().accessLogJson();
        trace.onFinish(() -> {
            AccessLog.write(ctx, ex, json);
            drain.ended(ctx);
        });
        ctx.addEndHandler(v -> trace.responseEnded(ctx.response().getStatusCode(), route(ctx, routes)));
        if (drain.started(ctx)) ctx.next();
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
