package dev.modelgateway.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * Simulates the Anthropic, OpenAI, Gemini and DashScope HTTP APIs on one port, with deterministic answers,
 * fault injection ({@code [[sim:...]]} directives) and a request log; and two more providers of vendor B's format:
 * Azure OpenAI (deployment URLs, {@code api-version}, {@code api-key}) and an OpenAI-compatible server such as vLLM
 * (chat completions and embeddings, any key or none). See vendor-sim/README.md.
 */
public final class VendorSimulator {

    final Vertx vertx;
    final SimKeys keys;
    final RequestLog log = new RequestLog(Integer.getInteger("sim.log.max", 10_000));
    final FaultBook faults = new FaultBook();
    final CacheLedger cache = new CacheLedger();
    final AtomicLong toolIds = new AtomicLong();
    final AtomicLong messageIds = new AtomicLong();
    final AtomicLong containerIds = new AtomicLong();

    private final AnthropicApi anthropic = new AnthropicApi(this);
    private final ChatCompletionsApi openaiChat = new ChatCompletionsApi(this, ChatCompletionsApi.Flavor.OPENAI);
    private final ChatCompletionsApi dashscopeChat = new ChatCompletionsApi(this, ChatCompletionsApi.Flavor.DASHSCOPE);
    private final OpenAiDoubles doubles = new OpenAiDoubles(openaiChat, new EmbeddingsApi(this));
    private final GeminiApi gemini = new GeminiApi(this);
    private final EmbeddingsApi dashscopeEmbeddings = new EmbeddingsApi(this);
    private final OpenAiExtrasApi openaiExtras = new OpenAiExtrasApi(this);
    private final RealtimeApi realtime = new RealtimeApi(this);
    private final BedrockConverseApi converse = new BedrockConverseApi(this);
    final AwsIdentities awsIdentities = new AwsIdentities();
    private final AwsCredentialEndpoints awsCredentials = new AwsCredentialEndpoints(awsIdentities);
    private final GoogleTokens googleTokens = new GoogleTokens();
    private final GoogleOAuthEndpoints googleOAuth = new GoogleOAuthEndpoints(googleTokens);
    private final GoogleMetadataServer googleMetadata = new GoogleMetadataServer(googleTokens);
    private volatile VertexApi vertex = new VertexApi(this, VertexApi.PROJECT, VertexApi.LOCATIONS,
            this::staticVertexToken);
    private final BedrockRuntimeApi bedrock = new BedrockRuntimeApi(this, anthropic);
    private final ClaudePlatformApi claudePlatform = new ClaudePlatformApi(this, anthropic, bedrock.signatures);
    private final BedrockOpenAiApi bedrockOpenAi = new BedrockOpenAiApi(this, bedrock.signatures);
    private HttpServer server;

    private VendorSimulator(Vertx vertx, SimKeys keys) {
        this.vertx = vertx;
        this.keys = keys;
    }

    public static Future<VendorSimulator> start(Vertx vertx, int port) {
        return start(vertx, port, SimKeys.defaults());
    }

    public static Future<VendorSimulator> start(Vertx vertx, int port, SimKeys keys) {
        return start(vertx, "127.0.0.1", port, keys);
    }

    static Future<VendorSimulator> start(Vertx vertx, String host, int port, SimKeys keys) {
        VendorSimulator sim = new VendorSimulator(vertx, keys == null ? SimKeys.anyKey() : keys);
        HttpServerOptions options = new HttpServerOptions().setTcpNoDelay(true).setCompressionSupported(false)
                .setMaxInitialLineLength(16 * 1024)
                .setWebSocketSubProtocols(List.of("realtime", "openai-beta.realtime-v1"));
        HttpServer server = vertx.createHttpServer(options)
                .requestHandler(sim::onRequest)
                .webSocketHandshakeHandler(sim.realtime::handshake)
                .webSocketHandler(sim.realtime::connected);
        return server.listen(port, host).map(s -> {
            sim.server = s;
            return sim;
        });
    }

    public int port() {
        return server.actualPort();
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + port();
    }

    /** Snapshot of received vendor requests in arrival order. */
    public List<ReceivedRequest> received() {
        return log.snapshot();
    }

    public void clearReceived() {
        log.clear();
    }

    /** Completes with the log once {@code condition} holds (polled every 10 ms), or fails after the timeout. */
    public Future<List<ReceivedRequest>> awaitReceived(Predicate<List<ReceivedRequest>> condition, long timeoutMs) {
        Promise<List<ReceivedRequest>> p = Promise.promise();
        long deadline = System.currentTimeMillis() + timeoutMs;
        poll(condition, deadline, p);
        return p.future();
    }

