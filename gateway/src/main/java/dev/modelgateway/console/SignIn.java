package dev.modelgateway.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.nimbusds.jwt.JWTClaimsSet;
import dev.modelgateway.access.Grant;
import dev.modelgateway.accounts.Accounts;
import dev.modelgateway.accounts.SignIns;
import dev.modelgateway.accounts.keys.PendingSignIn;
import dev.modelgateway.accounts.keys.User;
import dev.modelgateway.config.IdentityConfig;
import dev.modelgateway.config.IdentityConfig.OidcProvider;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.http.Exchange;
import dev.modelgateway.identity.Claims;
import dev.modelgateway.identity.Discovery;
import dev.modelgateway.identity.IdentityHttp;
import dev.modelgateway.identity.JwksCache;
import dev.modelgateway.identity.RoleMapping;
import dev.modelgateway.identity.SignedJwts;
import dev.modelgateway.json.Json;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.Cookie;
import io.vertx.core.http.CookieSameSite;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Console sign-in with OpenID Connect (docs/identity/sso.md), its routes under {@code /auth} listed in
 * {@code server/GatewayRouter}: the authorization code flow with PKCE S256 (RFC 7636), {@code state} and {@code nonce}
 * (OpenID Connect Core 1.0 §3.1), the {@code iss} check of RFC 9207, the ID token verified with the provider's published
 * keys, the person found or provisioned as a {@link User} with the roles {@code identity.role_mappings} gives them, and a
 * {@link ConsoleSessions session}; sign-out ends it and answers the provider's logout URL (OpenID RP-Initiated Logout
 * 1.0). Redirect URIs and the CSRF origin come from {@code server.public_url}, never from {@code Host} or
 * {@code X-Forwarded-*}. One per accounts database, however many event loops mount its routes.
 */
public final class SignIn {
    /** The cookie binding a pending sign-in to the browser that started it. */
    static final String BINDING_COOKIE = "mg_signin";
    /** How long a sign-in may take at the identity provider. */
    static final Duration PENDING = Duration.ofMinutes(10);
    /** Clock skew allowed on the ID token's times. */
    static final Duration LEEWAY = Duration.ofSeconds(60);
    private static final Logger LOG = LoggerFactory.getLogger(SignIn.class);
    private static final Map<Accounts, SignIn> BY_ACCOUNTS = new WeakHashMap<>();

    /** A sign-in refused: the page the person sees says why. */
    private static final class Refused extends RuntimeException {
        final int status;

        Refused(int status, String message) {
            super(message, null, false, false);
            this.status = status;
        }
    }

    private final Supplier<IdentityConfig> identity;
    private final String publicUrl;
    private final String publicOrigin;
    private final boolean secure;
    private final InstantSource clock;
    private final SignIns store;
    private final ConsoleSessions sessions;
    private final Discovery discovery;
    private final JwksCache keys;
    private final IdentityHttp http;

    private SignIn(Vertx vertx, Accounts accounts, URI publicUrl, ConsoleSessions.Times times, Supplier<IdentityConfig> identity) {
        this.identity = identity;
        String base = publicUrl == null ? "" : publicUrl.toString();
        this.publicUrl = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
        this.publicOrigin = publicUrl == null ? null : origin(publicUrl);
        this.secure = publicUrl != null && "https".equals(publicUrl.getScheme());
        this.clock = accounts.clock();
        this.store = accounts.signIns();
        this.sessions = new ConsoleSessions(store, clock, times);
        this.http = new IdentityHttp(vertx);
        this.discovery = new Discovery(http, clock);
        this.keys = new JwksCache(http, clock);
    }

    /**
     * The sign-in of these accounts (made at the first event loop's router, shared by the others).
     *
     * @param publicUrl {@code server.public_url}; null when unset (then no provider is configured)
     */
    public static SignIn of(Vertx vertx, Accounts accounts, URI publicUrl, ConsoleSessions.Times times, Supplier<IdentityConfig> identity) {
        synchronized (BY_ACCOUNTS) {
            return BY_ACCOUNTS.computeIfAbsent(accounts, a -> new SignIn(vertx, a, publicUrl, times, identity));
        }
    }

