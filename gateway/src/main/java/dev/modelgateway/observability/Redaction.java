package dev.modelgateway.observability;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one redaction layer (docs/observability.md, "Redaction"): every log line (the console encoder set up by
 * {@code LogConfigurator}) and every error body the gateway sends ({@link ErrorBodies}) passes through
 * {@link #scrub}, so that no credential reaches a log or a caller: the secrets the gateway was configured with
 * (master key, vendor keys: {@link #register}), anything shaped like a platform key ({@code pk-} + 20 or more
 * URL-safe characters) or a vendor key ({@code sk-…}, Google's {@code AIza…}), the value of a
 * {@code Authorization}/{@code x-api-key}/{@code x-goog-api-key} header, and {@code key=}, {@code api_key=},
 * {@code access_token=} query parameters.
 */
public final class Redaction {
    public static final String MASK = "[REDACTED]";
    /** Shorter values are not treated as secrets (a test's "x" key must not blank every x of every line). */
    private static final int MIN_SECRET = 8;
    private static final Set<String> SECRETS = new CopyOnWriteArraySet<>();
    /**
     * A credential's shape, and literals every match contains ({@code lowerCase}: in the line lowercased): a line
     * without any of them skips the regular expression, which is most of the cost of a log line (the access log's
     * writer spent its time in these matchers).
     */
    private record Shape(Pattern pattern, boolean lowerCase, List<String> hints) {
        boolean mayMatch(String text, String lower) {
            String in = lowerCase ? lower : text;
            for (String h : hints) if (in.contains(h)) return true;
            return false;
        }
    }

    private static final List<Shape> SHAPES = List.of(
            // platform keys (accounts/KeyToken: pk- + 40 URL-safe characters) and the common vendor key shapes
            new Shape(Pattern.compile("\\b(?:pk|sk)-[A-Za-z0-9_\\-]{20,}"), false, List.of("pk-", "sk-")),
            new Shape(Pattern.compile("\\bAIza[0-9A-Za-z_\\-]{30,}"), false, List.of("AIza")),
            // a header value: the rest of the token after the name (Bearer or Basic included); 8 characters at least, so that a
            // message showing the form ("Authorization: Bearer <key>") stays readable
            new Shape(Pattern.compile("(?i)(\\b(?:authorization|proxy-authorization|x-api-key|x-goog-api-key|api[-_]key|master_key)\\b[\"']?\\s*[:=]\\s*[\"']?)"
                    + "(?:(?:bearer|basic)\\s+)?[^\\s\"',;<>]{8,}"), true, List.of("authorization", "api-key", "api_key", "master_key")),
            new Shape(Pattern.compile("(?i)(\\bbearer\\s+)[^\\s\"',;<>]{8,}"), true, List.of("bearer")),
            // query parameters that carry credentials (vendor C accepts ?key=)
            new Shape(Pattern.compile("(?i)([?&](?:key|api_key|apikey|access_token|token)=)[^&\\s\"'#]+"), true,
                    List.of("key=", "token=")));

    private Redaction() {
    }

    /** A secret the gateway holds (master key, vendor key): never shown, wherever it appears. */
    public static void register(String secret) {
        if (secret != null && secret.length() >= MIN_SECRET) SECRETS.add(secret);
    }

    /** {@code text} with every credential replaced by {@value #MASK}; the same string when there was none. */
    public static String scrub(String text) {
        if (text == null || text.isEmpty()) return text;
        String out = text;
        for (String secret : SECRETS) {
            if (out.contains(secret)) out = out.replace(secret, MASK);
        }
        String lower = out.toLowerCase(Locale.ROOT);
        for (Shape shape : SHAPES) {
            if (!shape.mayMatch(out, lower)) continue;
            Matcher m = shape.pattern().matcher(out);
            if (!m.find()) continue;
            StringBuilder sb = new StringBuilder(out.length());
            do {
                String keep = m.groupCount() > 0 && m.group(1) != null ? m.group(1) : "";
                m.appendReplacement(sb, Matcher.quoteReplacement(keep + MASK));
            } while (m.find());
            m.appendTail(sb);
            out = sb.toString();
        }
        return out;
    }
}
