package dev.modelgateway.config;

import dev.modelgateway.config.Setting.Kind;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The configuration's settings, each declared once (docs/configuration.md, "Reference", is generated from this table
 * by {@link SettingsReference}). The operator's own maps ({@code providers}, {@code models}, {@code aliases},
 * {@code routing}) are read by {@link RoutingSection}, which refuses unknown keys the same way.
 */
public final class Settings {
    private static final long INT = Integer.MAX_VALUE;

    public static final Setting SERVER_HOST = Setting.of("server.host", Kind.TEXT).byDefault("0.0.0.0").oldEnv("GATEWAY_HOST")
            .doc("listening address");
    public static final Setting SERVER_PORT = Setting.of("server.port", Kind.INTEGER).range(0, 65535).byDefault(8080)
            .oldEnv("GATEWAY_PORT").doc("listening port (`0`: any free port)");
    public static final Setting SERVER_MASTER_KEY = Setting.of("server.master_key", Kind.SECRET).oldEnv("GATEWAY_MASTER_KEY")
            .appliedByReload()
            .doc("a platform key that always works and administers keys and the configuration (`/api/v1/admin/*`); unset"
                    + " disables the admin API (the CLI still works). A reload applies a new one, but not its removal"
                    + " (that takes a restart); see [Master key rotation](operations/key-rotation.md#the-master-key)");
    public static final Setting SERVER_PREVIOUS_MASTER_KEYS = Setting.of("server.previous_master_keys", Kind.SECRET_LIST)
            .appliedByReload()
            .doc("more master keys accepted beside `server.master_key`, with the same rights: the old key while a rotation"
                    + " runs, removed when it is over (no commas within a key); needs `server.master_key`");
    /** The settings whose values are the master keys: a reload applies them together. */
    static final List<Setting> MASTER_KEYS = List.of(SERVER_MASTER_KEY, SERVER_PREVIOUS_MASTER_KEYS);
    public static final Setting SERVER_IDLE_TIMEOUT_SECONDS = Setting.of("server.idle_timeout_seconds", Kind.INTEGER)
            .range(0, INT).byDefault(360).oldEnv("GATEWAY_IDLE_TIMEOUT_SECONDS")
            .doc("a connection on which nothing is read or written for this long is closed. Above the longest call deadline"
                    + " (300 s), so no call in progress is cut; every SSE event written resets it. Also closes a silent"
                    + " realtime WebSocket");
    public static final Setting SERVER_REQUEST_HEAD_TIMEOUT_SECONDS = Setting.of("server.request_head_timeout_seconds",
            Kind.INTEGER).range(0, INT).byDefault(30).oldEnv("GATEWAY_REQUEST_HEAD_TIMEOUT_SECONDS")
            .doc("a connection must deliver a complete request head within this long of opening, and of its previous"
                    + " response ending (idle keep-alive); no timer runs while a request is in progress. `0` turns it off");
    public static final Setting SERVER_BODY_READ_TIMEOUT_SECONDS = Setting.of("server.body_read_timeout_seconds", Kind.INTEGER)
            .range(0, INT).byDefault(120).oldEnv("GATEWAY_BODY_READ_TIMEOUT_SECONDS")
            .doc("an authenticated request's body must have arrived whole within this long: else 408 and the connection is"
                    + " closed. `0` turns it off");
    public static final Setting SERVER_MAX_CONNECTIONS_PER_CLIENT = Setting.of("server.max_connections_per_client", Kind.INTEGER)
            .range(0, INT).byDefault(256).oldEnv("GATEWAY_MAX_CONNECTIONS_PER_CLIENT")
            .doc("open connections from one client address; beyond it a new connection is closed at once. `0`: no cap (set"
                    + " it behind a proxy or load balancer, where every client has the proxy's address)");
    public static final Setting SERVER_MAX_CONNECTIONS = Setting.of("server.max_connections", Kind.INTEGER).range(0, INT)
            .byDefault(ServerLimits.DEFAULT.maxConnections())
            .shown("`16384`, or the maximum heap ÷ 30 KiB when that is fewer (a heap under 480 MiB; the launcher's is 512)")
            .oldEnv("GATEWAY_MAX_CONNECTIONS")
            .doc("open connections in total, all event loops together; beyond it a new connection is closed at once. `0`: no"
                    + " cap. The default keeps what the connections can hold within the heap (a slow stream holds ≈ 20 KiB"
                    + " while it runs); raise `-Xmx` with it. Each needs a file descriptor, and over HTTP/1.1 to a vendor a"
                    + " second one: keep `ulimit -n` above it (twice it for HTTP/1.1 vendors)");
    public static final Setting SERVER_MAX_BUFFERED_BODY_BYTES = Setting.of("server.max_buffered_body_bytes", Kind.INTEGER)
            .byDefault(0).shown("`0` = a quarter of `-Xmx`").oldEnv("GATEWAY_MAX_BUFFERED_BODY_BYTES")
            .doc("request bodies held in memory at once. A request reserves its `Content-Length` (its route's whole limit"
                    + " when it has none) until its response ends; beyond the budget it gets 503 with `retry-after: 1`");
    public static final Setting SERVER_MAX_VENDOR_ANSWER_BYTES = Setting.of("server.max_vendor_answer_bytes", Kind.INTEGER)
            .range(1, Long.MAX_VALUE).byDefault(VendorAnswerLimits.DEFAULT.maxAnswerBytes())
            .shown("`67108864` (64 MiB)").oldEnv("GATEWAY_MAX_VENDOR_ANSWER_BYTES")
            .doc("a vendor's JSON (or error) answer, read whole: past it the attempt fails with a 502 (code"
                    + " `upstream_answer_too_large` for a single attempt); a declared `Content-Length` over it fails before"
                    + " reading");
    public static final Setting SERVER_MAX_VENDOR_STREAM_SECONDS = Setting.of("server.max_vendor_stream_seconds", Kind.INTEGER)
            .range(1, INT).byDefault(VendorAnswerLimits.DEFAULT.maxStreamSeconds()).shown("`1800` (30 min)")
            .oldEnv("GATEWAY_MAX_VENDOR_STREAM_SECONDS")
            .doc("a streamed answer's whole duration. An SSE stream then ends with the protocol's error event, code"
                    + " `stream_too_long` (before its first byte: the attempt fails); a binary answer (speech audio) is"
                    + " broken off (connection reset), never ended as if complete");
    public static final Setting SERVER_MAX_VENDOR_EVENT_BYTES = Setting.of("server.max_vendor_event_bytes", Kind.INTEGER)
            .range(1, Long.MAX_VALUE).byDefault(VendorAnswerLimits.DEFAULT.maxEventBytes()).shown("`16777216` (16 MiB)")
            .oldEnv("GATEWAY_MAX_VENDOR_EVENT_BYTES")
            .doc("one SSE event (the bytes between two events): past it the stream ends with the protocol's error event, code"
                    + " `upstream_event_too_large`");
    public static final Setting SERVER_TLS_CERT_FILE = Setting.of("server.tls_cert_file", Kind.FILE).oldEnv("GATEWAY_TLS_CERT_FILE")
            .doc("serve HTTPS (and `wss://`) with this PEM file: the server certificate, then any intermediates. Set both"
                    + " files or neither (cleartext), see [TLS](#tls)");
    public static final Setting SERVER_TLS_KEY_FILE = Setting.of("server.tls_key_file", Kind.FILE).oldEnv("GATEWAY_TLS_KEY_FILE")
            .doc("its private key, PEM (PKCS#8 `BEGIN PRIVATE KEY`, or PKCS#1 `BEGIN RSA PRIVATE KEY`)");

