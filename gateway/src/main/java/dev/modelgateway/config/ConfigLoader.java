package dev.modelgateway.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the YAML configuration, substitutes {@code ${VAR}} and {@code ${VAR:-default}} from the
 * environment, then lets the documented environment variables override the file
 * ({@code GATEWAY_PORT}, {@code GATEWAY_MASTER_KEY}, {@code <VENDOR>_API_KEY}, {@code <VENDOR>_BASE_URL},
 * {@code GATEWAY_DATABASE_URL}, {@code GATEWAY_REDIS_URL}, {@code GATEWAY_DEFAULT_MAX_CONCURRENT}, {@code GATEWAY_MEDIA_ALLOW_PRIVATE},
 * {@code GATEWAY_MEDIA_MAX_BYTES}, {@code GATEWAY_MEDIA_TIMEOUT_MS}, {@code GATEWAY_MEDIA_MAX_ITEMS},
 * {@code GATEWAY_MEDIA_MAX_TOTAL_BYTES}, {@code GATEWAY_MEDIA_MAX_CONCURRENT}, {@code GATEWAY_MEDIA_MAX_CONCURRENT_PROCESS},
 * and the server limits {@code GATEWAY_IDLE_TIMEOUT_SECONDS}, {@code GATEWAY_REQUEST_HEAD_TIMEOUT_SECONDS},
 * {@code GATEWAY_BODY_READ_TIMEOUT_SECONDS}, {@code GATEWAY_MAX_CONNECTIONS_PER_CLIENT},
 * {@code GATEWAY_MAX_CONNECTIONS}, {@code GATEWAY_MAX_BUFFERED_BODY_BYTES}, {@code GATEWAY_MAX_VENDOR_ANSWER_BYTES},
 * {@code GATEWAY_MAX_VENDOR_STREAM_SECONDS}, {@code GATEWAY_MAX_VENDOR_EVENT_BYTES}), TLS
 * ({@code GATEWAY_TLS_CERT_FILE}, {@code GATEWAY_TLS_KEY_FILE}), {@code GATEWAY_DEFAULT_MAX_CONCURRENT} and
 * {@code GATEWAY_DROP_REFUSED_HOSTED_TOOLS}. The operator-owned sections ({@code providers}, {@code models},
 * {@code aliases}, {@code routing}) are read by {@link RoutingSection}. See docs/configuration.md.
 */
