package dev.modelgateway.config;

import java.math.BigDecimal;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The configuration's {@code identity} section (docs/identity/README.md), read by {@link IdentitySection}: the identity
 * providers people sign in to the console with, the rules mapping their claims to roles, the issuers whose tokens
 * callers may present instead of a platform key, and the rules mapping those tokens' claims to a team and limits.
 * Applied again by a reload.
 */
public record IdentityConfig(Map<String, OidcProvider> signInProviders, boolean masterKeyDisabled, List<RoleRule> roleMappings,
                             Map<String, TrustedIssuer> trustedIssuers, List<CallerRule> callerMappings) {
    public static final IdentityConfig NONE = new IdentityConfig(Map.of(), false, List.of(), Map.of(), List.of());

    public IdentityConfig {
        signInProviders = Map.copyOf(signInProviders);
        roleMappings = List.copyOf(roleMappings);
        trustedIssuers = Map.copyOf(trustedIssuers);
        callerMappings = List.copyOf(callerMappings);
    }

    /** Whether people sign in with an identity provider (the master key may then be turned off). */
    public boolean ssoConfigured() {
        return !signInProviders.isEmpty();
    }

    /**
     * An OpenID provider people sign in to the console with (authorization code with PKCE).
     *
     * @param id            the name in the configuration, in the callback path ({@code /auth/oidc/{id}/callback})
     * @param issuer        the issuer; discovery is read from {@code {issuer}/.well-known/openid-configuration}
     * @param clientSecret  null for a public client (PKCE alone)
     * @param userNameClaim the claim the user's name is read from ({@code email} by default)
     */
    public record OidcProvider(String id, URI issuer, String clientId, String clientSecret, List<String> scopes,
                               String displayName, String userNameClaim) {
    }

    /**
     * A condition on a token's claims: {@code claim} is a path ({@code groups}, {@code realm_access.roles}; a claim whose
     * own name has dots, such as {@code kubernetes.io}, is found first); it matches when the value, or one element of a
     * list, {@code equals} the text, or matches {@code pattern} whole; with neither, when the claim is present.
     * {@code provider} (or {@code issuer}) limits it to one sign-in provider's (or trusted issuer's) tokens.
     */
    public record ClaimMatch(String source, String claim, String equals, Pattern pattern) {
    }

    /** Every matching rule gives its role; {@code team} names the team of a per-team role. */
    public record RoleRule(ClaimMatch match, String role, String team) {
    }

    /**
     * An issuer whose access tokens callers may send as their key.
     *
     * @param jwksUri        null: read from the issuer's discovery document
     * @param requiredScopes each must be in the token's {@code scope} (or {@code scp})
     * @param boundClaims    claim path → the exact value it must have
     */
    public record TrustedIssuer(String id, URI issuer, Set<String> audiences, URI jwksUri, Duration leeway,
                                Set<String> requiredScopes, Map<String, String> boundClaims) {
    }

    /**
     * The first matching rule admits a token's subject as a user of {@code team}, with these per-user limits (null: none;
     * {@code models} empty: every model the team allows). No rule matching: the token is refused.
     */
    public record CallerRule(ClaimMatch match, String team, Long rpm, Long tpm, BigDecimal budgetUsd, String budgetPeriod,
                             List<String> models, Long maxConcurrent) {
    }
}
