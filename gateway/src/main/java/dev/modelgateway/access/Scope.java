package dev.modelgateway.access;

/**
 * Over what a grant applies: the organisation, one team ({@code team:X}), or what the principal owns (a member's own
 * keys, which it creates in {@code teamId} when it has one).
 */
public record Scope(Kind kind, String teamId) {
    public enum Kind { ORG, TEAM, OWN }

    public static final Scope ORG = new Scope(Kind.ORG, null);

    public static Scope team(String teamId) {
        if (teamId == null || teamId.isBlank()) throw new IllegalArgumentException("a team scope needs a team id");
        return new Scope(Kind.TEAM, teamId);
    }

    public static Scope own(String teamId) {
        return new Scope(Kind.OWN, teamId);
    }

    /** {@code org}, {@code team:X} or {@code own}: the form admin keys and the audit log use. */
    public String wire() {
        return switch (kind) {
            case ORG -> "org";
            case TEAM -> "team:" + teamId;
            case OWN -> "own";
        };
    }

    /** Parses {@code org} or {@code team:X}, the scopes an admin key may have; null for anything else. */
    public static Scope ofWire(String wire) {
        if ("org".equals(wire)) return ORG;
        if (wire != null && wire.startsWith("team:") && wire.length() > 5) return team(wire.substring(5));
        return null;
    }
}
