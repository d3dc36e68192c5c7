package dev.modelgateway.server;

import dev.modelgateway.http.Exchange;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One line per request, written through logback's asynchronous appender (see logback.xml). */
final class AccessLog {
    private static final Logger LOG = LoggerFactory.getLogger("access");

    private AccessLog() {
    }

    static void write(RoutingContext ctx, Exchange ex) {
        if (!LOG.isInfoEnabled()) return;
        long micros = (System.nanoTime() - ex.startNanos()) / 1_000;
        LOG.info("{} {} {} {} {}us model={} key={}", ex.traceId(), ctx.request().method(), ctx.request().path(),
                ctx.response().getStatusCode(), micros, ex.model(), ex.caller() == null ? "-" : ex.caller().keyId());
    }
}
