package dev.modelgateway.routing;

import dev.modelgateway.catalogue.Catalogue;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.catalogue.ModelPrice;
import dev.modelgateway.config.DeploymentSpec;
import dev.modelgateway.config.ProviderType;
import dev.modelgateway.config.GatewayConfig;
import dev.modelgateway.config.Provider;
import dev.modelgateway.config.Settings;
import dev.modelgateway.config.Vendor;
import dev.modelgateway.config.VendorEndpoint;
import dev.modelgateway.error.GatewayException;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One applied configuration (docs/configuration.md): the catalogue and, for each public model, its deployments and
 * their rotation. Immutable but for the rotations' scores; a reload builds a new one and swaps it in
 * ({@link RoutingTable}), so a call in flight keeps the deployment it was given.
 */
public final class Routes {
    private final GatewayConfig config;
    private final Catalogue catalogue;
    private final CircuitBreakers breakers;
    private final Map<String, List<Deployment>> byModel;
    private final Map<String, WeightedRotation> rotations;
    /** Every deployment of each vendor's models, for the calls tied to a vendor rather than a model. */
    private final Map<Vendor, List<Deployment>> byVendor;
    private final Map<Vendor, WeightedRotation> vendorRotations;

    private Routes(GatewayConfig config, Catalogue catalogue, CircuitBreakers breakers, Map<String, List<Deployment>> byModel) {
        this.config = config;
        this.catalogue = catalogue;
        this.breakers = breakers;
        this.byModel = byModel;
        Map<String, WeightedRotation> r = new HashMap<>();
        byModel.forEach((id, ds) -> r.put(id, new WeightedRotation(ds)));
        this.rotations = r;
        Map<Vendor, List<Deployment>> v = new EnumMap<>(Vendor.class);
        for (ModelEntry m : catalogue.models()) v.computeIfAbsent(m.vendor(), k -> new ArrayList<>()).addAll(byModel.get(m.id()));
        this.byVendor = v;
        Map<Vendor, WeightedRotation> vr = new EnumMap<>(Vendor.class);
        v.forEach((vendor, ds) -> vr.put(vendor, new WeightedRotation(ds)));
        this.vendorRotations = vr;
    }

    /**
     * Checks and builds the routes of a configuration: every deployment's provider must speak its model's wire
     * format. A model without deployments of its own is served by its vendor's built-in provider under its upstream id.
     */
    public static Routes build(GatewayConfig config, Catalogue catalogue, CircuitBreakers breakers) {
        Map<String, Provider> providers = config.providers();
        Map<String, List<DeploymentSpec>> specs = config.routing().deployments();
        for (String id : specs.keySet()) {
            if (catalogue.find(id) == null || !catalogue.find(id).id().equals(id)) {
                throw new IllegalArgumentException("models." + id + ".deployments: no model '" + id + "' in the catalogue");
            }
        }
        Map<String, List<Deployment>> byModel = new HashMap<>();
        for (ModelEntry m : catalogue.models()) {
            List<DeploymentSpec> own = specs.getOrDefault(m.id(),
                    List.of(new DeploymentSpec(m.vendor().id(), m.upstreamId(), 1, null, List.of())));
            List<Deployment> ds = new ArrayList<>();
            for (int i = 0; i < own.size(); i++) {
                DeploymentSpec s = own.get(i);
                Provider p = providers.get(s.provider());
                String at = "models." + m.id() + ".deployments[" + i + "]";
                if (p == null) throw new IllegalArgumentException(at + ".provider: no provider named '" + s.provider() + "'");
                if (!p.type().serves(m.vendor(), s.apiFor(p.type(), m.vendor()))) {
                    throw new IllegalArgumentException(at + ".provider: '" + p.name() + "' (" + p.type().id() + ") cannot serve "
                            + m.id() + ", a " + m.vendor().id() + " model" + (p.type() == ProviderType.BEDROCK
                            ? ", through InvokeModel: set api: converse" : ""));
                }
                ModelPrice price = ModelPrice.parse(at + ".price", s.price());
                if (!p.enabled()) continue; // switched off on purpose: its deployments are not served
                int keys = Math.max(1, p.keys().size());
                int keyWeights = p.keys().stream().mapToInt(Provider.Key::weight).sum();
                for (int k = 0; k < keys; k++) {
                    String id = p.name() + "/" + s.model() + (keys > 1 ? "#" + (k + 1) : "");
                    double share = p.keys().isEmpty() ? 1 : (double) p.keys().get(k).weight() / keyWeights;
                    VendorEndpoint e = p.endpoint(k, id, s.model(), m.vendor(), s);
                    ds.add(new Deployment(id, e, s.model(), s.weight() * share, s.region(), s.tags(), price));
                }
            }
            byModel.put(m.id(), List.copyOf(ds));
        }
        return new Routes(config, catalogue, breakers, Map.copyOf(byModel));
    }

