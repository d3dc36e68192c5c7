package dev.modelgateway.server;

import dev.modelgateway.http.Caller;
import io.vertx.core.Future;

/** Turns a bearer token into a caller, or fails with a 401 {@code GatewayException}. */
@FunctionalInterface
public interface Authenticator {
    Future<Caller> authenticate(String bearerToken);
}
