package dev.modelgateway.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the operator-owned sections of the configuration file: {@code providers}, {@code models} (deployments and
 * catalogue fields), {@code aliases} and {@code routing} (docs/configuration.md). Every refusal names the field.
 */
final class RoutingSection {
    private static final Set<String> PROVIDER_FIELDS = Set.of("type", "base_url", "api_key", "keys", "headers", "api_version", "enabled",
            "connect_timeout_seconds", "connect_timeout_ms", "max_connections", "max_queued", "http_version", "ca_file",
            "region", "project", "location", "aws", "google", "workspace_id");
    private static final Set<String> DEPLOYMENT_FIELDS = Set.of("provider", "model", "weight", "region", "tags", "api", "capabilities",
            "price");
    private static final Set<String> CAPABILITY_FIELDS = Set.of("prompt_cache", "thinking", "mid_conversation_system",
            "max_output_tokens", "context_window", "base_model");
    /** catalogue.yaml's own fields, which a configuration entry may set; plus its deployments and aliases. */
    private static final Set<String> MODEL_FIELDS = Set.of("vendor", "kind", "capabilities", "context_window",
            "max_output_tokens", "price", "thinking", "sampling_params", "status", "replacement", "aliases", "upstream",
            "deployments");

    private final Map<Vendor, VendorEndpoint> builtIn;
    private final List<String> warnings = new ArrayList<>();

    /** @param builtIn the four vendors' endpoints, the defaults of a provider named after one of them */
    RoutingSection(Map<Vendor, VendorEndpoint> builtIn) {
        this.builtIn = builtIn;
    }

    RoutingConfig parse(JsonNode root) {
        Map<String, Provider> providers = new LinkedHashMap<>();
        root.path("providers").properties().forEach(e -> providers.put(e.getKey(), provider(e.getKey(), e.getValue())));
        Set<String> known = new HashSet<>(providers.keySet());
        for (Vendor v : Vendor.values()) known.add(v.id());

        Map<String, List<DeploymentSpec>> deployments = new LinkedHashMap<>();
        ObjectNode catalogue = JsonNodeFactory.instance.objectNode();
        ObjectNode models = catalogue.putObject("models");
        JsonNode modelsNode = root.path("models");
        if (!modelsNode.isMissingNode() && !modelsNode.isObject()) {
            throw new IllegalArgumentException("models must be a mapping of public model id → settings");
        }
        modelsNode.properties().forEach(e -> {
            String id = e.getKey();
            String at = "models." + id;
            JsonNode m = e.getValue();
            if (!m.isObject()) throw new IllegalArgumentException(at + " must be a mapping");
            unknownFields(at, m, MODEL_FIELDS);
            ObjectNode fields = ((ObjectNode) m).deepCopy();
            fields.remove("upstream");
            JsonNode ds = fields.remove("deployments");
            if (ds != null) deployments.put(id, deployments(at + ".deployments", ds, providers, known));
            models.set(id, fields);
        });
        JsonNode aliases = root.path("aliases");
        if (!aliases.isMissingNode()) {
            if (!aliases.isObject()) throw new IllegalArgumentException("aliases must be a mapping of alias → public model id");
            aliases.properties().forEach(e -> {
                if (!e.getValue().isTextual()) throw new IllegalArgumentException("aliases." + e.getKey() + " must be a model id");
            });
            catalogue.set("aliases", aliases.deepCopy());
        }
        JsonNode routing = root.path("routing");
        if (!routing.isMissingNode() && !routing.isNull()) unknownFields("routing", routing, Set.of("cooldown", "max_cooldown_wait_seconds"));
        return new RoutingConfig(providers, deployments, catalogue, cooldown(routing.path("cooldown")), null);
    }

