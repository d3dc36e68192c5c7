package dev.modelgateway.accounts;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.catalogue.ModelPrice;
import dev.modelgateway.catalogue.PriceBook;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.store.Database;
import dev.modelgateway.store.Schema;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Platform accounts: API keys, admission (model allow-list, budget, rate limits) and the usage ledger.
 * Nothing here blocks an event loop: JDBC runs on Vert.x worker threads, ledger writes on their own thread.
 */
public final class Accounts {
    /** How stale a key's settings may be on the request path, e.g. after another instance disabled it. */
    static final Duration KEY_CACHE_TTL = Duration.ofSeconds(5);
    /** How often other instances' spend is read back from the database. */
    static final Duration SPEND_REFRESH = Duration.ofSeconds(1);
    /** The accounts tables; the newest of the migrations under {@code db/migration/accounts} (a test checks it). */
    public static final Schema SCHEMA = new Schema("accounts", "4");
    private static final Logger LOG = LoggerFactory.getLogger(Accounts.class);
    private static final long WARN_EVERY_NANOS = 10_000_000_000L;

    private final Vertx vertx;
    private final AccountsConfig config;
    private final PriceBook prices;
    private final Database db;
    private final KeyStore keys;
    private final Ledger ledger;
    private final SpendTracker spend;
    private final LedgerWriter writer;
    private final RateLimiter limiter;
    private final CallHolds holds;
    private final AtomicLong limiterWarnedAt = new AtomicLong(System.nanoTime() - WARN_EVERY_NANOS - 1);
    /** By the caller's secret, so a cached key costs no hashing; secrets stay in memory, hashes alone are stored. */
    private final Cache<String, Optional<StoredKey>> keysBySecret = Caffeine.newBuilder()
            .expireAfterWrite(KEY_CACHE_TTL)
            .maximumSize(100_000)
            .build();

    private Accounts(Vertx vertx, AccountsConfig config, PriceBook prices, Database db, RateLimiter limiter,
                     CallHolds holds, SpendTracker spend) {
        this.vertx = vertx;
        this.config = config;
        this.prices = prices;
        this.db = db;
        this.keys = new KeyStore(db);
        this.ledger = new Ledger(db);
        this.spend = spend;
        this.writer = new LedgerWriter(ledger, spend, SPEND_REFRESH);
        this.limiter = limiter;
        this.holds = holds;
        writer.start();
    }

    /** Opens the database (running its migrations) and, if configured, Redis. */
    public static Future<Accounts> open(Vertx vertx, AccountsConfig config, PriceBook prices) {
        return open(vertx, config, prices, RedisHolds.LEASE_MS);
    }

    /** {@code leaseMs}: how long a Redis lease outlives its last renewal (tests of expiry use a short one). */
    static Future<Accounts> open(Vertx vertx, AccountsConfig config, PriceBook prices, long leaseMs) {
        return openDatabase(vertx, config).compose(db -> open(vertx, config, prices, db, leaseMs));
    }

    /** Opens the accounts database and runs its migrations, on a worker thread. */
    public static Future<Database> openDatabase(Vertx vertx, AccountsConfig config) {
        return vertx.executeBlocking(() -> Database.open(config.databaseUrl(), SCHEMA), false);
    }

    /** The accounts on a database {@link #openDatabase opened} already, which they close, also if this fails. */
    public static Future<Accounts> open(Vertx vertx, AccountsConfig config, PriceBook prices, Database db) {
        return open(vertx, config, prices, db, RedisHolds.LEASE_MS);
    }

    private static Future<Accounts> open(Vertx vertx, AccountsConfig config, PriceBook prices, Database db, long leaseMs) {
        SpendTracker spend = new SpendTracker();
        LocalHolds local = new LocalHolds(spend);
        Future<RateLimiter> limiter = config.redisUrl() == null
                ? Future.succeededFuture(new LocalRateLimiter(InstantSource.system()))
                : RedisRateLimiter.connect(vertx, config.redisUrl(), config.redisKeyPrefix()).map(r -> r);
        return limiter
                .compose(l -> (config.redisUrl() == null ? Future.<CallHolds>succeededFuture(local)
                        : RedisHolds.connect(vertx, config.redisUrl(), config.redisKeyPrefix(), leaseMs, local).<CallHolds>map(h -> h))
                        .compose(h -> vertx.executeBlocking(() -> new Ledger(db).spentByKey(), false)
                                .map(spent -> {
                                    spend.refreshed(spent);
                                    return new Accounts(vertx, config, prices, db, l, h, spend);
                                })
                                .onFailure(e -> h.close()))
                        .onFailure(e -> l.close()))
                .onFailure(e -> db.close());
    }

