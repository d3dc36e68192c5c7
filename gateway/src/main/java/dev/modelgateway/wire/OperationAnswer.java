package dev.modelgateway.wire;

import dev.modelgateway.canonical.Usage;
import dev.modelgateway.error.GatewayException;
import io.vertx.core.buffer.Buffer;

/** How an operation's 2xx answer reaches the caller: a JSON body decoded whole, or bytes piped as they come. */
public sealed interface OperationAnswer {
    /** The vendor's JSON body turned into the caller's, with its usage. */
    record Json(Decoder decoder) implements OperationAnswer {
    }

    /**
     * The vendor's bytes piped to the caller with its content type (audio, text transcripts), chunk by chunk;
     * {@code usage} is known before the call, the body carrying none the gateway reads.
     */
    record Bytes(Usage usage) implements OperationAnswer {
    }

    /** The caller's body and the call's usage. */
    record Decoded(Buffer body, Usage usage) {
    }

    @FunctionalInterface
    interface Decoder {
        /** @throws GatewayException when the vendor's body is unusable (e.g. {@link VendorJson#object}) */
        Decoded decode(Buffer vendorBody);
    }
}