    private Provider provider(String name, JsonNode node) {
        String at = "providers." + name;
        if (!name.matches("[A-Za-z0-9][A-Za-z0-9._-]{0,63}")) {
            throw new IllegalArgumentException(at + ": a provider name is letters, digits, '.', '_' and '-' (at most 64)");
        }
        if (!node.isObject()) throw new IllegalArgumentException(at + " must be a mapping");
        unknownFields(at, node, PROVIDER_FIELDS);
        VendorEndpoint base = builtInNamed(name);
        ProviderType type = node.hasNonNull("type") ? ProviderType.parse(at + ".type", node.get("type").asText())
                : base != null ? base.type() : null;
        if (type == null) throw new IllegalArgumentException(at + ".type is required (anthropic, openai, azure-openai, gemini,"
                + " dashscope or openai-compatible)");
        if (base != null && type != base.type()) {
            throw new IllegalArgumentException(at + ".type: '" + name + "' is the built-in " + base.type().id()
                    + " provider; give another type another name");
        }
        CloudAccount cloud = type.cloud() ? cloudAccount(at, type, node) : null;
        if (!type.cloud()) {
            for (String f : List.of("region", "project", "location", "aws", "google", "workspace_id")) {
                if (node.has(f)) throw new IllegalArgumentException(at + "." + f + " applies to the clouds' provider types only"
                        + " (bedrock, vertex, anthropic-aws, bedrock-openai)");
            }
        }
        String baseUrl = node.hasNonNull("base_url") ? node.get("base_url").asText()
                : base != null ? base.baseUrl() : cloud != null ? cloud.defaultBaseUrl(type) : null;
        if (baseUrl == null || !ConfigLoader.validUrl(baseUrl)) {
            throw new IllegalArgumentException(at + ".base_url must be an http(s) URL such as https://api.example.com/v1, got "
                    + (baseUrl == null ? "nothing" : "'" + ShownUrl.of(baseUrl) + "'"));
        }
        List<Provider.Key> keys = keys(at, node, base);
        if (type == ProviderType.VERTEX && !keys.isEmpty()) {
            throw new IllegalArgumentException(at + ": a vertex provider authenticates with Google credentials (google), not api_key or keys");
        }
        Map<String, String> headers = new LinkedHashMap<>();
        JsonNode h = node.path("headers");
        if (!h.isMissingNode() && !h.isObject()) throw new IllegalArgumentException(at + ".headers must be a mapping of name → value");
        h.properties().forEach(e -> {
            String header = e.getKey();
            if (!header.matches("[A-Za-z0-9!#$%&'*+.^_`|~-]+")) throw new IllegalArgumentException(at + ".headers: '" + header + "' is not a header name");
            headers.put(header, e.getValue().asText());
        });
        String apiVersion = node.hasNonNull("api_version") ? node.get("api_version").asText() : null;
        if (apiVersion != null && type != ProviderType.AZURE_OPENAI) {
            throw new IllegalArgumentException(at + ".api_version applies to azure-openai providers only");
        }
        if (apiVersion != null && !apiVersion.matches("[A-Za-z0-9.-]+")) {
            throw new IllegalArgumentException(at + ".api_version must look like 2024-10-21, got '" + apiVersion + "'");
        }
        double connectSeconds = connectTimeoutSeconds(at, node);
        if (!(connectSeconds > 0 && connectSeconds <= 300)) {
            throw new IllegalArgumentException(at + ".connect_timeout_seconds must be above 0 and at most 300, got " + connectSeconds);
        }
        int connect = (int) Math.max(1, Math.round(connectSeconds * 1000));
        VendorPool pool = ConfigLoader.pool(at + ".", node, base != null ? base.pool() : VendorPool.DEFAULT);
        JsonNode enabled = node.path("enabled");
        if (!enabled.isMissingNode() && !enabled.isNull() && !enabled.isBoolean()) {
            throw new IllegalArgumentException(at + ".enabled must be true or false, got '" + enabled.asText() + "'");
        }
        return new Provider(name, type, baseUrl, keys, headers, apiVersion, connect, pool, enabled.asBoolean(true), cloud);
    }

