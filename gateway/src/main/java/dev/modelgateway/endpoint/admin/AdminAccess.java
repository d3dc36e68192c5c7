package dev.modelgateway.endpoint.admin;

import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.http.Exchange;
import io.vertx.ext.web.RoutingContext;

import java.util.function.BooleanSupplier;

/**
 * The one rule of every admin route, the console's included: the bearer authentication before it has answered 401
 * for no key or an unknown one; a valid key without the master key's right is a 403.
 */
public final class AdminAccess {
    /** Whether a master key is in force now: a reload may set the first one. */
    private final BooleanSupplier masterKeyConfigured;

    public AdminAccess(BooleanSupplier masterKeyConfigured) {
        this.masterKeyConfigured = masterKeyConfigured;
    }

    /** Passes the master key on to the route's handler; answers 403 to any other key. */
    public void masterOnly(RoutingContext ctx) {
        if (Exchange.of(ctx).caller().key().master()) {
            ctx.next();
            return;
        }
        Exchange.fail(ctx, GatewayException.of(ErrorKind.PERMISSION, masterKeyConfigured.getAsBoolean() ? "Admin routes need the master key."
                : "The admin API is disabled: no master key is configured.").withCode("master_key_required"));
    }
}
