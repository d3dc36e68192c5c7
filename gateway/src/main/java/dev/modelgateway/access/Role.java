package dev.modelgateway.access;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

import static dev.modelgateway.access.Permission.*;

/**
 * The roles a person holds (docs/identity/roles.md), each a fixed set of permissions. {@code team_admin} and
 * {@code member} are held over one team; the others over the organisation.
 */
public enum Role {
    /** Everything. */
    ORG_ADMIN(EnumSet.complementOf(EnumSet.of(SCIM)), false),
    /** One team: its keys and members, its usage and rate limits; never the team's own limits. */
    TEAM_ADMIN(EnumSet.of(KEYS_READ, KEYS_WRITE, TEAMS_READ, USERS_READ, USAGE_READ, LIMITS_READ), true),
    /** Their own keys and usage. */
    MEMBER(EnumSet.of(KEYS_READ, KEYS_WRITE, USAGE_READ), true),
    /** Read-only: keys, teams, people, usage, rate limits, the configuration (secrets masked). */
    VIEWER(EnumSet.of(KEYS_READ, TEAMS_READ, USERS_READ, USAGE_READ, LIMITS_READ, CONFIG_READ), false),
    /** Spend: usage and cost reports, budgets' alerts. */
    BILLING_VIEWER(EnumSet.of(USAGE_READ, TEAMS_READ, ALERTS_READ), false),
    /** The audit log. */
    AUDITOR(EnumSet.of(AUDIT_READ), false);

    public final Set<Permission> permissions;
    /** Whether it is held over a team ({@code team} required) rather than the organisation. */
    public final boolean perTeam;
    public final String wire;

    Role(Set<Permission> permissions, boolean perTeam) {
        EnumSet<Permission> all = EnumSet.copyOf(permissions);
        all.add(SELF);
        this.permissions = Set.copyOf(all);
        this.perTeam = perTeam;
        this.wire = name().toLowerCase(Locale.ROOT);
    }

    public static Optional<Role> ofWire(String wire) {
        return Arrays.stream(values()).filter(r -> r.wire.equals(wire)).findFirst();
    }
}