public final class ConfigLoader {
    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?}");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private final Function<String, String> env;

    public ConfigLoader(Function<String, String> env) {
        this.env = env;
    }

    public static ConfigLoader fromSystemEnv() {
        return new ConfigLoader(System::getenv);
    }

    public GatewayConfig load(Path file) throws IOException {
        String text = file == null ? "" : substitute(Files.readString(file));
        JsonNode root;
        try {
            root = text.isBlank() ? YAML.createObjectNode() : YAML.readTree(text);
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            throw new IllegalArgumentException(file + (at == null ? "" : ", line " + at.getLineNr() + ", column " + at.getColumnNr())
                    + ": not valid YAML: " + e.getOriginalMessage());
        }
        if (root == null || root.isMissingNode() || root.isNull()) root = YAML.createObjectNode();
        if (!root.isObject()) throw new IllegalArgumentException(file + ": the configuration must be a YAML mapping");

        JsonNode server = root.path("server");
        String host = override("GATEWAY_HOST", server.path("host").asText("0.0.0.0"));
        int port = parsePort(override("GATEWAY_PORT", server.path("port").asText("8080")));
        String masterKey = blankToNull(override("GATEWAY_MASTER_KEY", server.path("master_key").asText(null)));

        Map<Vendor, VendorEndpoint> vendors = new EnumMap<>(Vendor.class);
        for (Vendor v : Vendor.values()) {
            JsonNode node = root.path("vendors").path(v.id());
            String baseUrl = checkedBaseUrl(v, override(v.baseUrlEnv(), node.path("base_url").asText(v.defaultBaseUrl())));
            String apiKey = blankToNull(override(v.keyEnv(), node.path("api_key").asText(null)));
            vendors.put(v, new VendorEndpoint(v, baseUrl, apiKey, pool(v, node)));
        }

        Map<String, String> overrides = new HashMap<>();
        root.path("models").properties().forEach(e -> {
            JsonNode upstream = e.getValue().path("upstream");
            if (upstream.isTextual()) overrides.put(e.getKey(), upstream.asText());
        });

        JsonNode accounts = root.path("accounts");
        String databaseUrl = override("GATEWAY_DATABASE_URL",
                accounts.path("database_url").asText("jdbc:sqlite:./data/gateway.db"));
        String redisUrl = blankToNull(override("GATEWAY_REDIS_URL", accounts.path("redis_url").asText(null)));
        long maxConcurrent = parseLong("GATEWAY_DEFAULT_MAX_CONCURRENT / accounts.default_max_concurrent",
                override("GATEWAY_DEFAULT_MAX_CONCURRENT", accounts.path("default_max_concurrent")
                        .asText(Integer.toString(GatewayConfig.DEFAULT_MAX_CONCURRENT))));
        if (maxConcurrent < 0 || maxConcurrent > 1_000_000) {
            throw new IllegalArgumentException("GATEWAY_DEFAULT_MAX_CONCURRENT / accounts.default_max_concurrent must be between"
                    + " 0 (no bound) and 1000000, got " + maxConcurrent);
        }
        boolean dropHostedTools = parseBoolean("GATEWAY_DROP_REFUSED_HOSTED_TOOLS / responses.drop_refused_hosted_tools",
                override("GATEWAY_DROP_REFUSED_HOSTED_TOOLS", root.path("responses").path("drop_refused_hosted_tools").asText("false")));
        ServerTls tls = ServerTls.of(blankToNull(override("GATEWAY_TLS_CERT_FILE", server.path("tls_cert_file").asText(null))),
                blankToNull(override("GATEWAY_TLS_KEY_FILE", server.path("tls_key_file").asText(null))));
        RoutingConfig routing = new RoutingSection(vendors).parse(root).withFile(file);
        // a provider named after a built-in vendor replaces it for the endpoints that are not routed too (token counting…)
        for (Vendor v : Vendor.values()) {
            Provider replaced = routing.providers().get(v.id());
            if (replaced != null) vendors.put(v, replaced.builtIn(v));
        }
        return new GatewayConfig(host, port, masterKey, vendors, overrides, databaseUrl, redisUrl, media(root.path("media")),
                limits(server), tls, (int) maxConcurrent, dropHostedTools, routing, timeouts(root.path("timeouts")));
    }

    /** Section {@code timeouts}: each endpoint's vendor-call deadline, in whole seconds. */
    private static OperationTimeouts timeouts(JsonNode node) {
        OperationTimeouts d = OperationTimeouts.DEFAULT;
        java.util.List<String> known = java.util.List.of("embeddings_seconds", "count_tokens_seconds", "speech_seconds",
                "images_seconds", "stored_responses_seconds", "transcriptions_seconds");
        node.fieldNames().forEachRemaining(k -> {
            if (!known.contains(k)) throw new IllegalArgumentException("timeouts." + k + ": unknown setting; known: " + known);
        });
        try {
            return new OperationTimeouts(
                    parseLong("timeouts.embeddings_seconds", node.path("embeddings_seconds").asText(Long.toString(d.embeddingsSeconds()))),
                    parseLong("timeouts.count_tokens_seconds", node.path("count_tokens_seconds").asText(Long.toString(d.countTokensSeconds()))),
                    parseLong("timeouts.speech_seconds", node.path("speech_seconds").asText(Long.toString(d.speechSeconds()))),
                    parseLong("timeouts.images_seconds", node.path("images_seconds").asText(Long.toString(d.imagesSeconds()))),
                    parseLong("timeouts.stored_responses_seconds",
                            node.path("stored_responses_seconds").asText(Long.toString(d.storedResponsesSeconds()))),
                    parseLong("timeouts.transcriptions_seconds",
                            node.path("transcriptions_seconds").asText(Long.toString(d.transcriptionsSeconds()))));
        } catch (IllegalArgumentException e) {
            throw e.getMessage().startsWith("timeouts") ? e : new IllegalArgumentException("timeouts: " + e.getMessage());
        }
    }

    private MediaPolicy media(JsonNode node) {
        MediaPolicy d = MediaPolicy.DEFAULT;
        return new MediaPolicy(
                Boolean.parseBoolean(override("GATEWAY_MEDIA_ALLOW_PRIVATE", node.path("allow_private").asText("false")).trim()),
                parseLong("GATEWAY_MEDIA_MAX_BYTES / media.max_bytes",
                        override("GATEWAY_MEDIA_MAX_BYTES", node.path("max_bytes").asText(Long.toString(d.maxBytes())))),
                parseLong("GATEWAY_MEDIA_TIMEOUT_MS / media.timeout_ms",
                        override("GATEWAY_MEDIA_TIMEOUT_MS", node.path("timeout_ms").asText(Long.toString(d.timeoutMs())))),
                (int) parseLong("media.max_redirects", node.path("max_redirects").asText(Integer.toString(d.maxRedirects()))),
                (int) parseLong("GATEWAY_MEDIA_MAX_ITEMS / media.max_items",
                        override("GATEWAY_MEDIA_MAX_ITEMS", node.path("max_items").asText(Integer.toString(d.maxItems())))),
                parseLong("GATEWAY_MEDIA_MAX_TOTAL_BYTES / media.max_total_bytes",
                        override("GATEWAY_MEDIA_MAX_TOTAL_BYTES", node.path("max_total_bytes").asText(Long.toString(d.maxTotalBytes())))),
                (int) parseLong("GATEWAY_MEDIA_MAX_CONCURRENT / media.max_concurrent",
                        override("GATEWAY_MEDIA_MAX_CONCURRENT", node.path("max_concurrent").asText(Integer.toString(d.maxConcurrent())))),
                (int) parseLong("GATEWAY_MEDIA_MAX_CONCURRENT_PROCESS / media.max_concurrent_process",
                        override("GATEWAY_MEDIA_MAX_CONCURRENT_PROCESS",
                                node.path("max_concurrent_process").asText(Integer.toString(d.maxConcurrentAll())))));
    }

    /**
     * {@code vendors.<id>.max_connections}, {@code max_queued}, {@code http_version} and {@code ca_file}: the
     * connection pool per event loop.
     */
    private static VendorPool pool(Vendor v, JsonNode node) {
        return pool("vendors." + v.id() + ".", node, VendorPool.DEFAULT);
    }

    /** A pool's settings under {@code prefix}, each defaulting to {@code d}'s. */
    static VendorPool pool(String prefix, JsonNode node, VendorPool d) {
        long connections = parseLong(prefix + "max_connections", node.path("max_connections").asText(Integer.toString(d.maxConnections())));
        long queued = parseLong(prefix + "max_queued", node.path("max_queued").asText(Integer.toString(d.maxQueued())));
        VendorHttp http = node.hasNonNull("http_version") ? VendorHttp.parse(prefix + "http_version", node.path("http_version").asText())
                : d.http();
        String caFile = node.hasNonNull("ca_file") ? node.get("ca_file").asText() : d.caFile();
        if (caFile != null && !Files.isReadable(Path.of(caFile))) {
            throw new IllegalArgumentException(prefix + "ca_file: cannot read '" + caFile + "'");
        }
        try {
            return new VendorPool((int) Math.clamp(connections, -1, Integer.MAX_VALUE), (int) Math.clamp(queued, -1, Integer.MAX_VALUE),
                    http, caFile);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(prefix + e.getMessage());
        }
    }

    private ServerLimits limits(JsonNode server) {
        ServerLimits d = ServerLimits.DEFAULT;
        return new ServerLimits(
                limit("GATEWAY_IDLE_TIMEOUT_SECONDS", server, "idle_timeout_seconds", d.idleTimeoutSeconds()),
                limit("GATEWAY_REQUEST_HEAD_TIMEOUT_SECONDS", server, "request_head_timeout_seconds", d.requestHeadTimeoutSeconds()),
                limit("GATEWAY_BODY_READ_TIMEOUT_SECONDS", server, "body_read_timeout_seconds", d.bodyReadTimeoutSeconds()),
                (int) limit("GATEWAY_MAX_CONNECTIONS_PER_CLIENT", server, "max_connections_per_client", d.maxConnectionsPerClient()),
                (int) limit("GATEWAY_MAX_CONNECTIONS", server, "max_connections", d.maxConnections()),
                limit("GATEWAY_MAX_BUFFERED_BODY_BYTES", server, "max_buffered_body_bytes", d.maxBufferedBodyBytes()),
                vendorAnswers(server));
    }

    private VendorAnswerLimits vendorAnswers(JsonNode server) {
        VendorAnswerLimits d = VendorAnswerLimits.DEFAULT;
        return new VendorAnswerLimits(
                limit("GATEWAY_MAX_VENDOR_ANSWER_BYTES", server, "max_vendor_answer_bytes", d.maxAnswerBytes()),
                limit("GATEWAY_MAX_VENDOR_STREAM_SECONDS", server, "max_vendor_stream_seconds", d.maxStreamSeconds()),
                limit("GATEWAY_MAX_VENDOR_EVENT_BYTES", server, "max_vendor_event_bytes", d.maxEventBytes()));
    }

    private long limit(String envName, JsonNode server, String field, long fallback) {
        long v = parseLong(envName + " / server." + field, override(envName, server.path(field).asText(Long.toString(fallback))));
        if (v < 0 || v > Integer.MAX_VALUE && !field.endsWith("bytes")) {
            throw new IllegalArgumentException(envName + " / server." + field + " must be between 0 and " + Integer.MAX_VALUE + ", got " + v);
        }
        return v;
    }

    /** {@code true} or {@code false}: a typo must not silently keep the default. */
    private static boolean parseBoolean(String name, String value) {
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException(name + " must be true or false, got '" + value + "'");
        };
    }

    static long parseLong(String name, String value) {
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a number, got '" + value + "'");
        }
    }

    String substitute(String text) {
        Matcher m = PLACEHOLDER.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = env.apply(m.group(1));
            if (value == null) value = m.group(2) != null ? m.group(2) : "";
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        m.appendTail(out);
        return out.toString();
    }

    private String override(String envName, String fileValue) {
        String fromEnv = env.apply(envName);
        return fromEnv != null && !fromEnv.isBlank() ? fromEnv : fileValue;
    }

    /** An absolute http(s) URL with a host: caught here rather than on the vendor's first request. */
    private static String checkedBaseUrl(Vendor v, String value) {
        if (validUrl(value)) return value;
        throw new IllegalArgumentException(v.baseUrlEnv() + " / vendors." + v.id()
                + ".base_url must be an http(s) URL such as https://api.example.com/v1, got '" + value + "'");
    }

    static boolean validUrl(String value) {
        try {
            URI uri = new URI(value);
            String scheme = uri.getScheme();
            if (("http".equalsIgnoreCase(scheme) || "https".equalsIgnoreCase(scheme)) && uri.getHost() != null
                    && uri.getRawQuery() == null && uri.getRawFragment() == null) {
                return true;
            }
        } catch (URISyntaxException e) {
            // not valid
        }
        return false;
    }

    private static int parsePort(String value) {
        try {
            int port = Integer.parseInt(value.trim());
            if (port < 0 || port > 65535) throw new NumberFormatException();
            return port;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("GATEWAY_PORT / server.port must be a port number, got '" + value + "'");
        }
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }
}
