package dev.modelgateway.upstream;

import dev.modelgateway.config.VendorEndpoint;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;

/**
 * One HTTP call to a vendor. {@code path} is appended to the vendor's base URL, e.g.
 * {@code /chat/completions} for OpenAI, {@code /v1/messages} for Anthropic.
 *
 * @param idleTimeoutMs the longest silence tolerated from the vendor before the call is abandoned
 */
public record UpstreamRequest(VendorEndpoint endpoint, String path, MultiMap headers, Buffer body, long idleTimeoutMs) {
}
