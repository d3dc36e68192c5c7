package dev.modelgateway.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The reference section of docs/configuration.md, generated from {@link Settings} so that the document cannot drift from
 * the code ({@code SettingsReferenceTest} fails when the committed section is stale). Regenerate it with
 * {@code java -cp gateway/target/classes dev.modelgateway.config.SettingsReference docs/configuration.md}.
 */
public final class SettingsReference {
    static final String BEGIN = "<!-- settings reference: generated from config/Settings by config/SettingsReference; do not edit -->";
    static final String END = "<!-- end of the settings reference -->";
    static final String REGENERATE = "java -cp gateway/target/classes dev.modelgateway.config.SettingsReference docs/configuration.md";

    private SettingsReference() {
    }

    /** Rewrites the reference between its markers in the given file. */
    public static void main(String[] args) throws IOException {
        Path doc = Path.of(args.length > 0 ? args[0] : "docs/configuration.md");
        String text = Files.readString(doc);
        String updated = replaced(text);
        if (updated.equals(text)) {
            System.out.println(doc + ": the settings reference is up to date");
        } else {
            Files.writeString(doc, updated);
            System.out.println(doc + ": the settings reference was regenerated");
        }
    }

    /** {@code text} with the section between the markers replaced by {@link #markdown()}. */
    static String replaced(String text) {
        int begin = text.indexOf(BEGIN);
        int end = text.indexOf(END);
        if (begin < 0 || end < begin) throw new IllegalArgumentException("no settings reference markers (" + BEGIN + ", " + END + ")");
        return text.substring(0, begin) + markdown() + text.substring(end);
    }

    /** The markers' opening line and the tables, one per section, up to the closing marker (excluded). */
    static String markdown() {
        Map<String, List<Setting>> sections = Settings.ALL.stream().collect(Collectors.groupingBy(
                s -> s.inFile() ? s.section() : "", LinkedHashMap::new, Collectors.toList()));
        StringBuilder out = new StringBuilder(BEGIN).append("\n\n");
        sections.forEach((section, settings) -> {
            out.append("#### ").append(section.isEmpty() ? "Environment only" : "`" + section + "`").append("\n\n");
            out.append("| setting | environment | default | value | reload | meaning |\n|---|---|---|---|---|---|\n");
            for (Setting s : settings) {
                out.append("| ").append(s.inFile() ? "`" + s.path() + "`" + oldKey(s) : "—")
                        .append(" | ").append(s.env() == null ? "—" : "`" + s.env() + "`" + oldEnv(s))
                        .append(" | ").append(shownDefault(s))
                        .append(" | ").append(kind(s))
                        .append(" | ").append(s.reloadable() ? "applied" : "restart")
                        .append(" | ").append(s.doc()).append(" |\n");
            }
            out.append('\n');
        });
        return out.toString();
    }

    private static String oldKey(Setting s) {
        return s.oldKey() == null ? "" : "<br>deprecated: `" + s.section() + "." + s.oldKey().name() + "`" + unit(s.oldKey());
    }

    private static String oldEnv(Setting s) {
        return s.oldEnv().stream().map(a -> "<br>deprecated: `" + a.name() + "`" + unit(a)).collect(Collectors.joining());
    }

    private static String unit(Setting.Alias a) {
        return a.milliseconds() ? " (in ms)" : "";
    }

    private static String shownDefault(Setting s) {
        if (s.shownDefault() != null) return s.shownDefault();
        if (s.defaultValue() == null) return "unset";
        String v = s.defaultValue();
        return "`" + (s.kind() == Setting.Kind.DECIMAL && v.endsWith(".0") ? v.substring(0, v.length() - 2) : v) + "`";
    }

    private static String kind(Setting s) {
        return switch (s.kind()) {
            case TEXT -> "text";
            case SECRET -> "secret (shown masked)";
            case URL -> "http(s) URL";
            case FILE -> "path";
            case BOOLEAN -> "`true` or `false`";
            case INTEGER -> s.max() >= Integer.MAX_VALUE ? "≥ " + s.min() : s.min() + "–" + s.max();
            case DECIMAL -> "> " + s.min() + ", ≤ " + s.max();
            case HTTP_VERSION -> "`auto`, `1.1` or `2`";
            case MAP -> "mapping";
            case LIST -> "list (YAML sequence, or comma-separated)";
            case SECRET_LIST -> "secrets (YAML sequence, or comma-separated; shown masked)";
        };
    }
}