    public static final Setting SERVER_DATA_DIR = Setting.of("server.data_dir", Kind.FILE)
            .shown("`$STATE_DIRECTORY` (a systemd service's `StateDirectory=`), else the launcher's: `$XDG_DATA_HOME/model-gateway`"
                    + " (`~/.local/share/model-gateway`) for the release archive's `bin/model-gateway`, `./data` for `./gw`")
            .doc("where the gateway keeps its state: the SQLite database (`gateway.db`, the demo's `demo.db`) and the"
                    + " ledger's journal (`journal/`), unless `accounts.database_url` and `accounts.ledger_journal_dir` say"
                    + " otherwise; created if absent. See [Data directory](#data-directory)");
    public static final Setting SERVER_DRAIN_SECONDS = Setting.of("server.drain_seconds", Kind.INTEGER).range(0, 86_400)
            .byDefault(10)
            .doc("on SIGTERM, how long calls in flight may go on: `/ready` answers 503 at once, new requests are still"
                    + " served (`Connection: close`); past this, the streams still running end with their protocol's error"
                    + " event, code `server_shutting_down`. The process exits within this + 15 s: keep the preStop sleep +"
                    + " this + 15 s within the supervisor's grace period. See [Shutdown](#shutdown)");

    public static final Setting SERVER_PUBLIC_URL = Setting.of("server.public_url", Kind.URL)
            .doc("the URL people reach the gateway at (`https://gateway.example.com`): console sign-in's redirect URIs and"
                    + " the CSRF origin check come from it, never from `Host` or `X-Forwarded-*`; required when"
                    + " `identity.sign_in` lists providers; see [Single sign-on](identity/sso.md)");
    public static final Setting CONSOLE_SESSION_IDLE_SECONDS = Setting.of("console.session_idle_seconds", Kind.INTEGER)
            .range(60, 86_400).byDefault(1800)
            .doc("a console session unused this long ends (the person signs in again)");
    public static final Setting CONSOLE_SESSION_MAX_SECONDS = Setting.of("console.session_max_seconds", Kind.INTEGER)
            .range(60, 2_592_000).byDefault(28800)
            .doc("a console session ends this long after its sign-in, however much it is used");
    public static final Setting CONSOLE_SESSION_RECHECK_SECONDS = Setting.of("console.session_recheck_seconds", Kind.INTEGER)
            .range(1, 300).byDefault(2)
            .doc("how often a console session re-reads its user's active flag and roles: a deactivated user's session"
                    + " is refused within this");

