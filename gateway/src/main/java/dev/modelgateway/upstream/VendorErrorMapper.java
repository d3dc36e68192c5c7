package dev.modelgateway.upstream;

import dev.modelgateway.error.VendorError;

/**
 * What a vendor's non-2xx answer becomes: on the native path it stays an {@link VendorError} (the body is
 * already in the caller's protocol); on the translated path the vendor codec turns it into a
 * {@code GatewayException}.
 */
@FunctionalInterface
public interface VendorErrorMapper {
    VendorErrorMapper NATIVE = e -> e;

    Throwable map(VendorError error);
}
