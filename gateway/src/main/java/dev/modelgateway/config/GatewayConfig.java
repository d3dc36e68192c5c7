package dev.modelgateway.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything the gateway needs to start. Built by {@link ConfigLoader} from YAML plus environment.
 *
 * @param upstreamOverrides public model id → upstream model id chosen by the operator
 * @param databaseUrl JDBC URL of the accounts store
 * @param redisUrl shared counters for several instances; null keeps them in memory
 * @param media how media URLs are downloaded for vendors that need the bytes
 * @param limits the HTTP server's timeouts, connection caps and body budget
 * @param tls the certificate and key to serve TLS with; null serves cleartext HTTP
 * @param defaultMaxConcurrent calls in flight at once for an API key that sets no {@code max_concurrent}; 0: no bound
 * @param dropRefusedHostedTools Responses API: drop a hosted tool the model refuses (with a warning) instead of a 400
 * @param routing providers, deployments, the catalogue's overrides and cooldowns: what a reload applies again
 * @param timeouts the vendor calls' deadlines of the endpoints without {@code platform_options}
 * @param settings every declared setting's value, as read ({@link Settings}); null: the defaults
 */
public record GatewayConfig(String host, int port, String masterKey, Map<Vendor, VendorEndpoint> vendors,
                            Map<String, String> upstreamOverrides, String databaseUrl, String redisUrl,
                            MediaPolicy media, ServerLimits limits, ServerTls tls, int defaultMaxConcurrent,
                            boolean dropRefusedHostedTools, RoutingConfig routing, OperationTimeouts timeouts,
                            ConfigValues settings) {

    /** Keys' default concurrency bound; the same as {@code AccountsConfig.DEFAULT_MAX_CONCURRENT} (docs/security.md). */
    public static final int DEFAULT_MAX_CONCURRENT = 64;

    public GatewayConfig {
        vendors = Map.copyOf(new EnumMap<>(vendors));
        upstreamOverrides = Map.copyOf(upstreamOverrides);
        if (limits == null) limits = ServerLimits.DEFAULT;
        if (defaultMaxConcurrent < 0) throw new IllegalArgumentException("accounts.default_max_concurrent must not be negative");
        if (routing == null) routing = RoutingConfig.NONE;
        if (timeouts == null) timeouts = OperationTimeouts.DEFAULT;
        if (settings == null) settings = ConfigValues.DEFAULTS;
    }

    /**
     * Cleartext, the default limits and concurrency bound per key, refusing hosted tools a model does not take, without
     * providers of the operator's own, every other setting at its default.
     */
    public GatewayConfig(String host, int port, String masterKey, Map<Vendor, VendorEndpoint> vendors,
                         Map<String, String> upstreamOverrides, String databaseUrl, String redisUrl, MediaPolicy media) {
        this(host, port, masterKey, vendors, upstreamOverrides, databaseUrl, redisUrl, media, ServerLimits.DEFAULT, null,
                DEFAULT_MAX_CONCURRENT, false, RoutingConfig.NONE, OperationTimeouts.DEFAULT, null);
    }

    /**
     * The master keys in force: {@code server.master_key}, then {@code server.previous_master_keys}; empty when the
     * admin API is off.
     */
    public List<String> masterKeys() {
        if (masterKey == null) return List.of();
        List<String> keys = new ArrayList<>();
        keys.add(masterKey);
        settings.list(Settings.SERVER_PREVIOUS_MASTER_KEYS).stream().filter(k -> !keys.contains(k)).forEach(keys::add);
        return List.copyOf(keys);
    }

    /**
     * Every secret this configuration holds, for the redaction layer: the master keys, the vendors' and providers' keys,
     * the secrets in their base URLs, and the sign-in providers' client secrets.
     */
    public List<String> secrets() {
        List<String> all = new ArrayList<>(masterKeys());
        vendors.values().forEach(v -> all.add(v.apiKey()));
        providers().values().forEach(p -> p.keys().forEach(k -> all.add(k.value())));
        vendors.values().forEach(v -> all.addAll(ShownUrl.secrets(v.baseUrl())));
        providers().values().forEach(p -> all.addAll(ShownUrl.secrets(p.baseUrl())));
        all.add(RedisUrl.credentials(redisUrl()));
        routing.identity().signInProviders().values().forEach(p -> all.add(p.clientSecret()));
        all.removeIf(Objects::isNull);
        return all;
    }

    /** {@code accounts.ledger_journal_dir}. */
    public Path ledgerJournalDir() {
        return Path.of(settings.text(Settings.ACCOUNTS_LEDGER_JOURNAL_DIR));
    }

    /** {@code accounts.ledger_journal_keep_hours}. */
    public Duration ledgerJournalKeep() {
        return Duration.ofHours(settings.integer(Settings.ACCOUNTS_LEDGER_JOURNAL_KEEP_HOURS));
    }

    public VendorEndpoint vendor(Vendor v) {
        return vendors.get(v);
    }

    /**
     * Every provider by name: the four built-in vendors (named by their ids), then the operator's, which may replace
     * a built-in one.
     */
    public Map<String, Provider> providers() {
        Map<String, Provider> all = new LinkedHashMap<>();
        for (Vendor v : Vendor.values()) {
            VendorEndpoint e = vendors.get(v);
            if (e != null) all.put(v.id(), Provider.of(e));
        }
        all.putAll(routing.providers());
        return all;
    }

    /**
     * This configuration with the operator-owned settings of {@code reloaded} (docs/configuration.md, "Hot reload"):
     * the built-in vendors' endpoints, the upstream ids, providers, deployments, catalogue entries and cooldowns, and the
     * master keys unless {@code reloaded} has none ({@link ConfigValues#removesMasterKey}). The rest (port, stores,
     * limits, TLS) takes a restart.
     */
    public GatewayConfig withReloadable(GatewayConfig reloaded) {
        return new GatewayConfig(host, port, reloaded.masterKey != null ? reloaded.masterKey : masterKey, reloaded.vendors, reloaded.upstreamOverrides, databaseUrl, redisUrl, media,
                limits, tls, defaultMaxConcurrent, dropRefusedHostedTools, reloaded.routing, timeouts,
                settings.withReloadable(reloaded.settings));
    }

    /** The scheme callers use: https when the gateway serves TLS. */
    public String scheme() {
        return tls != null ? "https" : "http";
    }

    public GatewayConfig withRouting(RoutingConfig next) {
        return new GatewayConfig(host, port, masterKey, vendors, upstreamOverrides, databaseUrl, redisUrl, media, limits,
                tls, defaultMaxConcurrent, dropRefusedHostedTools, next, timeouts, settings);
    }

    public GatewayConfig withPort(int newPort) {
        return new GatewayConfig(host, newPort, masterKey, vendors, upstreamOverrides, databaseUrl, redisUrl, media, limits,
                tls, defaultMaxConcurrent, dropRefusedHostedTools, routing, timeouts, settings);
    }

}
