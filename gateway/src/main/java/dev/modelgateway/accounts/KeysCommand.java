package dev.modelgateway.accounts;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.accounts.audit.AlertSettings;
import dev.modelgateway.accounts.audit.AlertSettingsStore;
import dev.modelgateway.accounts.audit.Alerts;
import dev.modelgateway.accounts.audit.AuditLog;
import dev.modelgateway.accounts.keys.KeyRequests;
import dev.modelgateway.accounts.keys.KeySettings;
import dev.modelgateway.accounts.keys.KeyStore;
import dev.modelgateway.accounts.keys.ModelLimit;
import dev.modelgateway.accounts.keys.StoredKey;
import dev.modelgateway.accounts.keys.Team;
import dev.modelgateway.accounts.keys.TeamStore;
import dev.modelgateway.accounts.ledger.Money;
import dev.modelgateway.accounts.ledger.Repricing;
import dev.modelgateway.catalogue.PriceBook;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Json;
import dev.modelgateway.store.Database;
import dev.modelgateway.store.Sql;
import org.slf4j.LoggerFactory;

import java.io.PrintStream;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code gateway keys ...}: key administration straight against the database, for when no server
 * runs or before the first admin key exists. A running server sees changes within
 * {@link Accounts#KEY_CACHE_TTL}.
 */
public final class KeysCommand {
    static final int OK = 0;
    static final int FAILED = 1;
    static final int USAGE = 2;

    private static final String HELP = """
            usage: keys create --name NAME [--models GLOB,GLOB] [--rpm N] [--tpm N] [--model-limits JSON]
                               [--budget USD] [--expires ISO-8601|DATE|EPOCH_SECONDS] [--max-concurrent N]
                     --max-concurrent N: calls in flight at once (default: the gateway's accounts.default_max_concurrent)
                     --model-limits '{"platform/vendorA-*": {"rpm": 10, "tpm": 50000}}': limits per model glob, on top of --rpm/--tpm
                     --team TEAM_ID: the key shares the team's allow-list, limits and budget
                     --budget-period day|week|month|lifetime: the span --budget counts over (UTC calendar; default lifetime)
                   keys list
                   keys disable ID | keys enable ID | keys delete ID
                   keys teams create --name NAME [--models GLOB,GLOB] [--rpm N] [--tpm N] [--budget USD] [--budget-period P]
                   keys teams list | keys teams delete TEAM_ID
                   keys audit [--limit N] [--target ID]      the audit log of admin changes, newest first
                   keys reprice --from TIME --to TIME        re-price the ledger rows of [from, to) with the current prices
                   keys alerts                               alerts (budget thresholds, unpriced models) and their delivery""";
    private static final Map<String, String> CREATE_FLAGS = Map.of("--name", "name", "--models", "models",
            "--rpm", "rpm", "--tpm", "tpm", "--model-limits", "model_limits", "--budget", "budget_usd", "--expires", "expires_at",
            "--max-concurrent", "max_concurrent", "--team", "team_id", "--budget-period", "budget_period");
    private static final Map<String, String> TEAM_FLAGS = Map.of("--name", "name", "--models", "models",
            "--rpm", "rpm", "--tpm", "tpm", "--budget", "budget_usd", "--budget-period", "budget_period");

    private KeysCommand() {}

    /**
     * Runs one command; {@code args} may start with the word {@code keys}. Returns the process exit code. Changes
     * are written to the audit log as made by {@code cli:<OS user>}; {@code prices} serve {@code reprice}.
     */
    public static int run(String[] args, AccountsConfig cfg, PriceBook prices, PrintStream out) {
        List<String> a = Arrays.asList(args);
        if (!a.isEmpty() && a.getFirst().equals("keys")) a = a.subList(1, a.size());
        if (a.isEmpty()) return usage(out, null);
        String command = a.getFirst();
        List<String> rest = a.subList(1, a.size());
        quietStoreLogs();
        try (Database db = Database.open(cfg.databaseUrl(), Accounts.SCHEMA)) {
            if (command.equals("reprice")) return reprice(db, prices, new AuditLog(Sql.pool(db)), rest, out);
            // one transaction: a change and its audit entry commit together
            return db.transaction(c -> {
                Sql sql = Sql.in(c);
                KeyStore keys = new KeyStore(sql);
                TeamStore teams = new TeamStore(sql);
                AuditLog audit = new AuditLog(sql);
                return switch (command) {
                    case "create" -> create(keys, teams, audit, rest, out);
                    case "list" -> rest.isEmpty() ? list(keys, sql, out) : usage(out, "list takes no arguments");
                    case "disable", "enable", "delete" -> rest.size() == 1 ? change(keys, audit, command, rest.getFirst(), out)
                            : usage(out, command + " takes one key id");
                    case "teams" -> teams(teams, audit, rest, out);
                    case "audit" -> audit(audit, rest, out);
                    case "alerts" -> rest.isEmpty() ? alerts(sql, out) : usage(out, "alerts takes no arguments");
                    default -> usage(out, "unknown command '" + command + "'");
                };
            });
        } catch (GatewayException e) {
            out.println("error: " + e.getMessage());
            return USAGE;
        } catch (SQLException | RuntimeException e) {
            out.println("error: " + e.getMessage());
            return FAILED;
        }
    }

    /** The flags as a JSON body, or null (after printing the usage) for a bad one. */
    private static ObjectNode flags(List<String> args, Map<String, String> known, PrintStream out) {
        ObjectNode body = Json.MAPPER.createObjectNode();
        for (int i = 0; i < args.size(); i += 2) {
            String field = known.get(args.get(i));
            if (field == null || i + 1 >= args.size()) {
                usage(out, "bad argument '" + args.get(i) + "'");
                return null;
            }
            body.put(field, args.get(i + 1));
        }
        return body;
    }

    private static int create(KeyStore keys, TeamStore teams, AuditLog audit, List<String> args, PrintStream out)
            throws SQLException {
        ObjectNode body = flags(args, CREATE_FLAGS, out);
        if (body == null) return USAGE;
        KeySettings settings = KeyRequests.create(body);
        if (settings.teamId() != null && teams.find(settings.teamId()).isEmpty()) {
            out.println("error: no team with id '" + settings.teamId() + "'");
            return FAILED;
        }
        KeyStore.CreatedKey created = keys.create(settings);
        audit.record(actor(), "key.create", "key", created.key().id(), null, AuditLog.of(created.key()));
        out.println("id:   " + created.key().id());
        out.println("name: " + created.key().settings().name());
        out.println("key:  " + created.secret());
        out.println("Keep the key now: it is shown only this once (only its hash is stored).");
        return OK;
    }

    private static int list(KeyStore keys, Sql sql, PrintStream out) throws SQLException {
        Map<String, Long> spent = sql.call(c -> {
            try (var ps = c.prepareStatement("SELECT id, spent_usd_e10 FROM api_keys"); var rs = ps.executeQuery()) {
                Map<String, Long> byKey = new HashMap<>();
                while (rs.next()) byKey.put(rs.getString(1), rs.getLong(2));
                return byKey;
            }
        });
        String format = "%-20s %-20s %-10s %-28s %8s %10s %10s %12s %14s %-20s %s%n";
        out.printf(format, "ID", "NAME", "PREFIX", "MODELS", "RPM", "TPM", "CONCURRENT", "BUDGET_USD", "SPENT_USD", "EXPIRES",
                "STATUS");
        for (StoredKey k : keys.list()) {
            KeySettings s = k.settings();
            out.printf(format, k.id(), s.name(), k.prefix(), s.allowedModels().isEmpty() ? "*" : String.join(",", s.allowedModels()),
                    orDash(s.rpm()), orDash(s.tpm()), s.maxConcurrent() == null ? "default" : s.maxConcurrent(), s.budgetUsd() == null ? "-" : s.budgetUsd().toPlainString(),
                    Money.text(spent.getOrDefault(k.id(), 0L)), orDash(s.expiresAt()), k.disabled() ? "disabled" : "active");
            for (ModelLimit l : s.modelLimits()) {
                out.printf("%-20s   models %s: rpm %s, tpm %s%n", "", l.models(), orDash(l.rpm()), orDash(l.tpm()));
            }
        }
        return OK;
    }

    private static int teams(TeamStore teams, AuditLog audit, List<String> args, PrintStream out) throws SQLException {
        String sub = args.isEmpty() ? "" : args.getFirst();
        List<String> rest = args.isEmpty() ? args : args.subList(1, args.size());
        switch (sub) {
            case "create" -> {
                ObjectNode body = flags(rest, TEAM_FLAGS, out);
                if (body == null) return USAGE;
                Team team = teams.create(KeyRequests.createTeam(body));
                audit.record(actor(), "team.create", "team", team.id(), null, AuditLog.of(team));
                out.println("id:   " + team.id());
                out.println("name: " + team.name());
                return OK;
            }
            case "list" -> {
                String format = "%-22s %-20s %-28s %8s %10s %12s %-9s%n";
                out.printf(format, "ID", "NAME", "MODELS", "RPM", "TPM", "BUDGET_USD", "PERIOD");
                for (Team t : teams.list()) {
                    out.printf(format, t.id(), t.name(), t.allowedModels().isEmpty() ? "*" : String.join(",", t.allowedModels()),
                            orDash(t.rpm()), orDash(t.tpm()), t.budgetUsd() == null ? "-" : t.budgetUsd().toPlainString(),
                            t.budgetPeriod().wire);
                }
                return OK;
            }
            case "delete" -> {
                if (rest.size() != 1) return usage(out, "teams delete takes one team id");
                Optional<Team> team = teams.find(rest.getFirst());
                if (team.isEmpty()) {
                    out.println("error: no team with id '" + rest.getFirst() + "'");
                    return FAILED;
                }
                if (teams.keyCount(team.get().id()) > 0) {
                    out.println("error: team '" + team.get().id() + "' still has keys; move or delete them first");
                    return FAILED;
                }
                teams.delete(team.get().id());
                audit.record(actor(), "team.delete", "team", team.get().id(), AuditLog.of(team.get()), null);
                out.println("deleted " + team.get().id());
                return OK;
            }
            default -> {
                return usage(out, "teams takes create, list or delete");
            }
        }
    }

    private static int audit(AuditLog audit, List<String> args, PrintStream out) throws SQLException {
        ObjectNode body = flags(args, Map.of("--limit", "limit", "--target", "target"), out);
        if (body == null) return USAGE;
        Long limit = KeyRequests.limit("limit", body.get("limit"));
        for (AuditLog.Entry e : audit.list(limit == null ? 50 : (int) Math.min(limit, 1000), body.path("target").textValue())) {
            out.printf("%s  %-22s %-14s %-22s before=%s after=%s%n", e.at(), e.actor(), e.action(),
                    e.targetId() == null ? "-" : e.targetId(), e.beforeJson() == null ? "-" : e.beforeJson(),
                    e.afterJson() == null ? "-" : e.afterJson());
        }
        return OK;
    }

    private static int reprice(Database db, PriceBook prices, AuditLog audit, List<String> args, PrintStream out)
            throws SQLException {
        ObjectNode body = flags(args, Map.of("--from", "from", "--to", "to"), out);
        if (body == null) return USAGE;
        if (!body.has("from") || !body.has("to")) return usage(out, "reprice needs --from and --to");
        Instant from = KeyRequests.instant("from", body.get("from"));
        Instant to = KeyRequests.instant("to", body.get("to"));
        if (!from.isBefore(to)) return usage(out, "--from must be before --to");
        Repricing.Result r = Repricing.run(db, prices, from, to);
        audit.record(actor(), "reprice", "ledger", null, Json.MAPPER.createObjectNode().put("from", from.toString()).put("to", to.toString()),
                r.json());
        out.println(r.json().toPrettyString());
        return OK;
    }

    private static int alerts(Sql sql, PrintStream out) throws SQLException {
        AlertSettings settings = AlertSettingsStore.read(sql);
        out.println("webhook: " + (settings.webhookUrl() == null ? "- (alerts are kept until one is set)" : settings.webhookUrl())
                + ", thresholds: " + settings.thresholds());
        String format = "%-26s %-14s %-24s %-12s %5s %-10s %8s %s%n";
        out.printf(format, "CREATED", "KIND", "HOLDER", "PERIOD", "PCT", "STATE", "ATTEMPTS", "LAST_ERROR");
        for (Alerts.Alert a : new Alerts(sql).list(100)) {
            out.printf(format, a.createdAt(), a.kind(), a.holder(), a.period(), a.threshold(), a.state(), a.attempts(),
                    a.lastError() == null ? "-" : a.lastError());
        }
        return OK;
    }

    /** The CLI's actor in the audit log: whoever runs it on this machine. */
    private static String actor() {
        return "cli:" + System.getProperty("user.name", "unknown");
    }

    private static int change(KeyStore keys, AuditLog audit, String command, String id, PrintStream out) throws SQLException {
        Optional<StoredKey> key = keys.find(id);
        if (key.isEmpty()) {
            out.println("error: no key with id '" + id + "'");
            return FAILED;
        }
        if (command.equals("delete")) {
            keys.delete(id);
            audit.record(actor(), "key.delete", "key", id, AuditLog.of(key.get()), null);
        } else {
            keys.update(id, key.get().settings(), command.equals("disable"));
            audit.record(actor(), "key.update", "key", id, AuditLog.of(key.get()), AuditLog.of(keys.find(id).orElse(null)));
        }
        out.println(command + "d " + id);
        return OK;
    }

    /** The command's output is its answer (a key to copy), not the pool's and the migrator's progress reports. */
    private static void quietStoreLogs() {
        for (String name : List.of("com.zaxxer.hikari", "org.flywaydb")) {
            if (LoggerFactory.getLogger(name) instanceof ch.qos.logback.classic.Logger logger) {
                logger.setLevel(ch.qos.logback.classic.Level.WARN);
            }
        }
    }

    private static String orDash(Object v) {
        return v == null ? "-" : v.toString();
    }

    private static int usage(PrintStream out, String problem) {
        if (problem != null) out.println("error: " + problem);
        out.println(HELP);
        return USAGE;
    }
}