    public ConsoleSessions sessions() {
        return sessions;
    }

    /** Whether people sign in with a provider: without one, a session cookie is no credential (sessions left over included). */
    public boolean enabled() {
        return identity.get().ssoConfigured();
    }

    /** {@code scheme://host[:port]}, as a browser's {@code Origin} header writes it (RFC 6454 §6.1). */
    static String origin(URI uri) {
        return uri.getScheme() + "://" + uri.getHost() + (uri.getPort() > 0 ? ":" + uri.getPort() : "");
    }

    /**
     * Whether a request made with a session's cookie carries the session's CSRF token in {@code X-CSRF-Token}
     * (compared in constant time) and, when it has an {@code Origin}, comes from {@code server.public_url}'s origin.
     */
    public boolean csrfOk(HttpServerRequest request, ConsoleSessions.Active session) {
        String token = request.getHeader("x-csrf-token");
        if (token == null || !MessageDigest.isEqual(token.getBytes(StandardCharsets.UTF_8), session.csrfToken().getBytes(StandardCharsets.UTF_8))) {
            return false;
        }
        String origin = request.getHeader("origin");
        return origin == null || origin.equals(publicOrigin);
    }

    /** The 403 of a state-changing request without the session's CSRF token or from another origin. */
    public static GatewayException csrfFailed() {
        return GatewayException.of(ErrorKind.PERMISSION, "A console session's changes must carry its X-CSRF-Token header"
                + " and come from the gateway's own origin (server.public_url).").withCode("csrf_failed");
    }

    /** {@code GET /auth/providers}: the console's sign-in buttons. */
    public void providers(RoutingContext ctx) {
        ObjectNode list = Json.MAPPER.createObjectNode().put("object", "list");
        ArrayNode data = list.putArray("data");
        // in a stable order (by id): the configuration's map keeps none
        identity.get().signInProviders().values().stream().sorted(java.util.Comparator.comparing(OidcProvider::id)).forEach(p -> data.addObject().put("id", p.id()).put("name", p.displayName())
                .put("login_url", "/auth/oidc/" + enc(p.id()) + "/login"));
        ctx.response().putHeader("content-type", "application/json").putHeader("cache-control", "no-store").end(list.toString());
    }

    /** {@code GET /auth/oidc/:id/login}: to the provider's authorization endpoint, the pending sign-in stored. */
    public void login(RoutingContext ctx) {
        OidcProvider p = identity.get().signInProviders().get(ctx.pathParam("id"));
        if (p == null) {
            page(ctx, 404, "Unknown sign-in provider", "This gateway has no sign-in provider of that name.");
            return;
        }
        String state = ConsoleSessions.random();
        String nonce = ConsoleSessions.random();
        String verifier = ConsoleSessions.random();
        String binding = ConsoleSessions.random();
        Instant now = clock.instant();
        // RFC 7636 §4.2: code_challenge = BASE64URL(SHA256(ASCII(code_verifier)))
        String challenge = Base64.getUrlEncoder().withoutPadding().encodeToString(ConsoleSessions.digest(verifier.getBytes(StandardCharsets.US_ASCII)));
        discovery.endpoint(p.issuer(), "authorization_endpoint").compose(authorize -> store.begin(ConsoleSessions.sha256(state),
                new PendingSignIn(ConsoleSessions.sha256(binding), p.id(), verifier, nonce, now.plus(PENDING))).map(authorize)).onComplete(r -> {
            if (r.failed()) {
                LOG.warn("sign-in with {} could not start: {}", p.id(), r.cause().toString());
                page(ctx, 502, "Sign-in unavailable", "The identity provider " + p.displayName() + " could not be reached. Try again later.");
                return;
            }
            Map<String, String> q = new LinkedHashMap<>();
            q.put("response_type", "code");
            q.put("client_id", p.clientId());
            q.put("redirect_uri", redirectUri(p));
            q.put("scope", String.join(" ", p.scopes()));
            q.put("state", state);
            q.put("nonce", nonce);
            q.put("code_challenge", challenge);
            q.put("code_challenge_method", "S256");
            String target = r.result().toString();
            String query = q.entrySet().stream().map(e -> enc(e.getKey()) + "=" + enc(e.getValue())).collect(Collectors.joining("&"));
            // SameSite=Lax: the provider's redirect back is a cross-site top-level GET, which carries a Lax cookie
            ctx.response().addCookie(cookie(BINDING_COOKIE, binding, "/auth/oidc/", PENDING.toSeconds()).setSameSite(CookieSameSite.LAX));
            ctx.response().setStatusCode(302).putHeader("location", target + (target.contains("?") ? "&" : "?") + query)
                    .putHeader("cache-control", "no-store").end();
        });
    }

