package dev.modelgateway.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One setting of the configuration, declared once in {@link Settings} (the model is Kafka's {@code ConfigDef}): its
 * YAML path, kind and range, default, environment variable, whether a reload applies it, and its line in
 * docs/configuration.md's reference. The loader, the reload, {@code GET /api/v1/admin/config} and the reference all
 * read it from there.
 *
 * @param path         the YAML path, its unit in its last word ({@code server.idle_timeout_seconds}); empty for a
 *                     setting read from the environment only
 * @param kind         how its value is read and checked
 * @param defaultValue the value when neither the file nor the environment sets one; null: unset
 * @param shownDefault the default as the reference shows it, when it is not a constant (a share of the heap…)
 * @param min          the smallest value of a number
 * @param max          the largest value of a number
 * @param env          the environment variable that overrides the file: derived from the path
 *                     ({@code server.port} → {@code GATEWAY_SERVER_PORT}) unless the vendors' SDKs have their own name
 * @param oldEnv       deprecated environment variables still read for one release, with a warning
 * @param oldKey       a deprecated YAML key of the same section still read for one release, with a warning; null: none
 * @param reloadable   a reload applies it; otherwise it takes a restart
 * @param doc          its line in the reference (Markdown)
 */
public record Setting(String path, Kind kind, String defaultValue, String shownDefault, long min, long max, String env,
                      List<Alias> oldEnv, Alias oldKey, boolean reloadable, String doc) {

    /** How a value is read; every kind names the setting and its variable when the value is malformed. */
    public enum Kind {
        TEXT, SECRET, URL, FILE, BOOLEAN, INTEGER, DECIMAL, HTTP_VERSION, MAP,
        /** Words: a YAML sequence, or comma-separated (the environment, a default). */
        LIST,
        /** Secrets, written as a {@link #LIST}; each shown masked. */
        SECRET_LIST
    }

    /**
     * A deprecated name; {@code milliseconds}: its value is in milliseconds where the setting's is in seconds
     * ({@code media.timeout_ms} → {@code media.timeout_seconds}), the one unit the renames changed.
     */
    public record Alias(String name, boolean milliseconds) {
        /** What the old value is multiplied by to be the setting's. */
        double factor() {
            return milliseconds ? 0.001 : 1;
        }
    }

    public Setting {
        oldEnv = List.copyOf(oldEnv);
    }

    /** A setting at {@code path}, its variable derived from it, unset by default, applied at start only. */
    static Setting of(String path, Kind kind) {
        return new Setting(path, kind, null, null, kind == Kind.INTEGER ? 0 : Long.MIN_VALUE, Long.MAX_VALUE, envOf(path),
                List.of(), null, false, "");
    }

    /** A setting read from the environment only (the log's layout, set up before any file is read). */
    static Setting envOnly(String env, Kind kind) {
        return new Setting("", kind, null, null, Long.MIN_VALUE, Long.MAX_VALUE, env, List.of(), null, false, "");
    }

    /** {@code server.port} → {@code GATEWAY_SERVER_PORT}. */
    static String envOf(String path) {
        return "GATEWAY_" + path.replaceAll("[^A-Za-z0-9]+", "_").toUpperCase(Locale.ROOT);
    }

    Setting byDefault(Object value) {
        return new Setting(path, kind, String.valueOf(value), shownDefault, min, max, env, oldEnv, oldKey, reloadable, doc);
    }

    Setting shown(String defaultAsShown) {
        return new Setting(path, kind, defaultValue, defaultAsShown, min, max, env, oldEnv, oldKey, reloadable, doc);
    }

    Setting range(long from, long to) {
        return new Setting(path, kind, defaultValue, shownDefault, from, to, env, oldEnv, oldKey, reloadable, doc);
    }

    /** The vendor SDKs' own variable ({@code OPENAI_API_KEY}) instead of the derived one. */
    Setting env(String name) {
        return new Setting(path, kind, defaultValue, shownDefault, min, max, name, oldEnv, oldKey, reloadable, doc);
    }

    Setting oldEnv(String name) {
        return oldEnv(name, false);
    }

    Setting oldEnv(String name, boolean milliseconds) {
        List<Alias> all = new ArrayList<>(oldEnv);
        all.add(new Alias(name, milliseconds));
        return new Setting(path, kind, defaultValue, shownDefault, min, max, env, all, oldKey, reloadable, doc);
    }

    Setting oldKey(String key, boolean milliseconds) {
        return new Setting(path, kind, defaultValue, shownDefault, min, max, env, oldEnv, new Alias(key, milliseconds), reloadable, doc);
    }

    Setting appliedByReload() {
        return new Setting(path, kind, defaultValue, shownDefault, min, max, env, oldEnv, oldKey, true, doc);
    }

    Setting doc(String line) {
        return new Setting(path, kind, defaultValue, shownDefault, min, max, env, oldEnv, oldKey, reloadable, line);
    }

    /** Its section: {@code server} for {@code server.port}, {@code vendors.openai} for {@code vendors.openai.api_key}. */
    String section() {
        return path.substring(0, path.lastIndexOf('.'));
    }

    /** Its key in its section. */
    String key() {
        return path.substring(path.lastIndexOf('.') + 1);
    }

    public boolean inFile() {
        return !path.isEmpty();
    }

    /** How a message names it: the YAML path and the variable. */
    public String name() {
        return !inFile() ? env : env == null ? path : path + " (" + env + ")";
    }
}