    /**
     * A cloud provider's account (docs/clouds.md): the AWS region (Bedrock, Claude Platform on AWS), or the Google
     * project and location (Vertex), and the credentials' block.
     */
    private static CloudAccount cloudAccount(String at, ProviderType type, JsonNode node) {
        boolean google = type == ProviderType.VERTEX;
        String region = text(node, "region");
        String project = text(node, "project");
        String location = text(node, "location");
        String workspace = text(node, "workspace_id");
        if (google) {
            for (String f : List.of("region", "aws", "workspace_id")) {
                if (node.has(f)) throw new IllegalArgumentException(at + "." + f + " does not apply to a vertex provider (project, location, google)");
            }
            // cloud.google.com/resource-manager/docs/creating-managing-projects: 6 to 30 lowercase letters, digits, hyphens
            if (project == null || !project.matches("([a-z0-9][a-z0-9.-]*:)?[a-z][a-z0-9-]{4,28}[a-z0-9]")) {
                throw new IllegalArgumentException(at + ".project must be a Google Cloud project id such as my-project-123, got "
                        + (project == null ? "nothing" : "'" + project + "'"));
            }
            if (location == null || !location.matches("[a-z][a-z0-9-]*[a-z0-9]")) {
                throw new IllegalArgumentException(at + ".location must be a Vertex AI location such as us-east5, us, eu or global, got "
                        + (location == null ? "nothing" : "'" + location + "'"));
            }
        } else {
            for (String f : List.of("project", "location", "google")) {
                if (node.has(f)) throw new IllegalArgumentException(at + "." + f + " does not apply to a " + type.id() + " provider (region, aws)");
            }
            if (region == null || !region.matches("[a-z]{2}(-gov|-iso[a-z]*)?-[a-z]+-[0-9]")) {
                throw new IllegalArgumentException(at + ".region must be an AWS region such as us-east-1, got "
                        + (region == null ? "nothing" : "'" + region + "'"));
            }
            if (type != ProviderType.ANTHROPIC_AWS && workspace != null) {
                throw new IllegalArgumentException(at + ".workspace_id applies to anthropic-aws providers only");
            }
            if (type == ProviderType.ANTHROPIC_AWS && workspace == null) {
                throw new IllegalArgumentException(at + ".workspace_id is required: Claude Platform on AWS bills each call to a workspace");
            }
        }
        JsonNode aws = node.get("aws");
        JsonNode googleBlock = node.get("google");
        if (aws != null && !aws.isObject()) throw new IllegalArgumentException(at + ".aws must be a mapping of credential settings");
        if (googleBlock != null && !googleBlock.isObject()) throw new IllegalArgumentException(at + ".google must be a mapping of credential settings");
        if (aws != null && (node.has("api_key") || node.has("keys"))) {
            throw new IllegalArgumentException(at + ": set aws (SigV4 credentials) or api_key (a Bedrock API key), not both");
        }
        AwsCredentialsSettings awsSettings = aws == null ? null : AwsCredentialsSettings.parse(at + ".aws", asMap(aws));
        GoogleCredentialsSettings googleSettings = google
                ? GoogleCredentialsSettings.parse(at + ".google", googleBlock == null ? Map.of() : asMap(googleBlock)) : null;
        return new CloudAccount(region, project, location, awsSettings, googleSettings, workspace);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(JsonNode node) {
        return dev.modelgateway.json.Json.MAPPER.convertValue(node, Map.class);
    }

    /** A field's text, trimmed; null when absent or null. Shared with {@link IdentitySection}. */
    static String text(JsonNode node, String field) {
        return node.hasNonNull(field) ? node.get(field).asText().trim() : null;
    }

    /** {@code connect_timeout_seconds}, or the deprecated {@code connect_timeout_ms} (in ms) with a warning. */
    private double connectTimeoutSeconds(String at, JsonNode node) {
        if (node.hasNonNull("connect_timeout_seconds")) {
            if (node.has("connect_timeout_ms")) {
                throw new IllegalArgumentException(at + ": set connect_timeout_seconds or the deprecated connect_timeout_ms, not both");
            }
            return number(at + ".connect_timeout_seconds", node.get("connect_timeout_seconds"), 0);
        }
        if (node.hasNonNull("connect_timeout_ms")) {
            warnings.add(at + ".connect_timeout_ms is deprecated and will be removed in the next release: set "
                    + at + ".connect_timeout_seconds (in seconds) instead");
            return number(at + ".connect_timeout_ms", node.get("connect_timeout_ms"), 0) / 1000;
        }
        return VendorEndpoint.DEFAULT_CONNECT_TIMEOUT_MS / 1000.0;
    }

    /** The deprecated names the sections used, each with the name to use instead. */
    List<String> warnings() {
        return warnings;
    }

    private VendorEndpoint builtInNamed(String name) {
        for (Vendor v : Vendor.values()) if (v.id().equals(name)) return builtIn.get(v);
        return null;
    }

    /**
     * {@code api_key: ...} or {@code keys: [...]}, each key a string or {@code {key, weight}}; blank values (an unset
     * {@code ${VAR}}) are left out, so that a provider whose variables are unset is simply not configured.
     */
    private List<Provider.Key> keys(String at, JsonNode node, VendorEndpoint base) {
        if (node.has("api_key") && node.has("keys")) throw new IllegalArgumentException(at + ": set api_key or keys, not both");
        List<Provider.Key> keys = new ArrayList<>();
        if (node.has("keys")) {
            JsonNode list = node.get("keys");
            if (!list.isArray()) throw new IllegalArgumentException(at + ".keys must be a list of keys");
            for (int i = 0; i < list.size(); i++) {
                JsonNode k = list.get(i);
                String where = at + ".keys[" + i + "]";
                String value;
                long weight = 1;
                if (k.isObject()) {
                    unknownFields(where, k, Set.of("key", "weight"));
                    value = k.path("key").asText("");
                    weight = ConfigLoader.parseLong(where + ".weight", k.path("weight").asText("1"));
                } else if (k.isValueNode()) {
                    value = k.asText();
                } else {
                    throw new IllegalArgumentException(where + " must be a key or {key, weight}");
                }
                if (weight < 1 || weight > 1_000_000) throw new IllegalArgumentException(where + ".weight must be between 1 and 1000000, got " + weight);
                if (!value.isBlank()) keys.add(new Provider.Key(value.trim(), (int) weight));
            }
        } else if (node.hasNonNull("api_key")) {
            String value = node.get("api_key").asText();
            if (!value.isBlank()) keys.add(new Provider.Key(value.trim(), 1));
        } else if (base != null && base.apiKey() != null) {
            keys.add(new Provider.Key(base.apiKey(), 1));
        }
        return keys;
    }

    private List<DeploymentSpec> deployments(String at, JsonNode list, Map<String, Provider> providers, Set<String> names) {
        if (!list.isArray() || list.isEmpty()) throw new IllegalArgumentException(at + " must be a non-empty list");
        List<DeploymentSpec> out = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            JsonNode d = list.get(i);
            String where = at + "[" + i + "]";
            if (!d.isObject()) throw new IllegalArgumentException(where + " must be a mapping with provider and model");
            unknownFields(where, d, DEPLOYMENT_FIELDS);
            String provider = d.path("provider").asText("");
            if (provider.isEmpty()) throw new IllegalArgumentException(where + ".provider is required");
            if (!names.contains(provider)) {
                throw new IllegalArgumentException(where + ".provider: no provider named '" + provider + "' (providers: "
                        + String.join(", ", names.stream().sorted().toList()) + ")");
            }
            Provider p = providers.get(provider);
            boolean cloud = p != null && p.type().cloud();
            String model = d.path("model").asText("");
            if (model.isBlank()) throw new IllegalArgumentException(where + ".model is required (the provider's id of the model)");
            // a Vertex model id is one path segment (claude-sonnet-4@20250514): nothing that would end or escape it
            if (p != null && p.type() == ProviderType.VERTEX && !model.matches("[A-Za-z0-9][A-Za-z0-9._@-]*")) {
                throw new IllegalArgumentException(where + ".model: '" + model + "' is not a Vertex AI model id such as claude-sonnet-4@20250514");
            }
            long weight = ConfigLoader.parseLong(where + ".weight", d.path("weight").asText("1"));
            if (weight < 1 || weight > 1_000_000) throw new IllegalArgumentException(where + ".weight must be between 1 and 1000000, got " + weight);
            List<String> tags = new ArrayList<>();
            d.path("tags").forEach(t -> tags.add(t.asText()));
            DeploymentApi api = null;
            if (d.hasNonNull("api")) {
                if (p == null || p.type() != ProviderType.BEDROCK) {
                    throw new IllegalArgumentException(where + ".api applies to bedrock deployments only (invoke or converse)");
                }
                api = DeploymentApi.parse(where + ".api", d.get("api").asText());
            }
            Capabilities capabilities = null;
            if (d.has("capabilities")) {
                if (!cloud) throw new IllegalArgumentException(where + ".capabilities applies to deployments on a cloud provider"
                        + " (a vendor's own API has its catalogue entry)");
                capabilities = capabilities(where + ".capabilities", d.get("capabilities"));
            } else if (cloud && !p.type().vendorsOwnApi()) {
                // nothing declared: nothing assumed (no cache markers, thinking as the caller sent it); docs/clouds.md.
                // The vendors' own APIs on AWS (Claude Platform, Bedrock's OpenAI endpoint) are the vendor's models.
                capabilities = new Capabilities(false, Set.of("adaptive", "enabled"), true, null, null, null);
            }
            // read by catalogue/ModelPrice.parse when the routes are built, naming where.price's fields (Routes)
            JsonNode price = d.hasNonNull("price") ? d.get("price") : null;
            out.add(new DeploymentSpec(provider, model, (int) weight, d.hasNonNull("region") ? d.get("region").asText() : null, tags,
                    api, capabilities, price));
        }
        return out;
    }

