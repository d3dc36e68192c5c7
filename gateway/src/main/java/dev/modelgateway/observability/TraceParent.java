package dev.modelgateway.observability;

/**
 * The W3C Trace Context {@code traceparent} header when no SDK reads it (tracing off): version {@code 00}, a 32-hex
 * trace id and a 16-hex parent id, neither all zeros, and 2-hex flags (www.w3.org/TR/trace-context, "traceparent").
 */
final class TraceParent {
    static final String HEADER = "traceparent";
    static final String STATE_HEADER = "tracestate";

    private TraceParent() {
    }

    /** The trace id of a valid header, else null. */
    static String traceId(String header) {
        if (header == null || header.length() != 55) return null;
        if (header.charAt(0) != '0' || header.charAt(1) != '0' || header.charAt(2) != '-' || header.charAt(35) != '-'
                || header.charAt(52) != '-') return null;
        if (!hex(header, 3, 35) || !hex(header, 36, 52) || !hex(header, 53, 55)) return null;
        if (zeros(header, 3, 35) || zeros(header, 36, 52)) return null;
        return header.substring(3, 35);
    }

    private static boolean hex(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) return false;
        }
        return true;
    }

    private static boolean zeros(String s, int from, int to) {
        for (int i = from; i < to; i++) if (s.charAt(i) != '0') return false;
        return true;
    }
}
