package dev.modelgateway.upstream;

import io.vertx.core.buffer.Buffer;

/**
 * How an upstream stream's reads become the SSE the taps read: unchanged for the vendors' own APIs; decoded from
 * AWS's binary event stream for Bedrock (docs/clouds.md, "The event stream becomes SSE"). Stateful, one per stream.
 */
interface StreamFraming {
    StreamFraming SSE = read -> read;

    /**
     * The SSE bytes of one upstream read (possibly empty while a frame is incomplete).
     *
     * @throws dev.modelgateway.error.GatewayException when the vendor reported a failure in the stream (an AWS
     *                                                 exception frame) or the framing is broken
     */
    Buffer toSse(Buffer read);
}