    private void poll(Predicate<List<ReceivedRequest>> condition, long deadline, Promise<List<ReceivedRequest>> p) {
        List<ReceivedRequest> now = received();
        if (condition.test(now)) p.complete(now);
        else if (System.currentTimeMillis() > deadline) p.fail("condition not met in time; log: " + now);
        else vertx.setTimer(10, id -> poll(condition, deadline, p));
    }

    /** Bedrock refuses cache points sent to this model id from now on, as to a model without prompt caching. */
    public void bedrockWithoutCaching(String modelId) {
        converse.withoutCaching(modelId);
    }

    /** The AWS credentials the simulator's AWS doubles accept: register static keys here; its STS issues more. */
    public AwsIdentities awsIdentities() {
        return awsIdentities;
    }

    /** STS, container credentials and IMDSv2 (their call counts, external ids, lifetimes). */
    public AwsCredentialEndpoints awsCredentials() {
        return awsCredentials;
    }

    /**
     * The access tokens the Vertex double accepts from now on (by default {@link VertexApi#STATIC_TOKEN}, or any with
     * {@link SimKeys#anyKey()}): those the simulator's Google OAuth endpoint issued and that have not expired.
     */
    public void acceptVertexTokens(Predicate<String> valid) {
        vertex = new VertexApi(this, VertexApi.PROJECT, VertexApi.LOCATIONS, valid);
    }

    private boolean staticVertexToken(String token) {
        return VertexApi.STATIC_TOKEN.equals(token) || keys.gemini() == null;
    }

    /** Queues a fault (same grammar as directives) for the next requests of a vendor. */
    public void queueFault(String vendor, String fault) {
        faults.queue(vendor, Directive.parse(fault));
    }

    /** The access tokens issued by the Google token endpoint and metadata server: what the Vertex double accepts. */
    public GoogleTokens googleTokens() {
        return googleTokens;
    }

    /** Google's token endpoint ({@code /oauth2/token}): which service accounts and identity pools it trusts. */
    public GoogleOAuthEndpoints googleOAuth() {
        return googleOAuth;
    }

    /** The Bedrock double accepts SigV4 signatures made with this key pair too (besides {@code AKIDSIMBEDROCK}). */
    public void bedrockCredentials(String accessKeyId, String secretAccessKey) {
        bedrock.signatures.accept(accessKeyId, secretAccessKey);
    }

    /** The Bedrock API key ({@code Authorization: Bearer}) the double accepts instead of {@code sim-bedrock-api-key}. */
    public void bedrockApiKey(String key) {
        bedrock.signatures.apiKey(key);
    }

    /** These plain model ids are served by Bedrock only through an inference profile (the on-demand refusal). */
    public void bedrockProfileOnly(String... modelIds) {
        bedrock.profileOnly.addAll(List.of(modelIds));
    }

    /** Claude Platform on AWS's workspace API key ({@code Authorization: Bearer}) instead of {@code sim-claude-aws-api-key}. */
    public void claudePlatformApiKey(String key) {
        claudePlatform.signatures.apiKey(key);
    }

    /** Workspaces Claude Platform on AWS serves besides {@code wrkspc_01SimWorkspace}. */
    public void claudePlatformWorkspaces(String... workspaceIds) {
        claudePlatform.workspaces.addAll(List.of(workspaceIds));
    }

    public Future<Void> close() {
        return server == null ? Future.succeededFuture() : server.close();
    }

    // ------------------------------------------------------------------ routing

    private void onRequest(HttpServerRequest req) {
        String path = req.path();
        if (path.startsWith("/_sim/")) {
            control(req, path);
            return;
        }
        if (awsCredentials.handle(req)) return;
        if (path.equals(GoogleOAuthEndpoints.PATH)) {
            googleOAuth.handle(req);
            return;
        }
        if (path.startsWith(GoogleMetadataServer.PREFIX)) {
            googleMetadata.handle(req);
            return;
        }
        String vendor = vendorOf(path);
        if (vendor == null) {
            req.response().setStatusCode(404).putHeader("content-type", "text/plain").end("No simulated vendor at " + path);
            return;
        }
        req.body().onSuccess(buf -> {
            String body = buf.toString(StandardCharsets.UTF_8);
            RequestLog.Entry entry = log.add(new RequestLog.Entry(vendor, req.method().name(), req.uri(), headersOf(req), body));
            Exchange ex = new Exchange(vertx, req, entry, vendor, errorsOf(vendor));
            if (!authorized(vendor, req, ex)) return;
            dispatch(vendor, path, ex, body, buf);
        });
    }

