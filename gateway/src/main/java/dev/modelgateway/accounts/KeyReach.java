package dev.modelgateway.accounts;

import dev.modelgateway.access.Reach;
import dev.modelgateway.accounts.keys.StoredKey;

import java.util.Set;

/**
 * How far a principal's key permission reaches (docs/identity/roles.md): every key, its teams' keys, or its own
 * ({@code reach.owner()}), which it may put in one of {@code ownTeams} (the teams its own grants name) or in none.
 */
public record KeyReach(Reach reach, Set<String> ownTeams) {
    /** The organisation's: the master key, an org admin, the CLI. */
    public static final KeyReach ORG = new KeyReach(new Reach(true, Set.of(), null), Set.of());

    public KeyReach {
        ownTeams = Set.copyOf(ownTeams);
    }

    public boolean org() {
        return reach.org();
    }

    public boolean reaches(StoredKey key) {
        return reach.object(key.ownerUserId(), key.settings().teamId());
    }

    /** Whether a key owned by {@code ownerId} (null: nobody) may be in {@code teamId} (null: no team). */
    public boolean mayPlace(String ownerId, String teamId) {
        if (reach.team(teamId)) return true;
        return reach.owner() != null && reach.owner().equals(ownerId) && (teamId == null || ownTeams.contains(teamId));
    }
}
