package dev.modelgateway.sse;

/**
 * One server-sent event. {@code event} is null when the stream has only {@code data:} lines
 * (chat completions); {@code data} is the joined data lines without the trailing newline.
 */
public record SseEvent(String event, String data) {
}
