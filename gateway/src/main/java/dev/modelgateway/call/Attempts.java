package dev.modelgateway.call;

import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.http.BodyWork;
import dev.modelgateway.http.Exchange;
import io.vertx.core.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.Callable;

/**
 * What an attempt that failed by the gateway's own bug becomes: logged once with its trace id, a plain 500 out;
 * and the body-sized work of an attempt, run beside the event loop for a large body.
 */
final class Attempts {
    private static final Logger LOG = LoggerFactory.getLogger(Attempts.class);

    private Attempts() {
    }

    /**
     * Copying, decoding or encoding the caller's body for an attempt, on a worker thread when the body is large
     * ({@link BodyWork}); the result comes back on the event loop. A refusal stays itself, a bug becomes a 500.
     */
    static <T> Future<T> bodyWork(Call call, Callable<T> work) {
        return bodyWork(call.exchange(), call.requestBytes(), work);
    }

    static <T> Future<T> bodyWork(Exchange ex, long requestBytes, Callable<T> work) {
        return BodyWork.run(ex.vertx(), requestBytes, work).recover(e -> Future.failedFuture(
                e instanceof RuntimeException r && !(e instanceof GatewayException) ? internal(ex, r) : e));
    }

    static GatewayException internal(Exchange ex, RuntimeException bug) {
        LOG.error("attempt failed by a gateway error, trace id {}", ex.traceId(), bug);
        return GatewayException.of(ErrorKind.INTERNAL,
                "The gateway failed to process the request; quote the X-Platform-Trace-Id header when reporting it.");
    }
}