    public static final Setting ACCOUNTS_DATABASE_URL = Setting.of("accounts.database_url", Kind.SECRET)
            .shown("`jdbc:sqlite:` + `server.data_dir` + `/gateway.db`").oldEnv("GATEWAY_DATABASE_URL")
            .doc("accounts store: an SQLite file for one instance (its directory is created), or PostgreSQL"
                    + " (`jdbc:postgresql://host:5432/db?user=...`, `&currentSchema=` to pick a schema) for several;"
                    + " see [accounts.md](accounts.md)");
    public static final Setting ACCOUNTS_REDIS_URL = Setting.of("accounts.redis_url", Kind.SECRET).oldEnv("GATEWAY_REDIS_URL")
            .doc("rate-limit counters, concurrency slots, budget reservations, cooldowns and the owners of vendor B responses"
                    + " shared by several instances (unset: the owners in PostgreSQL if the accounts are there, the rest in the"
                    + " process, right for one instance only). One node (or a managed primary endpoint):"
                    + " `redis://[[user]:password@]host:port[/db]`; Sentinel: `redis-sentinel://[[user]:password@]host:port,host:port/master_name[/db]`;"
                    + " Cluster: `redis-cluster://[[user]:password@]host:port[,host:port]`; `rediss…` for TLS. `?key_prefix=` names this"
                    + " deployment's keys (default `mg:`); see [scale-out.md](operations/scale-out.md#redis)");
    public static final Setting ACCOUNTS_REDIS_REPLICA_ACKS = Setting.of("accounts.redis_replica_acks", Kind.INTEGER).range(0, 16)
            .shown("`1` with Sentinel or Cluster, `0` with one node")
            .doc("replicas that must have a rate-limit or budget write (Redis `WAIT`) before the admission it decides counts,"
                    + " so that a failover cannot lose it; `0` does not wait. See"
                    + " [scale-out.md](operations/scale-out.md#failover-exactly)");
    public static final Setting ACCOUNTS_REDIS_FAILOVER_WAIT_SECONDS = Setting.of("accounts.redis_failover_wait_seconds", Kind.DECIMAL)
            .range(0, 120).shown("`5` with Sentinel or Cluster, `1` with one node")
            .doc("how long an admission waits for Redis (retrying on the new primary during a failover) before it is decided"
                    + " without Redis: rate limits not applied, concurrency and budget holds counted in this process alone");
    public static final Setting ACCOUNTS_REDIS_CA_FILE = Setting.of("accounts.redis_ca_file", Kind.FILE)
            .doc("PEM certificates a `rediss` server's certificate must chain to, instead of the JDK's trusted roots"
                    + " (Memorystore's server CA, a self-run Redis's)");
    public static final Setting ACCOUNTS_DEFAULT_MAX_CONCURRENT = Setting.of("accounts.default_max_concurrent", Kind.INTEGER)
            .range(0, 1_000_000).byDefault(GatewayConfig.DEFAULT_MAX_CONCURRENT).oldEnv("GATEWAY_DEFAULT_MAX_CONCURRENT")
            .doc("calls a key may have in flight at once when it sets no `max_concurrent` (`0`: no bound); see"
                    + " [accounts.md](accounts.md#concurrency)");
    public static final Setting ACCOUNTS_LEDGER_JOURNAL_DIR = Setting.of("accounts.ledger_journal_dir", Kind.FILE)
            .shown("`server.data_dir` + `/journal`").oldEnv("GATEWAY_LEDGER_JOURNAL_DIR")
            .doc("where usage rows are journaled before they reach the database, replayed at start after a crash; instances"
                    + " may share it; see [accounts.md](accounts.md#a-ledger-that-loses-nothing)");
    public static final Setting ACCOUNTS_LEDGER_JOURNAL_KEEP_HOURS = Setting.of("accounts.ledger_journal_keep_hours", Kind.INTEGER)
            .range(0, 24 * 366).byDefault(0)
            .doc("how long a journal segment whose rows are all in the database is kept (as `*.written`), so that"
                    + " `journal replay` can bring back the rows written since a backup once the backup is restored, or"
                    + " the rows an asynchronous standby had not received when it was promoted; `0` deletes it at once."
                    + " About 4 MiB of disk per 9,000 calls; see"
                    + " [backup-and-restore.md](operations/backup-and-restore.md)");
    public static final Setting ACCOUNTS_ALERTS_ALLOW_PRIVATE = Setting.of("accounts.alerts_allow_private", Kind.BOOLEAN)
            .byDefault(false).doc("let the alert webhook reach loopback, private and link-local addresses (an internal"
                    + " receiver); off, such a target is refused at each delivery with `last_error: address not allowed`;"
                    + " see [accounts.md](accounts.md#alerts)");

