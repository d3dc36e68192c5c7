package dev.modelgateway.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.config.Vendor;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Json;
import io.vertx.core.buffer.Buffer;

import java.util.Set;

/** The one check of a vendor's 2xx JSON answer, whatever the path (native, translated, operation): a 502 when it is not JSON. */
public final class VendorJson {
    private VendorJson() {
    }

    /** @throws GatewayException 502 when the body is not JSON */
    public static JsonNode parse(Buffer body, Vendor vendor) {
        JsonNode parsed = Json.parseOrNull(body);
        if (parsed == null) throw invalid(vendor);
        return parsed;
    }

    /** @throws GatewayException 502 when the body is not a JSON object */
    public static ObjectNode object(Buffer body, Vendor vendor) {
        if (Json.parseOrNull(body) instanceof ObjectNode o) return o;
        throw invalid(vendor);
    }

    /**
     * Only the top-level {@code fields} of the answer ({@link Json#parseFields}: the rest is checked, never built).
     *
     * @throws GatewayException 502 when the body is not JSON
     */
    public static ObjectNode fields(Buffer body, Set<String> fields, Vendor vendor) {
        ObjectNode parsed = Json.parseFields(body, fields);
        if (parsed == null) throw invalid(vendor);
        return parsed;
    }

    private static GatewayException invalid(Vendor vendor) {
        return GatewayException.of(ErrorKind.UPSTREAM, "Vendor '" + vendor.id() + "' returned invalid JSON.");
    }
}
