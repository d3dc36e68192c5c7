package dev.modelgateway.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.accounts.AccountsConfig;
import dev.modelgateway.accounts.DatabaseAdministration;
import dev.modelgateway.accounts.audit.AlertSettings;
import dev.modelgateway.accounts.audit.Alerts;
import dev.modelgateway.accounts.audit.AuditLog;
import dev.modelgateway.accounts.keys.KeyRequests;
import dev.modelgateway.accounts.keys.KeySettings;
import dev.modelgateway.accounts.keys.KeyStore;
import dev.modelgateway.accounts.keys.ModelLimit;
import dev.modelgateway.accounts.keys.StoredKey;
import dev.modelgateway.accounts.keys.Team;
import dev.modelgateway.accounts.ledger.Money;
import dev.modelgateway.accounts.ledger.Repricing;
import dev.modelgateway.catalogue.PriceBook;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Json;
import dev.modelgateway.access.Actor;
import org.slf4j.LoggerFactory;

import java.io.PrintStream;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code gateway keys ...}: key administration straight against the database ({@link DatabaseAdministration}),
 * for when no server runs or before the first admin key exists.
 */
public final class KeysCommand {
    public static final int OK = 0;
    public static final int FAILED = 1;
    public static final int USAGE = 2;

    private static final String HELP = """
            usage: keys create --name NAME [--models GLOB,GLOB] [--rpm N] [--tpm N] [--model-limits JSON]
                               [--budget USD] [--expires ISO-8601|DATE|EPOCH_SECONDS] [--max-concurrent N]
                     --max-concurrent N: calls in flight at once (default: the gateway's accounts.default_max_concurrent)
                     --model-limits '{"platform/vendorA-*": {"rpm": 10, "tpm": 50000}}': limits per model glob, on top of --rpm/--tpm
                     --team TEAM_ID: the key shares the team's allow-list, limits and budget
                     --budget-period day|week|month|lifetime: the span --budget counts over (UTC calendar; default lifetime)
                   keys list
                   keys disable ID | keys enable ID | keys delete ID
                   keys rotate ID [--grace-seconds N]        a new secret for the key; the old one accepted N s more
                     (default 86400, a day; from 5 to 2592000)
                   keys teams create --name NAME [--models GLOB,GLOB] [--rpm N] [--tpm N] [--budget USD] [--budget-period P]
                   keys teams list | keys teams delete TEAM_ID
                   keys audit [--limit N] [--target ID]      the audit log of admin changes, newest first
                   keys reprice --from TIME --to TIME        re-price the ledger rows of [from, to) with the gateway's prices
                     (give the gateway's --config: a table other than the one the gateway prices with is refused)
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
        try (DatabaseAdministration accounts = DatabaseAdministration.open(cfg)) {
            return switch (command) {
                case "create" -> create(accounts, rest, out);
                case "list" -> rest.isEmpty() ? list(accounts, out) : usage(out, "list takes no arguments");
                case "disable", "enable", "delete" -> rest.size() == 1 ? change(accounts, command, rest.getFirst(), out)
                        : usage(out, command + " takes one key id");
                case "rotate" -> rotate(accounts, rest, out);
                case "teams" -> teams(accounts, rest, out);
                case "audit" -> audit(accounts, rest, out);
                case "reprice" -> reprice(accounts, prices, rest, out);
                case "alerts" -> rest.isEmpty() ? alerts(accounts, out) : usage(out, "alerts takes no arguments");
                default -> usage(out, "unknown command '" + command + "'");
            };
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

    private static int create(DatabaseAdministration accounts, List<String> args, PrintStream out) throws SQLException {
        ObjectNode body = flags(args, CREATE_FLAGS, out);
        if (body == null) return USAGE;
        KeySettings settings = KeyRequests.create(body);
        Optional<KeyStore.CreatedKey> made = accounts.createKey(actor(), settings);
        if (made.isEmpty()) {
            out.println("error: no team with id '" + settings.teamId() + "'");
            return FAILED;
        }
        KeyStore.CreatedKey created = made.get();
        out.println("id:   " + created.key().id());
        out.println("name: " + created.key().settings().name());
        out.println("key:  " + created.secret());
        out.println("Keep the key now: it is shown only this once (only its hash is stored).");
        return OK;
    }

    /** {@code rotate ID [--grace-seconds N]}: the new secret, shown this once, and the old one's last instant. */
    private static int rotate(DatabaseAdministration accounts, List<String> args, PrintStream out) throws SQLException {
        if (args.isEmpty() || args.getFirst().startsWith("--")) return usage(out, "rotate takes a key id");
        String id = args.getFirst();
        ObjectNode body = flags(args.subList(1, args.size()), Map.of("--grace-seconds", "grace_seconds"), out);
        if (body == null) return USAGE;
        Optional<KeyStore.CreatedKey> rotated = accounts.rotateKey(actor(), id, body);
        if (rotated.isEmpty()) {
            out.println("error: no key with id '" + id + "'");
            return FAILED;
        }
        StoredKey key = rotated.get().key();
        out.println("id:   " + key.id());
        out.println("name: " + key.settings().name());
        out.println("key:  " + rotated.get().secret());
        out.println("The previous secret (" + key.previous().prefix() + "...) is accepted until " + key.previous().acceptedUntil()
                + ", then refused.");
        out.println("Keep the key now: it is shown only this once (only its hash is stored).");
        return OK;
    }

    private static int list(DatabaseAdministration accounts, PrintStream out) throws SQLException {
        Map<String, Long> spent = accounts.spentByKey();
        String format = "%-20s %-20s %-10s %-28s %8s %10s %10s %12s %14s %-20s %s%n";
        out.printf(format, "ID", "NAME", "PREFIX", "MODELS", "RPM", "TPM", "CONCURRENT", "BUDGET_USD", "SPENT_USD", "EXPIRES",
                "STATUS");
        for (StoredKey k : accounts.listKeys()) {
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

    private static int teams(DatabaseAdministration accounts, List<String> args, PrintStream out) throws SQLException {
        String sub = args.isEmpty() ? "" : args.getFirst();
        List<String> rest = args.isEmpty() ? args : args.subList(1, args.size());
        switch (sub) {
            case "create" -> {
                ObjectNode body = flags(rest, TEAM_FLAGS, out);
                if (body == null) return USAGE;
                Team team = accounts.createTeam(actor(), KeyRequests.createTeam(body));
                out.println("id:   " + team.id());
                out.println("name: " + team.name());
                return OK;
            }
            case "list" -> {
                String format = "%-22s %-20s %-28s %8s %10s %12s %-9s%n";
                out.printf(format, "ID", "NAME", "MODELS", "RPM", "TPM", "BUDGET_USD", "PERIOD");
                for (Team t : accounts.listTeams()) {
                    out.printf(format, t.id(), t.name(), t.allowedModels().isEmpty() ? "*" : String.join(",", t.allowedModels()),
                            orDash(t.rpm()), orDash(t.tpm()), t.budgetUsd() == null ? "-" : t.budgetUsd().toPlainString(),
                            t.budgetPeriod().wire);
                }
                return OK;
            }
            case "delete" -> {
                if (rest.size() != 1) return usage(out, "teams delete takes one team id");
                String id = rest.getFirst();
                String outcome = switch (accounts.deleteTeam(actor(), id)) {
                    case NOT_FOUND -> "error: no team with id '" + id + "'";
                    case HAS_KEYS -> "error: team '" + id + "' still has keys; move or delete them first";
                    case DELETED -> "deleted " + id;
                };
                out.println(outcome);
                return outcome.startsWith("error") ? FAILED : OK;
            }
            default -> {
                return usage(out, "teams takes create, list or delete");
            }
        }
    }

    private static int audit(DatabaseAdministration accounts, List<String> args, PrintStream out) throws SQLException {
        ObjectNode body = flags(args, Map.of("--limit", "limit", "--target", "target"), out);
        if (body == null) return USAGE;
        Long limit = KeyRequests.limit("limit", body.get("limit"));
        for (AuditLog.Entry e : accounts.auditLog(limit == null ? 50 : (int) Math.min(limit, 1000), body.path("target").textValue())) {
            out.printf("%s  %-22s %-14s %-22s before=%s after=%s%n", e.at(), e.actor().id(), e.action(),
                    e.targetId() == null ? "-" : e.targetId(), e.beforeJson() == null ? "-" : e.beforeJson(),
                    e.afterJson() == null ? "-" : e.afterJson());
        }
        return OK;
    }

    private static int reprice(DatabaseAdministration accounts, PriceBook prices, List<String> args, PrintStream out)
            throws SQLException {
        ObjectNode body = flags(args, Map.of("--from", "from", "--to", "to"), out);
        if (body == null) return USAGE;
        if (!body.has("from") || !body.has("to")) return usage(out, "reprice needs --from and --to");
        Instant from = KeyRequests.instant("from", body.get("from"));
        Instant to = KeyRequests.instant("to", body.get("to"));
        if (!from.isBefore(to)) return usage(out, "--from must be before --to");
        Repricing.Result r = accounts.reprice(actor(), prices, from, to);
        out.println(r.json().toPrettyString());
        return OK;
    }

    private static int alerts(DatabaseAdministration accounts, PrintStream out) throws SQLException {
        AlertSettings settings = accounts.alertSettings();
        out.println("webhook: " + (settings.webhookUrl() == null ? "- (alerts are kept until one is set)" : settings.webhookUrl())
                + ", thresholds: " + settings.thresholds());
        String format = "%-26s %-14s %-24s %-12s %5s %-10s %8s %s%n";
        out.printf(format, "CREATED", "KIND", "HOLDER", "PERIOD", "PCT", "STATE", "ATTEMPTS", "LAST_ERROR");
        for (Alerts.Alert a : accounts.alerts(100)) {
            out.printf(format, a.createdAt(), a.kind(), a.holder(), a.period(), a.threshold(), a.state(), a.attempts(),
                    a.lastError() == null ? "-" : a.lastError());
        }
        return OK;
    }

    /** The CLI's actor in the audit log: whoever runs it on this machine. */
    private static Actor actor() {
        return Actor.cli(System.getProperty("user.name", "unknown"));
    }

    private static int change(DatabaseAdministration accounts, String command, String id, PrintStream out) throws SQLException {
        Optional<StoredKey> key = command.equals("delete") ? accounts.deleteKey(actor(), id)
                : accounts.setDisabled(actor(), id, command.equals("disable"));
        if (key.isEmpty()) {
            out.println("error: no key with id '" + id + "'");
            return FAILED;
        }
        out.println(command + "d " + id);
        return OK;
    }

    /** The command's output is its answer (a key to copy), not the pool's and the migrator's progress reports. */
    static void quietStoreLogs() {
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
