package dev.modelgateway.wire.openai.responses;

import com.fasterxml.jackson.databind.JsonNode;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;

/**
 * The flat function names that stand for the functions of {@code namespace} tools (a group of function tools,
 * sent e.g. by Codex) on vendors without namespaces, and the way back. A flat name is {@code <namespace>__<name>}
 * kept to what every vendor accepts as a tool name — letters, digits, {@code _} and {@code -}, starting with a
 * letter or {@code _}, at most 64 characters (vendor A {@code ^[a-zA-Z0-9_-]{1,64}$}, vendor B/D chat the same,
 * vendor C "start with a letter or an underscore", 64 at most) — and never equal to another tool's name: a name
 * that would break a rule or collide is shortened and given a hash of its namespace and name.
 */
public final class ToolNamespaces {
    static final int MAX_NAME = 64;
    /** What separates the namespace from the function's name in a flat name. */
    static final String SEPARATOR = "__";
    public static final ToolNamespaces NONE = new ToolNamespaces(Map.of(), Map.of());

    /** A function inside a namespace. */
    public record Qualified(String namespace, String name) { }

    private final Map<Qualified, String> flat;
    private final Map<String, Qualified> qualified;

    private ToolNamespaces(Map<Qualified, String> flat, Map<String, Qualified> qualified) {
        this.flat = flat;
        this.qualified = qualified;
    }

    /** The flat names for the namespaced functions of a Responses request's {@code tools}. */
    public static ToolNamespaces of(JsonNode body) {
        JsonNode tools = body == null ? null : body.get("tools");
        if (tools == null || !tools.isArray()) return NONE;
        Set<String> taken = new HashSet<>();
        for (JsonNode t : tools) {
            if (!"namespace".equals(t.path("type").asText()) && t.path("name").isTextual()) taken.add(t.path("name").asText());
        }
        Map<Qualified, String> flat = new HashMap<>();
        Map<String, Qualified> qualified = new HashMap<>();
        for (JsonNode t : tools) {
            if (!"namespace".equals(t.path("type").asText())) continue;
            String namespace = t.path("name").asText("");
            for (JsonNode f : t.path("tools")) {
                Qualified q = new Qualified(namespace, f.path("name").asText(""));
                if (flat.containsKey(q)) continue;
                String name = flatten(q, taken);
                taken.add(name);
                flat.put(q, name);
                qualified.put(name, q);
            }
        }
        return flat.isEmpty() ? NONE : new ToolNamespaces(Map.copyOf(flat), Map.copyOf(qualified));
    }

    /** The name the vendor knows {@code name} of {@code namespace} by (also for a namespace no longer declared). */
    public String flat(String namespace, String name) {
        if (namespace == null || namespace.isEmpty()) return name;
        Qualified q = new Qualified(namespace, name);
        String known = flat.get(q);
        return known != null ? known : flatten(q, qualified.keySet());
    }

    /** The caller's (namespace, name) behind a vendor's tool name, or null for a plain function. */
    public Qualified qualified(String vendorName) {
        return vendorName == null ? null : qualified.get(vendorName);
    }

    private static String flatten(Qualified q, Set<String> taken) {
        String plain = sanitize(q.namespace() + SEPARATOR + q.name());
        if (plain.length() <= MAX_NAME && !taken.contains(plain)) return plain;
        // unique and short: a readable prefix plus a hash of what it stands for (a counter on the unlikely clash)
        for (int salt = 0; ; salt++) {
            String hash = hash(q.namespace() + '\u0000' + q.name() + (salt == 0 ? "" : "\u0000" + salt));
            String head = plain.substring(0, Math.min(plain.length(), MAX_NAME - hash.length() - 1));
            String name = head + "_" + hash;
            if (!taken.contains(name)) return name;
        }
    }

    private static String sanitize(String name) {
        StringBuilder sb = new StringBuilder(name.length() + 1);
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-';
            sb.append(ok ? c : '_');
        }
        char first = sb.isEmpty() ? '0' : sb.charAt(0);
        if (!(first >= 'a' && first <= 'z' || first >= 'A' && first <= 'Z' || first == '_')) sb.insert(0, '_');
        return sb.toString();
    }

    private static String hash(String s) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 5);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
