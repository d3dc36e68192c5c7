package dev.modelgateway.catalogue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.modelgateway.config.GatewayConfig;
import dev.modelgateway.config.Provider;
import dev.modelgateway.config.Vendor;
import dev.modelgateway.error.GatewayException;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The public model list and the rules that turn a caller's {@code model} string into a model (docs/contract.md §2.1):
 * exact ids, compatibility aliases, and helpful 404s for unavailable names, a missing {@code platform/}
 * prefix, retired models and vendor-style date-suffixed names.
 */
public final class Catalogue implements PriceBook {
    /** {@code vendorA-sonnet-4-5-20241022}, {@code vendorA-sonnet-4-5}: dashed versions, optional date. */
    private static final Pattern DASHED_VERSION = Pattern.compile("^(?:platform/)?(.+?)-(\\d+)-(\\d+)(?:-\\d{8})?$");
    private static final Pattern DATE_SUFFIX = Pattern.compile("^(?:platform/)?(.+?)-\\d{8}$");

    private final Map<String, ModelEntry> models;
    private final Map<String, String> aliases;
    private final Map<String, String> unavailable;
    /** Public model id → its aliases, in name order. */
    private final Map<String, List<String>> aliasesById;
    /** Computed on first use. */
    private volatile String priceVersion;

    private Catalogue(Map<String, ModelEntry> models, Map<String, String> aliases, Map<String, String> unavailable) {
        this.models = models;
        this.aliases = aliases;
        this.unavailable = unavailable;
        Map<String, List<String>> byId = new HashMap<>();
        new TreeMap<>(aliases).forEach((alias, id) -> byId.computeIfAbsent(id, k -> new ArrayList<>()).add(alias));
        byId.replaceAll((id, names) -> List.copyOf(names));
        this.aliasesById = Map.copyOf(byId);
    }

    /** Loads the catalogue shipped in the jar, applying the operator's upstream-id overrides. */
    public static Catalogue loadDefault(Map<String, String> upstreamOverrides) {
        return parse(shipped(), upstreamOverrides);
    }

    /**
     * The shipped catalogue with the operator's own entries on top (docs/configuration.md, "The catalogue"): a
     * configuration entry for a shipped id overrides the fields it names, one for a new id adds a model (its vendor
     * is its first deployment's provider's wire format unless it names one), {@code status: retired} retires one;
     * aliases are added. Both go through the same parser, so a configured price reads as a shipped one.
     */
    public static Catalogue load(GatewayConfig config) {
        ObjectNode root = shipped();
        ArrayNode models = (ArrayNode) root.withArray("models");
        Map<String, ObjectNode> byId = new HashMap<>();
        models.forEach(m -> byId.put(m.path("id").asText(), (ObjectNode) m));
        ObjectNode aliases = root.withObject("aliases");
        JsonNode own = config.routing().catalogue();
        own.path("models").properties().forEach(e -> {
            String id = e.getKey();
            ObjectNode fields = ((ObjectNode) e.getValue()).deepCopy();
            JsonNode modelAliases = fields.remove("aliases");
            ObjectNode entry = byId.get(id);
            if (entry == null) {
                entry = models.addObject().put("id", id);
                byId.put(id, entry);
                if (!fields.has("vendor")) {
                    var deployments = config.routing().deployments().get(id);
                    if (deployments == null) {
                        throw new IllegalArgumentException("models." + id + ": a model the catalogue does not ship needs deployments"
                                + " (or a vendor)");
                    }
                    Provider p = config.providers().get(deployments.getFirst().provider());
                    if (p.type().wire() == null) {
                        throw new IllegalArgumentException("models." + id + ".vendor is required: '" + p.name() + "' ("
                                + p.type().id() + ") serves several vendors' models");
                    }
                    entry.put("vendor", p.type().wire().id());
                }
            }
            for (var f : fields.properties()) {
                // an object field (price, thinking) is overridden field by field: re-pricing input keeps output
                if (f.getValue().isObject() && entry.get(f.getKey()) instanceof ObjectNode shipped) shipped.setAll((ObjectNode) f.getValue());
                else entry.set(f.getKey(), f.getValue());
            }
            if (modelAliases != null) {
                if (!modelAliases.isArray()) throw new IllegalArgumentException("models." + id + ".aliases must be a list of names");
                modelAliases.forEach(a -> aliases.put(a.asText(), id));
            }
        });
        own.path("aliases").properties().forEach(e -> aliases.put(e.getKey(), e.getValue().asText()));
        return parse(root, config.upstreamOverrides());
    }

    private static ObjectNode shipped() {
        try (InputStream in = Catalogue.class.getResourceAsStream("/catalogue.yaml")) {
            return (ObjectNode) new ObjectMapper(new YAMLFactory()).readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read catalogue.yaml", e);
        }
    }

    static Catalogue parse(JsonNode root, Map<String, String> upstreamOverrides) {
        Map<String, ModelEntry> models = new LinkedHashMap<>();
        for (JsonNode m : root.path("models")) {
            String id = m.path("id").asText();
            ModelEntry entry;
            try {
                entry = entry(m, id, upstreamOverrides);
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("models." + id + ": " + e.getMessage(), e);
            }
            if (models.put(id, entry) != null) throw new IllegalArgumentException("duplicate model id " + id);
        }
        Map<String, String> aliases = new HashMap<>();
        root.path("aliases").properties().forEach(e -> aliases.put(e.getKey(), e.getValue().asText()));
        aliases.forEach((alias, target) -> {
            if (!models.containsKey(target)) throw new IllegalArgumentException("aliases." + alias + ": no model '" + target + "'");
            if (models.containsKey(alias)) throw new IllegalArgumentException("aliases." + alias + ": a model already has this id");
        });
        Map<String, String> unavailable = new HashMap<>();
        root.path("unavailable").properties().forEach(e -> unavailable.put(e.getKey(), e.getValue().asText()));
        // models keeps catalogue order: GET /models lists them as the file does.
        return new Catalogue(Collections.unmodifiableMap(models), Map.copyOf(aliases), Map.copyOf(unavailable));
    }