    private String redirectUri(OidcProvider p) {
        return publicUrl + "/auth/oidc/" + enc(p.id()) + "/callback";
    }

    /** {@code GET /auth/oidc/:id/callback}: the provider's answer, a session if it holds. */
    public void callback(RoutingContext ctx) {
        IdentityConfig config = identity.get();
        OidcProvider p = config.signInProviders().get(ctx.pathParam("id"));
        if (p == null) {
            page(ctx, 404, "Unknown sign-in provider", "This gateway has no sign-in provider of that name.");
            return;
        }
        // read before the answer clears it: Vert.x's request cookies include those the response sets
        Cookie binding = ctx.request().getCookie(BINDING_COOKIE);
        String bindingValue = binding == null ? null : binding.getValue();
        ctx.response().addCookie(cookie(BINDING_COOKIE, "", "/auth/oidc/", 0).setSameSite(CookieSameSite.LAX));
        String error = ctx.request().getParam("error");
        if (error != null) {
            String description = ctx.request().getParam("error_description");
            page(ctx, 400, "Not signed in", p.displayName() + " did not sign you in: " + error + (description == null ? "" : " (" + description + ")") + ".");
            return;
        }
        String state = ctx.request().getParam("state");
        String code = ctx.request().getParam("code");
        if (state == null || code == null) {
            page(ctx, 400, "Not signed in", "The identity provider's answer has no code or state.");
            return;
        }
        if (bindingValue == null || bindingValue.isEmpty()) {
            page(ctx, 400, "Not signed in", "This sign-in was not started in this browser, or took longer than "
                    + PENDING.toMinutes() + " minutes. Start again from the console.");
            return;
        }
        Instant now = clock.instant();
        store.take(ConsoleSessions.sha256(state)).compose(found -> {
            PendingSignIn pending = found.filter(s -> s.provider().equals(p.id()) && now.isBefore(s.expiresAt())
                            && MessageDigest.isEqual(s.bindingHash().getBytes(StandardCharsets.US_ASCII),
                            ConsoleSessions.sha256(bindingValue).getBytes(StandardCharsets.US_ASCII)))
                    .orElseThrow(() -> new Refused(400, "This sign-in is unknown, was used already, belongs to another browser"
                            + " or expired. Start again from the console."));
            return discovery.of(p.issuer()).compose(doc -> {
                // RFC 9207 §2.4: the iss parameter names the provider that answered, against mix-up attacks
                String iss = ctx.request().getParam("iss");
                if (iss != null && !iss.equals(p.issuer().toString())) {
                    throw new Refused(400, "The answer comes from another issuer (" + iss + ") than " + p.displayName() + "'s.");
                }
                if (iss == null && doc.path("authorization_response_iss_parameter_supported").asBoolean(false)) {
                    throw new Refused(400, "The answer lacks the iss parameter that " + p.displayName() + " says it sends (RFC 9207).");
                }
                return exchange(p, doc, code, pending.codeVerifier()).compose(idToken -> verified(p, doc, idToken, pending.nonce())
                        .compose(claims -> provision(p, config, claims))
                        .compose(user -> sessions.open(user, p.id(), idToken)));
            });
        }).onComplete(r -> {
            if (r.succeeded()) {
                ctx.response().addCookie(cookie(ConsoleSessions.COOKIE, r.result(), "/", sessions.cookieMaxAgeSeconds())
                        .setSameSite(CookieSameSite.STRICT));
                ctx.response().setStatusCode(302).putHeader("location", "/console/").putHeader("cache-control", "no-store").end();
            } else if (r.cause() instanceof Refused refused) {
                page(ctx, refused.status, "Not signed in", refused.getMessage());
            } else if (r.cause() instanceof SignedJwts.Refused bad) {
                page(ctx, 400, "Not signed in", "The identity provider's ID token was refused: " + bad.getMessage());
            } else if (r.cause() instanceof IdentityHttp.Failed failed) {
                LOG.warn("sign-in with {} failed: {}", p.id(), failed.getMessage());
                String why = failed.body == null ? failed.getMessage() : failed.body.path("error").asText(failed.getMessage());
                page(ctx, 502, "Not signed in", p.displayName() + " did not complete the sign-in: " + why + ".");
            } else if (r.cause() instanceof GatewayException e) {
                page(ctx, e.status(), "Not signed in", e.getMessage());
            } else {
                LOG.error("sign-in with {} failed", p.id(), r.cause());
                page(ctx, 500, "Not signed in", "The gateway failed to complete the sign-in.");
            }
        });
    }

