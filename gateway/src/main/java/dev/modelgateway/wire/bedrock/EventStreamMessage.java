package dev.modelgateway.wire.bedrock;

import java.util.Map;

/**
 * One message of an AWS event stream: its headers (values as Java types: {@code Boolean}, {@code Byte},
 * {@code Short}, {@code Integer}, {@code Long}, {@code byte[]}, {@code String}, {@code java.time.Instant} for a
 * timestamp, {@code java.util.UUID}) in the order they came, and its payload.
 */
public record EventStreamMessage(Map<String, Object> headers, byte[] payload) {
    public EventStreamMessage {
        headers = java.util.Collections.unmodifiableMap(headers);
    }

    /** {@code :message-type}: {@code event}, {@code exception} or {@code error}. */
    public String messageType() {
        return text(":message-type");
    }

    /** {@code :event-type} of an event ({@code chunk} on InvokeModelWithResponseStream, Converse's event names). */
    public String eventType() {
        return text(":event-type");
    }

    /** {@code :exception-type} of an exception ({@code throttlingException}, {@code modelStreamErrorException}, …). */
    public String exceptionType() {
        return text(":exception-type");
    }

    /** {@code :content-type} of the payload, usually {@code application/json}. */
    public String contentType() {
        return text(":content-type");
    }

    /** The header's value when it is a string, else null. */
    public String text(String header) {
        return headers.get(header) instanceof String s ? s : null;
    }
}