    /**
     * Puts this configuration's cooldowns into the breakers, each with the thresholds its model's number of deployments
     * calls for: when the routes come into force ({@link RoutingTable}), not when a reload that may yet be refused
     * builds them.
     */
    void configureBreakers() {
        breakers.configure(config.routing().cooldown(), byModel);
    }

    public Catalogue catalogue() {
        return catalogue;
    }

    public GatewayConfig config() {
        return config;
    }

    /** The model's deployments; none when a reload removed it while a call was on its way. */
    public List<Deployment> deployments(ModelEntry model) {
        return byModel.getOrDefault(model.id(), List.of());
    }

    /** The next deployment to call, or when every one is cooling down the one that recovers first and when. */
    public record Choice(Deployment deployment, long waitMs) {
        public boolean ready() {
            return waitMs == 0;
        }
    }

    /**
     * The deployment for the next attempt of {@code model}: by weight among those ready, leaving out those this call
     * already tried while another is ready (a retry goes to another deployment first).
     */
    public Choice choose(ModelEntry model, Set<String> tried) {
        List<Deployment> ds = deployments(model);
        if (ds.isEmpty()) {
            throw new GatewayException.NotConfigured("Model '" + model.id() + "' is no longer served: the gateway's"
                    + " configuration was reloaded without it.", Map.of());
        }
        return choose(ds, rotations.get(model.id()), tried);
    }

    /**
     * The deployment for a call tied to a vendor rather than a model (a stored vendor B response, which names no
     * model): by weight among the deployments of all the vendor's models that are ready.
     */
    public Choice choose(Vendor vendor) {
        List<Deployment> ds = byVendor.getOrDefault(vendor, List.of());
        if (ds.isEmpty()) {
            throw new GatewayException.NotConfigured("Vendor '" + vendor.id() + "' serves no model on this gateway.", Map.of());
        }
        return choose(ds, vendorRotations.get(vendor), Set.of());
    }

    private Choice choose(List<Deployment> ds, WeightedRotation rotation, Set<String> tried) {
        if (ds.size() == 1) {
            Deployment only = ds.getFirst();
            return new Choice(only, breakers.of(only.id(), false).readyInMs());
        }
        boolean[] ready = new boolean[ds.size()];
        boolean[] untried = new boolean[ds.size()];
        boolean anyReady = false, anyUntried = false;
        int soonest = 0;
        long soonestMs = Long.MAX_VALUE;
        for (int i = 0; i < ds.size(); i++) {
            long wait = breakers.of(ds.get(i).id(), true).readyInMs();
            ready[i] = wait == 0;
            untried[i] = ready[i] && !tried.contains(ds.get(i).id());
            anyReady |= ready[i];
            anyUntried |= untried[i];
            if (wait < soonestMs) {
                soonestMs = wait;
                soonest = i;
            }
        }
        if (!anyReady) return new Choice(ds.get(soonest), soonestMs);
        return new Choice(rotation.next(anyUntried ? untried : ready), 0);
    }

    /** True when {@code model} has a deployment ready that this call has not tried. */
    public boolean otherReady(ModelEntry model, Set<String> tried) {
        for (Deployment d : deployments(model)) {
            if (!tried.contains(d.id()) && breakers.of(d.id(), true).readyInMs() == 0) return true;
        }
        return false;
    }

    /**
     * What a failed attempt tells the routes beyond the breaker's count: a rate limit takes a deployment that shares
     * its model out of rotation at once, for the vendor's retry-after if it gave one. A deployment serving its model
     * alone is left in: its 429 reaches the caller with the vendor's hint, as it always did.
     */
    public void rateLimited(ModelEntry model, Deployment d, long retryAfterMs) {
        if (deployments(model).size() < 2) return;
        CircuitBreaker b = breakers.of(d.id(), true);
        boolean was = b.open();
        b.coolDown(retryAfterMs);
        if (!was) breakers.opened(d.id(), b);
    }

    /**
     * The longest a call waits for a cooling deployment of its last model ({@code routing.max_cooldown_wait_seconds});
     * past it the call is refused at once with the cooldown's retry-after, rather than hold the caller for minutes.
     */
    public long maxCooldownWaitMs() {
        return config.settings().integer(Settings.ROUTING_MAX_COOLDOWN_WAIT_SECONDS) * 1000L;
    }

    public CircuitBreakers breakers() {
        return breakers;
    }

    /** Every model's deployments, for the admin API. */
    public Map<String, List<Deployment>> all() {
        return byModel;
    }
}
