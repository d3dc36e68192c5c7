package dev.modelgateway.access;

import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What a route needs (docs/identity/roles.md). Every admin, console and SCIM route declares one in
 * {@code server/GatewayRouter}; {@code server/PermissionTableTest} fails on a route without one.
 */
public enum Permission {
    /** The credential's own key, usage and limits: every authenticated principal has it, over what it owns. */
    SELF(false),
    KEYS_READ(true), KEYS_WRITE(true),
    TEAMS_READ(true), TEAMS_WRITE(false),
    USERS_READ(true), USERS_WRITE(false),
    USAGE_READ(true), LIMITS_READ(true),
    /** Re-pricing the ledger. */
    BILLING_WRITE(false),
    ALERTS_READ(false), ALERTS_WRITE(false),
    AUDIT_READ(false),
    CONFIG_READ(false), CONFIG_WRITE(false),
    /** Creating, rotating and revoking scoped admin keys. */
    ADMIN_KEYS_WRITE(false),
    /** The SCIM 2.0 provisioning API, for an identity provider's provisioning client. */
    SCIM(false);

    /** Whether it may be granted over one team ({@code team:X}) rather than the whole organisation. */
    public final boolean teamScopable;
    /** The name an admin key's {@code permissions} and the docs use: {@code keys:write}. */
    public final String wire;

    Permission(boolean teamScopable) {
        this.teamScopable = teamScopable;
        String n = name().toLowerCase(Locale.ROOT);
        int last = n.lastIndexOf('_');
        this.wire = last < 0 ? n : n.substring(0, last) + ":" + n.substring(last + 1);
    }

    private static final Map<String, Permission> BY_WIRE = Arrays.stream(values())
            .collect(Collectors.toUnmodifiableMap(p -> p.wire, Function.identity()));

    public static Optional<Permission> ofWire(String wire) {
        return Optional.ofNullable(BY_WIRE.get(wire));
    }
}
