package dev.modelgateway.upstream;

import dev.modelgateway.sse.SseEvent;
import dev.modelgateway.wire.CallerFrames;
import io.netty.buffer.ByteBuf;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.buffer.BufferInternal;

/**
 * What the caller gets for the upstream reads of a stream since it was last {@link #take() taken}. A native
 * stream relays its events unchanged: while the relayed events lie back to back in the read exactly as they
 * would be written ({@link SseEvent#frameStartIn}), nothing is copied, and the caller gets that part of the
 * read itself (docs/performance.md, "CPU per request"). Anything else (a frame a tap writes, an event a tap
 * leaves out or whose bytes differ) goes into a buffer, the run kept so far copied in first, so the order holds.
 * Not thread-safe: one per stream, used on its event loop.
 */
public final class RelayedFrames implements CallerFrames {
    private Buffer read;
    /** The read's bytes: {@code array[from, to)}, {@code array} null when they are not in one. */
    private byte[] array;
    private int arrayOffset;
    private int from;
    private int to;
    /** The run of relayed frames not copied, {@code array[runStart, runEnd)}; none while runStart < 0. */
    private int runStart = -1;
    private int runEnd;
    private Buffer copied;
    private int copiedSize = 256;

    /**
     * The room a copy of one read's frames starts with: about what came (the same bytes natively, a translation
     * of them otherwise).
     */
    public static int copyRoom(int readBytes) {
        return Math.max(readBytes + (readBytes >> 2) + 64, 256);
    }

    /** The frames that follow come from this read. */
    public void read(Buffer read) {
        copyRun(); // a run not taken yet stays first, copied
        this.read = read;
        this.array = null;
        this.copiedSize = copyRoom(read.length());
        if (read instanceof BufferInternal internal) {
            ByteBuf buf = internal.unwrap();
            if (buf.hasArray()) {
                array = buf.array();
                arrayOffset = buf.arrayOffset();
                from = arrayOffset + buf.readerIndex();
                to = from + buf.readableBytes();
            }
        }
    }

    /** No read: what follows (the stream's end, an error) is written by the gateway. */
    public void noRead() {
        copyRun();
        read = null;
        array = null;
    }

    @Override
    public void relay(SseEvent event) {
        if (copied == null && array != null) {
            int start = event.frameStartIn(array, from, to);
            if (start >= 0 && (runStart < 0 || start == runEnd)) {
                if (runStart < 0) runStart = start;
                runEnd = event.frameEnd();
                return;
            }
        }
        event.appendFrame(buffer());
    }

    @Override
    public Buffer buffer() {
        if (copied == null) copied = Buffer.buffer(copiedSize);
        copyRun();
        return copied;
    }

    /** Everything since the last take, null if nothing; what follows starts afresh. */
    public Buffer take() {
        Buffer frames = copied;
        if (frames == null && runStart >= 0) {
            frames = runStart == from && runEnd == to ? read
                    : read.slice(runStart - arrayOffset, runEnd - arrayOffset);
        }
        copied = null;
        runStart = -1;
        return frames;
    }

    private void copyRun() {
        if (runStart < 0) return;
        if (copied == null) copied = Buffer.buffer(Math.max(copiedSize, runEnd - runStart));
        copied.appendBytes(array, runStart, runEnd - runStart);
        runStart = -1;
    }
}
