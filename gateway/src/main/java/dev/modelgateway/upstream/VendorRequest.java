package dev.modelgateway.upstream;

import dev.modelgateway.config.VendorEndpoint;
import dev.modelgateway.routing.Deadline;
import dev.modelgateway.wire.OperationRequest;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;

/**
 * One HTTP call to a vendor. {@code path} is appended to the vendor's base URL, e.g.
 * {@code /chat/completions} for OpenAI, {@code /v1/messages} for Anthropic.
 *
 * @param deadline the call's time budget: when the attempt must be over, and the longest silence tolerated
 * @param method   POST for every generation; GET and DELETE reach vendor B's stored responses
 */
public record VendorRequest(VendorEndpoint endpoint, String path, MultiMap headers, Buffer body, Deadline deadline,
                            HttpMethod method) {
    /** The one way an operation's request ({@code wire/VendorOperation}) becomes a call to the chosen deployment. */
    public static VendorRequest of(VendorEndpoint endpoint, OperationRequest request, Deadline deadline) {
        MultiMap headers = MultiMap.caseInsensitiveMultiMap();
        request.headers().forEach(headers::set);
        return new VendorRequest(endpoint, request.path(), headers, request.body(), deadline, HttpMethod.valueOf(request.method()));
    }

    /** A POST. */
    public VendorRequest(VendorEndpoint endpoint, String path, MultiMap headers, Buffer body, Deadline deadline) {
        this(endpoint, path, headers, body, deadline, HttpMethod.POST);
    }
}