    public static final Setting MEDIA_ALLOW_PRIVATE = Setting.of("media.allow_private", Kind.BOOLEAN).byDefault(false)
            .doc("let the gateway fetch media URLs on private and loopback addresses (an SSRF guard; the demo and tests turn"
                    + " it on for the loopback simulator); see [translation.md](translation.md#media-and-urls)");
    public static final Setting MEDIA_MAX_BYTES = Setting.of("media.max_bytes", Kind.INTEGER).range(1, Long.MAX_VALUE)
            .byDefault(MediaPolicy.DEFAULT.maxBytes()).doc("largest medium fetched");
    public static final Setting MEDIA_TIMEOUT_SECONDS = Setting.of("media.timeout_seconds", Kind.DECIMAL).range(0, 3600)
            .byDefault(MediaPolicy.DEFAULT.timeoutMs() / 1000.0).oldKey("timeout_ms", true).oldEnv("GATEWAY_MEDIA_TIMEOUT_MS", true)
            .doc("budget for fetching one medium, redirects included (a decimal number of seconds)");
    public static final Setting MEDIA_MAX_REDIRECTS = Setting.of("media.max_redirects", Kind.INTEGER).range(0, 100)
            .byDefault(MediaPolicy.DEFAULT.maxRedirects()).doc("redirects followed, each one checked like the first URL");
    public static final Setting MEDIA_MAX_ITEMS = Setting.of("media.max_items", Kind.INTEGER).range(1, INT)
            .byDefault(MediaPolicy.DEFAULT_MAX_ITEMS).doc("most media URLs downloaded for one request; one more is a 400 naming its field");
    public static final Setting MEDIA_MAX_TOTAL_BYTES = Setting.of("media.max_total_bytes", Kind.INTEGER).range(1, Long.MAX_VALUE)
            .byDefault(MediaPolicy.DEFAULT_MAX_TOTAL_BYTES).doc("most bytes downloaded for one request, all media together;"
                    + " past it a 400 naming the field");
    public static final Setting MEDIA_MAX_CONCURRENT = Setting.of("media.max_concurrent", Kind.INTEGER).range(1, INT)
            .byDefault(MediaPolicy.DEFAULT_MAX_CONCURRENT).doc("downloads running at once for one request (the others wait their turn)");
    public static final Setting MEDIA_MAX_CONCURRENT_PROCESS = Setting.of("media.max_concurrent_process", Kind.INTEGER)
            .range(1, INT).byDefault(MediaPolicy.DEFAULT_MAX_CONCURRENT_ALL)
            .doc("downloads running at once in the whole process; past it the request is a 503 with `retry-after: 1`");

