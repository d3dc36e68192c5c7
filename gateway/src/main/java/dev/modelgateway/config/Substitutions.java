package dev.modelgateway.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The values the environment gave the configuration file's {@code ${VAR}} references. Any field may reference a
 * secret ({@code region: ${DB_PASSWORD}}, by mistake or not), and the gateway cannot tell which: so wherever it shows
 * the configuration (a refused load's message, its log line, {@code GET /api/v1/admin/config}) such a value is shown as
 * the reference that produced it, never as itself. A {@code ${VAR:-default}}'s default is the file's own text and is
 * shown. The same holds for a {@code ${file:PATH}} reference's value ({@link SecretFiles}), whose files a reload watches.
 */
public final class Substitutions {
    public static final Substitutions NONE = new Substitutions(Map.of(), List.of(), List.of());
    private static final int ANYWHERE = 4;

    /** Value → {@code ${VAR}}, the longest value first, so that one containing another is replaced whole. */
    private final Map<String, String> references;
    /** The variables the file references that the environment does not set (and that give no default). */
    private final List<String> unset;
    /** The secret files the configuration's {@code ${file:PATH}} references read. */
    private final List<Path> files;

    private Substitutions(Map<String, String> references, List<String> unset, List<Path> files) {
        this.unset = List.copyOf(unset);
        this.files = List.copyOf(files);
        Map<String, String> sorted = new LinkedHashMap<>();
        references.entrySet().stream().sorted(Comparator.comparingInt((Map.Entry<String, String> e) -> e.getKey().length()).reversed())
                .forEach(e -> sorted.put(e.getKey(), e.getValue()));
        this.references = Collections.unmodifiableMap(sorted);
    }

    /** Collects the substitutions of one file as they are made. */
    static final class Recorder {
        private final Map<String, String> references = new LinkedHashMap<>();
        private final Set<String> unset = new LinkedHashSet<>();
        private final Set<Path> files = new LinkedHashSet<>();

        /** {@code ${variable}} is referenced without a default, and the environment does not set it. */
        void unset(String variable) {
            unset.add(variable);
        }

        /** {@code ${variable}} was replaced by {@code value}, read from the environment. */
        void record(String variable, String value) {
            if (!value.isBlank()) references.put(value, "${" + variable + "}");
        }

        /** {@code ${file:path}} was replaced by {@code value}, the file's content. */
        void recordFile(Path path, String value) {
            files.add(path);
            if (!value.isBlank()) references.put(value, "${file:" + path + "}");
        }

        Substitutions done() {
            return references.isEmpty() && unset.isEmpty() && files.isEmpty() ? NONE
                    : new Substitutions(references, List.copyOf(unset), List.copyOf(files));
        }
    }

    /** The secret files this configuration read ({@code ${file:PATH}}): a change to one is a change to it. */
    public List<Path> files() {
        return files;
    }

    /** The {@code ${VAR}} references of the file that the environment does not set, as written ({@code ${VAR}}). */
    public List<String> unset() {
        return unset.stream().map(v -> "${" + v + "}").toList();
    }

    /**
     * {@code text} with every substituted value replaced by its reference: wherever it appears (a value may be glued to
     * the file's own text, {@code x${VAR}}), but a value shorter than {@value #ANYWHERE} characters only where it stands
     * alone, not inside a longer word or number (a {@code ${REPLICAS}} of 2 must not turn every 2 of a message into it).
     */
    public String hide(String text) {
        if (text == null || references.isEmpty()) return text;
        String out = text;
        for (Map.Entry<String, String> e : references.entrySet()) {
            String value = e.getKey();
            if (!out.contains(value)) continue;
            out = value.length() >= ANYWHERE ? out.replace(value, e.getValue())
                    : Pattern.compile("(?<![A-Za-z0-9])" + Pattern.quote(value) + "(?![A-Za-z0-9])").matcher(out)
                            .replaceAll(Matcher.quoteReplacement(e.getValue()));
        }
        return out;
    }

    /** The same refusal, its message {@linkplain #hide hidden}; the cause is left out, as its message may quote the value. */
    public IllegalArgumentException hide(IllegalArgumentException e) {
        String hidden = hide(e.getMessage());
        return hidden == null || hidden.equals(e.getMessage()) ? e : new IllegalArgumentException(hidden);
    }

    /** Every text value of {@code tree} {@linkplain #hide hidden}, in place; returns the tree. */
    public <T extends JsonNode> T hideIn(T tree) {
        if (references.isEmpty()) return tree;
        if (tree instanceof ObjectNode o) {
            List<String> names = new ArrayList<>();
            o.fieldNames().forEachRemaining(names::add);
            for (String name : names) {
                JsonNode child = o.get(name);
                if (child.isTextual()) o.set(name, TextNode.valueOf(hide(child.asText())));
                else hideIn(child);
            }
        } else if (tree instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                if (a.get(i).isTextual()) a.set(i, TextNode.valueOf(hide(a.get(i).asText())));
                else hideIn(a.get(i));
            }
        }
        return tree;
    }

    /**
     * These and {@code newer}'s: a reload keeps the values a restart would apply, read from the earlier file (and a
     * rotated secret's earlier value stays hidden); the unset variables and the files are {@code newer}'s.
     */
    Substitutions and(Substitutions newer) {
        if (references.isEmpty()) return newer;
        Map<String, String> all = new LinkedHashMap<>(references);
        all.putAll(newer.references);
        return new Substitutions(all, newer.unset, newer.files);
    }
}
