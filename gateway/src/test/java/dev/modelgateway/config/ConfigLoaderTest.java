package dev.modelgateway.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ConfigLoaderTest {
    @TempDir
    Path dir;

    @Test
    void yamlWithEnvSubstitutionAndEnvOverrides() throws Exception {
        Path file = dir.resolve("gateway.yaml");
        Files.writeString(file, """
                server:
                  port: 9000
                  master_key: ${MY_MASTER}
                vendors:
                  openai:
                    api_key: ${OPENAI_SECRET}
                    base_url: ${OPENAI_URL:-https://proxy.example/v1}
                  anthropic:
                    api_key: file-anthropic
                models:
                  platform/vendorA-sonnet-5:
                    upstream: claude-sonnet-5
                accounts:
                  database_url: jdbc:postgresql://db/gw
                """);
        Map<String, String> env = Map.of("MY_MASTER", "pk-master", "OPENAI_SECRET", "sk-1",
                "ANTHROPIC_API_KEY", "from-env", "GATEWAY_PORT", "9100");
        GatewayConfig c = new ConfigLoader(env::get).load(file);
        assertThat(c.port()).isEqualTo(9100);
        assertThat(c.masterKey()).isEqualTo("pk-master");
        assertThat(c.vendor(Vendor.OPENAI).apiKey()).isEqualTo("sk-1");
        assertThat(c.vendor(Vendor.OPENAI).baseUrl()).isEqualTo("https://proxy.example/v1");
        assertThat(c.vendor(Vendor.ANTHROPIC).apiKey()).isEqualTo("from-env");
        assertThat(c.vendor(Vendor.GEMINI).apiKey()).isNull();
        assertThat(c.vendor(Vendor.GEMINI).baseUrl()).isEqualTo("https://generativelanguage.googleapis.com");
        assertThat(c.upstreamOverrides()).containsEntry("platform/vendorA-sonnet-5", "claude-sonnet-5");
        assertThat(c.databaseUrl()).isEqualTo("jdbc:postgresql://db/gw");
    }

    @Test
    void signInProvidersNeedThePublicUrlAndTheSessionSettingsHaveDefaults() throws Exception {
        Path file = dir.resolve("sso.yaml");
        String identity = "identity:\n  sign_in:\n    providers:\n      idp: {issuer: https://idp.example, client_id: gw}\n";
        Files.writeString(file, identity);
        assertThatThrownBy(() -> new ConfigLoader(Map.<String, String>of()::get).load(file))
                .hasMessageContaining("server.public_url");
        Files.writeString(file, "server:\n  public_url: https://gateway.example.com\n" + identity);
        GatewayConfig c = new ConfigLoader(Map.<String, String>of()::get).load(file);
        assertThat(c.settings().text(Settings.SERVER_PUBLIC_URL)).isEqualTo("https://gateway.example.com");
        assertThat(c.settings().integer(Settings.CONSOLE_SESSION_IDLE_SECONDS)).isEqualTo(1800);
        assertThat(c.settings().integer(Settings.CONSOLE_SESSION_MAX_SECONDS)).isEqualTo(28800);
        assertThat(c.settings().integer(Settings.CONSOLE_SESSION_RECHECK_SECONDS)).isEqualTo(2);
        Files.writeString(file, "console:\n  session_idle_seconds: 600\n");
        assertThat(new ConfigLoader(Map.<String, String>of()::get).load(file).settings().integer(Settings.CONSOLE_SESSION_IDLE_SECONDS))
                .isEqualTo(600);
        Files.writeString(file, "console:\n  session_recheck_seconds: 0\n");
        assertThatThrownBy(() -> new ConfigLoader(Map.<String, String>of()::get).load(file))
                .hasMessageContaining("console.session_recheck_seconds");
    }

    /** A secret, by mistake or not, in a field whose refusal quotes its value. */
    static final Map<String, String> SECRET_ENV = Map.of("DB_PASSWORD", "hunter2-Secret");

    @Test
    void aRefusalNamesTheVariableNeverTheValueItBroughtIn() throws Exception {
        for (String yaml : List.of(
                "providers:\n  proxy:\n    type: openai-compatible\n    base_url: http://p/v1\n    connect_timeout_seconds: \"${DB_PASSWORD}\"\n",
                "server:\n  port: \"${DB_PASSWORD}\"\n",
                "routing:\n  cooldown: {failures: \"x${DB_PASSWORD}\"}\n",
                "models: [${DB_PASSWORD}\n")) {
            Path file = dir.resolve("secret.yaml");
            Files.writeString(file, yaml);
            assertThatThrownBy(() -> new ConfigLoader(SECRET_ENV::get).load(file)).as(yaml)
                    .hasMessageNotContaining("hunter2").hasMessageContaining("${DB_PASSWORD}");
        }
    }

    @Test
    void theValuesVariablesBroughtInAreShownAsTheirReferences() throws Exception {
        Path file = dir.resolve("shown.yaml");
        Files.writeString(file, """
                providers:
                  proxy: {type: openai-compatible, base_url: http://p/v1}
                models:
                  team/m:
                    price: {input: 1, output: 1}
                    deployments: [{provider: proxy, model: m, region: "${DB_PASSWORD}", tags: ["eu-${DB_PASSWORD}", "${UNSET:-plain}"]}]
                """);
        GatewayConfig c = new ConfigLoader(SECRET_ENV::get).load(file);
        var shown = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode()
                .put("region", c.routing().deployments().get("team/m").getFirst().region());
        shown.putArray("tags").add("eu-hunter2-Secret").add("plain");
        assertThat(c.settings().substitutions().hideIn(shown).toString())
                .isEqualTo("{\"region\":\"${DB_PASSWORD}\",\"tags\":[\"eu-${DB_PASSWORD}\",\"plain\"]}");
    }

    @Test
    void vendorConnectionPoolsPerVendorWithDefaultsAndBounds() throws Exception {
        Path file = dir.resolve("pools.yaml");
        Files.writeString(file, """
                vendors:
                  openai: {max_connections: 2000, max_queued: 100}
                """);
        GatewayConfig c = new ConfigLoader(Map.<String, String>of()::get).load(file);
        assertThat(c.vendor(Vendor.OPENAI).pool()).isEqualTo(new VendorPool(2000, 100));
        assertThat(c.vendor(Vendor.ANTHROPIC).pool()).isEqualTo(VendorPool.DEFAULT);

        Files.writeString(file, "vendors:\n  gemini: {max_connections: 0}\n");
        assertThatThrownBy(() -> new ConfigLoader(Map.<String, String>of()::get).load(file))
                .hasMessageContaining("vendors.gemini.max_connections");
        Files.writeString(file, "vendors:\n  gemini: {http_version: \"3\"}\n");
        assertThatThrownBy(() -> new ConfigLoader(Map.<String, String>of()::get).load(file))
                .hasMessageContaining("vendors.gemini.http_version (GATEWAY_VENDORS_GEMINI_HTTP_VERSION) must be auto, 1.1 or 2");
        Files.writeString(file, "vendors:\n  gemini: {ca_file: /nonexistent/ca.pem}\n");
        assertThatThrownBy(() -> new ConfigLoader(Map.<String, String>of()::get).load(file))
                .hasMessageContaining("vendors.gemini.ca_file");
        Path ca = Files.writeString(dir.resolve("ca.pem"), "-----BEGIN CERTIFICATE-----\n");
        Files.writeString(file, "vendors:\n  dashscope: {http_version: \"2\", ca_file: " + ca + "}\n");
        assertThat(new ConfigLoader(Map.<String, String>of()::get).load(file).vendor(Vendor.DASHSCOPE).pool())
                .isEqualTo(new VendorPool(VendorPool.DEFAULT.maxConnections(), VendorPool.DEFAULT.maxQueued(), VendorHttp.HTTP2, ca.toString()));
        Files.writeString(file, "vendors:\n  gemini: {max_queued: many}\n");
        assertThatThrownBy(() -> new ConfigLoader(Map.<String, String>of()::get).load(file))
                .hasMessageContaining("vendors.gemini.max_queued");
    }

    @Test
    void noFileMeansDefaultsAndEnvironment() throws Exception {
        GatewayConfig c = new ConfigLoader(Map.of("DASHSCOPE_BASE_URL", "http://x/compatible-mode/v1/")::get).load(null);
        assertThat(c.port()).isEqualTo(8080);
        assertThat(c.masterKey()).isNull();
        assertThat(c.vendor(Vendor.DASHSCOPE).baseUrl()).isEqualTo("http://x/compatible-mode/v1");
        assertThat(c.vendor(Vendor.ANTHROPIC).baseUrl()).isEqualTo("https://api.anthropic.com");
        assertThat(c.databaseUrl()).isEqualTo("jdbc:sqlite:./data/gateway.db");
    }

    @Test
    void badPortIsAClearStartupError() {
        assertThatThrownBy(() -> new ConfigLoader(Map.of("GATEWAY_PORT", "http")::get).load(null))
                .hasMessageContaining("GATEWAY_PORT");
    }

    @Test
    void aBaseUrlThatIsNotAnHttpUrlIsAClearStartupError() {
        for (String bad : new String[] {"localhost:8080/v1", "api.openai.com/v1", "ftp://x/v1", "http://"}) {
            assertThatThrownBy(() -> new ConfigLoader(Map.of("OPENAI_BASE_URL", bad)::get).load(null))
                    .as(bad).hasMessageContaining("OPENAI_BASE_URL").hasMessageContaining(bad);
        }
        // a query value may be a token: the message shows the URL masked (config/ShownUrl)
        assertThatThrownBy(() -> new ConfigLoader(Map.of("OPENAI_BASE_URL", "https://x/v1?key=t0ken")::get).load(null))
                .hasMessageContaining("OPENAI_BASE_URL").hasMessageContaining("https://x/v1?key=****").hasMessageNotContaining("t0ken");
    }

    private GatewayConfig load(String yaml, Map<String, String> env) throws Exception {
        Path file = Files.writeString(dir.resolve("typo.yaml"), yaml);
        return new ConfigLoader(env::get).load(file);
    }

    @Test
    void anUnknownKeyInAnySectionIsRefusedNamingTheNearestKnownOne() {
        String[][] typos = {
                {"accounts: {databse_url: 'jdbc:postgresql://db/gw'}\n", "accounts.databse_url: unknown setting; did you mean `database_url`?"},
                {"server: {hots: 127.0.0.1}\n", "server.hots: unknown setting; did you mean `host`?"},
                {"server: {prot: 9000}\n", "server.prot: unknown setting; did you mean `port`?"},
                {"vendors: {openai: {api_kye: sk-1}}\n", "vendors.openai.api_kye: unknown setting; did you mean `api_key`?"},
                {"vendors: {opneai: {api_key: sk-1}}\n", "vendors.opneai: unknown setting; did you mean `openai`?"},
                {"media: {max_byte: 10}\n", "media.max_byte: unknown setting; did you mean `max_bytes`?"},
                {"responses: {drop_refused_hosted_tool: true}\n", "did you mean `drop_refused_hosted_tools`?"},
                {"observability: {metric: false}\n", "observability.metric: unknown setting; did you mean `metrics`?"},
                {"timeouts: {images_second: 5}\n", "timeouts.images_second: unknown setting; did you mean `images_seconds`?"},
                {"acounts: {}\n", "acounts: unknown setting; did you mean `accounts`?"},
                {"routing: {cooldwon: {seconds: 5}}\n", "routing.cooldwon: unknown setting; did you mean `cooldown`?"},
                {"routing: {cooldown: {second: 5}}\n", "routing.cooldown.second: unknown setting; did you mean `seconds`?"},
                {"providers: {x: {type: openai, base_url: 'https://x/v1', max_conections: 3}}\n",
                        "providers.x.max_conections: unknown setting; did you mean `max_connections`?"},
                {"server: {zzz: 1}\n", "server.zzz: unknown setting; expected one of body_read_timeout_seconds, data_dir, drain_seconds, host,"},
        };
        for (String[] t : typos) {
            assertThatThrownBy(() -> load(t[0], Map.of())).as(t[0]).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(t[1]);
        }
    }

    @Test
    void aListIsAYamlSequenceOrCommaSeparatedAndAnEmptyOneAllowsNothing() throws Exception {
        Setting betas = Settings.VENDOR_A_ALLOWED_BETAS;
        assertThat(load("", Map.of()).settings().list(betas)).contains("claude-code-20250219").doesNotContain("context-1m-2025-08-07");
        assertThat(load("vendors: {anthropic: {allowed_betas: [a-1, ' b-2 ']}}\n", Map.of()).settings().list(betas))
                .containsExactly("a-1", "b-2");
        assertThat(load("vendors: {anthropic: {allowed_betas: []}}\n", Map.of()).settings().list(betas)).isEmpty();
        assertThat(load("", Map.of("GATEWAY_VENDORS_ANTHROPIC_ALLOWED_BETAS", "a-1, b-2,")).settings().list(betas))
                .containsExactly("a-1", "b-2");
        assertThatThrownBy(() -> load("vendors: {anthropic: {allowed_betas: [{a: b}]}}\n", Map.of()))
                .hasMessageContaining("vendors.anthropic.allowed_betas (GATEWAY_VENDORS_ANTHROPIC_ALLOWED_BETAS) must be a list of words");
    }

    @Test
    void aMalformedValueNamesTheSettingAndItsVariable() {
        assertThatThrownBy(() -> load("server: {port: http}\n", Map.of()))
                .hasMessage("server.port (GATEWAY_SERVER_PORT) must be a whole number from 0 to 65535, got 'http' in the file");
        assertThatThrownBy(() -> load("", Map.of("GATEWAY_SERVER_PORT", "70000")))
                .hasMessage("server.port (GATEWAY_SERVER_PORT) must be a whole number from 0 to 65535, got '70000' from GATEWAY_SERVER_PORT");
        assertThatThrownBy(() -> load("media: {allow_private: yes please}\n", Map.of()))
                .hasMessageContaining("media.allow_private (GATEWAY_MEDIA_ALLOW_PRIVATE) must be true or false");
        assertThatThrownBy(() -> load("", Map.of("GATEWAY_OBSERVABILITY_METRICS", "maybe")))
                .hasMessageContaining("observability.metrics (GATEWAY_OBSERVABILITY_METRICS) must be true or false, got 'maybe'");
        assertThatThrownBy(() -> load("server: {host: {a: b}}\n", Map.of()))
                .hasMessageContaining("server.host (GATEWAY_SERVER_HOST) must be a single value");
        assertThatThrownBy(() -> load("server: 8080\n", Map.of())).hasMessageContaining("server must be a mapping");
    }

    @Test
    void theDerivedVariableWinsAndADeprecatedOneStillWorksWithAWarning() throws Exception {
        Path file = Files.writeString(dir.resolve("aliases.yaml"), "media: {timeout_ms: 2500}\n");
        ConfigLoader old = new ConfigLoader(Map.of("GATEWAY_PORT", "9100", "GATEWAY_DATABASE_URL", "jdbc:postgresql://old/gw",
                "GATEWAY_LEDGER_JOURNAL_DIR", "/var/journal")::get);
        GatewayConfig c = old.load(file);
        assertThat(c.port()).isEqualTo(9100);
        assertThat(c.databaseUrl()).isEqualTo("jdbc:postgresql://old/gw");
        assertThat(c.ledgerJournalDir()).isEqualTo(Path.of("/var/journal"));
        assertThat(c.media().timeoutMs()).isEqualTo(2500);
        assertThat(c.settings().warnings()).containsExactlyInAnyOrder(
                "GATEWAY_PORT is deprecated and will be removed in the next release: set GATEWAY_SERVER_PORT instead",
                "GATEWAY_DATABASE_URL is deprecated and will be removed in the next release: set GATEWAY_ACCOUNTS_DATABASE_URL instead",
                "GATEWAY_LEDGER_JOURNAL_DIR is deprecated and will be removed in the next release: set"
                        + " GATEWAY_ACCOUNTS_LEDGER_JOURNAL_DIR instead",
                "media.timeout_ms is deprecated and will be removed in the next release: set media.timeout_seconds (in seconds:"
                        + " the old value ÷ 1000) instead");

        GatewayConfig current = new ConfigLoader(Map.of("GATEWAY_SERVER_PORT", "9200", "GATEWAY_PORT", "9100",
                "GATEWAY_MEDIA_TIMEOUT_SECONDS", "1.5")::get).load(file);
        assertThat(current.port()).isEqualTo(9200);
        assertThat(current.media().timeoutMs()).isEqualTo(1500);
        assertThat(current.settings().warnings()).isEmpty();
        assertThat(new ConfigLoader(Map.of("GATEWAY_MEDIA_TIMEOUT_MS", "750")::get).load(null).media().timeoutMs()).isEqualTo(750);

        GatewayConfig provider = load("providers: {x: {type: openai, base_url: 'https://x/v1', connect_timeout_ms: 2500}}\n", Map.of());
        assertThat(provider.providers().get("x").connectTimeoutMs()).isEqualTo(2500);
        assertThat(provider.settings().warnings()).containsExactly("providers.x.connect_timeout_ms is deprecated and will be removed"
                + " in the next release: set providers.x.connect_timeout_seconds (in seconds) instead");
    }

    @Test
    void everyVariableIsDerivedFromItsPathButTheVendorsOwn() {
        for (Setting s : Settings.ALL) {
            if (!s.inFile() || s.env() == null) continue;
            if (s.path().startsWith("vendors.") && (s.key().equals("api_key") || s.key().equals("base_url"))) {
                assertThat(s.env()).doesNotStartWith("GATEWAY_");
            } else {
                assertThat(s.env()).as(s.path()).isEqualTo("GATEWAY_" + s.path().replace('.', '_').toUpperCase(Locale.ROOT));
            }
        }
        assertThat(Settings.vendor(Vendor.OPENAI, "api_key").env()).isEqualTo("OPENAI_API_KEY");
    }

    @Test
    void theNearestNameIsFoundWithinAFewEdits() {
        assertThat(UnknownSetting.distance("databse_url", "database_url")).isEqualTo(1);
        assertThat(UnknownSetting.distance("hots", "host")).isEqualTo(1);
        assertThat(UnknownSetting.nearest("databse_url", List.of("redis_url", "database_url"))).isEqualTo("database_url");
        assertThat(UnknownSetting.nearest("colour", List.of("host", "port"))).isNull();
    }
}
