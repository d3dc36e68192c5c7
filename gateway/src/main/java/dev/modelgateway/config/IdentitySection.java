package dev.modelgateway.config;

import com.fasterxml.jackson.databind.JsonNode;

import java.math.BigDecimal;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import static dev.modelgateway.config.RoutingSection.text;
import static dev.modelgateway.config.RoutingSection.unknownFields;

/**
 * Reads the configuration's {@code identity} section into an {@link IdentityConfig} (docs/identity/README.md). Every
 * refusal names the field; an unknown key is refused with the nearest known one.
 */
final class IdentitySection {
    private static final Set<String> SECTION = Set.of("sign_in", "role_mappings", "trusted_issuers", "caller_mappings");
    private static final Set<String> SIGN_IN = Set.of("providers", "disable_master_key");
    private static final Set<String> PROVIDER = Set.of("issuer", "client_id", "client_secret", "scopes", "display_name", "user_name_claim");
    private static final Set<String> MATCH = Set.of("provider", "issuer", "claim", "equals", "pattern");
    private static final Set<String> ROLE_RULE = union(MATCH, Set.of("role", "team"));
    private static final Set<String> ISSUER = Set.of("issuer", "audiences", "jwks_uri", "leeway_seconds", "required_scopes", "bound_claims");
    private static final Set<String> CALLER_RULE = union(MATCH, Set.of("team", "rpm", "tpm", "budget_usd", "budget_period", "models",
            "max_concurrent"));
    private static final Set<String> ROLES = Set.of("org_admin", "team_admin", "member", "viewer", "billing_viewer", "auditor");
    private static final Set<String> PER_TEAM_ROLES = Set.of("team_admin", "member");
    private static final Set<String> PERIODS = Set.of("day", "week", "month", "lifetime");
    /** The ids that appear in paths and in the audit log. */
    private static final Pattern ID = Pattern.compile("[a-z0-9][a-z0-9_-]{0,39}");

    private IdentitySection() {
    }

    static IdentityConfig parse(JsonNode root) {
        JsonNode identity = root.path("identity");
        if (identity.isMissingNode() || identity.isNull()) return IdentityConfig.NONE;
        unknownFields("identity", identity, SECTION);
        Map<String, IdentityConfig.OidcProvider> providers = new LinkedHashMap<>();
        boolean masterKeyDisabled = false;
        JsonNode signIn = identity.path("sign_in");
        if (!signIn.isMissingNode() && !signIn.isNull()) {
            unknownFields("identity.sign_in", signIn, SIGN_IN);
            signIn.path("providers").properties().forEach(e -> providers.put(e.getKey(), provider(e.getKey(), e.getValue())));
            masterKeyDisabled = flag("identity.sign_in.disable_master_key", signIn.path("disable_master_key"));
            if (masterKeyDisabled && providers.isEmpty()) {
                throw new IllegalArgumentException("identity.sign_in.disable_master_key: needs at least one sign-in provider,"
                        + " or nobody could administer the gateway");
            }
        }
        Map<String, IdentityConfig.TrustedIssuer> issuers = new LinkedHashMap<>();
        identity.path("trusted_issuers").properties().forEach(e -> issuers.put(e.getKey(), issuer(e.getKey(), e.getValue())));
        List<IdentityConfig.RoleRule> roles = new ArrayList<>();
        JsonNode roleRules = list("identity.role_mappings", identity.path("role_mappings"));
        for (int i = 0; i < roleRules.size(); i++) roles.add(roleRule("identity.role_mappings[" + i + "]", roleRules.get(i), providers.keySet()));
        List<IdentityConfig.CallerRule> callers = new ArrayList<>();
        JsonNode callerRules = list("identity.caller_mappings", identity.path("caller_mappings"));
        for (int i = 0; i < callerRules.size(); i++) {
            callers.add(callerRule("identity.caller_mappings[" + i + "]", callerRules.get(i), issuers.keySet()));
        }
        return new IdentityConfig(providers, masterKeyDisabled, roles, issuers, callers);
    }