    /** The token request (RFC 6749 §4.1.3), with the PKCE verifier; client_secret_basic, or a public client's id alone. */
    private Future<String> exchange(OidcProvider p, JsonNode doc, String code, String verifier) {
        String tokenEndpoint = doc.path("token_endpoint").asText(null);
        if (tokenEndpoint == null) return Future.failedFuture(new Refused(502, p.displayName() + "'s discovery document has no token_endpoint."));
        Map<String, String> form = new LinkedHashMap<>();
        form.put("grant_type", "authorization_code");
        form.put("code", code);
        form.put("redirect_uri", redirectUri(p));
        form.put("code_verifier", verifier);
        Map<String, String> headers = Map.of();
        if (p.clientSecret() == null) {
            form.put("client_id", p.clientId());
        } else {
            // RFC 6749 §2.3.1: each part form-encoded before the Basic encoding
            String basic = enc(p.clientId()) + ":" + enc(p.clientSecret());
            headers = Map.of("authorization", "Basic " + Base64.getEncoder().encodeToString(basic.getBytes(StandardCharsets.UTF_8)));
        }
        return http.postForm(URI.create(tokenEndpoint), form, headers).map(answer -> {
            String idToken = answer.path("id_token").asText(null);
            if (idToken == null) throw new Refused(502, p.displayName() + "'s token answer has no id_token.");
            return idToken;
        });
    }

    /** OpenID Connect Core 1.0 §3.1.3.7: signature, iss, aud, exp, then nonce and, with several audiences, azp. */
    private Future<JWTClaimsSet> verified(OidcProvider p, JsonNode doc, String idToken, String nonce) {
        String jwks = doc.path("jwks_uri").asText(null);
        if (jwks == null) return Future.failedFuture(new Refused(502, p.displayName() + "'s discovery document has no jwks_uri."));
        return SignedJwts.verify(idToken, URI.create(jwks), keys,
                new SignedJwts.Expect(p.issuer().toString(), Set.of(p.clientId()), LEEWAY), clock).map(claims -> {
            Object sent = claims.getClaim("nonce");
            if (!(sent instanceof String s) || !MessageDigest.isEqual(s.getBytes(StandardCharsets.UTF_8), nonce.getBytes(StandardCharsets.UTF_8))) {
                throw new Refused(400, "The ID token's nonce is not this sign-in's.");
            }
            if (claims.getAudience().size() > 1 && !p.clientId().equals(claims.getClaim("azp"))) {
                throw new Refused(400, "The ID token has several audiences and its azp is not this gateway's client id.");
            }
            if (claims.getSubject() == null) throw new Refused(400, "The ID token has no sub.");
            return claims;
        });
    }

