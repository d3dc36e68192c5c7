package dev.modelgateway.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the YAML configuration, substitutes {@code ${VAR}} and {@code ${VAR:-default}} from the environment and
 * {@code ${file:PATH}} from secret files ({@link SecretFiles}), then reads
 * every declared setting ({@link Settings}) through {@link SettingsReader}: its environment variable overrides the file,
 * a deprecated name still works with a warning, an unknown key in any section or a malformed value stops the load
 * naming the key. The operator-owned sections ({@code providers}, {@code models}, {@code aliases}, {@code routing}) are
 * read by {@link RoutingSection}. See docs/configuration.md.
 */
public final class ConfigLoader {
    private static final Logger LOG = LoggerFactory.getLogger(ConfigLoader.class);
    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?}");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private final Function<String, String> env;

    public ConfigLoader(Function<String, String> env) {
        this.env = env;
    }

    public static ConfigLoader fromSystemEnv() {
        return new ConfigLoader(System::getenv);
    }

    /**
     * The configuration in {@code file} (null: none, the environment and defaults only). A refusal never quotes a value a
     * {@code ${VAR}} reference brought in: it names the reference ({@link Substitutions}).
     */
    public GatewayConfig load(Path file) throws IOException {
        Substitutions.Recorder substitutions = new Substitutions.Recorder();
        try {
            return load(file, substitutions);
        } catch (IllegalArgumentException e) {
            throw substitutions.done().hide(e);
        }
    }

    private GatewayConfig load(Path file, Substitutions.Recorder substitutions) throws IOException {
        JsonNode root = read(file, substitutions);
        ConfigValues v = new SettingsReader(env).read(root).withSubstitutions(substitutions.done());

        Map<Vendor, VendorEndpoint> vendors = new EnumMap<>(Vendor.class);
        for (Vendor vendor : Vendor.values()) {
            vendors.put(vendor, new VendorEndpoint(vendor, v.text(Settings.vendor(vendor, "base_url")),
                    v.text(Settings.vendor(vendor, "api_key")), pool(vendor, v)));
        }
        Map<String, String> overrides = new HashMap<>();
        root.path("models").properties().forEach(e -> {
            JsonNode upstream = e.getValue().path("upstream");
            if (upstream.isTextual()) overrides.put(e.getKey(), upstream.asText());
        });
        if (v.text(Settings.SERVER_MASTER_KEY) == null && !v.list(Settings.SERVER_PREVIOUS_MASTER_KEYS).isEmpty()) {
            throw new IllegalArgumentException(Settings.SERVER_PREVIOUS_MASTER_KEYS.name() + " is set but "
                    + Settings.SERVER_MASTER_KEY.name() + " is not: the previous keys are accepted beside a master key only");
        }
        ServerTls tls = ServerTls.of(v.text(Settings.SERVER_TLS_CERT_FILE), v.text(Settings.SERVER_TLS_KEY_FILE));
        RoutingSection section = new RoutingSection(vendors);
        RoutingConfig routing = section.parse(root).withFile(file).withIdentity(IdentitySection.parse(root));
        if (routing.identity().ssoConfigured() && v.text(Settings.SERVER_PUBLIC_URL) == null) {
            throw new IllegalArgumentException(Settings.SERVER_PUBLIC_URL.name() + " is not set but identity.sign_in lists"
                    + " providers: sign-in's redirect URIs and the CSRF origin come from it");
        }
        v = v.withWarnings(section.warnings());
        v.warnings().forEach(w -> LOG.warn("configuration: {}", w));
        // a provider named after a built-in vendor replaces it for the endpoints that are not routed too (token counting…)
        for (Vendor vendor : Vendor.values()) {
            Provider replaced = routing.providers().get(vendor.id());
            if (replaced != null) vendors.put(vendor, replaced.builtIn(vendor));
        }
        redisUrl(v);
        return new GatewayConfig(v.text(Settings.SERVER_HOST), v.integer(Settings.SERVER_PORT), v.text(Settings.SERVER_MASTER_KEY),
                vendors, overrides, v.text(Settings.ACCOUNTS_DATABASE_URL), v.text(Settings.ACCOUNTS_REDIS_URL), media(v),
                limits(v), tls, v.integer(Settings.ACCOUNTS_DEFAULT_MAX_CONCURRENT),
                v.flag(Settings.RESPONSES_DROP_REFUSED_HOSTED_TOOLS), routing, timeouts(v), v);
    }

    private JsonNode read(Path file, Substitutions.Recorder substitutions) throws IOException {
        String text = file == null ? "" : substitute(Files.readString(file), substitutions);
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
        SecretFiles.substitute(root, substitutions);
        return root;
    }

    /** Refuses a Redis URL the client could not use, naming the setting (never quoting the URL: it may hold a password). */
    private static void redisUrl(ConfigValues v) {
        String url = v.text(Settings.ACCOUNTS_REDIS_URL);
        if (url == null || url.isBlank()) return;
        try {
            RedisUrl.parse(url);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(Settings.ACCOUNTS_REDIS_URL.name() + ": " + e.getMessage());
        }
    }

    private static OperationTimeouts timeouts(ConfigValues v) {
        return new OperationTimeouts(v.number(Settings.TIMEOUTS_EMBEDDINGS_SECONDS), v.number(Settings.TIMEOUTS_COUNT_TOKENS_SECONDS),
                v.number(Settings.TIMEOUTS_SPEECH_SECONDS), v.number(Settings.TIMEOUTS_IMAGES_SECONDS),
                v.number(Settings.TIMEOUTS_STORED_RESPONSES_SECONDS), v.number(Settings.TIMEOUTS_TRANSCRIPTIONS_SECONDS));
    }

    private static MediaPolicy media(ConfigValues v) {
        return new MediaPolicy(v.flag(Settings.MEDIA_ALLOW_PRIVATE), v.number(Settings.MEDIA_MAX_BYTES),
                Math.round(v.decimal(Settings.MEDIA_TIMEOUT_SECONDS) * 1000), v.integer(Settings.MEDIA_MAX_REDIRECTS),
                v.integer(Settings.MEDIA_MAX_ITEMS), v.number(Settings.MEDIA_MAX_TOTAL_BYTES), v.integer(Settings.MEDIA_MAX_CONCURRENT),
                v.integer(Settings.MEDIA_MAX_CONCURRENT_PROCESS));
    }

    private static ServerLimits limits(ConfigValues v) {
        return new ServerLimits(v.number(Settings.SERVER_IDLE_TIMEOUT_SECONDS), v.number(Settings.SERVER_REQUEST_HEAD_TIMEOUT_SECONDS),
                v.number(Settings.SERVER_BODY_READ_TIMEOUT_SECONDS), v.integer(Settings.SERVER_MAX_CONNECTIONS_PER_CLIENT),
                v.integer(Settings.SERVER_MAX_CONNECTIONS), v.number(Settings.SERVER_MAX_BUFFERED_BODY_BYTES),
                new VendorAnswerLimits(v.number(Settings.SERVER_MAX_VENDOR_ANSWER_BYTES),
                        v.number(Settings.SERVER_MAX_VENDOR_STREAM_SECONDS), v.number(Settings.SERVER_MAX_VENDOR_EVENT_BYTES)));
    }

    /** A built-in vendor's connection pool per event loop (docs/configuration.md, "Vendor connection pools"). */
    private static VendorPool pool(Vendor vendor, ConfigValues v) {
        Setting ca = Settings.vendor(vendor, "ca_file");
        String caFile = v.text(ca);
        if (caFile != null && !Files.isReadable(Path.of(caFile))) {
            throw new IllegalArgumentException(ca.name() + ": cannot read '" + caFile + "'");
        }
        return new VendorPool(v.integer(Settings.vendor(vendor, "max_connections")), v.integer(Settings.vendor(vendor, "max_queued")),
                (VendorHttp) v.value(Settings.vendor(vendor, "http_version")), caFile);
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

    static long parseLong(String name, String value) {
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a number, got '" + value + "'");
        }
    }

    String substitute(String text, Substitutions.Recorder substitutions) {
        Matcher m = PLACEHOLDER.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = env.apply(m.group(1));
            if (value != null) substitutions.record(m.group(1), value);
            else if (m.group(2) == null) substitutions.unset(m.group(1));
            if (value == null) value = m.group(2) != null ? m.group(2) : "";
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** An absolute http(s) URL with a host and no query: caught at start-up rather than on the vendor's first request. */
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
}
