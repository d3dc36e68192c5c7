package dev.modelgateway.accounts.keys;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Json;

import java.math.BigDecimal;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Validation of key settings from JSON bodies and CLI flags (text values) alike. Failures are 400s naming the
 * offending field. A JSON null, like an absent value, is passed on as null.
 */
public final class KeyRequests {
    private KeyRequests() {}

    /** The fields of a key's body: its settings and its state ({@code disabled}, read by {@link #disabled}). */
    private static final Set<String> FIELDS = Set.of("name", "models", "rpm", "tpm", "budget_usd", "expires_at",
            "model_limits", "max_concurrent", "disabled", "team_id", "budget_period");
    private static final Set<String> TEAM_FIELDS = Set.of("name", "models", "rpm", "tpm", "budget_usd", "budget_period");
    /** Far above any sane setting; keeps the count an int and a typo such as 1e12 out. */
    static final long MAX_CONCURRENT_CEILING = 1_000_000;
    /** A rotation's grace when its body names none: a day to put the new secret everywhere the old one is. */
    public static final Duration DEFAULT_GRACE = Duration.ofDays(1);
    /** The longest grace: a leaked secret should not outlive its rotation by more. */
    static final Duration MAX_GRACE = Duration.ofDays(30);

    /** Settings for a new key; {@code name} is required. */
    public static KeySettings create(ObjectNode body) {
        return patch(new KeySettings(null, List.of(), null, null, null, null), body, true);
    }

    /** Settings for a new team; {@code name} is required. */
    public static Team createTeam(ObjectNode body) {
        return team(new Team(null, null, List.of(), null, null, null, null, null), body, true);
    }

    /**
     * The current settings with the body's fields applied; a field set to null clears it. An unknown field is a
     * 400 rather than ignored: a typo such as {@code budget} for {@code budget_usd} would otherwise make a key
     * without the budget its creator meant.
     */
    public static KeySettings patch(KeySettings current, ObjectNode body, boolean nameRequired) {
        onlyFields(body, FIELDS, "a key");
        String name = body.has("name") ? name(value(body, "name")) : current.name();
        if (nameRequired && name == null) throw GatewayException.invalid("name", "'name' is required.");
        return new KeySettings(name,
                body.has("models") ? models(value(body, "models")) : current.allowedModels(),
                body.has("rpm") ? limit("rpm", value(body, "rpm")) : current.rpm(),
                body.has("tpm") ? limit("tpm", value(body, "tpm")) : current.tpm(),
                body.has("budget_usd") ? budget(value(body, "budget_usd")) : current.budgetUsd(),
                body.has("expires_at") ? instant("expires_at", value(body, "expires_at")) : current.expiresAt(),
                body.has("model_limits") ? modelLimits(value(body, "model_limits")) : current.modelLimits(),
                body.has("max_concurrent") ? maxConcurrent(value(body, "max_concurrent")) : current.maxConcurrent(),
                body.has("team_id") ? teamId(value(body, "team_id")) : current.teamId(),
                body.has("budget_period") ? period(value(body, "budget_period")) : current.budgetPeriod());
    }

    /** Refuses a field {@code allowed} does not name: 400 naming it and listing what {@code what} takes. */
    private static void onlyFields(ObjectNode body, Set<String> allowed, String what) {
        for (String field : names(body)) {
            if (!allowed.contains(field)) {
                throw GatewayException.invalid(field, "Unknown field '" + field + "'; " + what + " takes " + String.join(", ",
                        allowed.stream().sorted().toList()) + ".");
            }
        }
    }

    /** A team's settings with the body's fields applied, as {@link #patch} does for a key. */
    public static Team team(Team current, ObjectNode body, boolean nameRequired) {
        onlyFields(body, TEAM_FIELDS, "a team");
        String name = body.has("name") ? name(value(body, "name")) : current.name();
        if (nameRequired && name == null) throw GatewayException.invalid("name", "'name' is required.");
        return new Team(current.id(), name,
                body.has("models") ? models(value(body, "models")) : current.allowedModels(),
                body.has("rpm") ? limit("rpm", value(body, "rpm")) : current.rpm(),
                body.has("tpm") ? limit("tpm", value(body, "tpm")) : current.tpm(),
                body.has("budget_usd") ? budget(value(body, "budget_usd")) : current.budgetUsd(),
                body.has("budget_period") ? period(value(body, "budget_period")) : current.budgetPeriod(),
                current.createdAt());
    }