    /** One model's entry; a wrong field fails naming it. */
    private static ModelEntry entry(JsonNode m, String id, Map<String, String> upstreamOverrides) {
        String defaultUpstream = id.startsWith("platform/") ? id.substring("platform/".length()) : id;
        Set<String> caps = new LinkedHashSet<>();
        m.path("capabilities").forEach(c -> caps.add(c.asText()));
        ModelPrice price = ModelPrice.parse(m.path("price"));
        JsonNode t = m.path("thinking");
        ThinkingPolicy thinking = t.isMissingNode() ? ThinkingPolicy.VENDOR_DEFAULT
                : new ThinkingPolicy(!"refused".equals(t.path("budget").asText()), "on".equals(t.path("default").asText()));
        return new ModelEntry(id, Vendor.fromId(m.path("vendor").asText()),
                upstreamOverrides.getOrDefault(id, defaultUpstream),
                named(ModelKind.class, m, "kind", "chat"), Set.copyOf(caps),
                m.path("context_window").asLong(), m.path("max_output_tokens").asLong(), price, thinking,
                m.path("sampling_params").asBoolean(true),
                named(ModelStatus.class, m, "status", "active"),
                m.path("replacement").asText(null));
    }

    private static <E extends Enum<E>> E named(Class<E> type, JsonNode m, String field, String dflt) {
        String value = m.path(field).asText(dflt);
        try {
            return Enum.valueOf(type, value.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(field + " must be one of " + Arrays.stream(type.getEnumConstants())
                    .map(c -> c.name().toLowerCase(Locale.ROOT)).toList() + ", got '" + value + "'");
        }
    }

    /** Alias → public model id. */
    public Map<String, String> aliases() {
        return aliases;
    }

    /** The aliases of a public model id (none for an unknown id). */
    public List<String> aliasesOf(String id) {
        return aliasesById.getOrDefault(id, List.of());
    }

    /** All models in catalogue order, retired ones included. */
    public Collection<ModelEntry> models() {
        return models.values();
    }

    public ModelEntry find(String id) {
        ModelEntry entry = models.get(id);
        if (entry != null) return entry;
        String target = aliases.get(id);
        return target == null ? null : models.get(target);
    }

    /**
     * Resolves a caller's model string to an active model or throws a 404 whose message says what
     * to send instead.
     */
    public ModelEntry resolve(String requested) {
        ModelEntry entry = find(requested);
        if (entry != null) {
            if (entry.retired()) {
                throw ModelNotFound.because("Model '" + requested + "' has been retired"
                        + (entry.replacement() != null ? "; use '" + entry.replacement() + "' instead." : "."));
            }
            return entry;
        }
        String advice = unavailable.get(requested);
        if (advice != null) throw ModelNotFound.because(advice);
        if (!requested.startsWith("platform/") && models.containsKey("platform/" + requested)) {
            throw ModelNotFound.because("Model '" + requested + "' not found. Platform-hosted models need the "
                    + "'platform/' prefix: use 'platform/" + requested + "'.");
        }
        String suggestion = dottedSuggestion(requested);
        if (suggestion != null) {
            throw ModelNotFound.because("Model '" + requested + "' not found. Model ids carry no date suffix and "
                    + "use dotted versions: use '" + suggestion + "'.");
        }
        throw ModelNotFound.because("Model '" + requested + "' not found. GET /api/v1/models lists the available models.");
    }

    /** Maps vendor-style names ({@code vendorA-sonnet-4-5-20241022}) to the catalogue's dotted id, if one exists. */
    private String dottedSuggestion(String requested) {
        Matcher dashed = DASHED_VERSION.matcher(requested);
        if (dashed.matches()) {
            String candidate = dashed.group(1) + "-" + dashed.group(2) + "." + dashed.group(3);
            String known = knownWithPrefix(candidate);
            if (known != null) return known;
        }
        Matcher dated = DATE_SUFFIX.matcher(requested);
        if (dated.matches()) return knownWithPrefix(dated.group(1));
        return null;
    }

    private String knownWithPrefix(String bare) {
        if (models.containsKey("platform/" + bare)) return "platform/" + bare;
        if (models.containsKey(bare)) return bare;
        String alias = aliases.get(bare);
        return alias;
    }

    /** Prices by public id; null for a model without a price and for an unknown id, never a silent $0. */
    @Override
    public ModelPrice priceOf(String publicModelId) {
        ModelEntry entry = find(publicModelId);
        return entry == null ? null : entry.price();
    }

    @Override
    public SortedMap<String, ModelPrice> table() {
        SortedMap<String, ModelPrice> table = new TreeMap<>();
        models.forEach((id, m) -> table.put(id, m.price()));
        return Collections.unmodifiableSortedMap(table);
    }

    /** {@code pt-} and 12 hex digits of a SHA-256 of every model's prices, in id order ({@link PriceBook#versionOf}). */
    @Override
    public String version() {
        String v = priceVersion;
        if (v == null) priceVersion = v = PriceBook.versionOf(table());
        return v;
    }

    /**
     * Throws unless {@code id} names a model that fallbacks may use. The message names {@code param} itself:
     * the messages protocol's error body has no {@code param} field.
     */
    public ModelEntry requireKnown(String id, String param) {
        try {
            return resolve(id);
        } catch (GatewayException e) {
            throw GatewayException.invalid(param, "Invalid value for '" + param + "': " + e.getMessage());
        }
    }
}
