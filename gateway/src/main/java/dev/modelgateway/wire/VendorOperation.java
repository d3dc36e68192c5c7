package dev.modelgateway.wire;

import java.util.function.Function;

/**
 * One vendor call of an endpoint without {@code platform_options} (embeddings, images, image scales, speech,
 * transcriptions, token counting, stored responses), as data, the way {@link VendorCodec} is for chat: the request
 * for the deployment chosen, how its answer reaches the caller, and what a vendor error becomes. Made per call by
 * the wire format's operations ({@link Operations} picks the chosen deployment's); {@code call/OperationCall} runs every one
 * the same way. Pure.
 *
 * @param encoder the request for the chosen deployment's id of the model; it may copy or encode the whole caller
 *                body, so the runner calls it beside the event loop when the body is large
 * @param answer  how the vendor's 2xx answer reaches the caller, and its usage
 * @param errors  what a vendor's non-2xx answer becomes
 * @param payloadBytes the size of the caller's content the encoder copies when the request's JSON body size does not
 *                     tell it (a multipart form's parts, an image): with that size, it decides whether encoding runs
 *                     beside the event loop
 */
public record VendorOperation(Function<String, OperationRequest> encoder, OperationAnswer answer, VendorErrors errors,
                              long payloadBytes) implements DeploymentOperation {
    /** An operation on the caller's JSON body, or on none. */
    public VendorOperation(Function<String, OperationRequest> encoder, OperationAnswer answer, VendorErrors errors) {
        this(encoder, answer, errors, 0);
    }

    public OperationRequest encode(String upstreamModel) {
        return encoder.apply(upstreamModel);
    }
}
