package dev.modelgateway.access;

import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Who a request authenticated as and what it may do (docs/identity/roles.md). Authorization reads only this and the
 * route the router dispatched to, never {@code Host} or {@code X-Forwarded-*}.
 *
 * @param id   the user's, admin key's or platform key's id; {@code master} for the break-glass key
 * @param name what a person reads: an email, a key's name
 */
public record Principal(Kind kind, String id, String name, List<Grant> grants) {
    public enum Kind {
        /** {@code server.master_key}: break-glass, every permission, each admin use audited. */
        MASTER,
        /** A scoped admin key, for automation. */
        ADMIN_KEY,
        /** A person: a console session or an identity provider's token. */
        USER,
        /** A platform API key: its own usage and limits. */
        API_KEY
    }

    public Principal {
        grants = List.copyOf(grants);
    }

    public static final Principal MASTER = new Principal(Kind.MASTER, "master", "master key",
            List.of(new Grant(null, EnumSet.allOf(Permission.class), Scope.ORG)));

    /** A platform key: {@link Permission#SELF} over itself. */
    public static Principal apiKey(String keyId, String name) {
        return new Principal(Kind.API_KEY, keyId, name, List.of(new Grant(null, Set.of(Permission.SELF), Scope.own(null))));
    }

    public Reach reach(Permission p) {
        boolean org = false;
        Set<String> teams = new HashSet<>();
        String owner = null;
        for (Grant g : grants) {
            if (!g.permissions().contains(p)) continue;
            switch (g.scope().kind()) {
                case ORG -> org = true;
                case TEAM -> teams.add(g.scope().teamId());
                case OWN -> owner = id;
            }
        }
        return new Reach(org, teams, owner);
    }

    public boolean can(Permission p) {
        return reach(p).any();
    }

    /** The widest grant giving {@code p} (the organisation's, then a team's, then one's own), for the audit log. */
    public Optional<Grant> grantFor(Permission p) {
        return grants.stream().filter(g -> g.permissions().contains(p)).min((a, b) -> a.scope().kind().compareTo(b.scope().kind()));
    }

    /** The actor of a change made under {@code p} from {@code source}. */
    public Actor actor(Permission p, String source) {
        String role = kind == Kind.MASTER ? "break_glass" : grantFor(p).map(Grant::label).orElse(null);
        return new Actor(kind.name().toLowerCase(java.util.Locale.ROOT), id, name, role, source);
    }

    /** The teams this principal administers or belongs to, from its grants. */
    public Set<String> teams() {
        Set<String> t = new HashSet<>();
        for (Grant g : grants) if (g.scope().teamId() != null) t.add(g.scope().teamId());
        return t;
    }
}