    /**
     * Resolves a bearer token: the master key to a synthetic unlimited key, else a stored key by hash.
     * Fails with a 401 that says whether the key is missing, unknown, disabled or expired.
     */
    public Future<ApiKey> authenticate(String bearerToken) {
        if (bearerToken == null || bearerToken.isBlank()) {
            return Future.failedFuture(unauthorized("Missing API key: send it as 'Authorization: Bearer <key>'.", "missing_api_key"));
        }
        if (config.masterKey() != null && KeyToken.sameSecret(bearerToken, config.masterKey())) {
            return Future.succeededFuture(ApiKey.MASTER);
        }
        Optional<StoredKey> cached = keysBySecret.getIfPresent(bearerToken);
        Future<Optional<StoredKey>> found = cached != null ? Future.succeededFuture(cached)
                : blocking(() -> keys.findByHash(KeyToken.hash(bearerToken))).onSuccess(k -> keysBySecret.put(bearerToken, k));
        return found.compose(k -> {
            if (k.isEmpty()) return Future.failedFuture(unauthorized("Invalid API key.", "invalid_api_key"));
            ApiKey key = k.get().toApiKey();
            if (key.disabled()) {
                return Future.failedFuture(unauthorized("API key " + k.get().prefix() + "... (" + key.id() + ") is disabled.", "api_key_disabled"));
            }
            if (key.expiredAt(Instant.now())) {
                return Future.failedFuture(unauthorized("API key " + k.get().prefix() + "... (" + key.id() + ") expired at "
                        + key.expiresAt() + ".", "api_key_expired"));
            }
            return Future.succeededFuture(key);
        });
    }

    /**
     * Whether {@code key} may use {@code publicModel} at all: the allow-list alone, so that a call can refuse a
     * fallback outside it before anything is sent (otherwise platform_options.fallbacks would bypass it).
     */
    public boolean allows(ApiKey key, String publicModel) {
        return key.master() || key.allows(publicModel);
    }

    /**
     * Admission of a fallback model within a call already admitted on its primary: only the buckets of the
     * key's model limit for {@code publicModel} (the key's own buckets and budget were taken by the call), so a
     * per-model limit holds whichever model of the plan answers. A model outside the allow-list is refused.
     */
    public Future<Admission> admitFallback(ApiKey key, String publicModel, long estimatedTokens) {
        if (key.master()) return Future.succeededFuture(Admission.UNLIMITED);
        if (!key.allows(publicModel)) return Future.failedFuture(notAllowed(key, publicModel));
        return limited(key, RateScope.of(key, publicModel).stream().filter(s -> s.models() != null).toList(), estimatedTokens);
    }

    /**
     * Lets a request through to the upstream or says why not: 403 for a model outside the key's allow-list,
     * 429 {@code insufficient_quota} for a spent budget, 429 {@code concurrency_limit_exceeded} when the key has
     * {@code max_concurrent} calls in flight, 429 {@code budget_reserved} when those calls may use the rest of the
     * budget, 429 {@code rate_limit_exceeded} with {@code retry-after} for the per-minute limits.
     * {@code estimatedTokens} is taken from the token bucket now and corrected by {@link Admission#settle}, which
     * also ends the call's {@link Hold}.
     */
    public Future<Admission> admit(ApiKey key, String publicModel, long estimatedTokens) {
        if (key.master()) return Future.succeededFuture(Admission.UNLIMITED);
        if (!key.allows(publicModel)) return Future.failedFuture(notAllowed(key, publicModel));
        long spentE10 = spend.spentE10(key.id());
        long budgetE10 = -1;
        long reserveE10 = 0;
        if (key.budgetUsd() != null) {
            if (Money.fromE10(spentE10).compareTo(key.budgetUsd()) >= 0) return Future.failedFuture(budgetSpent(key, spentE10));
            budgetE10 = Money.toE10(key.budgetUsd());
            // The most this call may cost: every estimated token priced as output, the dearest kind.
            ModelPrice price = prices.priceOf(publicModel);
            reserveE10 = price == null ? 0 : Money.toE10(price.cost(new Usage(0, 0, 0, 0, estimatedTokens, 0)));
        }
        List<RateScope> scopes = RateScope.of(key, publicModel);
        int maxConcurrent = maxConcurrent(key);
        if (maxConcurrent == 0 && budgetE10 < 0) return limited(key, scopes, estimatedTokens);
        return holds.take(new HoldRequest(key.id(), maxConcurrent, budgetE10, reserveE10, spentE10)).compose(taken -> {
            if (taken.refusal() != null) return Future.failedFuture(refused(key, taken, maxConcurrent));
            return limited(key, scopes, estimatedTokens).<Admission>map(limits -> new HeldAdmission(limits, taken.hold()))
                    .onFailure(e -> taken.hold().release());
        });
    }

    /** The key's own {@code max_concurrent}, else the gateway's default; 0: no bound. */
    int maxConcurrent(ApiKey key) {
        return key.maxConcurrent() != null ? key.maxConcurrent().intValue() : config.defaultMaxConcurrent();
    }

