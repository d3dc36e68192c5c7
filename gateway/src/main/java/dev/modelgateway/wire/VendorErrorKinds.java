package dev.modelgateway.wire;

import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;

import java.util.Map;

/** Status-first mapping of vendor errors (vendor type strings are not portable; HTTP statuses are). */
public final class VendorErrorKinds {
    private VendorErrorKinds() { }

    public static ErrorKind kindFor(int status) {
        return switch (status) {
            case 400, 409, 422 -> ErrorKind.INVALID_REQUEST;
            case 401 -> ErrorKind.AUTHENTICATION;
            case 402 -> ErrorKind.RATE_LIMIT;
            case 403 -> ErrorKind.PERMISSION;
            case 404 -> ErrorKind.NOT_FOUND;
            case 413 -> ErrorKind.REQUEST_TOO_LARGE;
            case 429 -> ErrorKind.RATE_LIMIT;
            case 503 -> ErrorKind.UNAVAILABLE;
            case 504 -> ErrorKind.TIMEOUT;
            case 529 -> ErrorKind.OVERLOADED;
            default -> status >= 500 ? ErrorKind.UPSTREAM : ErrorKind.INVALID_REQUEST;
        };
    }

    public static GatewayException of(int status, String message, String param, String code, Map<String, String> headers) {
        return GatewayException.of(kindFor(status), message)
                .withStatus(status).withParam(param).withCode(code).withHeaders(headers);
    }
}
