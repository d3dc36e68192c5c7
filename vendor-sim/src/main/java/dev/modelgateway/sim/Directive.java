package dev.modelgateway.sim;

/**
 * A parsed {@code [[sim:key=value;flag]]} fault/behaviour directive. Unset numeric fields are -1.
 * {@code text} is the raw directive body and keys the {@code times} counter.
 */
record Directive(String text, int status, long retryAfter, long retryAfterMs, int times, long delayMs,
                 long chunkDelayMs, int chunks, int disconnectAfter, int errorAfter, boolean malformed,
                 int parallelTools, boolean redacted) {

    static final Directive NONE = parse("");
    private static final String OPEN = "[[sim:";

    /** Finds the first directive in a raw request body; NONE if there is none. */
    static Directive find(String rawBody) {
        if (rawBody == null) return NONE;
        int start = rawBody.indexOf(OPEN);
        if (start < 0) return NONE;
        int end = rawBody.indexOf("]]", start + OPEN.length());
        if (end < 0) return NONE;
        // Some JSON encoders escape '=' (e.g. Gson's \u003d); undo that so the directive still parses.
        String text = rawBody.substring(start + OPEN.length(), end).replace("\\u003d", "=").replace("\\u003D", "=");
        return parse(text);
    }

    static Directive parse(String text) {
        int status = -1, times = -1, chunks = -1, disconnect = -1, errorAfter = -1, parallel = -1;
        long retryAfter = -1, retryAfterMs = -1, delay = -1, chunkDelay = -1;
        boolean malformed = false, redacted = false;
        for (String item : text.split(";")) {
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
                    default -> { } // unknown keys are ignored so newer tests do not break older sims
                }
            } catch (NumberFormatException ignored) {
                // a malformed number simply leaves the key unset
            }
        }
        return new Directive(text, status, retryAfter, retryAfterMs, times, delay, chunkDelay, chunks,
                disconnect, errorAfter, malformed, parallel, redacted);
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
        return new Directive(text, -1, -1, -1, -1, -1, -1, chunks, -1, -1, false, parallelTools, redacted);
    }
}