    private void dispatch(String vendor, String path, Exchange ex, String body, Buffer raw) {
        switch (vendor) {
            case "anthropic" -> anthropic.handle(ex, path, body);
            case "gemini" -> gemini.handle(ex, path, body);
            case "vertex" -> vertex.handle(ex, path, body);
            case "azure" -> doubles.azure(ex, path, body);
            case "compat" -> doubles.compatible(ex, path, body);
            case "claude-aws" -> claudePlatform.handle(ex, path, body, raw);
            case "bedrock-openai" -> bedrockOpenAi.handle(ex, path, body, raw);
            case "bedrock" -> {
                if (path.endsWith("/converse") || path.endsWith("/converse-stream")) {
                    if (bedrock.signed(ex, raw)) converse.handle(ex, path, body);
                } else {
                    bedrock.handle(ex, path, body, raw);
                }
            }
            case "dashscope" -> {
                if (path.equals("/dashscope/compatible-mode/v1/chat/completions")) dashscopeChat.handle(ex, body);
                else if (path.equals("/dashscope/compatible-mode/v1/embeddings")) dashscopeEmbeddings.handle(ex, body);
                else ex.fail(404, "Not found: " + path, "NotFound");
            }
            default -> {
                if (path.equals("/openai/v1/chat/completions")) openaiChat.handle(ex, body);
                else openaiExtras.handle(ex, path, body, raw);
            }
        }
    }

    static String vendorOf(String path) {
        if (path.startsWith("/anthropic/")) return "anthropic";
        if (path.startsWith("/openai/")) return "openai";
        if (path.startsWith("/gemini/")) return "gemini";
        if (path.startsWith("/dashscope/")) return "dashscope";
        if (path.startsWith("/azure/")) return "azure";
        if (path.startsWith("/compat/")) return "compat";
        if (path.startsWith("/model/")) return "bedrock";
        if (path.startsWith(ClaudePlatformApi.PREFIX + "/")) return "claude-aws";
        if (path.startsWith("/bedrock-openai/")) return "bedrock-openai";
        if (path.startsWith("/v1/projects/") || path.startsWith("/v1beta1/projects/")) return "vertex";
        return null;
    }

    static Exchange.ErrorRenderer errorsOf(String vendor) {
        return switch (vendor) {
            case "anthropic", "claude-aws" -> VendorErrors::anthropic;
            case "gemini", "vertex" -> VendorErrors::gemini;
            case "dashscope" -> VendorErrors::dashscope;
            case "bedrock" -> BedrockConverseApi::error;
            default -> VendorErrors::openai;
        };
    }

    private boolean authorized(String vendor, HttpServerRequest req, Exchange ex) {
        String bearer = bearer(req.getHeader("authorization"));
        switch (vendor) {
            case "anthropic" -> {
                String key = req.getHeader("x-api-key");
                if (keys.accepts(vendor, key) || keys.accepts(vendor, bearer)) return true;
                ex.fail(401, key == null && bearer == null ? "x-api-key header is required" : "invalid x-api-key", null);
            }
            case "azure" -> {
                // Azure OpenAI's key header; its 401 body (learn.microsoft.com, "Azure OpenAI REST API reference")
                String key = req.getHeader("api-key");
                if (keys.accepts("azure", key)) return true;
                ex.fail(401, "Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid"
                        + " key for an active subscription and use a correct regional API endpoint for your resource.", "401");
            }
            case "vertex" -> {
                return vertex.authorized(req, ex);
            }
            // SigV4 signs the body too: BedrockRuntimeApi, ClaudePlatformApi and BedrockOpenAiApi check it with the body
            // vLLM started without --api-key, Ollama: any key or none
            case "bedrock", "claude-aws", "bedrock-openai", "compat" -> {
                return true;
            }
            case "gemini" -> {
                String key = req.getHeader("x-goog-api-key");
                if (key == null) key = req.getParam("key");
                if (keys.accepts(vendor, key)) return true;
                if (key == null || key.isEmpty()) ex.fail(403, "Method doesn't allow unregistered callers (callers without "
                        + "established identity). Please use API Key or other form of API consumer identity to call this API.", null);
                else ex.fail(400, "API key not valid. Please pass a valid API key.", null);
            }
            default -> {
                if (keys.accepts(vendor, bearer)) return true;
                if (bearer == null && "openai".equals(vendor)) ex.fail(401, "You didn't provide an API key. You need to provide "
                        + "your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).", null);
                else ex.fail(401, null, "invalid_api_key");
            }
        }
        return false;
    }

