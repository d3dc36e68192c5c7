package dev.modelgateway.upstream;

import dev.modelgateway.error.GatewayException;
import io.vertx.core.Context;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The vendor calls that callers are waiting on, all event loops together, so that a shutdown's drain can end those
 * still running at its deadline (docs/operations/shutdown-and-rollouts.md). Each call ends as its caller's protocol
 * ends an answer the gateway gives up on: a stream with its error event, an answer not begun with the error in the
 * caller's shape, a binary answer broken off; each on its own event loop. A call that starts after the deadline
 * (a retry that was waiting out its backoff) is ended as it starts.
 */
public final class CallsInFlight {
    private final Set<Call> calls = ConcurrentHashMap.newKeySet();
    private volatile GatewayException ending;

    /** One call, ended on the event loop that runs it. */
    private record Call(Context context, Consumer<GatewayException> end) {
        void end(GatewayException reason) {
            context.runOnContext(v -> end.accept(reason));
        }
    }

    /**
     * Adds a call running on {@code context}; {@code end} must end it at most once, however often it is asked.
     *
     * @return what removes it once it is over
     */
    Runnable add(Context context, Consumer<GatewayException> end) {
        Call call = new Call(context, end);
        calls.add(call);
        // read after the add: either the sweep of endAll sees this call, or this sees its reason (or both)
        GatewayException reason = ending;
        if (reason != null) call.end(reason);
        return () -> calls.remove(call);
    }

    /** Ends every call in flight, and every one added from now on, with {@code reason}; returns how many were running. */
    public int endAll(GatewayException reason) {
        ending = reason;
        int n = 0;
        for (Call call : calls) {
            call.end(reason);
            n++;
        }
        return n;
    }

    /** Calls in flight now. */
    public int size() {
        return calls.size();
    }
}
