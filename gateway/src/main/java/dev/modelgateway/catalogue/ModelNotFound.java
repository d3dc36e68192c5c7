package dev.modelgateway.catalogue;

import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;

/** The 404 every resolution failure becomes; the message always says what to send instead when we know. */
final class ModelNotFound {
    private ModelNotFound() {
    }

    static GatewayException because(String message) {
        return new GatewayException(404, ErrorKind.NOT_FOUND, message, "model", "model_not_found", null);
    }
}
