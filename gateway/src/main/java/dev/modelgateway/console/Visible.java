package dev.modelgateway.console;

import dev.modelgateway.access.Permission;
import dev.modelgateway.access.Principal;
import dev.modelgateway.access.Reach;
import dev.modelgateway.accounts.ApiKey;

import java.util.List;
import java.util.Set;

/**
 * Whose usage and requests a console principal sees (docs/console.md, "Who sees what"): the reach of
 * {@link Permission#USAGE_READ}, the organisation's (everything), some teams' (their keys' rows), and always its own:
 * a person's keys ({@code api_keys.owner_user_id}), a platform key itself.
 *
 * @param teams       team ids whose rows are seen
 * @param ownerUserId a person's id: the rows of the keys they own
 * @param keyId       a platform key's own id
 */
record Visible(boolean all, Set<String> teams, String ownerUserId, String keyId) {
    static final Visible ALL = new Visible(true, Set.of(), null, null);

    Visible {
        teams = Set.copyOf(teams);
    }

    static Visible of(Principal p, ApiKey key) {
        Reach r = p.reach(Permission.USAGE_READ);
        if (r.org()) return ALL;
        String keyId = key != null && !key.master() ? key.id() : p.kind() == Principal.Kind.API_KEY ? p.id() : null;
        return new Visible(false, r.teams(), p.kind() == Principal.Kind.USER ? p.id() : null, keyId);
    }

    /** Whether it sees only one platform key's rows (a key's per-key breakdown says nothing then). */
    boolean oneKey() {
        return !all && teams.isEmpty() && ownerUserId == null;
    }

    /** The SQL condition on a table with {@code key_id} and {@code team_id} columns; its parameters are {@link #params}. */
    String sql() {
        return sql(false);
    }

    /**
     * The condition on a table with {@code key_id}, {@code team_id} and {@code user_id} columns (the per-user rollups):
     * a person's own rows are those billed to them, their own keys' and their identity-provider tokens' calls alike.
     */
    String sqlByUser() {
        return sql(true);
    }

    private String sql(boolean byUser) {
        if (all) return "1 = 1";
        StringBuilder s = new StringBuilder("(1 = 0");
        if (!teams.isEmpty()) s.append(" OR team_id IN (").append(String.join(", ", java.util.Collections.nCopies(teams.size(), "?"))).append(")");
        if (ownerUserId != null) s.append(byUser ? " OR user_id = ?" : " OR key_id IN (SELECT id FROM api_keys WHERE owner_user_id = ?)");
        if (keyId != null) s.append(" OR key_id = ?");
        return s.append(")").toString();
    }

    List<String> params() {
        if (all) return List.of();
        List<String> p = new java.util.ArrayList<>(teams.stream().sorted().toList());
        if (ownerUserId != null) p.add(ownerUserId);
        if (keyId != null) p.add(keyId);
        return p;
    }
}
