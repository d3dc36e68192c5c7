package dev.modelgateway.config;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The value of every {@link Settings} setting, read and checked from the file and the environment (Kafka's
 * {@code AbstractConfig}): what {@code GET /api/v1/admin/config} shows and a reload compares.
 */
public final class ConfigValues {
    /** Every setting at its default, the environment not read. */
    public static final ConfigValues DEFAULTS = new SettingsReader(name -> null).read(JsonNodeFactory.instance.objectNode());

    private final Map<Setting, Object> values;
    private final List<String> warnings;
    private final Substitutions substitutions;

    ConfigValues(Map<Setting, Object> values, List<String> warnings) {
        this(values, warnings, Substitutions.NONE);
    }

    private ConfigValues(Map<Setting, Object> values, List<String> warnings, Substitutions substitutions) {
        this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
        this.warnings = List.copyOf(warnings);
        this.substitutions = substitutions;
    }

    /** The values the file's {@code ${VAR}} references brought in: shown as the references, never as themselves. */
    public Substitutions substitutions() {
        return substitutions;
    }

    ConfigValues withSubstitutions(Substitutions s) {
        return new ConfigValues(values, warnings, s);
    }

    /** The value: a {@code String}, {@code Long}, {@code Double}, {@code Boolean}, {@link VendorHttp}, map or list; null: unset. */
    public Object value(Setting s) {
        if (!values.containsKey(s)) throw new IllegalArgumentException("not a declared setting: " + s.path());
        return values.get(s);
    }

    public String text(Setting s) {
        return (String) value(s);
    }

    public long number(Setting s) {
        return (Long) value(s);
    }

    public int integer(Setting s) {
        return Math.toIntExact(number(s));
    }

    public double decimal(Setting s) {
        return (Double) value(s);
    }

    public boolean flag(Setting s) {
        return (Boolean) value(s);
    }

    @SuppressWarnings("unchecked")
    public Map<String, String> map(Setting s) {
        Object v = value(s);
        return v == null ? Map.of() : (Map<String, String>) v;
    }

    @SuppressWarnings("unchecked")
    public List<String> list(Setting s) {
        Object v = value(s);
        return v == null ? List.of() : (List<String>) v;
    }

    /** The value as {@code GET /api/v1/admin/config} shows it: a secret masked, a URL's credentials too, an HTTP version as written. */
    public Object shown(Setting s) {
        Object v = value(s);
        if (v != null && s.kind() == Setting.Kind.SECRET) return VendorEndpoint.mask((String) v);
        if (v != null && s.kind() == Setting.Kind.SECRET_LIST) return list(s).stream().map(VendorEndpoint::mask).toList();
        if (v != null && s.kind() == Setting.Kind.URL) return ShownUrl.of((String) v);
        return v instanceof VendorHttp http ? http.written() : v;
    }

    /** The deprecated names this configuration used, each with the name to use instead. */
    public List<String> warnings() {
        return warnings;
    }

    /** With more warnings: the operator's sections' deprecated names ({@link RoutingSection}). */
    ConfigValues withWarnings(List<String> more) {
        List<String> all = new ArrayList<>(warnings);
        all.addAll(more);
        return new ConfigValues(values, all, substitutions);
    }

    /**
     * These values with the reloadable ones of {@code next}: what is in force after a reload. The master keys are
     * kept when {@code next} would leave none ({@link #removesMasterKey}).
     */
    public ConfigValues withReloadable(ConfigValues next) {
        Map<Setting, Object> merged = new LinkedHashMap<>(values);
        boolean keepMasterKeys = removesMasterKey(next);
        for (Setting s : Settings.ALL) {
            if (s.reloadable() && !(keepMasterKeys && Settings.MASTER_KEYS.contains(s))) merged.put(s, next.values.get(s));
        }
        return new ConfigValues(merged, next.warnings, substitutions.and(next.substitutions));
    }

    /**
     * Whether {@code next} unsets the master key these values have: a reload does not apply that, as it would shut the
     * admin API (the reload endpoint with it) until a restart; it takes a restart, like the settings a reload never
     * applies.
     */
    public boolean removesMasterKey(ConfigValues next) {
        return values.get(Settings.SERVER_MASTER_KEY) != null && next.values.get(Settings.SERVER_MASTER_KEY) == null;
    }

    /** The settings {@code next} changes that a reload does not apply: they take a restart. */
    public List<String> restartNeeded(ConfigValues next) {
        List<String> changed = new ArrayList<>();
        for (Setting s : Settings.ALL) {
            if (!s.reloadable() && s.inFile() && !Objects.equals(values.get(s), next.values.get(s))) changed.add(s.path());
        }
        if (removesMasterKey(next)) changed.add(Settings.SERVER_MASTER_KEY.path());
        return changed;
    }
}
