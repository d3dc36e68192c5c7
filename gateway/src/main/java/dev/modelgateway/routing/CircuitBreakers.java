package dev.modelgateway.routing;

import dev.modelgateway.config.VendorEndpoint;

import java.util.Map;
import java.util.function.BiConsumer;
import java.util.concurrent.ConcurrentHashMap;

/** One {@link CircuitBreaker} per vendor deployment (vendor + base URL), shared by the gateway's event loops. */
public final class CircuitBreakers {
    private final CircuitBreaker.Thresholds thresholds;
    private final Map<String, CircuitBreaker> byDeployment = new ConcurrentHashMap<>();

    public CircuitBreakers(CircuitBreaker.Thresholds thresholds) {
        this.thresholds = thresholds;
    }

    public CircuitBreaker of(VendorEndpoint endpoint) {
        return byDeployment.computeIfAbsent(endpoint.vendor().id() + " " + endpoint.baseUrl(),
                k -> new CircuitBreaker(thresholds));
    }

    /** Each deployment's breaker, by "vendor base-URL" (the breaker-state metric). */
    public void forEach(BiConsumer<String, CircuitBreaker> each) {
        byDeployment.forEach(each);
    }
}
