package dev.modelgateway.upstream;

import dev.modelgateway.canonical.Usage;
import dev.modelgateway.error.GatewayException;
import io.vertx.core.buffer.Buffer;

/** Turns a vendor's successful JSON body into what the caller receives, and reads its usage. */
@FunctionalInterface
public interface JsonAnswer {
    record Answer(Buffer body, Usage usage) {
    }

    /** @throws GatewayException when the vendor's body is unusable */
    Answer answer(Buffer vendorBody);
}
