package dev.modelgateway.relay;

/**
 * What a vendor's non-2xx answer becomes: on the native path it stays an {@link UpstreamError} (the body is
 * already in the caller's protocol); on the translated path the vendor codec turns it into a
 * {@code GatewayException}.
 */
@FunctionalInterface
public interface UpstreamErrorMapper {
    UpstreamErrorMapper NATIVE = e -> e;

    Throwable map(UpstreamError error);
}
