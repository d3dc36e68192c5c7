package dev.modelgateway.accounts;

import dev.modelgateway.access.Actor;
import dev.modelgateway.accounts.audit.AuditLog;
import dev.modelgateway.accounts.keys.Team;
import dev.modelgateway.accounts.keys.TeamStore;
import dev.modelgateway.accounts.keys.User;
import dev.modelgateway.accounts.keys.UserStore;
import dev.modelgateway.json.Json;
import dev.modelgateway.store.Database;
import dev.modelgateway.store.Sql;
import io.vertx.core.Future;

import java.sql.SQLException;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;

/**
 * The accounts' side of callers with an identity provider's token (docs/identity/caller-tokens.md): the user an
 * (issuer, subject) pair is linked to, provisioned just in time when a caller mapping matched, and the team a mapping
 * names. Each on a worker thread; the request path caches the answers for seconds.
 */
public final class TokenUsers {
    /** The actor of a just-in-time provisioning: a caller mapping of the configuration. */
    private static final Actor PROVISIONING = Actor.system("identity.caller_mappings");

    private final Database db;
    private final Blocking blocking;
    private final InstantSource clock;

    TokenUsers(Database db, Blocking blocking, InstantSource clock) {
        this.db = db;
        this.blocking = blocking;
        this.clock = clock;
    }

    /**
     * The user linked to {@code (issuer, subject)}, else a new active user with no roles, linked to it: made only
     * because a caller mapping matched the token. Two instances (or event loops) provisioning the same subject at
     * once: the second insert fails on the identity's key and the first's user is read back.
     */
    public Future<User> provision(String issuer, String subject, String userName, String email) {
        return blocking.run(() -> {
            Optional<User> known = new UserStore(Sql.pool(db)).findByIdentity(issuer, subject);
            if (known.isPresent()) return known.get();
            try {
                return db.transaction(c -> {
                    UserStore users = new UserStore(Sql.in(c));
                    User made = users.create(userName, email, null, null, List.of(), clock.instant());
                    users.link(issuer, subject, made.id());
                    // the rule that matched acted, not a person: the log says who was made, and from which token's claims
                    new AuditLog(Sql.in(c)).record(PROVISIONING, "user.create", "user", made.id(), null, Json.MAPPER.createObjectNode()
                            .put("user_name", userName).put("email", email).put("issuer", issuer).put("subject", subject)
                            .put("provisioned_by", "caller_mapping"));
                    return made;
                });
            } catch (SQLException raced) {
                Optional<User> theirs = new UserStore(Sql.pool(db)).findByIdentity(issuer, subject);
                if (theirs.isPresent()) return theirs.get();
                throw raced;
            }
        });
    }

    /**
     * The team a caller mapping names: by its id ({@code team_…}), else by its name when exactly one team has it;
     * empty when none does.
     */
    public Future<Optional<Team>> team(String idOrName) {
        return blocking.run(() -> {
            TeamStore teams = new TeamStore(Sql.pool(db));
            Optional<Team> byId = teams.find(idOrName);
            if (byId.isPresent()) return byId;
            List<Team> named = teams.list().stream().filter(t -> idOrName.equals(t.name())).toList();
            return named.size() == 1 ? Optional.of(named.getFirst()) : Optional.empty();
        });
    }

    /** The user of this id now (read from the database, not a cache): a realtime session's re-check. */
    public Future<Optional<User>> user(String id) {
        return blocking.run(() -> new UserStore(Sql.pool(db)).find(id));
    }
}