    public static final Setting RESPONSES_DROP_REFUSED_HOSTED_TOOLS = Setting.of("responses.drop_refused_hosted_tools",
            Kind.BOOLEAN).byDefault(false).oldEnv("GATEWAY_DROP_REFUSED_HOSTED_TOOLS")
            .doc("Responses API: drop the hosted tools a model of the call refuses, with a warning, instead of a 400; see"
                    + " [Responses API](#responses-api)");

    public static final Setting TIMEOUTS_EMBEDDINGS_SECONDS = timeout("embeddings_seconds", OperationTimeouts.DEFAULT.embeddingsSeconds(),
            "`POST /api/v1/embeddings`");
    public static final Setting TIMEOUTS_COUNT_TOKENS_SECONDS = timeout("count_tokens_seconds",
            OperationTimeouts.DEFAULT.countTokensSeconds(),
            "vendor A's token counting (`/api/v1/messages/count_tokens`, `/api/count-message-tokens`)");
    public static final Setting TIMEOUTS_SPEECH_SECONDS = timeout("speech_seconds", OperationTimeouts.DEFAULT.speechSeconds(),
            "`POST /api/v1/audio/speech`, the audio streamed back included");
    public static final Setting TIMEOUTS_IMAGES_SECONDS = timeout("images_seconds", OperationTimeouts.DEFAULT.imagesSeconds(),
            "image generations, edits and scales");
    public static final Setting TIMEOUTS_STORED_RESPONSES_SECONDS = timeout("stored_responses_seconds",
            OperationTimeouts.DEFAULT.storedResponsesSeconds(), "retrieving or deleting a vendor B response");
    public static final Setting TIMEOUTS_TRANSCRIPTIONS_SECONDS = timeout("transcriptions_seconds",
            OperationTimeouts.DEFAULT.transcriptionsSeconds(), "one transcription, direct or as a task");

