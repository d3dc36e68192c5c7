package dev.modelgateway.upstream;

import dev.modelgateway.config.ProviderType;
import dev.modelgateway.config.VendorEndpoint;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.wire.bedrock.EventStreamSse;
import io.vertx.core.buffer.Buffer;

/**
 * How an upstream stream's reads become the SSE the taps read: unchanged for the vendors' own APIs; decoded from
 * AWS's binary event stream for Bedrock (docs/clouds.md, "The event stream becomes SSE"). Stateful, one per stream.
 */
interface StreamFraming {
    StreamFraming SSE = read -> read;

    /** The framing of a stream from {@code endpoint}: Bedrock's event stream (Invoke's chunks or Converse's events), else SSE. */
    static StreamFraming of(VendorEndpoint endpoint, int maxEventBytes) {
        if (endpoint.type() != ProviderType.BEDROCK) return SSE;
        String region = endpoint.cloud().account().region();
        EventStreamSse sse = endpoint.converse() ? EventStreamSse.converse(maxEventBytes, region)
                : EventStreamSse.invoke(maxEventBytes, region);
        return new StreamFraming() {
            @Override
            public Buffer toSse(Buffer read) {
                return sse.convert(read);
            }

            @Override
            public GatewayException pending() {
                return sse.pending();
            }
        };
    }

    /**
     * Whether a 2xx answer on a stream endpoint is not the stream it should be: Bedrock answers some failures with a
     * JSON body (LiteLLM PR #28551 read one as a "ChecksumMismatch"); it is an error, read as one.
     */
    static boolean notAStream(VendorEndpoint endpoint, String contentType) {
        return endpoint.type() == ProviderType.BEDROCK && contentType != null && !EventStreamSse.isEventStream(contentType);
    }

    /**
     * The SSE bytes of one upstream read (possibly empty while a frame is incomplete).
     *
     * @throws dev.modelgateway.error.GatewayException when the vendor reported a failure in the stream (an AWS
     *                                                 exception frame) or the framing is broken
     */
    Buffer toSse(Buffer read);

    /** The failure the last read ended on after the events {@link #toSse} returned, once; null when none. */
    default GatewayException pending() {
        return null;
    }
}
