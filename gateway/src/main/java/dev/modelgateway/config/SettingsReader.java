package dev.modelgateway.config;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Reads every {@link Settings} setting from the YAML tree and the environment: the environment variable wins over the
 * file, a deprecated name is read when the current one is not set (with a warning), else the default. A key no setting
 * declares, in any section, is refused with the nearest known name; a malformed value names the setting and its
 * variable.
 */
final class SettingsReader {
    /** Section path ("" for the file's top) → the keys it may hold. */
    private static final Map<String, Set<String>> KEYS = new HashMap<>();
    private static final Map<String, Setting> BY_PATH = new HashMap<>();
    /** Deprecated keys, still read. */
    private static final Set<String> OLD_PATHS = new HashSet<>();

    static {
        for (Setting s : Settings.ALL) {
            if (!s.inFile()) continue;
            BY_PATH.put(s.path(), s);
            String section = "";
            for (String part : s.path().split("\\.")) {
                KEYS.computeIfAbsent(section, k -> new LinkedHashSet<>()).add(part);
                section = section.isEmpty() ? part : section + "." + part;
            }
            if (s.oldKey() != null) OLD_PATHS.add(s.section() + "." + s.oldKey().name());
        }
        KEYS.get("").addAll(Settings.OPERATOR_SECTIONS);
    }

    private final Function<String, String> env;
    private final List<String> warnings = new ArrayList<>();

    SettingsReader(Function<String, String> env) {
        this.env = env;
    }

    ConfigValues read(JsonNode root) {
        refuseUnknown("", root);
        Map<Setting, Object> values = new LinkedHashMap<>();
        for (Setting s : Settings.ALL) values.put(s, value(s, root));
        DataDirectory.fillDefaults(values, env);
        return new ConfigValues(values, warnings);
    }

    /** Every key of a table section must be declared; the operator's sections are checked by {@link RoutingSection}. */
    private static void refuseUnknown(String section, JsonNode node) {
        node.properties().forEach(e -> {
            String key = e.getKey();
            String at = section.isEmpty() ? key : section + "." + key;
            JsonNode child = e.getValue();
            if (section.isEmpty() && Settings.OPERATOR_SECTIONS.contains(key) || BY_PATH.containsKey(at) || OLD_PATHS.contains(at)) {
                return;
            }
            if (!KEYS.containsKey(at)) throw UnknownSetting.of(section, key, KEYS.get(section));
            if (child.isNull()) return;
            if (!child.isObject()) throw new IllegalArgumentException(at + " must be a mapping of settings, got '" + child.asText() + "'");
            refuseUnknown(at, child);
        });
    }

    private Object value(Setting s, JsonNode root) {
        if (s.env() != null) {
            String fromEnv = env.apply(s.env());
            if (present(fromEnv)) return parse(s, fromEnv, 1, "from " + s.env());
        }
        for (Setting.Alias old : s.oldEnv()) {
            String fromEnv = env.apply(old.name());
            if (present(fromEnv)) {
                warnings.add(old.name() + " is deprecated and will be removed in the next release: set " + s.env()
                        + unit(old) + " instead");
                return parse(s, fromEnv, old.factor(), "from " + old.name());
            }
        }
        if (s.inFile()) {
            JsonNode node = at(root, s.path());
            if (node != null) return fromFile(s, node, 1);
            if (s.oldKey() != null) {
                String oldPath = s.section() + "." + s.oldKey().name();
                node = at(root, oldPath);
                if (node != null) {
                    warnings.add(oldPath + " is deprecated and will be removed in the next release: set " + s.path()
                            + unit(s.oldKey()) + " instead");
                    return fromFile(s, node, s.oldKey().factor());
                }
            }
        }
        return s.defaultValue() == null ? null : parse(s, s.defaultValue(), 1, "by default");
    }

    private static String unit(Setting.Alias old) {
        return old.milliseconds() ? " (in seconds: the old value ÷ 1000)" : "";
    }