    public static final Setting ROUTING_MAX_COOLDOWN_WAIT_SECONDS = Setting.of("routing.max_cooldown_wait_seconds", Kind.INTEGER)
            .range(0, 600).byDefault(5).appliedByReload()
            .doc("when every deployment of a call's last model is cooling down, the longest the call waits for the first to"
                    + " recover (within its deadline); a longer cooldown answers 503 `circuit_open` with `retry-after` at once."
                    + " `0`: never wait; see [Cooldowns](#cooldowns)");

    public static final Setting OBSERVABILITY_METRICS = Setting.of("observability.metrics", Kind.BOOLEAN).byDefault(true)
            .oldEnv("GATEWAY_METRICS").doc("serve `GET /metrics`; see [observability.md](observability.md)");
    public static final Setting OBSERVABILITY_METRICS_PORT = Setting.of("observability.metrics_port", Kind.INTEGER)
            .range(0, 65535).byDefault(0).shown("`0` (the main port)").oldEnv("GATEWAY_METRICS_PORT")
            .doc("serve `/metrics`, `/ready` and `/health` on this port only (`/health` stays on the main port too)");
    public static final Setting OBSERVABILITY_CAPTURE_CONTENT = Setting.of("observability.capture_content", Kind.BOOLEAN)
            .byDefault(false).oldEnv("GATEWAY_TRACE_CAPTURE_CONTENT")
            .doc("put the caller's messages on the server span (`gen_ai.input.messages`, redacted)");
    public static final Setting OBSERVABILITY_ATTRIBUTE_HEADER_PREFIX = Setting.of("observability.attribute_header_prefix",
            Kind.TEXT).oldEnv("GATEWAY_TRACE_ATTRIBUTE_PREFIX").doc("request headers with this prefix become span attributes");
    public static final Setting OBSERVABILITY_FOLLOW_CALLER_SAMPLING = Setting.of("observability.follow_caller_sampling",
            Kind.BOOLEAN).byDefault(false).doc("let a caller's `traceparent` sampled flag decide whether its request is"
                    + " traced; off, the operator's sampler (`otel.traces.sampler`) decides for every request, the caller's"
                    + " trace still continued");
    public static final Setting OBSERVABILITY_OTEL = Setting.of("observability.otel", Kind.MAP).env(null)
            .doc("OpenTelemetry SDK properties (`otel.exporter.otlp.endpoint: http://collector:4318`…), over the `OTEL_*`"
                    + " variables; see [observability.md](observability.md#traces)");
    public static final Setting ACCESS_LOG = Setting.envOnly("GATEWAY_ACCESS_LOG", Kind.TEXT).byDefault("INFO")
            .doc("`OFF` silences the access log (one line per request: trace id, method, path, status, µs, model, key id)."
                    + " The environment only: the logging is set up before the file is read");
    public static final Setting ACCESS_LOG_FORMAT = Setting.envOnly("GATEWAY_ACCESS_LOG_FORMAT", Kind.TEXT).byDefault("text")
            .doc("`json`: every log line as a JSON object, the access log's with trace and span ids, key id, models, status,"
                    + " latency, TTFT, tokens by class and cost, a refusal's with the client address and error code"
                    + " ([observability.md](observability.md#access-log)). The environment only");