    /** Takes {@code estimatedTokens} from the buckets of {@code scopes}, or says which limit refuses them. */
    private Future<Admission> limited(ApiKey key, List<RateScope> scopes, long estimatedTokens) {
        if (scopes.isEmpty()) return Future.succeededFuture(Admission.UNLIMITED);
        return limiter.acquire(scopes, estimatedTokens)
                .<Admission>compose(d -> d.getFirst().allowed()
                        ? Future.succeededFuture(new LimitedAdmission(RateDecision.headers(d), limiter, scopes, estimatedTokens))
                        : Future.failedFuture(rateLimited(key, scopes, d)))
                .recover(e -> {
                    if (e instanceof GatewayException) return Future.failedFuture(e);
                    // Rate limiting protects upstreams; an unreachable Redis should not take the gateway down with it.
                    long now = System.nanoTime();
                    long last = limiterWarnedAt.get();
                    // Once per 10 s: during an outage every request fails the same way.
                    if (now - last > WARN_EVERY_NANOS && limiterWarnedAt.compareAndSet(last, now)) {
                        LOG.warn("rate limiter unavailable, admitting without limits: " + e);
                    }
                    return Future.succeededFuture(Admission.UNLIMITED);
                });
    }

    /**
     * Why a key admitted earlier may no longer be used, for long-lived calls (realtime sessions) checked while
     * they run: deleted, disabled, expired or its budget spent; empty while it may go on. Reads the key store
     * (blocking, on a worker), not the cache, so a change through the admin API shows at the next check.
     */
    public Future<Optional<GatewayException>> stillAllowed(ApiKey key) {
        if (key.master()) return Future.succeededFuture(Optional.empty());
        return blocking(() -> keys.find(key.id())).map(found -> {
            if (found.isEmpty()) return Optional.of(unauthorized("API key " + key.id() + " was deleted.", "invalid_api_key"));
            ApiKey now = found.get().toApiKey();
            if (now.disabled()) return Optional.of(unauthorized("API key " + key.id() + " was disabled.", "api_key_disabled"));
            if (now.expiredAt(Instant.now())) return Optional.of(unauthorized("API key " + key.id() + " expired.", "api_key_expired"));
            if (now.budgetUsd() != null && Money.fromE10(spend.spentE10(now.id())).compareTo(now.budgetUsd()) >= 0) {
                return Optional.of(GatewayException.of(ErrorKind.RATE_LIMIT, "API key '" + now.name() + "' has used its budget of $"
                        + now.budgetUsd().toPlainString() + ".").withCode("insufficient_quota"));
            }
            return Optional.empty();
        });
    }

    /** Queues a usage record for the ledger; never blocks and never throws. */
    public void record(UsageRecord record) {
        try {
            String model = record.answeredModel() != null ? record.answeredModel() : record.publicModel();
            ModelPrice price = model == null ? null : prices.priceOf(model);
            Usage usage = record.usage() == null ? Usage.ZERO : record.usage();
            if (price == null && usage.totalTokens() > 0) {
                LOG.warn("no price for model {}: usage recorded at $0", model);
            }
            LedgerEntry entry = LedgerEntry.of(record, price == null ? 0 : Money.toE10(price.cost(usage)));
            writer.submit(entry);
            holds.spent(entry.keyId(), entry.costE10());
        } catch (RuntimeException e) {
            LOG.error("usage record dropped: " + record, e);
        }
    }

    /** The accounts database, shared with other per-key records (transcription tasks); blocking, use a worker. */
    public Database database() {
        return db;
    }

    /** Mounts the admin and usage API under {@code /api/v1}. */
    public void mountRoutes(Router router) {
        new AccountsApi(this).mount(router);
    }

    /**
     * Writes every queued usage record first, so that nothing Redis does can cost one; then releases Redis (rate
     * limiter and holds together, each bounded, as a hung Redis may never answer) and the database.
     */
    public Future<Void> close() {
        return vertx.executeBlocking(() -> {
                    writer.closeAndFlush();
                    return null;
                }, false)
                .eventually(() -> Future.join(limiter.close(), holds.close()))
                .eventually(() -> vertx.executeBlocking(() -> {
                    db.close();
                    return null;
                }, false))
                .mapEmpty();
    }

    // --- operations behind the HTTP API ---

    boolean masterKeyConfigured() {
        return config.masterKey() != null;
    }

    Future<KeyStore.CreatedKey> createKey(KeySettings settings) {
        return blocking(() -> keys.create(settings));
    }

    Future<List<StoredKey>> listKeys() {
        return blocking(keys::list);
    }

    Future<Optional<StoredKey>> findKey(String id) {
        return blocking(() -> keys.find(id));
    }

