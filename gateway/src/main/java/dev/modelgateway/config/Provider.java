package dev.modelgateway.config;

import java.util.List;
import java.util.Map;

/**
 * A named upstream the operator configures (docs/configuration.md, "Providers"): a type, a base URL, one or several
 * keys, extra headers, a connect timeout and a connection pool. The four built-in vendors are four providers named
 * {@code anthropic}, {@code openai}, {@code gemini} and {@code dashscope}, configured as before from
 * {@code vendors.<id>} and the environment.
 *
 * @param keys       the credentials, each with its share of the provider's traffic; empty when none is set
 * @param apiVersion Azure OpenAI's {@code api-version}; null for the other types
 * @param enabled    false: switched off on purpose ({@code enabled: false}), its deployments are not served
 * @param cloud      a cloud provider's region or project and credentials (docs/clouds.md); null for the others
 */
public record Provider(String name, ProviderType type, String baseUrl, List<Key> keys, Map<String, String> headers,
                       String apiVersion, int connectTimeoutMs, VendorPool pool, boolean enabled, CloudAccount cloud) {

    /** One credential and its weight among the provider's keys. */
    public record Key(String value, int weight) {
        public Key {
            if (weight < 1) throw new IllegalArgumentException("weight must be at least 1, got " + weight);
        }

        @Override
        public String toString() {
            return "Key[" + VendorEndpoint.mask(value) + ", weight=" + weight + "]";
        }
    }

    public Provider {
        keys = List.copyOf(keys);
        headers = Map.copyOf(headers);
        while (baseUrl.endsWith("/")) baseUrl = baseUrl.substring(0, baseUrl.length() - 1);
        if (pool == null) pool = VendorPool.DEFAULT;
    }

    /** A built-in vendor's endpoint seen as a provider with one key (or none). */
    public static Provider of(VendorEndpoint e) {
        return new Provider(e.provider(), e.type(), e.baseUrl(), e.apiKey() == null ? List.of() : List.of(new Key(e.apiKey(), 1)),
                e.headers(), null, e.connectTimeoutMs(), e.pool(), true, null);
    }

    /**
     * The endpoint of key {@code index} (or the only, key-less endpoint when there are no keys); {@code id} names the
     * deployment whose health it tracks.
     */
    public VendorEndpoint endpoint(int index, String id, String upstreamModel, Vendor vendor, DeploymentSpec spec) {
        String key = keys.isEmpty() ? null : keys.get(index).value();
        String prefix = type == ProviderType.AZURE_OPENAI && apiVersion != null ? "/openai/deployments/" + upstreamModel : "";
        String query = type == ProviderType.AZURE_OPENAI && apiVersion != null ? "api-version=" + apiVersion : "";
        CloudTarget target = cloud == null ? null : new CloudTarget(cloud, spec.apiFor(type, vendor), spec.capabilities());
        return new VendorEndpoint(vendor, baseUrl, key, pool, id, name, type, headers, prefix, query, connectTimeoutMs, target);
    }

    /** As the built-in vendor {@code v}'s endpoint: its first key, its vendor's health tracking. */
    public VendorEndpoint builtIn(Vendor v) {
        return new VendorEndpoint(v, baseUrl, keys.isEmpty() ? null : keys.getFirst().value(), pool, null, name, type, headers,
                null, null, connectTimeoutMs, null);
    }

    @Override
    public String toString() {
        return "Provider[" + name + ", " + type.id() + ", " + baseUrl + ", keys=" + keys + (enabled ? "" : ", disabled") + "]";
    }
}