    /**
     * Vendor A's betas a caller may switch on with {@code anthropic-beta}: those whose use the price book prices (tokens)
     * or that cost nothing, among them every beta Claude Code sends (fixtures/clients/claude-code), so that it keeps
     * working. Each one's reason is in docs/configuration.md, "Vendor A betas".
     */
    public static final Setting VENDOR_A_ALLOWED_BETAS = Setting.of("vendors.anthropic.allowed_betas", Kind.LIST)
            .byDefault(String.join(",", "claude-code-20250219", "interleaved-thinking-2025-05-14",
                    "fine-grained-tool-streaming-2025-05-14", "token-efficient-tools-2025-02-19", "context-management-2025-06-27",
                    "effort-2025-11-24", "advanced-tool-use-2025-11-20", "mid-conversation-tool-changes-2026-07-01",
                    "thinking-token-count-2026-05-13", "prompt-caching-2024-07-31", "extended-cache-ttl-2025-04-11",
                    "computer-use-2025-01-24", "computer-use-2025-11-24"))
            .shown("the betas listed in [Vendor A betas](#vendor-a-betas)").appliedByReload()
            .doc("the `anthropic-beta` values a caller may send (any other is a 400 naming it); the code execution tool and the"
                    + " MCP connector (`mcp_servers`), which vendor A bills beyond tokens, also need their beta listed here;"
                    + " see [Vendor A betas](#vendor-a-betas)");

    private static final Map<Vendor, Map<String, Setting>> VENDORS = new EnumMap<>(Vendor.class);
    /** Every setting, in the reference's order. */
    public static final List<Setting> ALL;

    static {
        List<Setting> all = new ArrayList<>(List.of(SERVER_HOST, SERVER_PORT, SERVER_MASTER_KEY, SERVER_PREVIOUS_MASTER_KEYS,
                SERVER_IDLE_TIMEOUT_SECONDS,
                SERVER_REQUEST_HEAD_TIMEOUT_SECONDS, SERVER_BODY_READ_TIMEOUT_SECONDS, SERVER_MAX_CONNECTIONS_PER_CLIENT,
                SERVER_MAX_CONNECTIONS, SERVER_MAX_BUFFERED_BODY_BYTES, SERVER_MAX_VENDOR_ANSWER_BYTES,
                SERVER_MAX_VENDOR_STREAM_SECONDS, SERVER_MAX_VENDOR_EVENT_BYTES, SERVER_TLS_CERT_FILE, SERVER_TLS_KEY_FILE,
                SERVER_DATA_DIR, SERVER_DRAIN_SECONDS, SERVER_PUBLIC_URL, CONSOLE_SESSION_IDLE_SECONDS,
                CONSOLE_SESSION_MAX_SECONDS, CONSOLE_SESSION_RECHECK_SECONDS));
        for (Vendor v : Vendor.values()) {
            Map<String, Setting> own = new LinkedHashMap<>();
            String at = "vendors." + v.id() + ".";
            // the vendors' SDKs read these names too: kept, not derived
            own.put("api_key", Setting.of(at + "api_key", Kind.SECRET).env(v.keyEnv()).appliedByReload()
                    .doc("vendor " + letter(v) + "'s API key"));
            own.put("base_url", Setting.of(at + "base_url", Kind.URL).env(v.baseUrlEnv()).byDefault(v.defaultBaseUrl()).appliedByReload()
                    .doc(baseUrlDoc(v)));
            own.put("max_connections", Setting.of(at + "max_connections", Kind.INTEGER).range(1, 100_000)
                    .byDefault(VendorPool.DEFAULT.maxConnections()).appliedByReload()
                    .doc("calls in flight to the vendor at once, per event loop; see [Vendor connection pools](#vendor-connection-pools)"));
            own.put("max_queued", Setting.of(at + "max_queued", Kind.INTEGER).range(0, 1_000_000)
                    .byDefault(VendorPool.DEFAULT.maxQueued()).appliedByReload()
                    .doc("calls waiting for a connection when all are busy, per event loop; a call finding the queue full is refused at once"));
            own.put("http_version", Setting.of(at + "http_version", Kind.HTTP_VERSION).byDefault("auto").appliedByReload()
                    .doc("`auto` (HTTP/2 by ALPN over HTTPS, else HTTP/1.1), `2` (h2c over cleartext) or `1.1`"));
            own.put("ca_file", Setting.of(at + "ca_file", Kind.FILE).appliedByReload()
                    .doc("PEM certificates the vendor's TLS certificate must chain to, instead of the JDK's trusted roots"));
            if (v == Vendor.ANTHROPIC) own.put("allowed_betas", VENDOR_A_ALLOWED_BETAS);
            VENDORS.put(v, own);
            all.addAll(own.values());
        }
        all.addAll(List.of(ACCOUNTS_DATABASE_URL, ACCOUNTS_REDIS_URL, ACCOUNTS_REDIS_REPLICA_ACKS,
                ACCOUNTS_REDIS_FAILOVER_WAIT_SECONDS, ACCOUNTS_REDIS_CA_FILE, ACCOUNTS_DEFAULT_MAX_CONCURRENT, ACCOUNTS_LEDGER_JOURNAL_DIR,
                ACCOUNTS_LEDGER_JOURNAL_KEEP_HOURS,
                ACCOUNTS_ALERTS_ALLOW_PRIVATE,
                MEDIA_ALLOW_PRIVATE, MEDIA_MAX_BYTES, MEDIA_TIMEOUT_SECONDS, MEDIA_MAX_REDIRECTS, MEDIA_MAX_ITEMS,
                MEDIA_MAX_TOTAL_BYTES, MEDIA_MAX_CONCURRENT, MEDIA_MAX_CONCURRENT_PROCESS, RESPONSES_DROP_REFUSED_HOSTED_TOOLS,
                TIMEOUTS_EMBEDDINGS_SECONDS, TIMEOUTS_COUNT_TOKENS_SECONDS, TIMEOUTS_SPEECH_SECONDS, TIMEOUTS_IMAGES_SECONDS,
                TIMEOUTS_STORED_RESPONSES_SECONDS, TIMEOUTS_TRANSCRIPTIONS_SECONDS, ROUTING_MAX_COOLDOWN_WAIT_SECONDS,
                OBSERVABILITY_METRICS,
                OBSERVABILITY_METRICS_PORT, OBSERVABILITY_CAPTURE_CONTENT, OBSERVABILITY_ATTRIBUTE_HEADER_PREFIX,
                OBSERVABILITY_FOLLOW_CALLER_SAMPLING, OBSERVABILITY_OTEL, ACCESS_LOG, ACCESS_LOG_FORMAT));
        ALL = List.copyOf(all);
    }

