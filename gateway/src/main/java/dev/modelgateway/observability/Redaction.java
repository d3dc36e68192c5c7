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
 * URL-safe characters, glued to a word or not: {@code x_pk-…}) or a vendor key ({@code sk-…}, Google's {@code AIza…}),
 * an AWS access key id, a GitHub token, a JWT, a PEM private key, the value of a
 * {@code Authorization}/{@code x-api-key}/{@code x-goog-api-key} header or an AWS secret field, and {@code key=},
 * {@code api_key=}, {@code access_token=} query parameters.
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
            // platform keys (accounts/KeyToken: pk- + 40 URL-safe characters) and the common vendor key shapes, where
            // no letter or digit comes before them (an underscore may: x_pk-…)
            new Shape(Pattern.compile("(?<![A-Za-z0-9])(?:pk|sk)-[A-Za-z0-9_\\-]{20,}"), false, List.of("pk-", "sk-")),
            new Shape(Pattern.compile("(?<![A-Za-z0-9])AIza[0-9A-Za-z_\\-]{30,}"), false, List.of("AIza")),
            // AWS access key ids (long-term and temporary), GitHub tokens (classic and fine-grained)
            new Shape(Pattern.compile("(?<![A-Za-z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![A-Za-z0-9])"), false, List.of("AKIA", "ASIA")),
            new Shape(Pattern.compile("(?<![A-Za-z0-9])(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})"), false,
                    List.of("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_")),
            // a JWT: three base64url parts, the first two JSON objects ({"… is eyJ)
            new Shape(Pattern.compile("(?<![A-Za-z0-9])eyJ[A-Za-z0-9_\\-]{4,}\\.eyJ[A-Za-z0-9_\\-]{4,}\\.[A-Za-z0-9_\\-]+"), false,
                    List.of("eyJ")),
            // a PEM private key, to its END line or, cut short, to the end of the text
            new Shape(Pattern.compile("-----BEGIN[A-Z ]*PRIVATE KEY-----(?:[\\s\\S]*?-----END[A-Z ]*PRIVATE KEY-----|[\\s\\S]*)"), false,
                    List.of("PRIVATE KEY")),
            // a header value: the rest of the token after the name (Bearer or Basic included); 8 characters at least, so that a
            // message showing the form ("Authorization: Bearer <key>") stays readable
            new Shape(Pattern.compile("(?i)(\\b(?:authorization|proxy-authorization|x-api-key|x-goog-api-key|api[-_]key|master_key|aws_secret_access_key|aws_session_token)\\b[\"']?\\s*[:=]\\s*[\"']?)"
                    + "(?:(?:bearer|basic)\\s+)?[^\\s\"',;<>]{8,}"), true, List.of("authorization", "api-key", "api_key", "master_key", "aws_s")),
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