    static String bearer(String authorization) {
        if (authorization == null) return null;
        return authorization.regionMatches(true, 0, "Bearer ", 0, 7) ? authorization.substring(7).trim() : null;
    }

    private static Map<String, String> headersOf(HttpServerRequest req) {
        Map<String, String> out = new LinkedHashMap<>();
        req.headers().forEach(e -> out.merge(e.getKey().toLowerCase(Locale.ROOT), e.getValue(), (a, b) -> a + ", " + b));
        return Collections.unmodifiableMap(out);
    }

    // ------------------------------------------------------------------ control endpoints

    private void control(HttpServerRequest req, String path) {
        HttpMethod m = req.method();
        switch (path) {
            case "/_sim/requests" -> {
                if (m == HttpMethod.DELETE) {
                    clearReceived();
                    req.response().setStatusCode(204).end();
                } else {
                    ArrayNode arr = Json.arr();
                    for (ReceivedRequest r : received()) {
                        ObjectNode o = arr.addObject().put("vendor", r.vendor()).put("method", r.method()).put("path", r.path());
                        ObjectNode h = o.putObject("headers");
                        r.headers().forEach(h::put);
                        o.put("body", r.body()).put("clientClosedEarly", r.clientClosedEarly());
                    }
                    req.response().putHeader("content-type", "application/json").end(Json.write(arr));
                }
            }
            case "/_sim/faults" -> {
                if (m == HttpMethod.DELETE) {
                    faults.clearQueued();
                    req.response().setStatusCode(204).end();
                    return;
                }
                req.body().onSuccess(buf -> {
                    try {
                        JsonNode n = Json.MAPPER.readTree(buf.getBytes());
                        String vendor = Json.text(n, "vendor"), fault = Json.text(n, "fault");
                        if (vendor == null || fault == null) throw new IllegalArgumentException("vendor and fault are required");
                        queueFault(vendor, fault);
                        req.response().setStatusCode(204).end();
                    } catch (Exception e) {
                        req.response().setStatusCode(400).putHeader("content-type", "text/plain").end(String.valueOf(e.getMessage()));
                    }
                });
            }
            case "/_sim/files/sim.png" -> req.response().putHeader("content-type", "image/png")
                    .end(Buffer.buffer(ImagesApi.PNG));
            case "/_sim/reset" -> {
                clearReceived();
                faults.reset();
                cache.clear();
                req.response().setStatusCode(204).end();
            }
            default -> req.response().setStatusCode(404).end();
        }
    }

    // ------------------------------------------------------------------ standalone

    public static void main(String[] args) {
        int port = 9090;
        SimKeys keys = SimKeys.defaults();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--port" -> port = Integer.parseInt(args[++i]);
                case "--any-key" -> keys = SimKeys.anyKey();
                default -> {
                    System.err.println("usage: VendorSimulator [--port N] [--any-key]");
                    System.exit(2);
                }
            }
        }
        Vertx vertx = Vertx.vertx();
        start(vertx, "0.0.0.0", port, keys).onSuccess(sim -> {
            String base = sim.baseUrl();
            System.out.println("vendor-sim listening on " + base);
            System.out.println("  anthropic: " + base + "/anthropic");
            System.out.println("  openai:    " + base + "/openai/v1");
            System.out.println("  gemini:    " + base + "/gemini");
            System.out.println("  dashscope: " + base + "/dashscope/compatible-mode/v1");
            System.out.println("  azure:     " + base + "/azure (api_version 2024-10-21)");
            System.out.println("  compat:    " + base + "/compat/v1");
            System.out.println("  bedrock:   " + base + " (SigV4 " + BedrockSignatures.ACCESS_KEY_ID + ")");
            System.out.println("  claude-aws: " + base + ClaudePlatformApi.PREFIX + " (workspace " + ClaudePlatformApi.WORKSPACE + ")");
            System.out.println("  bedrock-openai: " + base + BedrockOpenAiApi.PREFIX);
            System.out.println("  vertex:    " + base + " (project " + VertexApi.PROJECT + ", token " + VertexApi.STATIC_TOKEN + ")");
        }).onFailure(t -> {
            System.err.println("vendor-sim failed to start: " + t);
            vertx.close();
            System.exit(1);
        });
    }
}