    private static IdentityConfig.OidcProvider provider(String id, JsonNode n) {
        String at = "identity.sign_in.providers." + id;
        id(at, id);
        unknownFields(at, n, PROVIDER);
        List<String> scopes = strings(at + ".scopes", n.path("scopes"));
        if (scopes.isEmpty()) scopes = List.of("openid", "email", "profile");
        if (!scopes.contains("openid")) throw new IllegalArgumentException(at + ".scopes: must include openid");
        return new IdentityConfig.OidcProvider(id, https(at + ".issuer", required(at, n, "issuer")), required(at, n, "client_id"),
                text(n, "client_secret"), scopes, text(n, "display_name") != null ? text(n, "display_name") : id,
                text(n, "user_name_claim") != null ? text(n, "user_name_claim") : "email");
    }

    private static IdentityConfig.TrustedIssuer issuer(String id, JsonNode n) {
        String at = "identity.trusted_issuers." + id;
        id(at, id);
        unknownFields(at, n, ISSUER);
        Set<String> audiences = new LinkedHashSet<>(strings(at + ".audiences", n.path("audiences")));
        if (audiences.isEmpty()) {
            throw new IllegalArgumentException(at + ".audiences: required: a token must be meant for the gateway (its aud)");
        }
        double leeway = n.has("leeway_seconds") ? number(at + ".leeway_seconds", n.get("leeway_seconds"), 0, 300) : 30;
        Map<String, String> bound = new LinkedHashMap<>();
        JsonNode b = n.path("bound_claims");
        if (!b.isMissingNode() && !b.isNull()) {
            if (!b.isObject()) throw new IllegalArgumentException(at + ".bound_claims must be a mapping of claim → value");
            b.properties().forEach(e -> {
                if (!e.getValue().isValueNode()) throw new IllegalArgumentException(at + ".bound_claims." + e.getKey() + " must be a value");
                bound.put(e.getKey(), e.getValue().asText());
            });
        }
        String jwks = text(n, "jwks_uri");
        return new IdentityConfig.TrustedIssuer(id, https(at + ".issuer", required(at, n, "issuer")), audiences,
                jwks == null ? null : https(at + ".jwks_uri", jwks), Duration.ofMillis(Math.round(leeway * 1000)),
                new LinkedHashSet<>(strings(at + ".required_scopes", n.path("required_scopes"))), bound);
    }

    private static IdentityConfig.RoleRule roleRule(String at, JsonNode n, Set<String> providers) {
        unknownFields(at, n, ROLE_RULE);
        if (n.has("issuer")) throw new IllegalArgumentException(at + ".issuer: role mappings name a sign-in `provider`");
        String role = required(at, n, "role");
        if (!ROLES.contains(role)) throw new IllegalArgumentException(at + ".role: unknown role '" + role + "'; expected one of " + ROLES);
        String team = text(n, "team");
        if (role.equals("team_admin") && team == null) throw new IllegalArgumentException(at + ".team: required for team_admin");
        if (team != null && !PER_TEAM_ROLES.contains(role)) throw new IllegalArgumentException(at + ".team: only team_admin and member are held over a team");
        return new IdentityConfig.RoleRule(match(at, n, "provider", providers), role, team);
    }

