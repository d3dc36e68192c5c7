package dev.modelgateway.routing;

import java.util.concurrent.atomic.AtomicReference;

/**
 * The routes in force, swapped whole by a reload (docs/configuration.md, "Hot reload"): a request reads them once per
 * decision, and a call in flight keeps the deployment, and the stream, it was given.
 */
public final class RoutingTable {
    private final AtomicReference<Routes> current;

    public RoutingTable(Routes initial) {
        initial.configureBreakers();
        this.current = new AtomicReference<>(initial);
    }

    public Routes current() {
        return current.get();
    }

    public void replace(Routes next) {
        next.configureBreakers();
        current.set(next);
    }
}
