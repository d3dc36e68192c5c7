package dev.modelgateway.wire;

import dev.modelgateway.canonical.Usage;
import dev.modelgateway.error.GatewayException;
import io.vertx.core.buffer.Buffer;

/** What every stream tap keeps: the usage seen so far, and whether (and how) the stream has ended. */
public abstract class TapState implements StreamTap {
    protected Usage usage = Usage.ZERO;
    private boolean complete;
    private boolean failed;

    protected final void ended() {
        complete = true;
    }

    protected final void endedWithError() {
        complete = true;
        failed = true;
    }

    @Override
    public final boolean complete() {
        return complete;
    }

    @Override
    public final boolean failed() {
        return failed;
    }

    @Override
    public final Usage usage() {
        return usage;
    }

    @Override
    public final void appendError(GatewayException error, Buffer out) {
        endedWithError();
        writeError(error, out);
    }

    /** Writes this protocol's own error event. */
    protected abstract void writeError(GatewayException error, Buffer out);
}