    /** The sections a file may have besides the table's: the operator's own, read by {@link RoutingSection}. */
    static final List<String> OPERATOR_SECTIONS = List.of("providers", "models", "aliases", "routing", "identity");

    private Settings() {
    }

    /** {@code vendors.<id>.<key>}. */
    public static Setting vendor(Vendor v, String key) {
        Setting s = VENDORS.get(v).get(key);
        if (s == null) throw new IllegalArgumentException("no setting vendors." + v.id() + "." + key);
        return s;
    }

    private static String letter(Vendor v) {
        return switch (v) {
            case ANTHROPIC -> "A";
            case OPENAI -> "B";
            case GEMINI -> "C";
            case DASHSCOPE -> "D";
        };
    }

    /** Each vendor SDK's own convention: OpenAI's and DashScope's include {@code /v1}, Anthropic's and Gemini's do not. */
    private static String baseUrlDoc(Vendor v) {
        String how = switch (v) {
            case ANTHROPIC -> "without `/v1`, as the Anthropic SDK";
            case OPENAI -> "with `/v1`, as the OpenAI SDK";
            case GEMINI -> "the host only (the gateway adds `/v1beta/...`)";
            case DASHSCOPE -> "its compatible mode, with `/v1`";
        };
        return "vendor " + letter(v) + "'s base URL, " + how + ": an absolute `http(s)://` URL with a host and no query";
    }

    private static Setting timeout(String key, long seconds, String what) {
        return Setting.of("timeouts." + key, Kind.INTEGER).range(1, 3600).byDefault(seconds)
                .doc("the deadline of one vendor call of " + what + ", in whole seconds; see"
                        + " [Operation timeouts](#operation-timeouts)");
    }
}
