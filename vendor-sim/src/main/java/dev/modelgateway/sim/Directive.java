package dev.modelgateway.sim;

/**
 * A parsed {@code [[sim:key=value;flag]]} fault/behaviour directive. Unset numeric fields are -1, unset
 * {@code tool} and {@code args} null. {@code text} is the directive body (JSON string escapes undone) and keys
 * the {@code times} counter.
 */
record Directive(String text, int status, long retryAfter, long retryAfterMs, int times, long delayMs,
                 long chunkDelayMs, int chunks, int disconnectAfter, int errorAfter, boolean malformed,
                 int parallelTools, boolean redacted, String tool, String args) {

    static final Directive NONE = parse("");
    /** {@code tool=none}: answer in text although tools are declared. */
    static final String NO_TOOL = "none";
    private static final String OPEN = "[[sim:";
    /** {@code args=} takes the rest of the directive, so that its JSON may contain ';' and '='. */
    private static final String ARGS = "args=";

    /** Finds the first directive in a raw request body; NONE if there is none. */
    static Directive find(String rawBody) {
        if (rawBody == null) return NONE;
        int start = rawBody.indexOf(OPEN);
        if (start < 0) return NONE;
        int end = rawBody.indexOf("]]", start + OPEN.length());
        if (end < 0) return NONE;
        // The directive sits inside a JSON string in every vendor format: undo the escapes (quotes of an
        // args JSON, and encoders such as Gson that escape '=' as \u003d) so the directive still parses.
        return parse(unescape(rawBody.substring(start + OPEN.length(), end)));
    }

    static Directive parse(String text) {
        int status = -1, times = -1, chunks = -1, disconnect = -1, errorAfter = -1, parallel = -1;
        long retryAfter = -1, retryAfterMs = -1, delay = -1, chunkDelay = -1;
        boolean malformed = false, redacted = false;
        String tool = null, args = null;
        String keys = text;
        int argsAt = text.startsWith(ARGS) ? 0 : text.indexOf(";" + ARGS);
        if (argsAt >= 0) {
            int value = text.indexOf(ARGS, argsAt) + ARGS.length();
            args = text.substring(value).trim();
            keys = text.substring(0, argsAt);
        }
        for (String item : keys.split(";")) {
            String kv = item.trim();
            if (kv.isEmpty()) continue;
            int eq = kv.indexOf('=');
            String key = eq < 0 ? kv : kv.substring(0, eq).trim();
            String value = eq < 0 ? "" : kv.substring(eq + 1).trim();
            try {
                switch (key) {
                    case "status" -> status = Integer.parseInt(value);
                    case "retry_after" -> retryAfter = Long.parseLong(value);
                    case "retry_after_ms" -> retryAfterMs = Long.parseLong(value);
                    case "times" -> times = Integer.parseInt(value);
                    case "delay_ms" -> delay = Long.parseLong(value);
                    case "chunk_delay_ms" -> chunkDelay = Long.parseLong(value);
                    case "chunks" -> chunks = Integer.parseInt(value);
                    case "disconnect_after" -> disconnect = Integer.parseInt(value);
                    case "error_after" -> errorAfter = Integer.parseInt(value);
                    case "malformed" -> malformed = true;
                    case "parallel_tools" -> parallel = Integer.parseInt(value);
                    case "redacted" -> redacted = true;
                    case "tool" -> tool = value;
                    default -> { } // unknown keys are ignored so newer tests do not break older sims
                }
            } catch (NumberFormatException ignored) {
                // a malformed number simply leaves the key unset
            }
        }
        return new Directive(text, status, retryAfter, retryAfterMs, times, delay, chunkDelay, chunks,
                disconnect, errorAfter, malformed, parallel, redacted, tool, args);
    }

    /** JSON string escapes undone; text that is not inside a JSON string (multipart fields) has none. */
    private static String unescape(String s) {
        if (s.indexOf('\\') < 0) return s;
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '\\' || i + 1 == s.length()) {
                out.append(c);
                continue;
            }
            char e = s.charAt(++i);
            switch (e) {
                case 'n' -> out.append('\n');
                case 't' -> out.append('\t');
                case 'r' -> out.append('\r');
                case 'u' -> {
                    Integer code = i + 4 < s.length() ? hex(s.substring(i + 1, i + 5)) : null;
                    if (code == null) {
                        out.append(e);
                    } else {
                        out.append((char) code.intValue());
                        i += 4;
                    }
                }
                default -> out.append(e);
            }
        }
        return out.toString();
    }

    private static Integer hex(String four) {
        try {
            return Integer.parseInt(four, 16);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    boolean isNone() {
        return text.isEmpty();
    }

    /** True when the directive perturbs the transport or status (as opposed to shaping the answer). */
    boolean isFault() {
        return status > 0 || delayMs > 0 || chunkDelayMs > 0 || disconnectAfter >= 0 || errorAfter >= 0 || malformed;
    }

    /** The same directive with all faults removed, keeping answer-shaping keys (chunks, tools, redacted). */
    Directive withoutFaults() {
        return new Directive(text, -1, -1, -1, -1, -1, -1, chunks, -1, -1, false, parallelTools, redacted, tool, args);
    }
}
