package dev.modelgateway.identity;

import com.nimbusds.jwt.JWT;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.JWTParser;
import com.nimbusds.jwt.PlainJWT;
import dev.modelgateway.access.Grant;
import dev.modelgateway.access.Permission;
import dev.modelgateway.access.Principal;
import dev.modelgateway.access.Scope;
import dev.modelgateway.accounts.ApiKey;
import dev.modelgateway.accounts.TokenUsers;
import dev.modelgateway.accounts.keys.BudgetPeriod;
import dev.modelgateway.accounts.keys.Team;
import dev.modelgateway.accounts.keys.User;
import dev.modelgateway.config.IdentityConfig;
import dev.modelgateway.config.IdentityConfig.CallerRule;
import dev.modelgateway.config.IdentityConfig.TrustedIssuer;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import io.vertx.core.Future;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.text.ParseException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Callers that send an identity provider's access token, or a Kubernetes projected service-account token, instead of a
 * platform key (docs/identity/caller-tokens.md). The token's unverified {@code iss} only picks one of
 * {@code identity.trusted_issuers}; then its signature (that issuer's key set), audience, times, required scopes and
 * bound claims are checked, and the first matching {@code identity.caller_mappings} rule admits its subject as a user
 * (provisioned just in time because the rule matched) with the rule's team and limits. The configuration is read at
 * every call, so a reload applies at once. Every refusal is a 401 (403 when the token is valid but no rule admits it)
 * whose message quotes nothing of the token but the reason.
 */
public final class TokenCallers {
    /**
     * How long a user (and a mapping's team) is taken from memory: a deactivation (SCIM, the admin API) bites within
     * this, and a busy caller costs one database read per interval.
     */
    static final Duration CACHED = Duration.ofSeconds(2);
    /** Users held at most; past it the cache starts again (only verified, mapped subjects ever enter it). */
    static final int MAX_CACHED = 10_000;
    /** users.user_name holds 200 characters; a longer subject is named by its hash. */
    private static final int MAX_USER_NAME = 200;
    /** What user_identities.subject and users.email hold (V19): a longer subject is refused, a longer email left out. */
    private static final int MAX_SUBJECT = 300;
    private static final int MAX_EMAIL = 320;

    /** What a token is admitted as: the key its calls are limited and billed under, and who it is. */
    public record Admitted(ApiKey key, Principal principal) {
    }

    private record Held<T>(Future<T> value, Instant at) {
    }

    private final Supplier<IdentityConfig> config;
    private final TokenUsers accounts;
    private final JwksCache keys;
    private final Discovery discovery;
    private final InstantSource clock;
    private final VerifiedTokens verified;
    private final Map<String, Held<User>> users = new ConcurrentHashMap<>();
    /** By the names the configuration gives, so no larger than it. */
    private final Map<String, Held<Optional<Team>>> teams = new ConcurrentHashMap<>();

    /**
     * @param config the {@code identity} section in force (the routing table's: a reload swaps it)
     * @param clock  the accounts' clock: token times, key refetches and these caches (a test advances it)
     */
    public TokenCallers(Supplier<IdentityConfig> config, TokenUsers accounts, IdentityHttp http, InstantSource clock) {
        this.config = config;
        this.accounts = accounts;
        this.keys = new JwksCache(http, clock);
        this.verified = new VerifiedTokens(clock);
        this.discovery = new Discovery(http, clock);
        this.clock = clock;
    }

    public Future<Admitted> authenticate(String token) {
        IdentityConfig identity = config.get();
        JWT unverified;
        try {
            unverified = JWTParser.parse(token);
        } catch (ParseException e) {
            return refuse("invalid_token", "The bearer token looks like a JWT but is not one.");
        }
        String iss;
        try {
            // unverified: it only picks which issuer's keys and rules to check the token with
            iss = unverified.getJWTClaimsSet().getIssuer();
        } catch (ParseException e) {
            return refuse("invalid_token", "The token's claims are not a JSON object.");
        }
        TrustedIssuer issuer = iss == null ? null : identity.trustedIssuers().values().stream()
                .filter(t -> t.issuer().toString().equals(iss)).findFirst().orElse(null);
        if (issuer == null) {
            return refuse("unknown_issuer", identity.trustedIssuers().isEmpty()
                    ? "This token is a JWT, and no trusted issuer is configured to accept it."
                    : "The token's issuer (iss) is not one this gateway trusts.");
        }
        if (unverified instanceof PlainJWT) {
            return refuse("unsupported_token_algorithm", "The token is unsigned (alg none); only RS*, PS* and ES* signatures are accepted.");
        }
        SignedJwts.Expect expect = new SignedJwts.Expect(issuer.issuer().toString(), issuer.audiences(), issuer.leeway());
        JWTClaimsSet known = verified.get(issuer.id(), token);
        if (known != null) {
            // its signature was verified lately: what may have changed since (time, the issuer's settings) is checked again
            try {
                SignedJwts.check(known, expect, clock.instant());
            } catch (SignedJwts.Refused r) {
                return Future.failedFuture(refusal(r));
            }
            return admit(identity, issuer, known);
        }
        Future<URI> jwks = issuer.jwksUri() != null ? Future.succeededFuture(issuer.jwksUri())
                : discovery.endpoint(issuer.issuer(), "jwks_uri");
        return jwks.recover(e -> Future.failedFuture(GatewayException.of(ErrorKind.UNAVAILABLE,
                        "The signing keys of issuer " + issuer.id() + " could not be found: " + e.getMessage()).withCode("issuer_unavailable")))
                .compose(uri -> SignedJwts.verify(token, uri, keys, expect, clock))
                .recover(e -> Future.failedFuture(e instanceof SignedJwts.Refused r ? refusal(r) : e))
                .onSuccess(claims -> verified.put(issuer.id(), token, claims))
                .compose(claims -> admit(identity, issuer, claims));
    }

    private Future<Admitted> admit(IdentityConfig identity, TrustedIssuer issuer, JWTClaimsSet set) {
        Claims claims = new Claims(issuer.id(), set.getClaims());
        Set<String> granted = scopes(claims);
        for (String required : issuer.requiredScopes()) {
            if (!granted.contains(required)) {
                return Future.failedFuture(GatewayException.of(ErrorKind.AUTHENTICATION, "The token lacks the scope " + required
                        + " this gateway requires.").withCode("insufficient_scope")
                        .withHeaders(Map.of("www-authenticate", "Bearer error=\"insufficient_scope\", scope=\""
                                + String.join(" ", issuer.requiredScopes()) + "\"")));
            }
        }
        for (Map.Entry<String, String> bound : issuer.boundClaims().entrySet()) {
            Object v = claims.at(bound.getKey());
            if (v == null || v instanceof Map || v instanceof Collection || !bound.getValue().equals(String.valueOf(v))) {
                return refuse("claim_mismatch", "The token's claim " + bound.getKey() + " does not have the value this gateway requires.");
            }
        }
        String subject = set.getSubject();
        if (subject == null || subject.isBlank()) return refuse("invalid_token", "The token has no subject (sub).");
        if (subject.length() > MAX_SUBJECT) return refuse("invalid_token", "The token's subject (sub) is longer than " + MAX_SUBJECT + " characters.");
        CallerRule rule = identity.callerMappings().stream().filter(r -> claims.matches(r.match())).findFirst().orElse(null);
        if (rule == null) {
            return Future.failedFuture(GatewayException.of(ErrorKind.PERMISSION, "The token is valid, but no caller mapping of"
                    + " this gateway admits its subject.").withCode("token_not_mapped"));
        }
        // the team first: a token refused for its mapping's team provisions no user
        Future<Team> team = rule.team() == null ? Future.succeededFuture() : team(rule.team()).map(t -> t.orElseThrow(() ->
                GatewayException.of(ErrorKind.PERMISSION, "The caller mapping names team '" + rule.team()
                        + "', which does not exist.").withCode("unknown_team")));
        return team.compose(t -> user(issuer, subject, claims).compose(user -> {
            if (!user.active()) return refuse("user_deactivated", "User " + user.userName() + " is deactivated.");
            Instant exp = set.getExpirationTime().toInstant();
            ApiKey key = new ApiKey(ApiKey.userKeyId(user.id()), user.userName(), rule.models(), rule.rpm(), rule.tpm(), List.of(), rule.budgetUsd(),
                    exp.plus(issuer.leeway()), rule.maxConcurrent(), false, false, t,
                    BudgetPeriod.parse(rule.budgetPeriod()), null, user.id());
            // its roles, and as every caller, its own usage and limits (the self permission a platform key has)
            List<Grant> grants = new ArrayList<>(user.grants());
            grants.add(new Grant(null, Set.of(Permission.SELF), Scope.own(null)));
            return Future.succeededFuture(new Admitted(key, new Principal(Principal.Kind.USER, user.id(), user.shown(), grants)));
        }));
    }

    /**
     * The user linked to (issuer URL, subject): the issuer's URL, not its id in the configuration, so that renaming the
     * entry keeps its users, and a person's console sign-in at the same provider finds the same user.
     */
    private Future<User> user(TrustedIssuer issuer, String subject, Claims claims) {
        String cacheKey = issuer.issuer() + "\n" + subject;
        Instant now = clock.instant();
        Held<User> held = users.get(cacheKey);
        if (held != null && now.isBefore(held.at().plus(CACHED))) return held.value();
        if (users.size() >= MAX_CACHED) users.clear();
        String email = claims.text("email");
        Future<User> found = accounts.provision(issuer.issuer().toString(), subject, userName(issuer.id(), subject),
                email == null || email.length() > MAX_EMAIL ? null : email);
        users.put(cacheKey, new Held<>(found, now));
        found.onFailure(e -> users.remove(cacheKey));
        return found;
    }

    private Future<Optional<Team>> team(String name) {
        Instant now = clock.instant();
        Held<Optional<Team>> held = teams.get(name);
        if (held != null && now.isBefore(held.at().plus(CACHED))) return held.value();
        Future<Optional<Team>> found = accounts.team(name);
        teams.put(name, new Held<>(found, now));
        found.onFailure(e -> teams.remove(name));
        return found;
    }

    /**
     * {@code <issuer id>:<subject>}: unique (the subject is unique at its issuer), and never someone else's, as an email
     * claim could be; the email goes in the user's email.
     */
    static String userName(String issuerId, String subject) {
        String name = issuerId + ":" + subject;
        if (name.length() <= MAX_USER_NAME) return name;
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(subject.getBytes(StandardCharsets.UTF_8));
            return issuerId + ":sha256:" + HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The token's scopes: {@code scope}, space-separated (RFC 8693 §4.2, RFC 9068 §2.2.3), or a {@code scp} list. */
    static Set<String> scopes(Claims claims) {
        Object scope = claims.at("scope");
        Object scp = scope != null ? scope : claims.at("scp");
        if (scp instanceof String s) return Set.of(s.trim().split("\\s+"));
        if (scp instanceof Collection<?> c) return Set.copyOf(c.stream().map(String::valueOf).toList());
        return Set.of();
    }

    private static GatewayException refusal(SignedJwts.Refused r) {
        String code = switch (r.reason) {
            case EXPIRED -> "token_expired";
            case NOT_YET_VALID -> "token_not_yet_valid";
            case WRONG_AUDIENCE -> "wrong_audience";
            case WRONG_ISSUER -> "unknown_issuer";
            case ALGORITHM -> "unsupported_token_algorithm";
            case UNKNOWN_KEY -> "unknown_signing_key";
            case BAD_SIGNATURE -> "invalid_signature";
            case MALFORMED -> "invalid_token";
            case NO_KEYS -> null;
        };
        if (code == null) return GatewayException.of(ErrorKind.UNAVAILABLE, r.getMessage()).withCode("issuer_unavailable");
        return unauthorized(code, r.getMessage());
    }

    private static <T> Future<T> refuse(String code, String message) {
        return Future.failedFuture(unauthorized(code, message));
    }

    /** A 401 with RFC 6750 §3's challenge: the token is the problem, not its absence. */
    private static GatewayException unauthorized(String code, String message) {
        return GatewayException.of(ErrorKind.AUTHENTICATION, message).withCode(code)
                .withHeaders(Map.of("www-authenticate", "Bearer error=\"invalid_token\""));
    }
}
