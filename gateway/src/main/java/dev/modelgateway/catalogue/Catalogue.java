package dev.modelgateway.catalogue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.modelgateway.config.Vendor;
import dev.modelgateway.error.GatewayException;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
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
    /** Computed on first use. */
    private volatile String priceVersion;

    private Catalogue(Map<String, ModelEntry> models, Map<String, String> aliases, Map<String, String> unavailable) {
        this.models = models;
        this.aliases = aliases;
        this.unavailable = unavailable;
    }

    /** Loads the catalogue shipped in the jar, applying the operator's upstream-id overrides. */
    public static Catalogue loadDefault(Map<String, String> upstreamOverrides) {
        try (InputStream in = Catalogue.class.getResourceAsStream("/catalogue.yaml")) {
            return parse(new ObjectMapper(new YAMLFactory()).readTree(in), upstreamOverrides);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read catalogue.yaml", e);
        }
    }

    static Catalogue parse(JsonNode root, Map<String, String> upstreamOverrides) {
        Map<String, ModelEntry> models = new LinkedHashMap<>();
        for (JsonNode m : root.path("models")) {
            String id = m.path("id").asText();
            String defaultUpstream = id.startsWith("platform/") ? id.substring("platform/".length()) : id;
            Set<String> caps = new LinkedHashSet<>();
            m.path("capabilities").forEach(c -> caps.add(c.asText()));
            ModelPrice price;
            try {
                price = ModelPrice.parse(m.path("price"));
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException("model " + id + ": " + e.getMessage(), e);
            }
            JsonNode t = m.path("thinking");
            ThinkingPolicy thinking = t.isMissingNode() ? ThinkingPolicy.VENDOR_DEFAULT
                    : new ThinkingPolicy(!"refused".equals(t.path("budget").asText()), "on".equals(t.path("default").asText()));
            ModelEntry entry = new ModelEntry(id, Vendor.fromId(m.path("vendor").asText()),
                    upstreamOverrides.getOrDefault(id, defaultUpstream),
                    ModelKind.valueOf(m.path("kind").asText("chat").toUpperCase()), Set.copyOf(caps),
                    m.path("context_window").asLong(), m.path("max_output_tokens").asLong(), price, thinking,
                    m.path("sampling_params").asBoolean(true),
                    ModelStatus.valueOf(m.path("status").asText("active").toUpperCase()),
                    m.path("replacement").asText(null));
            if (models.put(id, entry) != null) throw new IllegalStateException("duplicate model id " + id);
        }
        Map<String, String> aliases = new HashMap<>();
        root.path("aliases").properties().forEach(e -> aliases.put(e.getKey(), e.getValue().asText()));
        aliases.values().forEach(target -> {
            if (!models.containsKey(target)) throw new IllegalStateException("alias to unknown model " + target);
        });
        Map<String, String> unavailable = new HashMap<>();
        root.path("unavailable").properties().forEach(e -> unavailable.put(e.getKey(), e.getValue().asText()));
        // models keeps catalogue order: GET /models lists them as the file does.
        return new Catalogue(Collections.unmodifiableMap(models), Map.copyOf(aliases), Map.copyOf(unavailable));
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

    /** {@code pt-} and 12 hex digits of a SHA-256 of every model's prices, in id order. */
    @Override
    public String version() {
        String v = priceVersion;
        if (v == null) {
            StringBuilder table = new StringBuilder();
            table().forEach((id, price) -> table.append(id).append('=')
                    .append(price == null ? "none" : price.fingerprint()).append('\n'));
            try {
                byte[] digest = MessageDigest.getInstance("SHA-256").digest(table.toString().getBytes(StandardCharsets.UTF_8));
                v = "pt-" + HexFormat.of().formatHex(digest, 0, 6);
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("every JDK has SHA-256", e);
            }
            priceVersion = v;
        }
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
