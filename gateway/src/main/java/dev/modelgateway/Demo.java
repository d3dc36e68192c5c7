package dev.modelgateway;

import dev.modelgateway.config.ConfigLoader;
import dev.modelgateway.config.GatewayConfig;
import dev.modelgateway.config.RoutingConfig;
import dev.modelgateway.config.Settings;
import dev.modelgateway.config.Vendor;
import dev.modelgateway.config.VendorEndpoint;
import dev.modelgateway.server.Gateway;
import dev.modelgateway.sim.SimKeys;
import dev.modelgateway.sim.VendorSimulator;
import io.vertx.core.Vertx;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * {@code ./gw demo}: the real gateway in front of the built-in vendor simulator, with a fixed demo
 * key, so that the README's curl and SDK snippets work on a machine with no vendor accounts.
 */
final class Demo {
    static final String DEMO_KEY = "pk-demo-model-gateway";
    /**
     * The demo's key administers the gateway and its media fetches may reach loopback (the simulator serves the
     * sample images there), so it listens on loopback only, and keeps its own database so that its well-known
     * key never touches the data of {@code ./gw serve} (docs/security.md, "Demo mode").
     */
    static final String HOST = "127.0.0.1";
    static final String DATABASE = "demo.db";

    private Demo() {
    }

    static void run(String[] args) throws Exception {
        GatewayConfig base = ConfigLoader.fromSystemEnv().load(null);
        Vertx vertx = Vertx.vertx();
        VendorSimulator sim = VendorSimulator.start(vertx, 0).await();
        String s = sim.baseUrl();
        GatewayConfig config = config(base, s, SimKeys.defaults());
        config = config.withRouting(clouds(sim, Path.of(base.settings().text(Settings.SERVER_DATA_DIR)))
                .withCooldown(base.routing().cooldown()));
        Gateway gateway = Gateway.start(vertx, config, Main.eventLoops()).await();
        String url = config.scheme() + "://" + HOST + ":" + gateway.port();
        System.out.println("""

                Model Gateway demo: the gateway on %1$s/api/v1, vendors simulated on %2$s
                Demo API key: %3$s (it is the master key: the demo listens on loopback only,
                and keeps its data in %4$s, apart from serve's)

                Try it:
                  curl -s %1$s/api/v1/chat/completions \\
                    -H 'Authorization: Bearer %3$s' -H 'Content-Type: application/json' \\
                    -d '{"model":"platform/vendorB-5.5","messages":[{"role":"user","content":"Hello!"}]}'

                  curl -sN %1$s/api/v1/messages \\
                    -H 'Authorization: Bearer %3$s' -H 'Content-Type: application/json' \\
                    -d '{"model":"platform/vendorA-sonnet-5","max_tokens":256,"stream":true,"messages":[{"role":"user","content":"Hello!"}]}'

                With the official SDKs (Node.js; any directory):
                  npm install openai @anthropic-ai/sdk
                  node -e 'const OpenAI = require("openai");
                    new OpenAI({baseURL: "%1$s/api/v1", apiKey: "%3$s"}).chat.completions
                      .create({model: "platform/vendorB-5.5", messages: [{role: "user", content: "Hello!"}]})
                      .then(r => console.log(r.choices[0].message.content))'
                  node -e 'const Anthropic = require("@anthropic-ai/sdk");
                    new Anthropic({baseURL: "%1$s/api", authToken: "%3$s", apiKey: null}).messages
                      .create({model: "platform/vendorA-sonnet-5", max_tokens: 256, messages: [{role: "user", content: "Hello!"}]})
                      .then(m => console.log(m.content.at(-1).text))'

                Served through the simulated clouds (docs/clouds.md, "In demo mode"): %5$s on AWS Bedrock
                (InvokeModel, SigV4), %6$s on Google Vertex AI (rawPredict, a service account's tokens)

                Press Ctrl+C to stop.
                """.formatted(url, s, config.masterKey(), config.databaseUrl(), DemoClouds.BEDROCK_MODEL, DemoClouds.VERTEX_MODEL));
        Main.stopOnShutdown(vertx, gateway);
    }

    /**
     * Two of vendor A's models on the simulator's Bedrock and Vertex doubles: a service account made for this start,
     * which the simulator's Google token endpoint trusts, and whose tokens are the only ones its Vertex double takes.
     */
    static RoutingConfig clouds(VendorSimulator sim, Path dataDir) throws IOException {
        DemoServiceAccount account = DemoServiceAccount.create(dataDir, DemoClouds.SERVICE_ACCOUNT_FILE, sim.baseUrl() + "/oauth2/token");
        sim.googleOAuth().trustServiceAccount(account.clientEmail(), account.publicKey());
        sim.acceptVertexTokens(sim.googleTokens());
        return DemoClouds.routing(dataDir, sim.baseUrl(), account);
    }

    /** The serve configuration turned into the demo's: simulated vendors, loopback only, its own database. */
    static GatewayConfig config(GatewayConfig base, String simulatorUrl, SimKeys keys) {
        String s = simulatorUrl;
        return new GatewayConfig(HOST, base.port(),
                base.masterKey() != null ? base.masterKey() : DEMO_KEY,
                Map.of(
                        Vendor.ANTHROPIC, new VendorEndpoint(Vendor.ANTHROPIC, s + "/anthropic", keys.anthropic()),
                        Vendor.OPENAI, new VendorEndpoint(Vendor.OPENAI, s + "/openai/v1", keys.openai()),
                        Vendor.GEMINI, new VendorEndpoint(Vendor.GEMINI, s + "/gemini", keys.gemini()),
                        Vendor.DASHSCOPE, new VendorEndpoint(Vendor.DASHSCOPE, s + "/dashscope/compatible-mode/v1", keys.dashscope())),
                base.upstreamOverrides(), "jdbc:sqlite:" + Path.of(base.settings().text(Settings.SERVER_DATA_DIR)).resolve(DATABASE),
                base.redisUrl(),
                // the simulator, which serves the demo's image URLs, is on loopback
                base.media().withAllowPrivate(true), base.limits(), base.tls(), base.defaultMaxConcurrent(),
                // the observability settings and the journal's directory too, as the environment gives them
                base.dropRefusedHostedTools(), base.routing(), base.timeouts(), base.settings());
    }
}
