package dev.modelgateway.config;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A URL as the gateway shows it, wherever it does (the admin API, metrics, messages, logs): without the credentials an
 * operator may have put in it. A proxy in front of a vendor is often reached as {@code https://user:pass@host/v1} or
 * with a token in its path or query; the rest of the URL (scheme, host, port, the other path segments) stays readable.
 */
public final class ShownUrl {
    static final String MASK = "****";
    private static final Pattern USER_INFO = Pattern.compile("://(.*)@");
    /** A path segment of 16 characters or more that mixes letters and digits: a token, not a word. */
    private static final Pattern TOKEN = Pattern.compile("(?=.*[0-9])(?=.*[A-Za-z]).{16,}");
    private static final Pattern QUERY_VALUE = Pattern.compile("[?&][^=&#]*=([^&#]+)");

    private ShownUrl() {
    }

    /** {@code url} with its user-info, query values and token-shaped path segments replaced by {@value #MASK}. */
    public static String of(String url) {
        if (url == null) return null;
        int pathStart = pathStart(url);
        int pathEnd = end(url, pathStart, "?#");
        StringBuilder out = new StringBuilder(USER_INFO.matcher(url.substring(0, pathStart)).replaceFirst("://" + MASK + "@"));
        String[] segments = url.substring(pathStart, pathEnd).split("/", -1);
        for (int i = 0; i < segments.length; i++) {
            if (i > 0) out.append('/');
            out.append(TOKEN.matcher(segments[i]).matches() ? MASK : segments[i]);
        }
        Matcher value = QUERY_VALUE.matcher(url.substring(pathEnd));
        StringBuilder query = new StringBuilder();
        while (value.find()) value.appendReplacement(query, Matcher.quoteReplacement(value.group().substring(0,
                value.start(1) - value.start()) + MASK));
        value.appendTail(query);
        return out.append(query).toString();
    }

    /** The parts of {@code url} that {@link #of} masks: the secrets a log line must not show either. */
    public static List<String> secrets(String url) {
        List<String> out = new ArrayList<>();
        if (url == null) return out;
        int pathStart = pathStart(url);
        Matcher user = USER_INFO.matcher(url.substring(0, pathStart));
        if (user.find()) out.add(user.group(1));
        int pathEnd = end(url, pathStart, "?#");
        for (String segment : url.substring(pathStart, pathEnd).split("/")) {
            if (TOKEN.matcher(segment).matches()) out.add(segment);
        }
        Matcher value = QUERY_VALUE.matcher(url.substring(pathEnd));
        while (value.find()) out.add(value.group(1));
        return out;
    }

    /** Where the authority ({@code user:pass@host:port}) ends. */
    private static int pathStart(String url) {
        int scheme = url.indexOf("://");
        return end(url, scheme < 0 ? 0 : scheme + 3, "/?#");
    }

    /** The index of the first of {@code stops} at or after {@code from}, else the length. */
    private static int end(String url, int from, String stops) {
        for (int i = from; i < url.length(); i++) if (stops.indexOf(url.charAt(i)) >= 0) return i;
        return url.length();
    }
}
