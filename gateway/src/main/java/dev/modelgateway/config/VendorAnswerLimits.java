package dev.modelgateway.config;

/**
 * Caps on what a vendor sends back, so that a broken or hostile vendor cannot exhaust the gateway's memory or
 * hold a response open for ever (docs/configuration.md, "Server limits"). Far above any legitimate answer.
 *
 * @param maxAnswerBytes   a JSON (or error) answer read whole: past it the attempt fails with a 502
 * @param maxStreamSeconds a streamed answer's whole duration, SSE or binary (speech audio): past it an SSE
 *                         stream ends with the protocol's error event, a binary one is cut off
 * @param maxEventBytes    one SSE event (the bytes between two events): past it the stream ends the same way
 */
public record VendorAnswerLimits(long maxAnswerBytes, long maxStreamSeconds, long maxEventBytes) {
    /** 64 MiB answers, 30-minute streams, 16 MiB events. */
    public static final VendorAnswerLimits DEFAULT = new VendorAnswerLimits(64L * 1024 * 1024, 30L * 60, 16L * 1024 * 1024);

    public VendorAnswerLimits {
        if (maxAnswerBytes <= 0) throw new IllegalArgumentException("server.max_vendor_answer_bytes must be positive, got " + maxAnswerBytes);
        if (maxStreamSeconds <= 0) {
            throw new IllegalArgumentException("server.max_vendor_stream_seconds must be positive, got " + maxStreamSeconds);
        }
        if (maxEventBytes <= 0) throw new IllegalArgumentException("server.max_vendor_event_bytes must be positive, got " + maxEventBytes);
    }

    public long maxStreamMs() {
        return maxStreamSeconds * 1000;
    }
}
