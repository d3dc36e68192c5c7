package dev.modelgateway.identity;

import dev.modelgateway.config.IdentityConfig.ClaimMatch;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * A token's claims (or a SCIM user's attributes) as plain values: strings, numbers, booleans, lists and maps, as
 * nimbus-jose-jwt's {@code JWTClaimsSet.getClaims()} gives them.
 */
public record Claims(String source, Map<String, Object> values) {
    public Claims {
        values = Map.copyOf(values);
    }

    /**
     * The value at {@code path}: the claim of that whole name if there is one ({@code kubernetes.io}), else the dotted
     * path through maps ({@code realm_access.roles}, {@code kubernetes.io.namespace}); null when absent.
     */
    public Object at(String path) {
        return at(values, path);
    }

    private static Object at(Map<?, ?> map, String path) {
        if (map.containsKey(path)) return map.get(path);
        int dot = path.indexOf('.');
        while (dot > 0) {
            Object head = map.get(path.substring(0, dot));
            if (head instanceof Map<?, ?> inner) {
                Object found = at(inner, path.substring(dot + 1));
                if (found != null) return found;
            }
            dot = path.indexOf('.', dot + 1);
        }
        return null;
    }

    /** A string claim; null when absent or not a string. */
    public String text(String path) {
        return at(path) instanceof String s ? s : null;
    }

    /** Whether the rule applies to these claims: its source (if any) is theirs and its condition holds. */
    public boolean matches(ClaimMatch m) {
        if (m.source() != null && !m.source().equals(source)) return false;
        Object v = at(m.claim());
        if (v == null) return false;
        if (m.equals() == null && m.pattern() == null) return true;
        Collection<?> candidates = v instanceof Collection<?> c ? c : List.of(v);
        for (Object c : candidates) {
            if (c instanceof Map || c instanceof Collection) continue;
            String s = String.valueOf(c);
            if (m.equals() != null ? m.equals().equals(s) : m.pattern().matcher(s).matches()) return true;
        }
        return false;
    }
}