    /** The person signing in, found, linked or provisioned ({@link SignIns#signIn}), with the roles these claims map to. */
    private Future<User> provision(OidcProvider p, IdentityConfig config, JWTClaimsSet token) {
        Claims claims = new Claims(p.id(), token.getClaims());
        List<Grant> grants = RoleMapping.grants(config.roleMappings(), claims);
        String userName = claims.text(p.userNameClaim());
        return store.signIn(new SignIns.Person(p.issuer().toString(), token.getSubject(), userName, claims.text("email"),
                claims.text("name"), grants)).map(r -> switch (r.outcome()) {
            case SIGNED_IN -> r.user();
            case NO_ROLE -> throw noRole(p);
            case INACTIVE -> throw new Refused(403, "Your account on this gateway is deactivated.");
            case NAME_TAKEN -> throw new Refused(403, "A user named " + userName + " exists already and is not linked to this"
                    + " account of " + p.displayName() + ". Ask an administrator.");
            case NO_USER_NAME -> throw new Refused(400, p.displayName() + "'s ID token has no " + p.userNameClaim()
                    + " claim to name you by (identity.sign_in.providers." + p.id() + ".user_name_claim).");
        });
    }

    private static Refused noRole(OidcProvider p) {
        return new Refused(403, "You signed in with " + p.displayName() + ", but no role on this gateway is mapped to your"
                + " account (identity.role_mappings). Ask an administrator.");
    }

    /**
     * {@code POST /auth/logout} (CSRF-checked): ends the session, clears its cookie, and answers the provider's
     * {@code end_session_endpoint} URL for the console to navigate to (null when the provider has none).
     */
    public void logout(RoutingContext ctx) {
        Cookie c = ctx.request().getCookie(ConsoleSessions.COOKIE);
        sessions.find(c == null ? null : c.getValue()).compose(found -> {
            ConsoleSessions.Active s = found.orElseThrow(() -> GatewayException.of(ErrorKind.AUTHENTICATION,
                    "No console session: signed out already, or expired.").withCode("session_expired"));
            if (!csrfOk(ctx.request(), s)) throw csrfFailed();
            OidcProvider p = identity.get().signInProviders().get(s.provider());
            Future<String> url = p == null ? Future.succeededFuture(null) : discovery.of(p.issuer()).map(doc -> {
                String end = doc.path("end_session_endpoint").asText(null);
                if (end == null) return null;
                Map<String, String> q = new LinkedHashMap<>();
                if (s.idToken() != null) q.put("id_token_hint", s.idToken());
                q.put("post_logout_redirect_uri", publicUrl + "/console/");
                q.put("client_id", p.clientId());
                return end + (end.contains("?") ? "&" : "?")
                        + q.entrySet().stream().map(e -> enc(e.getKey()) + "=" + enc(e.getValue())).collect(Collectors.joining("&"));
            }).otherwise((String) null);
            return sessions.end(s.id()).compose(v -> url);
        }).onComplete(r -> {
            if (r.failed()) {
                Exchange.fail(ctx, r.cause() instanceof GatewayException e ? e
                        : GatewayException.of(ErrorKind.INTERNAL, "The sign-out failed."));
                return;
            }
            ctx.response().addCookie(cookie(ConsoleSessions.COOKIE, "", "/", 0).setSameSite(CookieSameSite.STRICT));
            ctx.response().putHeader("content-type", "application/json").putHeader("cache-control", "no-store")
                    .end(Json.MAPPER.createObjectNode().put("object", "logout").put("logout_url", r.result()).toString());
        });
    }

    private Cookie cookie(String name, String value, String path, long maxAgeSeconds) {
        return Cookie.cookie(name, value).setPath(path).setHttpOnly(true).setSecure(secure).setMaxAge(maxAgeSeconds);
    }

    /** A plain page for the person in the browser (a refusal of the sign-in), with a link back to the console. */
    private static void page(RoutingContext ctx, int status, String title, String text) {
        String html = "<!doctype html><html><head><meta charset=\"utf-8\"><title>" + escape(title) + "</title></head><body><h1>"
                + escape(title) + "</h1><p id=\"reason\">" + escape(text) + "</p><p><a href=\"/console/\">Back to the console</a></p></body></html>";
        ctx.response().setStatusCode(status).putHeader("content-type", "text/html; charset=utf-8")
                .putHeader("content-security-policy", "default-src 'none'").putHeader("cache-control", "no-store").end(html);
    }

    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;").replace("'", "&#39;");
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
