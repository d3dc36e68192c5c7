package dev.modelgateway.wire;

import dev.modelgateway.error.GatewayException;
import dev.modelgateway.error.VendorError;

import java.util.function.Function;

/** What a vendor's non-2xx answer to an operation becomes for the caller. */
public sealed interface VendorErrors {
    /** The vendor speaks the caller's format already: its error is relayed as it came (the native path's rule). */
    VendorErrors AS_SENT = new AsSent();

    record AsSent() implements VendorErrors {
    }

    /** Another vendor's error, turned into the caller's shape by that vendor's codec ({@link VendorCodec#decodeError}). */
    record Decoded(VendorCodec codec) implements VendorErrors {
    }

    /**
     * An error that only the whole answer tells, headers included (Bedrock names its error type in
     * {@code x-amzn-ErrorType} and may send a {@code {}} body): mapped by the vendor's own function.
     */
    record Mapped(Function<VendorError, GatewayException> map) implements VendorErrors {
    }
}
