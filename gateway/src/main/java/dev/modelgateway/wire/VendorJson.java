package dev.modelgateway.wire;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.config.Vendor;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Json;
import io.vertx.core.buffer.Buffer;

/** The one check of the operations' answers: a vendor's 2xx body must be a JSON object. */
public final class VendorJson {
    private VendorJson() {
    }

    /** @throws GatewayException 502 when the body is not a JSON object */
    public static ObjectNode object(Buffer body, Vendor vendor) {
        if (Json.parseOrNull(body) instanceof ObjectNode o) return o;
        throw GatewayException.of(ErrorKind.UPSTREAM, "Vendor '" + vendor.id() + "' returned invalid JSON.");
    }
}
