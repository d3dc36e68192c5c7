package dev.modelgateway.access;

import java.util.Set;

/**
 * How far one permission reaches for a principal: the whole organisation, some teams, and/or what it owns
 * ({@code owner}: the principal's id, null when it owns nothing under this permission).
 */
public record Reach(boolean org, Set<String> teams, String owner) {
    public static final Reach NONE = new Reach(false, Set.of(), null);

    public Reach {
        teams = Set.copyOf(teams);
    }

    public boolean any() {
        return org || !teams.isEmpty() || owner != null;
    }

    /** Whether it reaches a team (and so everything in it). */
    public boolean team(String teamId) {
        return org || teamId != null && teams.contains(teamId);
    }

    /** Whether it reaches an object owned by {@code ownerId} in {@code teamId} (either may be null). */
    public boolean object(String ownerId, String teamId) {
        return team(teamId) || owner != null && owner.equals(ownerId);
    }
}