    /** A cloud deployment's declared capabilities; each unset one is the cautious default (docs/clouds.md). */
    private static Capabilities capabilities(String at, JsonNode node) {
        unknownFields(at, node, CAPABILITY_FIELDS);
        JsonNode cache = node.path("prompt_cache");
        if (!cache.isMissingNode() && !cache.isBoolean()) throw new IllegalArgumentException(at + ".prompt_cache must be true or false");
        JsonNode mid = node.path("mid_conversation_system");
        if (!mid.isMissingNode() && !mid.isBoolean()) throw new IllegalArgumentException(at + ".mid_conversation_system must be true or false");
        Set<String> thinking = new HashSet<>(Set.of("adaptive", "enabled"));
        if (node.has("thinking")) {
            JsonNode t = node.get("thinking");
            if (!t.isArray()) throw new IllegalArgumentException(at + ".thinking must be a list of modes (adaptive, enabled), or []");
            thinking.clear();
            t.forEach(m -> {
                if (!Set.of("adaptive", "enabled").contains(m.asText())) {
                    throw new IllegalArgumentException(at + ".thinking: '" + m.asText() + "' is not a thinking mode (adaptive, enabled)");
                }
                thinking.add(m.asText());
            });
        }
        Integer maxOutput = positive(at + ".max_output_tokens", node.path("max_output_tokens"));
        Integer context = positive(at + ".context_window", node.path("context_window"));
        String baseModel = text(node, "base_model");
        return new Capabilities(cache.asBoolean(false), thinking, mid.asBoolean(true), maxOutput, context, baseModel);
    }

