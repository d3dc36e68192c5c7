package dev.modelgateway.wire;

import dev.modelgateway.canonical.Usage;
import dev.modelgateway.error.GatewayException;
import io.vertx.core.buffer.Buffer;

/**
 * What every stream tap keeps: the usage seen so far, whether the vendor has reported its final figure, the text
 * relayed meanwhile (native taps), and whether (and how) the stream has ended.
 */
public abstract class TapState implements StreamTap {
    protected Usage usage = Usage.ZERO;
    /** The relayed text, for a stream cut before the vendor's usage; null where usage is known otherwise. */
    protected final RelayedText relayed;
    private boolean reported;
    private boolean complete;
    private boolean failed;

    protected TapState(RelayedText relayed) {
        this.relayed = relayed;
    }

    /** The vendor's own figure for the whole answer arrived: it is what the ledger bills. */
    protected final void reported(Usage whole) {
        usage = whole;
        reported = true;
    }

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
    public final RelayedText unbilled() {
        return reported ? null : relayed;
    }

    @Override
    public final void appendError(GatewayException error, Buffer out) {
        endedWithError();
        writeError(error, out);
    }

    /** Writes this protocol's own error event. */
    protected abstract void writeError(GatewayException error, Buffer out);
}
