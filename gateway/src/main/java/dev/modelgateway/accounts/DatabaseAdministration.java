package dev.modelgateway.accounts;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.accounts.audit.AlertSettings;
import dev.modelgateway.accounts.audit.AlertSettingsStore;
import dev.modelgateway.accounts.audit.Alerts;
import dev.modelgateway.access.Actor;
import dev.modelgateway.accounts.audit.AuditLog;
import dev.modelgateway.accounts.keys.KeyRequests;
import dev.modelgateway.accounts.keys.KeySettings;
import dev.modelgateway.accounts.keys.KeyStore;
import dev.modelgateway.accounts.keys.StoredKey;
import dev.modelgateway.accounts.keys.Team;
import dev.modelgateway.accounts.keys.TeamStore;
import dev.modelgateway.accounts.ledger.Ledger;
import dev.modelgateway.accounts.ledger.LedgerJournal;
import dev.modelgateway.accounts.ledger.PriceTables;
import dev.modelgateway.accounts.ledger.Repricing;
import dev.modelgateway.catalogue.PriceBook;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Json;
import dev.modelgateway.store.Database;
import dev.modelgateway.store.Sql;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The administrator's operations straight on the accounts database, blocking, for {@code ./gw keys} when no server
 * runs or before the first admin key exists. Each change commits with its audit entry; a running server sees it
 * within {@link KeyLookups#FRESH}.
 */
public final class DatabaseAdministration implements AutoCloseable {
    /** What {@link #deleteTeam} did. */
    public enum TeamDeletion { DELETED, NOT_FOUND, HAS_KEYS }

    @FunctionalInterface
    private interface Change<T> {
        T apply(Sql sql, KeyStore keys, TeamStore teams, AuditLog audit) throws SQLException;
    }

    private final Database db;

    private DatabaseAdministration(Database db) {
        this.db = db;
    }

    /** Opens the accounts database, running its migrations. */
    public static DatabaseAdministration open(AccountsConfig config) throws SQLException {
        return new DatabaseAdministration(Database.open(config.databaseUrl(), Accounts.SCHEMA));
    }

    /** What {@link #replayJournal} did: the segments of this database read, their rows, and how many were new. */
    public record JournalReplay(int segments, long rows, long added) {
    }

    /**
     * Writes the rows of the ledger journal in {@code dir} that this database lacks (docs/operations/backup-and-restore.md):
     * every segment kept there for it, written ones included ({@code accounts.ledger_journal_keep_hours}), rows it has
     * skipped by their id and counted once in the spend. Safe beside running gateways, and to run again.
     */
    public JournalReplay replayJournal(Path dir) throws SQLException, IOException {
        if (!Files.isDirectory(dir)) throw new NoSuchFileException(dir.toString(), null, "no ledger journal directory");
        Ledger ledger = new Ledger(db);
        LedgerJournal.Replayed done = LedgerJournal.replayAll(dir, ledger.identity(), ledger::append);
        return new JournalReplay(done.segments(), done.rows(), done.added());
    }

    /** One transaction: a change and its audit entry commit together. */
    private <T> T change(Change<T> work) throws SQLException {
        return db.transaction(c -> {
            Sql sql = Sql.in(c);
            return work.apply(sql, new KeyStore(sql), new TeamStore(sql), new AuditLog(sql));
        });
    }

    /** The new key, or empty when its team does not exist. */
    public Optional<KeyStore.CreatedKey> createKey(Actor actor, KeySettings settings) throws SQLException {
        return change((sql, keys, teams, audit) -> {
            if (settings.teamId() != null && teams.find(settings.teamId()).isEmpty()) return Optional.empty();
            KeyStore.CreatedKey created = keys.create(settings, false);
            audit.record(actor, "key.create", "key", created.key().id(), null, AuditLog.of(created.key()));
            return Optional.of(created);
        });
    }

    public List<StoredKey> listKeys() throws SQLException {
        return new KeyStore(Sql.pool(db)).list();
    }

    /** What each key has spent over its lifetime, in 1e-10 USD. */
    public Map<String, Long> spentByKey() throws SQLException {
        return db.call(c -> {
            try (var ps = c.prepareStatement("SELECT id, spent_usd_e10 FROM api_keys"); var rs = ps.executeQuery()) {
                Map<String, Long> byKey = new HashMap<>();
                while (rs.next()) byKey.put(rs.getString(1), rs.getLong(2));
                return byKey;
            }
        });
    }

    /** Disables or enables a key; empty when there is none with this id. */
    public Optional<StoredKey> setDisabled(Actor actor, String id, boolean disabled) throws SQLException {
        return change((sql, keys, teams, audit) -> {
            if (!keys.lock(id)) return Optional.<StoredKey>empty(); // a concurrent admin change stays
            Optional<StoredKey> key = keys.find(id);
            keys.update(id, key.get().settings(), disabled);
            audit.record(actor, "key.update", "key", id, AuditLog.of(key.get()), AuditLog.of(keys.find(id).orElse(null)));
            return key;
        });
    }

    /**
     * Gives the key a new secret, its current one accepted for {@code body}'s {@code grace_seconds} more, as
     * {@link Administration#rotateKey} does; empty when there is none with this id. A running gateway sees it within
     * {@link KeyLookups#FRESH}, never later than the grace's end.
     */
    public Optional<KeyStore.CreatedKey> rotateKey(Actor actor, String id, ObjectNode body) throws SQLException {
        Duration grace = KeyRequests.rotationGrace(body, KeyLookups.FRESH);
        return change((sql, keys, teams, audit) -> {
            if (!keys.lock(id)) return Optional.<KeyStore.CreatedKey>empty();
            StoredKey before = keys.find(id).orElseThrow();
            Optional<KeyStore.CreatedKey> rotated = keys.rotate(id, Instant.now().plus(grace));
            audit.record(actor, "key.rotate", "key", id, AuditLog.secrets(before), AuditLog.secrets(rotated.orElseThrow().key()));
            return rotated;
        });
    }

    /** The deleted key; empty when there is none with this id. */
    public Optional<StoredKey> deleteKey(Actor actor, String id) throws SQLException {
        return change((sql, keys, teams, audit) -> {
            Optional<StoredKey> key = keys.find(id);
            if (key.isEmpty()) return key;
            keys.delete(id);
            audit.record(actor, "key.delete", "key", id, AuditLog.of(key.get()), null);
            return key;
        });
    }

    public Team createTeam(Actor actor, Team settings) throws SQLException {
        return change((sql, keys, teams, audit) -> {
            Team team = teams.create(settings);
            audit.record(actor, "team.create", "team", team.id(), null, AuditLog.of(team));
            return team;
        });
    }

    public List<Team> listTeams() throws SQLException {
        return new TeamStore(Sql.pool(db)).list();
    }

    /** A team with keys stays: its keys would silently lose the team's limits. */
    public TeamDeletion deleteTeam(Actor actor, String id) throws SQLException {
        return change((sql, keys, teams, audit) -> {
            Optional<Team> team = teams.find(id);
            if (team.isEmpty()) return TeamDeletion.NOT_FOUND;
            if (teams.keyCount(id) > 0) return TeamDeletion.HAS_KEYS;
            teams.delete(id);
            audit.record(actor, "team.delete", "team", id, AuditLog.of(team.get()), null);
            return TeamDeletion.DELETED;
        });
    }

    public List<AuditLog.Entry> auditLog(int limit, String targetId) throws SQLException {
        return new AuditLog(Sql.pool(db)).list(limit, targetId, true);
    }

    /**
     * Prices the ledger rows of {@code [from, to)} again with {@code prices} (see {@link Repricing}), which must be the
     * table the gateway prices with: the command's own configuration (another file, or none: the shipped prices)
     * would otherwise silently undo the operator's configured prices, spend and budgets included. A 400 naming
     * {@code --config} when they differ, before anything is changed.
     */
    public Repricing.Result reprice(Actor actor, PriceBook prices, Instant from, Instant to) throws SQLException {
        Optional<PriceTables.InForce> gateway = PriceTables.inForce(db);
        if (gateway.isPresent() && !gateway.get().version().equals(prices.version())) {
            throw GatewayException.invalid("config", "The gateway prices with price table " + gateway.get().version()
                    + " (since " + gateway.get().since() + ") but this command's configuration gives " + prices.version()
                    + ": nothing was repriced. Run it with the gateway's configuration (--config FILE, and the same"
                    + " environment), or use POST /api/v1/admin/reprice on the running gateway.");
        }
        Repricing.Result result = Repricing.run(db, prices, from, to);
        new AuditLog(Sql.pool(db)).record(actor, "reprice", "ledger", null,
                Json.MAPPER.createObjectNode().put("from", from.toString()).put("to", to.toString()), result.json());
        return result;
    }

    public AlertSettings alertSettings() throws SQLException {
        return AlertSettingsStore.read(Sql.pool(db));
    }

    public List<Alerts.Alert> alerts(int limit) throws SQLException {
        return new Alerts(Sql.pool(db)).list(limit);
    }

    @Override
    public void close() {
        db.close();
    }
}