    /**
     * A rotation's body ({@code {"grace_seconds": N}}, a CLI flag's text too): how long the previous secret stays
     * accepted, in whole seconds from {@code shortest} to {@link #MAX_GRACE}; absent or null: {@link #DEFAULT_GRACE}.
     */
    public static Duration rotationGrace(ObjectNode body, Duration shortest) {
        onlyFields(body, Set.of("grace_seconds"), "a rotation");
        String problem = "'grace_seconds' must be a whole number of seconds from " + shortest.toSeconds() + " to "
                + MAX_GRACE.toSeconds() + " (30 days), or null for a day.";
        Long seconds = limit("grace_seconds", value(body, "grace_seconds"), problem);
        if (seconds == null) return DEFAULT_GRACE;
        if (seconds < shortest.toSeconds() || seconds > MAX_GRACE.toSeconds()) throw GatewayException.invalid("grace_seconds", problem);
        return Duration.ofSeconds(seconds);
    }

    /** The body's {@code disabled}, or {@code current} when it has none. */
    public static boolean disabled(ObjectNode body, boolean current) {
        if (!body.has("disabled")) return current;
        JsonNode v = value(body, "disabled");
        if (v == null || !v.isBoolean()) throw GatewayException.invalid("disabled", "'disabled' must be true or false.");
        return v.booleanValue();
    }

    private static List<String> names(JsonNode object) {
        List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }

    /** The field's value; null when absent or JSON null. */
    public static JsonNode value(JsonNode body, String field) {
        JsonNode v = body.get(field);
        return v == null || v.isNull() ? null : v;
    }

    static String teamId(JsonNode v) {
        if (v == null) return null;
        if (!v.isTextual() || v.textValue().isBlank() || v.textValue().length() > 32) {
            throw GatewayException.invalid("team_id", "'team_id' must be a team id such as \"team_0123456789abcdef\", or null.");
        }
        return v.textValue().strip();
    }

    /** {@code day}, {@code week}, {@code month} (calendar spans in UTC) or {@code lifetime}; null is lifetime. */
    static BudgetPeriod period(JsonNode v) {
        if (v == null) return BudgetPeriod.LIFETIME;
        BudgetPeriod p = BudgetPeriod.parse(v.asText().strip());
        if (p == null) {
            throw GatewayException.invalid("budget_period", "'budget_period' must be day, week, month or lifetime.");
        }
        return p;
    }

    static String name(JsonNode v) {
        if (v == null || !v.isTextual() || v.textValue().isBlank() || v.textValue().length() > 200) {
            throw GatewayException.invalid("name", "'name' must be a non-empty string of at most 200 characters.");
        }
        return v.textValue().strip();
    }

    static List<String> models(JsonNode v) {
        if (v == null) return List.of();
        List<JsonNode> items = new ArrayList<>();
        if (v.isArray()) v.forEach(items::add);
        else if (v.isTextual()) for (String s : v.textValue().split(",")) items.add(Json.MAPPER.getNodeFactory().textNode(s));
        else throw GatewayException.invalid("models", "'models' must be an array of model globs.");
        List<String> globs = new ArrayList<>();
        for (JsonNode item : items) {
            if (!item.isTextual() || item.textValue().isBlank()) {
                throw GatewayException.invalid("models", "'models' must hold non-empty strings such as \"platform/vendorA-*\".");
            }
            globs.add(glob("models", item.textValue().strip()));
        }
        return globs;
    }

    /** A model glob no longer than {@link ModelGlob#MAX_LENGTH}: it is matched on the event loop at every call. */
    private static String glob(String field, String glob) {
        if (glob.length() > ModelGlob.MAX_LENGTH) {
            throw GatewayException.invalid(field, "'" + field + "' holds a model glob of " + glob.length()
                    + " characters; at most " + ModelGlob.MAX_LENGTH + " are allowed.");
        }
        return glob;
    }

    public static Long limit(String field, JsonNode v) {
        return limit(field, v, "'" + field + "' must be a positive whole number or null.");
    }