    private Object fromFile(Setting s, JsonNode node, double factor) {
        if (s.kind() == Setting.Kind.MAP) {
            if (!node.isObject()) throw new IllegalArgumentException(s.path() + " must be a mapping");
            Map<String, String> map = new LinkedHashMap<>();
            node.properties().forEach(e -> map.put(e.getKey(), e.getValue().asText()));
            return map;
        }
        if ((s.kind() == Setting.Kind.LIST || s.kind() == Setting.Kind.SECRET_LIST) && node.isArray()) {
            List<String> words = new ArrayList<>();
            for (JsonNode item : node) {
                if (!item.isValueNode() || item.asText().isBlank()) {
                    throw new IllegalArgumentException(s.name() + " must be a list of words, got '" + item + "'");
                }
                words.add(item.asText().trim());
            }
            return List.copyOf(words);
        }
        if (!node.isValueNode()) throw new IllegalArgumentException(s.name() + " must be a single value, got a "
                + (node.isObject() ? "mapping" : "list"));
        String raw = node.asText();
        return present(raw) ? parse(s, raw, factor, "in the file") : s.defaultValue() == null ? null
                : parse(s, s.defaultValue(), 1, "by default");
    }

    /** The node at a dotted path, or null when it is absent or null. */
    private static JsonNode at(JsonNode root, String path) {
        JsonNode n = root;
        for (String part : path.split("\\.")) {
            n = n.path(part);
            if (n.isMissingNode() || n.isNull()) return null;
        }
        return n;
    }

    private static Object parse(Setting s, String raw, double factor, String source) {
        String v = raw.trim();
        return switch (s.kind()) {
            case TEXT, SECRET, FILE -> v;
            case URL -> {
                if (!ConfigLoader.validUrl(v)) {
                    throw malformed(s, ShownUrl.of(raw), source, "an http(s) URL such as https://api.example.com/v1");
                }
                yield v;
            }
            case BOOLEAN -> switch (v.toLowerCase(Locale.ROOT)) {
                case "true", "on" -> true;
                case "false", "off" -> false;
                default -> throw malformed(s, raw, source, "true or false");
            };
            case INTEGER -> {
                long n;
                try {
                    n = factor == 1 ? Long.parseLong(v) : Math.round(Double.parseDouble(v) * factor);
                } catch (NumberFormatException e) {
                    throw malformed(s, raw, source, range(s));
                }
                if (n < s.min() || n > s.max()) throw malformed(s, raw, source, range(s));
                yield n;
            }
            case DECIMAL -> {
                double d;
                try {
                    d = Double.parseDouble(v) * factor;
                } catch (NumberFormatException e) {
                    throw malformed(s, raw, source, range(s));
                }
                if (!(d > s.min() && d <= s.max())) throw malformed(s, raw, source, range(s));
                yield d;
            }
            case HTTP_VERSION -> {
                try {
                    yield VendorHttp.parse(s.path(), v);
                } catch (IllegalArgumentException e) {
                    throw malformed(s, raw, source, "auto, 1.1 or 2");
                }
            }
            case MAP -> throw malformed(s, raw, source, "a mapping");
            case LIST, SECRET_LIST -> Arrays.stream(v.split(",")).map(String::trim).filter(w -> !w.isEmpty()).toList();
        };
    }

    /** What a number may be, as a refusal says it. */
    private static String range(Setting s) {
        if (s.kind() == Setting.Kind.DECIMAL) return "a number above " + s.min() + " and at most " + s.max();
        return s.max() == Long.MAX_VALUE ? "a whole number from " + s.min()
                : "a whole number from " + s.min() + " to " + s.max();
    }

    private static IllegalArgumentException malformed(Setting s, String raw, String source, String expected) {
        return new IllegalArgumentException(s.name() + " must be " + expected + ", got '" + raw + "' " + source);
    }

    private static boolean present(String value) {
        return value != null && !value.isBlank();
    }
}