    /** Forgets cached keys before the caller hears of the change, so its next request sees it. */
    Future<Boolean> updateKey(String id, KeySettings settings, boolean disabled) {
        return blocking(() -> {
            boolean updated = keys.update(id, settings, disabled);
            keysBySecret.invalidateAll();
            return updated;
        });
    }

    Future<Boolean> deleteKey(String id) {
        return blocking(() -> {
            boolean deleted = keys.delete(id);
            keysBySecret.invalidateAll();
            return deleted;
        });
    }

    Future<List<UsageQuery.Group>> usage(UsageQuery query) {
        return blocking(() -> ledger.usage(query));
    }

    long spentE10(String keyId) {
        return spend.spentE10(keyId);
    }

    Future<List<RateDecision>> currentRates(List<RateScope> scopes) {
        return scopes.isEmpty() ? Future.succeededFuture(List.of()) : limiter.peek(scopes);
    }

    /** Usage rows queued for the ledger's writer (docs/observability.md). */
    public int ledgerQueued() {
        return writer.queued();
    }

    /** How long the oldest queued usage row has waited for the ledger's writer, in milliseconds. */
    public long ledgerLagMs() {
        return writer.lagMs();
    }

    /** Readiness: the accounts database answers (a valid connection within two seconds), on a worker thread. */
    public Future<Void> databaseReachable() {
        return vertx.<Void>executeBlocking(() -> {
            if (!db.call(c -> c.isValid(2))) throw new IllegalStateException("the database connection is not valid");
            return null;
        }, false);
    }

    private <T> Future<T> blocking(Callable<T> work) {
        return vertx.executeBlocking(() -> {
            try {
                return work.call();
            } catch (SQLException e) {
                LOG.error("accounts database failure", e);
                throw GatewayException.of(ErrorKind.UNAVAILABLE, "The accounts database is unavailable.");
            }
        }, false);
    }

    private static GatewayException unauthorized(String message, String code) {
        return GatewayException.of(ErrorKind.AUTHENTICATION, message).withCode(code);
    }

    private static GatewayException notAllowed(ApiKey key, String publicModel) {
        return GatewayException.of(ErrorKind.PERMISSION, "API key '" + key.name() + "' may not use model '" + publicModel
                + "'.").withParam("model").withCode("model_not_allowed");
    }

    /** 429 is how OpenAI reports exhausted credit; x-should-retry stops the official SDKs from retrying. */
    private static GatewayException budgetSpent(ApiKey key, long spentE10) {
        return GatewayException.of(ErrorKind.RATE_LIMIT, "API key '" + key.name() + "' has used its budget of $"
                + key.budgetUsd().toPlainString() + " (spent $" + Money.fromE10(spentE10).toPlainString() + ").")
                .withCode("insufficient_quota").withHeaders(Map.of("x-should-retry", "false"));
    }

    /** Retrying soon is right for a slot or a reservation: a call in flight ends and gives it back. */
    private static GatewayException refused(ApiKey key, HoldDecision taken, int maxConcurrent) {
        return switch (taken.refusal()) {
            case BUDGET_SPENT -> budgetSpent(key, taken.spentE10());
            case CONCURRENCY -> GatewayException.of(ErrorKind.RATE_LIMIT, "API key '" + key.name() + "' has " + maxConcurrent
                    + " calls in flight, its limit (max_concurrent " + maxConcurrent + "); retry when one has finished.")
                    .withCode("concurrency_limit_exceeded").withHeaders(Map.of("retry-after", "1"));
            case BUDGET_RESERVED -> GatewayException.of(ErrorKind.RATE_LIMIT, "API key '" + key.name()
                    + "': the calls it has in flight may use the rest of its budget of $" + key.budgetUsd().toPlainString()
                    + "; retry when they have finished.").withCode("budget_reserved").withHeaders(Map.of("retry-after", "1"));
        };
    }

    /** Names the scope and limit that made the request wait longest. */
    private static GatewayException rateLimited(ApiKey key, List<RateScope> scopes, List<RateDecision> decisions) {
        int worst = 0;
        for (int i = 1; i < decisions.size(); i++) {
            if (decisions.get(i).retryAfterMs() > decisions.get(worst).retryAfterMs()) worst = i;
        }
        RateDecision d = decisions.get(worst);
        RateLimits l = d.limits();
        boolean requests = l.rpm() > 0 && d.remainingRequests() < 1;
        String limit = requests ? l.rpm() + " requests per minute" : l.tpm() + " tokens per minute";
        return GatewayException.of(ErrorKind.RATE_LIMIT, "Rate limit reached for " + scopes.get(worst).describe(key.name())
                + ": " + limit + ". Retry in " + GoDuration.format(d.retryAfterMs()) + ".")
                        .withCode("rate_limit_exceeded").withHeaders(RateDecision.refusalHeaders(decisions));
    }
}
