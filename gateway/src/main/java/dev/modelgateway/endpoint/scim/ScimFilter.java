package dev.modelgateway.endpoint.scim;

import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one filter form provisioning clients send (RFC 7644 §3.4.2.2): {@code attribute eq "value"}, on the attributes a
 * resource type supports; anything else is a 400 {@code invalidFilter}. Attribute names and {@code eq} are
 * case-insensitive (RFC 7643 §2.1, RFC 7644 §3.4.2.2).
 */
record ScimFilter(String attribute, String value) {
    private static final Pattern EQ = Pattern.compile("\\s*([A-Za-z][\\w.:-]*)\\s+(?i:eq)\\s+\"((?:[^\"\\\\]|\\\\.)*)\"\\s*");

    /**
     * @param supported lower-cased attribute name → the name the filter reports
     * @return null when there is no filter
     */
    static ScimFilter parse(String filter, Map<String, String> supported) {
        if (filter == null || filter.isBlank()) return null;
        Matcher m = EQ.matcher(filter);
        if (!m.matches()) {
            throw ScimReplies.bad("invalidFilter", "Only filters of the form 'attribute eq \"value\"' are supported, on "
                    + String.join(", ", supported.values()) + ".");
        }
        String attribute = supported.get(m.group(1).toLowerCase(Locale.ROOT));
        if (attribute == null) {
            throw ScimReplies.bad("invalidFilter", "Filtering on '" + m.group(1) + "' is not supported; supported: "
                    + String.join(", ", supported.values()) + ".");
        }
        return new ScimFilter(attribute, m.group(2).replaceAll("\\\\(.)", "$1"));
    }
}
