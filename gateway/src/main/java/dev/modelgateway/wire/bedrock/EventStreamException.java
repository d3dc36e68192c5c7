package dev.modelgateway.wire.bedrock;

/**
 * The event stream cannot be read on: a prelude or message CRC32 that does not match, lengths that cannot be, a header
 * of an unknown type, or a frame above the size cap. Boundaries are lost after it, so the stream is over;
 * {@link EventStreamSse} turns it into the vendor's failure.
 */
public final class EventStreamException extends RuntimeException {
    public EventStreamException(String message) {
        super(message, null, false, false);
    }
}
