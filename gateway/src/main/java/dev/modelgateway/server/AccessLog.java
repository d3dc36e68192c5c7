package dev.modelgateway.server;

import dev.modelgateway.canonical.Usage;
import dev.modelgateway.http.Exchange;
import dev.modelgateway.observability.CallFacts;
import dev.modelgateway.observability.RequestTrace;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One line per request, written through {@link AccessLogAppender} (set up by {@code LogConfigurator}) once the request
 * has ended and its call has its record; as text, or as a JSON object per line ({@code GATEWAY_ACCESS_LOG_FORMAT=json},
 * docs/observability.md, "Access log"). The key's id is logged, never the key.
 */
final class AccessLog {
    private static final Logger LOG = LoggerFactory.getLogger("access");

    private AccessLog() {
    }

    static void write(RoutingContext ctx, Exchange ex, boolean json) {
        if (!LOG.isInfoEnabled()) return;
        long micros = (System.nanoTime() - ex.startNanos()) / 1_000;
        if (json) {
            LOG.info(json(ctx, ex, micros));
            return;
        }
        int status = ctx.response().getStatusCode();
        String refusal = status < 400 ? "" : " client=" + clientAddress(ctx) + " error=" + (ex.errorCode() == null ? "-" : ex.errorCode());
        LOG.info("{} {} {} {} {}us model={} key={}{}", ex.traceId(), clean(ctx.request().method().name()), clean(ctx.request().path()),
                status, micros, clean(ex.model()), ex.caller() == null ? "-" : clean(ex.caller().keyId()), refusal);
    }

    /** Who was refused: the peer's address (a proxy's, behind one), for an operator tracing abuse. */
    private static String clientAddress(RoutingContext ctx) {
        return ctx.request().remoteAddress() == null ? null : ctx.request().remoteAddress().hostAddress();
    }

    /** The JSON line: strings are escaped by the encoder, so no caller's byte can forge a line. */
    static String json(RoutingContext ctx, Exchange ex, long micros) {
        RequestTrace trace = ex.trace();
        JsonObject line = new JsonObject()
                .put("ts", Instant.now().toString())
                .put("trace_id", ex.traceId())
                .put("span_id", trace.spanId())
                .put("method", ctx.request().method().name())
                .put("route", trace.route())
                .put("path", clean(ctx.request().path()))
                .put("status", ctx.response().getStatusCode())
                .put("latency_ms", micros / 1000.0)
                .put("key_id", ex.caller() == null ? null : ex.caller().keyId())
                .put("model", ex.model());
        if (ctx.response().getStatusCode() >= 400) {
            line.put("client_address", clientAddress(ctx)).put("error_code", ex.errorCode());
        }
        CallFacts f = trace.facts();
        if (f != null) {
            Usage u = f.usage() == null ? Usage.ZERO : f.usage();
            line.put("answered_model", f.answeredModel())
                    .put("vendor", f.vendor())
                    .put("attempts", f.attempts())
                    .put("ttft_ms", f.ttftMs())
                    .put("tokens", new JsonObject()
                            .put("input", u.inputTokens())
                            .put("cache_read", u.cacheReadTokens())
                            .put("cache_write", u.cacheWriteTokens())
                            .put("output", u.outputTokens())
                            .put("reasoning", u.reasoningTokens()))
                    .put("cost_usd", f.costUsd());
        }
        return line.encode();
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
