package dev.modelgateway.accounts;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.accounts.audit.AlertSettings;
import dev.modelgateway.accounts.audit.AlertSettingsStore;
import dev.modelgateway.accounts.audit.Alerts;
import dev.modelgateway.access.Actor;
import dev.modelgateway.accounts.audit.AuditLog;
import dev.modelgateway.accounts.keys.AdminKey;
import dev.modelgateway.accounts.keys.AdminKeyRequests;
import dev.modelgateway.accounts.keys.AdminKeyStore;
import dev.modelgateway.accounts.keys.BudgetPeriod;
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
import java.util.List;
import java.util.Optional;

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
    private record Tx(Sql sql, KeyStore keys, TeamStore teams, AuditLog audit, AdminKeyStore adminKeys) {}

    @FunctionalInterface
    private interface Change<T> {
        T apply(Tx tx) throws SQLException;
    }

    private <T> Future<T> change(Change<T> work) {
        return blocking.run(() -> db.transaction(c -> {
            Sql sql = Sql.in(c);
            return work.apply(new Tx(sql, new KeyStore(sql), new TeamStore(sql), new AuditLog(sql), new AdminKeyStore(sql)));
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
            audit.record(actor, "master_key.use", "route", route, null, null);
            return null;
        }).onFailure(e -> LOG.warn("could not audit a use of the master key on {}: {}", route, e.toString()));
    }

    public Future<List<AuditLog.Entry>> auditLog(int limit, String targetId) {
        return blocking.run(() -> audit.list(limit, targetId));
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
}
