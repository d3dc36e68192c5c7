package dev.modelgateway.routing;

import dev.modelgateway.catalogue.Catalogue;
import dev.modelgateway.catalogue.ModelPrice;
import dev.modelgateway.catalogue.PriceBook;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * The prices of one applied configuration (docs/clouds.md, "Prices"): each public model's catalogue price, and the
 * own price of each deployment that declares one, which the calls it served are billed at (a regional endpoint,
 * a global one and provisioned throughput cost differently for the same model). Its {@link #table()} and
 * {@link #version()} cover both, so the ledger's {@code price_tables} keep what a row was charged at; without any
 * deployment price they are the catalogue's own.
 */
public final class RoutePrices implements PriceBook {
    /** Between a public model's id and a deployment's in the {@link #table()}: neither contains it. */
    static final String VIA = " @ ";

    private final Routes routes;
    private final Map<String, ModelPrice> byDeployment;
    private final SortedMap<String, ModelPrice> table;
    private final String version;

    private RoutePrices(Routes routes) {
        this.routes = routes;
        Catalogue catalogue = routes.catalogue();
        Map<String, ModelPrice> own = new HashMap<>();
        SortedMap<String, ModelPrice> all = new TreeMap<>(catalogue.table());
        routes.all().forEach((model, deployments) -> {
            for (Deployment d : deployments) {
                if (d.price() == null) continue;
                own.put(model + VIA + d.id(), d.price());
                all.put(model + VIA + d.id(), d.price());
            }
        });
        this.byDeployment = Map.copyOf(own);
        this.table = Collections.unmodifiableSortedMap(all);
        this.version = own.isEmpty() ? catalogue.version() : PriceBook.versionOf(all);
    }

    /** The prices of {@code routes}. */
    public static RoutePrices of(Routes routes) {
        return new RoutePrices(routes);
    }

    /** The prices of the routes in force at each call, computed once per applied configuration. */
    public static PriceBook inForce(Supplier<Routes> current) {
        AtomicReference<RoutePrices> last = new AtomicReference<>();
        return PriceBook.current(() -> {
            Routes now = current.get();
            RoutePrices p = last.get();
            if (p == null || p.routes != now) last.set(p = new RoutePrices(now));
            return p;
        });
    }

    @Override
    public ModelPrice priceOf(String publicModelId) {
        return routes.catalogue().priceOf(publicModelId);
    }

    /**
     * The deployment's own price when the configuration in force gives it one, else the model's: also for a row
     * whose deployment a reload has removed since, or that named none (written before deployments were recorded).
     */
    @Override
    public ModelPrice priceOf(String publicModelId, String deploymentId) {
        ModelPrice own = deploymentId == null || byDeployment.isEmpty() ? null : byDeployment.get(publicModelId + VIA + deploymentId);
        return own != null ? own : priceOf(publicModelId);
    }

    @Override
    public String version() {
        return version;
    }

    /** Every model's price by id, and each deployment's own under {@code <model id> @ <deployment id>}. */
    @Override
    public SortedMap<String, ModelPrice> table() {
        return table;
    }
}