    private static Integer positive(String at, JsonNode n) {
        if (n.isMissingNode() || n.isNull()) return null;
        long v = ConfigLoader.parseLong(at, n.asText());
        if (v < 1 || v > 100_000_000) throw new IllegalArgumentException(at + " must be between 1 and 100000000, got " + v);
        return (int) v;
    }

    private Cooldown cooldown(JsonNode node) {
        Cooldown d = Cooldown.DEFAULT;
        if (node.isMissingNode()) return d;
        unknownFields("routing.cooldown", node, Set.of("failures", "shared_failures", "seconds", "max_seconds"));
        long failures = ConfigLoader.parseLong("routing.cooldown.failures", node.path("failures").asText(Integer.toString(d.failures())));
        long shared = ConfigLoader.parseLong("routing.cooldown.shared_failures",
                node.path("shared_failures").asText(Integer.toString(d.sharedFailures())));
        double seconds = number("routing.cooldown.seconds", node.path("seconds"), d.first().toMillis() / 1000.0);
        double max = number("routing.cooldown.max_seconds", node.path("max_seconds"), d.max().toMillis() / 1000.0);
        if (failures < 1 || failures > 1000 || shared < 1 || shared > 1000) {
            throw new IllegalArgumentException("routing.cooldown.failures and shared_failures must be between 1 and 1000");
        }
        if (seconds <= 0 || seconds > 3600 || max <= 0 || max > 86_400) {
            throw new IllegalArgumentException("routing.cooldown.seconds must be in (0, 3600] and max_seconds in (0, 86400]");
        }
        return new Cooldown((int) failures, (int) shared, Duration.ofMillis(Math.round(seconds * 1000)), Duration.ofMillis(Math.round(max * 1000)));
    }

    private static double number(String name, JsonNode n, double dflt) {
        if (n.isMissingNode() || n.isNull()) return dflt;
        try {
            return Double.parseDouble(n.asText().trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a number, got '" + n.asText() + "'");
        }
    }

    /** Refuses a key {@code known} lacks, naming the nearest known one. Shared with {@link IdentitySection}. */
    static void unknownFields(String at, JsonNode node, Set<String> known) {
        if (!node.isObject()) throw new IllegalArgumentException(at + " must be a mapping");
        node.fieldNames().forEachRemaining(f -> {
            if (!known.contains(f)) throw UnknownSetting.of(at, f, known);
        });
    }
}
