package dev.modelgateway.endpoint.scim;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A PATCH operation's {@code path} (RFC 7644 §3.5.2, the {@code PATH} rule of §3.10) in the forms the supported
 * attributes need: {@code attr}, {@code attr.sub}, {@code attr[sub eq "x"]} and {@code attr[sub eq "x"].sub}, with or
 * without the resource's core schema URN in front. Names are lower-cased (they are case-insensitive).
 *
 * @param attribute    the attribute, lower-cased; null for an attribute of another schema (an extension's)
 * @param filterAttr   the value filter's attribute, lower-cased; null without one
 * @param filterValue  the value filter's value
 * @param sub          the sub-attribute after the attribute or its filter, lower-cased; null without one
 */
record ScimPath(String attribute, String filterAttr, String filterValue, String sub) {
    private static final Pattern PATH = Pattern.compile("([A-Za-z][\\w-]*)(?:\\[\\s*([A-Za-z][\\w-]*)\\s+(?i:eq)\\s+"
            + "(?:\"((?:[^\"\\\\]|\\\\.)*)\"|(true|false))\\s*])?(?:\\.([A-Za-z][\\w-]*))?");

    static ScimPath parse(String path, String coreSchema) {
        String p = path.trim();
        if (p.regionMatches(true, 0, coreSchema + ":", 0, coreSchema.length() + 1)) p = p.substring(coreSchema.length() + 1);
        else if (p.regionMatches(true, 0, "urn:", 0, 4)) return new ScimPath(null, null, null, null);
        Matcher m = PATH.matcher(p);
        if (!m.matches()) throw ScimReplies.bad("invalidPath", "The path '" + path + "' is not one this gateway supports.");
        String value = m.group(3) != null ? m.group(3).replaceAll("\\\\(.)", "$1") : m.group(4);
        return new ScimPath(lower(m.group(1)), lower(m.group(2)), value, lower(m.group(5)));
    }

    boolean filtered() {
        return filterAttr != null;
    }

    private static String lower(String s) {
        return s == null ? null : s.toLowerCase(Locale.ROOT);
    }
}