    private static IdentityConfig.CallerRule callerRule(String at, JsonNode n, Set<String> issuers) {
        unknownFields(at, n, CALLER_RULE);
        if (n.has("provider")) throw new IllegalArgumentException(at + ".provider: caller mappings name a trusted `issuer`");
        String period = text(n, "budget_period");
        if (period != null && !PERIODS.contains(period)) {
            throw new IllegalArgumentException(at + ".budget_period: expected one of " + PERIODS);
        }
        BigDecimal budget = null;
        if (n.hasNonNull("budget_usd")) {
            try {
                budget = new BigDecimal(n.get("budget_usd").asText().trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(at + ".budget_usd must be a number");
            }
            if (budget.signum() < 0) throw new IllegalArgumentException(at + ".budget_usd must not be negative");
        }
        return new IdentityConfig.CallerRule(match(at, n, "issuer", issuers), text(n, "team"), whole(at, n, "rpm"), whole(at, n, "tpm"),
                budget, period, strings(at + ".models", n.path("models")), whole(at, n, "max_concurrent"));
    }

    private static IdentityConfig.ClaimMatch match(String at, JsonNode n, String sourceField, Set<String> sources) {
        String source = text(n, sourceField);
        if (source != null && !sources.contains(source)) {
            throw new IllegalArgumentException(at + "." + sourceField + ": no such " + sourceField + " '" + source + "'; configured: " + sources);
        }
        String claim = required(at, n, "claim");
        String equals = text(n, "equals");
        Pattern pattern = null;
        if (n.hasNonNull("pattern")) {
            if (equals != null) throw new IllegalArgumentException(at + ": set equals or pattern, not both");
            try {
                pattern = Pattern.compile(n.get("pattern").asText());
            } catch (PatternSyntaxException e) {
                throw new IllegalArgumentException(at + ".pattern: not a valid regular expression: " + e.getDescription());
            }
        }
        return new IdentityConfig.ClaimMatch(source, claim, equals, pattern);
    }

    private static Long whole(String at, JsonNode n, String field) {
        if (!n.hasNonNull(field)) return null;
        JsonNode v = n.get(field);
        if (!v.canConvertToLong() || !v.isIntegralNumber() || v.asLong() < 0) {
            throw new IllegalArgumentException(at + "." + field + " must be a whole number ≥ 0");
        }
        return v.asLong();
    }

    private static URI https(String at, String value) {
        try {
            URI uri = new URI(value);
            boolean loopback = "http".equals(uri.getScheme()) && ("127.0.0.1".equals(uri.getHost()) || "localhost".equals(uri.getHost())
                    || "[::1]".equals(uri.getHost()));
            if (!"https".equals(uri.getScheme()) && !loopback || uri.getHost() == null) {
                throw new IllegalArgumentException(at + ": must be an https URL (http only on loopback), got '" + value + "'");
            }
            return uri;
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(at + ": not a URL: '" + value + "'");
        }
    }

    private static void id(String at, String id) {
        if (!ID.matcher(id).matches()) throw new IllegalArgumentException(at + ": the name must match " + ID.pattern());
    }

    private static JsonNode list(String at, JsonNode n) {
        if (n.isMissingNode() || n.isNull()) return com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode();
        if (!n.isArray()) throw new IllegalArgumentException(at + " must be a list of rules");
        return n;
    }

    private static List<String> strings(String at, JsonNode n) {
        if (n.isMissingNode() || n.isNull()) return List.of();
        if (!n.isArray()) throw new IllegalArgumentException(at + " must be a list");
        List<String> out = new ArrayList<>();
        n.forEach(v -> {
            if (!v.isTextual() || v.asText().isBlank()) throw new IllegalArgumentException(at + " must be a list of non-empty strings");
            out.add(v.asText().trim());
        });
        return out;
    }

    private static boolean flag(String at, JsonNode n) {
        if (n.isMissingNode() || n.isNull()) return false;
        if (!n.isBoolean()) throw new IllegalArgumentException(at + " must be true or false");
        return n.asBoolean();
    }

    private static double number(String at, JsonNode n, double min, double max) {
        if (!n.isNumber() || n.asDouble() < min || n.asDouble() > max) {
            throw new IllegalArgumentException(at + " must be a number from " + (long) min + " to " + (long) max);
        }
        return n.asDouble();
    }

    private static String required(String at, JsonNode n, String field) {
        String v = text(n, field);
        if (v == null || v.isEmpty()) throw new IllegalArgumentException(at + "." + field + ": required");
        return v;
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> all = new HashSet<>(a);
        all.addAll(b);
        return Set.copyOf(all);
    }
}
