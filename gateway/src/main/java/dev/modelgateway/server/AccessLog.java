package dev.modelgateway.server;

import dev.modelgateway.http.Exchange;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One line per request, written through {@link AccessLogAppender} (set up by {@code LogConfigurator}). */
final class AccessLog {
    private static final Logger LOG = LoggerFactory.getLogger("access");

    private AccessLog() {
    }

    static void write(RoutingContext ctx, Exchange ex) {
        if (!LOG.isInfoEnabled()) return;
        long micros = (System.nanoTime() - ex.startNanos()) / 1_000;
        LOG.info("{} {} {} {} {}us model={} key={}", ex.traceId(), clean(ctx.request().method().name()), clean(ctx.request().path()),
                ctx.response().getStatusCode(), micros, clean(ex.model()), ex.caller() == null ? "-" : clean(ex.caller().keyId()));
    }

    /**
     * The caller's bytes made safe for one log line: control characters (CR, LF, ESC, NUL, DEL, the C1 range)
     * and the Unicode line separators U+2028/U+2029 become hex escapes, and a backslash is doubled, so
     * a path or a model name cannot forge a line or drive a terminal.
     */
    static String clean(String s) {
        if (s == null) return null;
        StringBuilder out = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            String escaped = c < 0x20 || c == 0x7f || c >= 0x80 && c < 0xa0 ? String.format("\\x%02x", (int) c)
                    : c == '\u2028' || c == '\u2029' ? String.format("\\u%04x", (int) c)
                    : c == '\\' ? "\\\\" : null;
            if (escaped != null && out == null) out = new StringBuilder(s.length() + 8).append(s, 0, i);
            if (out != null) {
                if (escaped != null) out.append(escaped);
                else out.append(c);
            }
        }
        return out == null ? s : out.toString();
    }
}