    private static Long limit(String field, JsonNode v, String problem) {
        if (v == null) return null;
        try {
            long n = v.isTextual() ? Long.parseLong(v.textValue().strip()) : new BigDecimal(v.asText()).longValueExact();
            if (n > 0) return n;
        } catch (NumberFormatException | ArithmeticException e) {
            // falls through to the 400 below
        }
        throw GatewayException.invalid(field, problem);
    }

    /** Calls in flight at once: 1 to {@link #MAX_CONCURRENT_CEILING}, or null for the gateway's default. */
    static Long maxConcurrent(JsonNode v) {
        if (v == null) return null;
        String problem = "'max_concurrent' must be a whole number from 1 to " + MAX_CONCURRENT_CEILING
                + ", or null for the gateway's default.";
        Long n = limit("max_concurrent", v, problem);
        if (n > MAX_CONCURRENT_CEILING) throw GatewayException.invalid("max_concurrent", problem);
        return n;
    }

    /** {@code {"<glob>": {"rpm": N, "tpm": N}}} in matching order; a string (from the CLI) is read as that JSON. */
    static List<ModelLimit> modelLimits(JsonNode v) {
        if (v == null) return List.of();
        String example = " such as {\"platform/vendorA-*\": {\"rpm\": 60, \"tpm\": 100000}}";
        try {
            if (v.isTextual()) v = Json.MAPPER.readTree(v.textValue());
        } catch (JsonProcessingException e) {
            throw GatewayException.invalid("model_limits", "'model_limits' must be a JSON object" + example + ".");
        }
        if (v == null || !v.isObject()) {
            throw GatewayException.invalid("model_limits", "'model_limits' must be an object" + example + ".");
        }
        List<ModelLimit> limits = new ArrayList<>();
        for (var entry : v.properties()) {
            String field = "model_limits." + entry.getKey();
            JsonNode l = entry.getValue();
            if (entry.getKey().isBlank() || !l.isObject() || !Set.of("rpm", "tpm").containsAll(names(l))) {
                throw GatewayException.invalid(field, "'" + field + "' must be an object with rpm, tpm or both.");
            }
            Long rpm = limit(field + ".rpm", value(l, "rpm"));
            Long tpm = limit(field + ".tpm", value(l, "tpm"));
            if (rpm == null && tpm == null) throw GatewayException.invalid(field, "'" + field + "' needs rpm, tpm or both.");
            limits.add(new ModelLimit(glob("model_limits", entry.getKey().strip()), rpm, tpm));
        }
        return limits;
    }

    static BigDecimal budget(JsonNode v) {
        if (v == null) return null;
        try {
            BigDecimal usd = new BigDecimal(v.asText().strip());
            if (usd.signum() >= 0 && usd.scale() <= 10 && usd.precision() - usd.scale() <= 9) return usd;
        } catch (NumberFormatException e) {
            // falls through to the 400 below
        }
        throw GatewayException.invalid("budget_usd",
                "'budget_usd' must be a non-negative amount in dollars below one billion, or null.");
    }

    /**
     * The times a setting or a range may name: a far-future one ({@code +999999999-12-31T23:59:59Z}) is a valid
     * instant whose epoch milliseconds overflow a long, once a 500 with a stack trace.
     */
    static final Instant EARLIEST = Instant.EPOCH;
    static final Instant LATEST = Instant.parse("9999-12-31T23:59:59Z");

    /**
     * ISO-8601 instant ({@code 2025-06-01T00:00:00Z}), date ({@code 2025-06-01}, UTC midnight) or epoch seconds, from
     * {@link #EARLIEST} to {@link #LATEST}.
     */
    public static Instant instant(String field, JsonNode v) {
        if (v == null) return null;
        String s = v.asText().strip();
        Instant t;
        try {
            if (v.isNumber() || s.matches("\\d+")) t = Instant.ofEpochSecond(Long.parseLong(s));
            else if (s.length() == 10) t = LocalDate.parse(s).atStartOfDay(ZoneOffset.UTC).toInstant();
            else t = Instant.parse(s);
        } catch (DateTimeException | NumberFormatException e) {
            throw GatewayException.invalid(field, "'" + field
                    + "' must be an ISO-8601 time such as 2025-06-01T00:00:00Z, a date, or epoch seconds.");
        }
        if (t.isBefore(EARLIEST) || t.isAfter(LATEST)) {
            throw GatewayException.invalid(field, "'" + field + "' must be from " + EARLIEST + " to " + LATEST + ".");
        }
        return t;
    }
}
