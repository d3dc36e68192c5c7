package dev.modelgateway.accounts;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.accounts.audit.AlertSettings;
import dev.modelgateway.accounts.audit.AlertSettingsStore;
import dev.modelgateway.accounts.audit.Alerts;
import dev.modelgateway.access.Actor;
import dev.modelgateway.access.Grant;
import dev.modelgateway.accounts.audit.AuditLog;
import dev.modelgateway.accounts.keys.AdminKey;
import dev.modelgateway.accounts.keys.AdminKeyRequests;
import dev.modelgateway.accounts.keys.AdminKeyStore;
import dev.modelgateway.accounts.keys.BudgetPeriod;
import dev.modelgateway.accounts.keys.Group;
import dev.modelgateway.accounts.keys.GroupStore;
import dev.modelgateway.accounts.keys.Person;
import dev.modelgateway.accounts.keys.User;
import dev.modelgateway.accounts.keys.UserStore;
import dev.modelgateway.accounts.keys.KeyRequests;
import dev.modelgateway.accounts.keys.KeySettings;
import dev.modelgateway.accounts.keys.KeyStore;
import dev.modelgateway.accounts.keys.StoredKey;
import dev.modelgateway.accounts.keys.Team;
import dev.modelgateway.accounts.keys.TeamStore;
import dev.modelgateway.accounts.ledger.Ledger;
import dev.modelgateway.accounts.ledger.Repricing;
import dev.modelgateway.accounts.ledger.SpendTracker;
import dev.modelgateway.accounts.ledger.UsageQuery;
import dev.modelgateway.accounts.limits.RateDecision;
import dev.modelgateway.accounts.limits.RateLimiter;
import dev.modelgateway.accounts.limits.RateScope;
import dev.modelgateway.catalogue.PriceBook;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Json;
import dev.modelgateway.store.Database;
import dev.modelgateway.store.Sql;
import io.vertx.core.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The accounts as an administrator sees them, behind the admin API ({@code endpoint/admin}): keys and teams (each
 * change committed with its audit entry), spend and rate views, usage reports, re-pricing, alerts and the audit log.
 * Part of the {@link Accounts} facade, which hands it out ({@link Accounts#admin()}).
 */
public final class Administration {
    private static final Logger LOG = LoggerFactory.getLogger(Administration.class);
    private final AccountsConfig config;
    private final Database db;
    private final Blocking blocking;
    private final PriceBook prices;
    private final KeyStore keys;
    private final TeamStore teams;
    private final AuditLog audit;
    private final Ledger ledger;
    private final SpendTracker spend;
    private final Alerts alerts;
    private final RateLimiter limiter;
    private final MasterKeys masterKeys;
    /** Forgets the facade's cached keys: a change is seen by the next request. */
    private final Runnable keysChanged;
    /** The facade's clock: which budget period a spend view reads. */
    private final InstantSource clock;

    Administration(AccountsConfig config, Database db, Blocking blocking, PriceBook prices, KeyStore keys, Ledger ledger,
                   SpendTracker spend, Alerts alerts, RateLimiter limiter, MasterKeys masterKeys, Runnable keysChanged,
                   InstantSource clock) {
        this.config = config;
        this.db = db;
        this.blocking = blocking;
        this.prices = prices;
        this.keys = keys;
        this.teams = new TeamStore(Sql.pool(db));
        this.audit = new AuditLog(Sql.pool(db));
        this.ledger = ledger;
        this.spend = spend;
        this.alerts = alerts;
        this.limiter = limiter;
        this.masterKeys = masterKeys;
        this.keysChanged = keysChanged;
        this.clock = clock;
    }

    /** The key's own {@code max_concurrent}, else the gateway's default; 0: no bound. */
    public int maxConcurrent(ApiKey key) {
        return key.maxConcurrent() != null ? key.maxConcurrent().intValue() : config.defaultMaxConcurrent();
    }

    public boolean masterKeyConfigured() {
        return masterKeys.configured();
    }

    /**
     * Puts the configuration's master keys in force (at start, and as a reload applies them): the next request is
     * checked against them, so the keys removed stop working at once.
     */
    public void useMasterKeys(List<String> keys) {
        masterKeys.replace(keys);
    }

    // Each change commits with its audit entry, made by the actor: the principal the admin API authorized, or cli:<login>.

    /** The stores of one transaction: a change and its audit entry commit together or not at all. */
    private record Tx(Sql sql, KeyStore keys, TeamStore teams, AuditLog audit, UserStore users, GroupStore groups, AdminKeyStore adminKeys) {}

    @FunctionalInterface
    private interface Change<T> {
        T apply(Tx tx) throws SQLException;
    }

    private <T> Future<T> change(Change<T> work) {
        return blocking.run(() -> db.transaction(c -> {
            Sql sql = Sql.in(c);
            return work.apply(tx(sql));
        }));
    }

    /** A new key; a disabled one authenticates nothing until it is enabled. */
    public Future<KeyStore.CreatedKey> createKey(Actor actor, KeySettings settings, boolean disabled) {
        return createKey(actor, settings, disabled, KeyReach.ORG, null);
    }

    /**
     * A new key owned by {@code ownerId} (null: nobody), made by a principal whose key permission reaches {@code reach}:
     * outside it a 403 {@code outside_scope}; above its team's own limits, for a principal below the organisation, a
     * 400 {@code exceeds_team_limit}.
     */
    public Future<KeyStore.CreatedKey> createKey(Actor actor, KeySettings settings, boolean disabled, KeyReach reach, String ownerId) {
        return change(tx -> {
            requireTeam(tx, settings.teamId());
            requirePlace(tx, reach, ownerId, settings);
            KeyStore.CreatedKey created = tx.keys().create(settings, disabled, ownerId);
            tx.audit().record(actor, "key.create", "key", created.key().id(), null, AuditLog.of(created.key()));
            return created;
        });
    }

    /**
     * A key within the principal's reach, and, below the organisation, within its team's own limits: a team admin
     * gives its keys no more than the org admin gave the team.
     */
    private static void requirePlace(Tx tx, KeyReach reach, String ownerId, KeySettings settings) throws SQLException {
        if (reach.org()) return;
        String team = settings.teamId();
        if (!reach.mayPlace(ownerId, team)) {
            throw outsideScope(team == null ? "A key outside every team is outside this credential's reach: set 'team_id' to one of its teams."
                    : "Team '" + team + "' is outside this credential's reach.");
        }
        if (team == null) return;
        Team t = tx.teams().find(team).orElseThrow();
        aboveTeam("rpm", settings.rpm(), t.rpm(), t);
        aboveTeam("tpm", settings.tpm(), t.tpm(), t);
        if (settings.budgetUsd() != null && t.budgetUsd() != null && settings.budgetUsd().compareTo(t.budgetUsd()) > 0) {
            throw GatewayException.invalid("budget_usd", "'budget_usd' " + settings.budgetUsd().toPlainString() + " is above the"
                    + " budget of team '" + t.id() + "' itself, " + t.budgetUsd().toPlainString() + ".").withCode("exceeds_team_limit");
        }
    }

    private static void aboveTeam(String field, Long key, Long team, Team t) {
        if (key != null && team != null && key > team) {
            throw GatewayException.invalid(field, "'" + field + "' " + key + " is above the limit of team '" + t.id() + "' itself, "
                    + team + ".").withCode("exceeds_team_limit");
        }
    }

    /** A 403 for an object outside the principal's reach (docs/identity/roles.md). */
    private static GatewayException outsideScope(String message) {
        return GatewayException.of(ErrorKind.PERMISSION, message).withCode("outside_scope");
    }

    /** The key, locked, when it exists and is within reach; empty when it does not exist; a 403 outside reach. */
    private static Optional<StoredKey> reachable(Tx tx, KeyReach reach, String id) throws SQLException {
        if (!tx.keys().lock(id)) return Optional.empty();
        StoredKey key = tx.keys().find(id).orElseThrow();
        if (!reach.reaches(key)) throw outsideScope("API key '" + id + "' is outside this credential's reach.");
        return Optional.of(key);
    }

    /** A key may join only a team that exists: a typo would otherwise leave it outside every team's limits. */
    private static void requireTeam(Tx tx, String teamId) throws SQLException {
        if (teamId != null && tx.teams().find(teamId).isEmpty()) {
            throw GatewayException.invalid("team_id", "No team with id '" + teamId + "'.").withCode("team_not_found");
        }
    }

    public Future<Team> createTeam(Actor actor, Team settings) {
        return change(tx -> {
            Team team = tx.teams().create(settings);
            tx.audit().record(actor, "team.create", "team", team.id(), null, AuditLog.of(team));
            return team;
        });
    }

    public Future<List<Team>> listTeams() {
        return blocking.run(teams::list);
    }

    public Future<Optional<Team>> findTeam(String id) {
        return blocking.run(() -> teams.find(id));
    }

    /**
     * Applies the body's fields to the team as it is inside the transaction, its row locked first, so that two
     * changes made at once both stay; empty when there is no such team. Forgets cached keys, which carry their team,
     * before the caller hears of the change.
     */
    public Future<Optional<Team>> patchTeam(Actor actor, String id, ObjectNode body) {
        return change(tx -> {
            if (!tx.teams().lock(id)) return Optional.<Team>empty();
            Team before = tx.teams().find(id).orElseThrow();
            Team after = KeyRequests.team(before, body, false);
            tx.teams().update(after);
            tx.audit().record(actor, "team.update", "team", id, AuditLog.of(before), AuditLog.of(after));
            return Optional.of(after);
        }).onSuccess(x -> keysChanged.run());
    }

    /** A team with keys is not deleted (409): its keys would silently lose the team's limits. */
    public Future<Boolean> deleteTeam(Actor actor, String id) {
        return change(tx -> {
            Optional<Team> before = tx.teams().find(id);
            long members = tx.teams().keyCount(id);
            if (members > 0) {
                throw GatewayException.invalid("id", "Team '" + id + "' still has " + members
                        + " keys; move or delete them first.").withStatus(409).withCode("team_not_empty");
            }
            boolean deleted = tx.teams().delete(id);
            if (deleted) tx.audit().record(actor, "team.delete", "team", id, AuditLog.of(before.orElse(null)), null);
            return deleted;
        });
    }

    /** What {@code holder} has spent in the current span of {@code period}. */
    public long spentE10(String holder, BudgetPeriod period) {
        return spend.spentE10(holder, period.of(clock.instant()));
    }

    public Future<List<StoredKey>> listKeys() {
        return blocking.run(keys::list);
    }

    public Future<Optional<StoredKey>> findKey(String id) {
        return blocking.run(() -> keys.find(id));
    }

    /**
     * Applies the body's fields (settings and {@code disabled}) to the key as it is inside the transaction, its row
     * locked first: a revocation sent beside another edit is never undone by it. Empty when there is no such key.
     * Forgets cached keys before the caller hears of the change, so its next request sees it.
     */
    public Future<Optional<StoredKey>> patchKey(Actor actor, String id, ObjectNode body) {
        return patchKey(actor, id, body, KeyReach.ORG);
    }

    /** As {@link #patchKey(Actor, String, ObjectNode)}, for a principal whose key permission reaches {@code reach}. */
    public Future<Optional<StoredKey>> patchKey(Actor actor, String id, ObjectNode body, KeyReach reach) {
        return change(tx -> {
            Optional<StoredKey> found = reachable(tx, reach, id);
            if (found.isEmpty()) return Optional.<StoredKey>empty();
            StoredKey before = found.get();
            KeySettings settings = KeyRequests.patch(before.settings(), body, false);
            boolean disabled = KeyRequests.disabled(body, before.disabled());
            requireTeam(tx, settings.teamId());
            requirePlace(tx, reach, before.ownerUserId(), settings);
            tx.keys().update(id, settings, disabled);
            Optional<StoredKey> after = tx.keys().find(id);
            tx.audit().record(actor, "key.update", "key", id, AuditLog.of(before), AuditLog.of(after.orElse(null)));
            return after;
        }).onSuccess(x -> keysChanged.run());
    }

    /**
     * Gives the key a new secret (docs/operations/key-rotation.md): the body's {@code grace_seconds} (at least
     * {@link KeyLookups#FRESH}, so that no instance's cache can stretch it) is how long the current secret stays
     * accepted, by the injected clock; the key's id, settings, team, spend and ledger stay. Empty when there is no such
     * key. Forgets cached keys before the caller hears of it; other instances re-read within the cache's life.
     */
    public Future<Optional<KeyStore.CreatedKey>> rotateKey(Actor actor, String id, ObjectNode body) {
        return rotateKey(actor, id, body, KeyReach.ORG);
    }

    /** As {@link #rotateKey(Actor, String, ObjectNode)}, for a principal whose key permission reaches {@code reach}. */
    public Future<Optional<KeyStore.CreatedKey>> rotateKey(Actor actor, String id, ObjectNode body, KeyReach reach) {
        Duration grace = KeyRequests.rotationGrace(body, KeyLookups.FRESH);
        return change(tx -> {
            Optional<StoredKey> found = reachable(tx, reach, id);
            if (found.isEmpty()) return Optional.<KeyStore.CreatedKey>empty();
            StoredKey before = found.get();
            Optional<KeyStore.CreatedKey> rotated = tx.keys().rotate(id, clock.instant().plus(grace));
            tx.audit().record(actor, "key.rotate", "key", id, AuditLog.secrets(before), AuditLog.secrets(rotated.orElseThrow().key()));
            return rotated;
        }).onSuccess(x -> keysChanged.run());
    }

    public Future<Boolean> deleteKey(Actor actor, String id) {
        return deleteKey(actor, id, KeyReach.ORG);
    }

    /** As {@link #deleteKey(Actor, String)}, for a principal whose key permission reaches {@code reach}. */
    public Future<Boolean> deleteKey(Actor actor, String id, KeyReach reach) {
        return change(tx -> {
            Optional<StoredKey> before = reachable(tx, reach, id);
            boolean deleted = tx.keys().delete(id);
            if (deleted) tx.audit().record(actor, "key.delete", "key", id, AuditLog.of(before.orElse(null)), null);
            return deleted;
        }).onSuccess(x -> keysChanged.run());
    }

    // Scoped admin keys (docs/identity/admin-keys.md)

    /** A new admin key, its secret shown this once; a team scope must name a team that exists (400 naming {@code scope}). */
    public Future<AdminKey.Issued> createAdminKey(Actor actor, AdminKeyRequests.Spec spec) {
        return change(tx -> {
            String team = spec.scope().teamId();
            if (team != null && tx.teams().find(team).isEmpty()) {
                throw GatewayException.invalid("scope", "No team with id '" + team + "'.").withCode("team_not_found");
            }
            AdminKey.Issued issued = tx.adminKeys().create(spec.name(), spec.role(), spec.permissions(), spec.scope(),
                    spec.expiresAt(), actor.id(), clock.instant());
            tx.audit().record(actor, "admin_key.create", "admin_key", issued.key().id(), null, AuditLog.of(issued.key()));
            return issued;
        });
    }

    public Future<List<AdminKey>> listAdminKeys() {
        return blocking.run(() -> new AdminKeyStore(Sql.pool(db)).list());
    }

    public Future<Optional<AdminKey>> findAdminKey(String id) {
        return blocking.run(() -> new AdminKeyStore(Sql.pool(db)).find(id));
    }

    /** Its name, state ({@code disabled}) and expiry; empty when there is no such key. */
    public Future<Optional<AdminKey>> patchAdminKey(Actor actor, String id, ObjectNode body) {
        return change(tx -> {
            if (!tx.adminKeys().lock(id)) return Optional.<AdminKey>empty();
            AdminKey before = tx.adminKeys().find(id).orElseThrow();
            AdminKey after = AdminKeyRequests.patch(before, body);
            tx.adminKeys().update(id, after.name(), after.disabled(), after.expiresAt());
            tx.audit().record(actor, "admin_key.update", "admin_key", id, AuditLog.of(before), AuditLog.of(after));
            return Optional.of(after);
        }).onSuccess(x -> keysChanged.run());
    }

    /** A new secret, the current one accepted for {@code grace_seconds} more (at least {@link KeyLookups#FRESH}). */
    public Future<Optional<AdminKey.Issued>> rotateAdminKey(Actor actor, String id, ObjectNode body) {
        Duration grace = KeyRequests.rotationGrace(body, KeyLookups.FRESH);
        return change(tx -> {
            if (!tx.adminKeys().lock(id)) return Optional.<AdminKey.Issued>empty();
            AdminKey before = tx.adminKeys().find(id).orElseThrow();
            Optional<AdminKey.Issued> rotated = tx.adminKeys().rotate(id, clock.instant().plus(grace));
            tx.audit().record(actor, "admin_key.rotate", "admin_key", id, AuditLog.secrets(before.prefix(), before.previous()),
                    AuditLog.secrets(rotated.orElseThrow().key().prefix(), rotated.get().key().previous()));
            return rotated;
        }).onSuccess(x -> keysChanged.run());
    }

    public Future<Boolean> deleteAdminKey(Actor actor, String id) {
        return change(tx -> {
            Optional<AdminKey> before = tx.adminKeys().find(id);
            boolean deleted = tx.adminKeys().delete(id);
            if (deleted) tx.audit().record(actor, "admin_key.delete", "admin_key", id, AuditLog.of(before.orElse(null)), null);
            return deleted;
        }).onSuccess(x -> keysChanged.run());
    }

    /**
     * The break-glass master key used on an admin or console route ({@code route}: method and pattern): an audit
     * entry, written on a worker; the request does not wait for it, and a failure to write it is logged.
     */
    public void recordMasterKeyUse(Actor actor, String route) {
        blocking.run(() -> {
            audit.record(actor, AuditLog.MASTER_KEY_USE, "route", route, null, null);
            return null;
        }).onFailure(e -> LOG.warn("could not audit a use of the master key on {}: {}", route, e.toString()));
    }

    /** The newest entries ({@link AuditLog#list}); the master key's uses only when asked for. */
    public Future<List<AuditLog.Entry>> auditLog(int limit, String targetId, boolean masterKeyUses) {
        return blocking.run(() -> audit.list(limit, targetId, masterKeyUses));
    }

    public Future<List<UsageQuery.Group>> usage(UsageQuery query) {
        return blocking.run(() -> ledger.usage(query));
    }

    public long spentE10(String keyId) {
        return spend.spentE10(keyId);
    }

    public Future<List<RateDecision>> currentRates(List<RateScope> scopes) {
        return scopes.isEmpty() ? Future.succeededFuture(List.of()) : limiter.peek(scopes);
    }

    /** Prices the ledger rows of {@code [from, to)} again with the current prices (see {@link Repricing}). */
    public Future<Repricing.Result> reprice(Actor actor, Instant from, Instant to) {
        return blocking.run(() -> {
            Repricing.Result result = Repricing.run(db, prices, from, to);
            audit.record(actor, "reprice", "ledger", null, Json.MAPPER.createObjectNode().put("from", from.toString()).put("to", to.toString()),
                    result.json());
            return result;
        });
    }

    public Future<List<Alerts.Alert>> alerts(int limit) {
        return blocking.run(() -> alerts.list(limit));
    }

    public Future<AlertSettings> alertSettings() {
        return blocking.run(() -> AlertSettingsStore.read(Sql.pool(db)));
    }

    public Future<AlertSettings> updateAlertSettings(Actor actor, ObjectNode body) {
        return change(tx -> {
            AlertSettings before = AlertSettingsStore.read(tx.sql());
            AlertSettings after = before.patch(body);
            AlertSettingsStore.write(tx.sql(), after);
            tx.audit().record(actor, "alerts.update", "alerts", null, before.json(), after.json());
            return after;
        });
    }

    /** An applied configuration reload (docs/configuration.md, "Hot reload"): {@code change} summarizes what it changed. */
    public Future<Void> recordConfigReload(Actor actor, ObjectNode change) {
        return blocking.run(() -> {
            audit.record(actor, "config.reload", "config", null, null, change);
            return null;
        });
    }

    // People and groups (docs/identity/scim.md, docs/accounts.md "Users"): SCIM and the users admin API share these.

    /** What the role mappings in force give a person: the caller reads the rules at the request's time. */
    @FunctionalInterface
    public interface RoleRules {
        List<Grant> grants(Person person);
    }

    /** One page of a list and how many there are in all. */
    public record Page<T>(int total, List<T> items) {
    }

    public Future<Page<Person>> listPeople(UserStore.Field field, String value, int offset, int limit) {
        return blocking.run(() -> db.transaction(c -> {
            Tx tx = tx(Sql.in(c));
            List<Person> people = new ArrayList<>();
            for (User u : tx.users().list(field, value, offset, limit)) people.add(person(tx, u));
            return new Page<>(tx.users().count(field, value), people);
        }));
    }

    public Future<Optional<Person>> findPerson(String id) {
        return blocking.run(() -> db.transaction(c -> {
            Tx tx = tx(Sql.in(c));
            Optional<User> u = tx.users().find(id);
            return u.isEmpty() ? Optional.<Person>empty() : Optional.of(person(tx, u.get()));
        }));
    }

    /** A new user with {@code draft}'s fields (its id, grants and times are the store's); 409 on a taken user name. */
    public Future<Person> createPerson(Actor actor, Person draft, RoleRules rules) {
        return change(tx -> {
            User d = draft.user();
            requireFreeUserName(tx, d.userName(), null);
            User created = tx.users().create(d.userName(), d.email(), d.displayName(), d.externalId(), List.of(), clock.instant());
            tx.users().setNames(created.id(), draft.givenName(), draft.familyName());
            Person person = person(tx, created);
            User stored = withGrants(person.user(), d.active(), rules.grants(person));
            tx.users().update(stored, clock.instant());
            Person after = person(tx, stored);
            tx.audit().record(actor, "user.create", "user", created.id(), null, json(after, List.of()));
            return after;
        });
    }

    /**
     * Applies {@code edit} to the user as it is inside the transaction, its row locked first; recomputes its grants.
     * Deactivating it disables every key it owns (marked as disabled with it), reactivating it enables those again,
     * and the cached keys are forgotten before the caller hears of it, so its next request with such a key is refused
     * (docs/identity/scim.md, "Deactivation"). Empty when there is no such user; 409 on a taken user name.
     */
    public Future<Optional<Person>> editPerson(Actor actor, String id, UnaryOperator<Person> edit, RoleRules rules) {
        return change(tx -> {
            if (!tx.users().lock(id)) return Optional.<Person>empty();
            Person before = person(tx, tx.users().find(id).orElseThrow());
            Person edited = edit.apply(before);
            User e = edited.user();
            requireFreeUserName(tx, e.userName(), id);
            tx.users().setNames(id, edited.givenName(), edited.familyName());
            User stored = withGrants(e, e.active(), rules.grants(edited));
            tx.users().update(stored, clock.instant());
            String action = "user.update";
            List<String> keysChanged = List.of();
            if (before.user().active() && !stored.active()) {
                action = "user.deactivate";
                keysChanged = tx.keys().disableOwnedBy(id);
            } else if (!before.user().active() && stored.active()) {
                action = "user.reactivate";
                keysChanged = tx.keys().enableDisabledWithUser(id);
            }
            Person after = person(tx, tx.users().find(id).orElseThrow());
            tx.audit().record(actor, action, "user", id, json(before, List.of()), json(after, keysChanged));
            return Optional.of(after);
        }).onSuccess(x -> keysChanged.run());
    }

    /** Deletes the user, its group memberships and identities, and disables every key it owns, for good. */
    public Future<Boolean> deletePerson(Actor actor, String id) {
        return change(tx -> {
            if (!tx.users().lock(id)) return false;
            Person before = person(tx, tx.users().find(id).orElseThrow());
            List<String> disabled = tx.keys().disableOwnedBy(id);
            tx.groups().forgetUser(id);
            tx.users().delete(id);
            tx.audit().record(actor, "user.delete", "user", id, json(before, List.of()),
                    Json.MAPPER.createObjectNode().set("keys_disabled", Json.MAPPER.valueToTree(disabled)));
            return true;
        }).onSuccess(x -> keysChanged.run());
    }

    public Future<Page<Group>> listGroups(String displayName, int offset, int limit) {
        return blocking.run(() -> db.transaction(c -> {
            GroupStore groups = new GroupStore(Sql.in(c));
            return new Page<>(groups.count(displayName), groups.list(displayName, offset, limit));
        }));
    }

    public Future<Optional<Group>> findGroup(String id) {
        return blocking.run(() -> new GroupStore(Sql.pool(db)).find(id));
    }

    /** A new group; 409 on a taken display name, 400 naming a member that is no user. Its members' grants are recomputed. */
    public Future<Group> createGroup(Actor actor, Group draft, RoleRules rules) {
        return change(tx -> {
            requireFreeGroupName(tx, draft.displayName(), null);
            requireUsers(tx, draft.members());
            Group group = tx.groups().create(draft.displayName(), draft.externalId(), draft.members(), clock.instant());
            regrant(tx, Set.copyOf(group.members()), rules);
            tx.audit().record(actor, "group.create", "group", group.id(), null, json(group));
            return group;
        });
    }

    /** Applies {@code edit} to the group as it is inside the transaction; the grants of its members before and after are recomputed. */
    public Future<Optional<Group>> editGroup(Actor actor, String id, UnaryOperator<Group> edit, RoleRules rules) {
        return change(tx -> {
            if (!tx.groups().lock(id)) return Optional.<Group>empty();
            Group before = tx.groups().find(id).orElseThrow();
            Group edited = edit.apply(before);
            requireFreeGroupName(tx, edited.displayName(), id);
            requireUsers(tx, edited.members());
            tx.groups().update(edited, clock.instant());
            Set<String> affected = new LinkedHashSet<>(before.members());
            affected.addAll(edited.members());
            regrant(tx, affected, rules);
            Group after = tx.groups().find(id).orElseThrow();
            tx.audit().record(actor, "group.update", "group", id, json(before), json(after));
            return Optional.of(after);
        });
    }

    public Future<Boolean> deleteGroup(Actor actor, String id, RoleRules rules) {
        return change(tx -> {
            Optional<Group> before = tx.groups().find(id);
            if (before.isEmpty() || !tx.groups().delete(id)) return false;
            regrant(tx, Set.copyOf(before.get().members()), rules);
            tx.audit().record(actor, "group.delete", "group", id, json(before.get()), null);
            return true;
        });
    }

    private Tx tx(Sql sql) {
        return new Tx(sql, new KeyStore(sql), new TeamStore(sql), new AuditLog(sql), new UserStore(sql), new GroupStore(sql),
                new AdminKeyStore(sql));
    }

    private static Person person(Tx tx, User u) throws SQLException {
        String[] names = tx.users().names(u.id());
        return new Person(u, names[0], names[1], tx.groups().groupsOf(u.id()));
    }

    private static User withGrants(User u, boolean active, List<Grant> grants) {
        return new User(u.id(), u.userName(), u.email(), u.displayName(), u.externalId(), active, grants, u.createdAt(), u.updatedAt());
    }

    /** Stores the grants the rules in force give each of {@code userIds} now. */
    private void regrant(Tx tx, Set<String> userIds, RoleRules rules) throws SQLException {
        for (String id : userIds) {
            Optional<User> u = tx.users().find(id);
            if (u.isEmpty()) continue;
            Person p = person(tx, u.get());
            tx.users().update(withGrants(u.get(), u.get().active(), rules.grants(p)), clock.instant());
        }
    }

    /** RFC 7644 §3.3: a taken {@code userName} is a 409 with {@code scimType} {@code uniqueness}. */
    private static void requireFreeUserName(Tx tx, String userName, String self) throws SQLException {
        for (User u : tx.users().list(UserStore.Field.USER_NAME, userName, 0, 2)) {
            if (!u.id().equals(self)) {
                throw GatewayException.invalid("userName", "The userName '" + userName + "' is taken.").withStatus(409).withCode("uniqueness");
            }
        }
    }

    private static void requireFreeGroupName(Tx tx, String displayName, String self) throws SQLException {
        Optional<Group> taken = tx.groups().findByName(displayName);
        if (taken.isPresent() && !taken.get().id().equals(self)) {
            throw GatewayException.invalid("displayName", "The group displayName '" + displayName + "' is taken.").withStatus(409).withCode("uniqueness");
        }
    }

    private static void requireUsers(Tx tx, List<String> ids) throws SQLException {
        Set<String> found = tx.groups().existingUsers(ids);
        for (String id : ids) {
            if (!found.contains(id)) throw GatewayException.invalid("members", "No user with id '" + id + "'.").withCode("invalidValue");
        }
    }

    /** A user as the audit log keeps it; {@code keys} the platform keys the change disabled or enabled. */
    private static ObjectNode json(Person p, List<String> keys) {
        User u = p.user();
        ObjectNode o = Json.MAPPER.createObjectNode().put("user_name", u.userName()).put("email", u.email())
                .put("display_name", u.displayName()).put("external_id", u.externalId()).put("active", u.active());
        o.set("groups", Json.MAPPER.valueToTree(p.groupNames()));
        o.set("grants", Json.MAPPER.valueToTree(u.grants().stream().map(Grant::label).toList()));
        if (!keys.isEmpty()) o.set("keys", Json.MAPPER.valueToTree(keys));
        return o;
    }

    private static ObjectNode json(Group g) {
        ObjectNode o = Json.MAPPER.createObjectNode().put("display_name", g.displayName()).put("external_id", g.externalId());
        o.set("members", Json.MAPPER.valueToTree(g.members()));
        return o;
    }
}
