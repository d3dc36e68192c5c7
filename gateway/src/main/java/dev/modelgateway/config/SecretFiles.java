package dev.modelgateway.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The configuration file's {@code ${file:PATH}} references (docs/configuration.md, "Secrets in files"): each is replaced
 * by the content of the file at {@code PATH}, read on every load, so that a secret mounted as a file (a Kubernetes
 * Secret volume, updated in place) is rotated by a reload, without a restart. Read after the YAML is parsed, so a file
 * that cannot be read is refused naming the field that references it. The value is recorded like a {@code ${VAR}}'s, so
 * that it is shown as its reference wherever the configuration is shown ({@link Substitutions}).
 */
final class SecretFiles {
    /** {@code ${file:/run/secrets/openai}}: an absolute path, or one relative to the gateway's working directory. */
    private static final Pattern REFERENCE = Pattern.compile("\\$\\{file:([^}]+)}");
    /** A secret is a key or a token; anything larger is a mistaken path (a log, an archive), not read into memory. */
    static final int MAX_BYTES = 64 * 1024;

    private SecretFiles() {
    }

    /** Replaces every reference in the text values of {@code root} (its mappings and lists, in place). */
    static void substitute(JsonNode root, Substitutions.Recorder substitutions) {
        walk("", root, substitutions);
    }

    private static void walk(String at, JsonNode node, Substitutions.Recorder substitutions) {
        if (node instanceof ObjectNode o) {
            List<String> names = new ArrayList<>();
            o.fieldNames().forEachRemaining(names::add);
            for (String name : names) {
                String field = at.isEmpty() ? name : at + "." + name;
                JsonNode child = o.get(name);
                if (child.isTextual()) o.set(name, TextNode.valueOf(replace(field, child.asText(), substitutions)));
                else walk(field, child, substitutions);
            }
        } else if (node instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                String item = at + "[" + i + "]";
                if (a.get(i).isTextual()) a.set(i, TextNode.valueOf(replace(item, a.get(i).asText(), substitutions)));
                else walk(item, a.get(i), substitutions);
            }
        }
    }

    private static String replace(String field, String text, Substitutions.Recorder substitutions) {
        if (!text.contains("${file:")) return text;
        Matcher m = REFERENCE.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            Path file = Path.of(m.group(1).strip());
            String secret = read(field, file);
            substitutions.recordFile(file, secret);
            m.appendReplacement(out, Matcher.quoteReplacement(secret));
        }
        m.appendTail(out);
        return out.toString();
    }

    /**
     * The file's text without the whitespace around it (the newline an editor or {@code echo} leaves at its end). An
     * empty file gives an empty value, as an unset {@code ${VAR}} does: the setting is unset (no previous master keys
     * once a rotation is over).
     */
    private static String read(String field, Path file) {
        String reference = "${file:" + file + "}";
        try {
            long size = Files.size(file);
            if (size > MAX_BYTES) {
                throw new IllegalArgumentException(field + ": the secret file " + reference + " holds " + size
                        + " bytes; a secret file holds at most " + MAX_BYTES);
            }
            return Files.readString(file, StandardCharsets.UTF_8).strip();
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(field + ": cannot read the secret file " + reference + ": no such file");
        } catch (AccessDeniedException e) {
            throw new IllegalArgumentException(field + ": cannot read the secret file " + reference + ": permission denied");
        } catch (IOException e) {
            throw new IllegalArgumentException(field + ": cannot read the secret file " + reference + ": " + e);
        }
    }
}
