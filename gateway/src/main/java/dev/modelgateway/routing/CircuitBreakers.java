package dev.modelgateway.routing;

import dev.modelgateway.config.Cooldown;
import dev.modelgateway.config.VendorEndpoint;
import dev.modelgateway.time.Ticker;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;

/**
 * One {@link CircuitBreaker} per deployment ({@link VendorEndpoint#id()}), shared by the gateway's event loops. A
 * deployment that shares its model with others opens sooner ({@link #shared}): the others take its traffic.
 */
public final class CircuitBreakers {
    private volatile CircuitBreaker.Thresholds thresholds;
    private volatile CircuitBreaker.Thresholds shared;
    private final Ticker ticker;
    private final Map<String, CircuitBreaker> byDeployment = new ConcurrentHashMap<>();
    /** Told when a breaker opens: the shared cooldowns publish it to the other instances. */
    private volatile BiConsumer<String, Long> onOpen = (id, until) -> { };

    public CircuitBreakers(CircuitBreaker.Thresholds thresholds) {
        this(thresholds, thresholds, Ticker.SYSTEM);
    }

    /** With the default cooldowns until the routes built apply the configuration's ({@link #configure}). */
    public CircuitBreakers(Ticker ticker) {
        this(thresholds(Cooldown.DEFAULT, false), thresholds(Cooldown.DEFAULT, true), ticker);
    }

    /**
     * @param shared the thresholds of a deployment whose model has other deployments
     * @param ticker the breakers' clock
     */
    public CircuitBreakers(CircuitBreaker.Thresholds thresholds, CircuitBreaker.Thresholds shared, Ticker ticker) {
        this.thresholds = thresholds;
        this.shared = shared;
        this.ticker = ticker;
    }

    /** The breakers' clock, which their cooldown ends ({@link CircuitBreaker#openUntilNanos()}) are read on. */
    public Ticker ticker() {
        return ticker;
    }

    public CircuitBreaker of(VendorEndpoint endpoint) {
        return byDeployment.computeIfAbsent(endpoint.id(), k -> new CircuitBreaker(k, thresholds, ticker));
    }

    /** The breaker of a deployment, made with the thresholds its model's number of deployments calls for. */
    CircuitBreaker of(String deploymentId, boolean withSiblings) {
        return byDeployment.computeIfAbsent(deploymentId, k -> new CircuitBreaker(k, withSiblings ? shared : thresholds, ticker));
    }

    /**
     * The configuration's {@code routing.cooldown}, at start and on each reload: every deployment of the routes takes the
     * thresholds its model's number of deployments calls for, and so does each breaker made later.
     */
    void configure(Cooldown cooldown, Map<String, List<Deployment>> byModel) {
        thresholds = thresholds(cooldown, false);
        shared = thresholds(cooldown, true);
        byModel.values().forEach(ds -> ds.forEach(d -> {
            boolean withSiblings = ds.size() > 1;
            of(d.id(), withSiblings).thresholds(withSiblings ? shared : thresholds);
        }));
    }

    private static CircuitBreaker.Thresholds thresholds(Cooldown c, boolean withSiblings) {
        return new CircuitBreaker.Thresholds(withSiblings ? c.sharedFailures() : c.failures(), c.first(), c.max());
    }

    /** The breaker of a deployment if it has one. */
    public CircuitBreaker find(String deploymentId) {
        return byDeployment.get(deploymentId);
    }

    public Map<String, CircuitBreaker> all() {
        return Map.copyOf(byDeployment);
    }

    public void onOpen(BiConsumer<String, Long> listener) {
        this.onOpen = listener;
    }

    /** After a call: if the breaker is now open, tells the listener when its cooldown ends. */
    public void opened(String deploymentId, CircuitBreaker breaker) {
        long until = breaker.openUntilNanos();
        if (until != 0) onOpen.accept(deploymentId, until);
    }
}
