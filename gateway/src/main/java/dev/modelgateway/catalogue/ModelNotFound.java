package dev.modelgateway.catalogue;

import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;

/** The 404 every resolution failure becomes; the message always says what to send instead when we know. */
final class ModelNotFound {
    private ModelNotFound() {
    }

    static GatewayException because(String message) {
        return GatewayException.of(ErrorKind.NOT_FOUND, message).withParam("model").withCode("model_not_found");
    }
}
