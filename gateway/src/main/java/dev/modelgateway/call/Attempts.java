package dev.modelgateway.call;

import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.http.Exchange;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** What an attempt that failed by the gateway's own bug becomes: logged once with its trace id, a plain 500 out. */
final class Attempts {
    private static final Logger LOG = LoggerFactory.getLogger(Attempts.class);

    private Attempts() {
    }

    static GatewayException internal(Exchange ex, RuntimeException bug) {
        LOG.error("attempt failed by a gateway error, trace id {}", ex.traceId(), bug);
        return GatewayException.of(ErrorKind.INTERNAL,
                "The gateway failed to process the request; quote the X-Platform-Trace-Id header when reporting it.");
    }
}
