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
import io.vertx.core.json.JsonObject;
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
    public static final Schema SCHEMA = new Schema("accounts", "14");
    private static final Logger LOG = LoggerFactory.getLogger(Accounts.class);
    private static final long WARN_EVERY_NANOS = 10_000_000_000L;

    private final Vertx vertx;
    private final AccountsConfig config;
    private final PriceBook prices;
    private final Database db;
    private final KeyStore keys;
    private final TeamStore teams;
    private final AuditLog audit;
    private final Ledger ledger;
    private final SpendTracker spend;
    private final LedgerWriter writer;
    private final LedgerJournal journal;
    private final Alerts alerts;
    private final AlertSender alertSender;
    /** Models whose unknown-price alert was raised, with the day: one database call a day per model. */
    private final Map<String, String> priceAlertsRaised = new java.util.concurrent.ConcurrentHashMap<>();
    private final RateLimiter limiter;
    private final CallHolds holds;
    /** The price table version last stored in {@code price_tables}. */
    private volatile String registeredPrices;
    private final AtomicLong journalWarnedAt = new AtomicLong(System.nanoTime() - WARN_EVERY_NANOS - 1);
    private final AtomicLong limiterWarnedAt = new AtomicLong(System.nanoTime() - WARN_EVERY_NANOS - 1);
    /** By the caller's secret, so a cached key costs no hashing; secrets stay in memory, hashes alone are stored. */
    private final Cache<String, Optional<StoredKey>> keysBySecret = Caffeine.newBuilder()
            .expireAfterWrite(KEY_CACHE_TTL)
            .maximumSize(100_000)
            .build();

    private Accounts(Vertx vertx, AccountsConfig config, PriceBook prices, Database db, RateLimiter limiter,
                     CallHolds holds, SpendTracker spend, LedgerJournal journal) {
        this.vertx = vertx;
        this.config = config;
        this.prices = prices;
        this.db = db;
        this.keys = new KeyStore(Sql.pool(db));
        this.teams = new TeamStore(Sql.pool(db));
        this.audit = new AuditLog(Sql.pool(db));
        this.ledger = new Ledger(db);
        this.spend = spend;
        this.journal = journal;
        this.alerts = new Alerts(Sql.pool(db));
        this.writer = new LedgerWriter(ledger, spend, SPEND_REFRESH,
                batch -> alerts.budgetsAfter(batch, AlertSettings.read(Sql.pool(db)).thresholds()));
        this.limiter = limiter;
        this.holds = holds;
        this.registeredPrices = prices.version(); // stored by open
        writer.start();
        this.alertSender = new AlertSender(vertx, db, alerts);
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
                        .compose(h -> vertx.executeBlocking(() -> {
                                    PriceTables.register(db, prices);
                                    // rows a dead process journaled and never wrote count before any spend is read
                                    Ledger ledger = new Ledger(db);
                                    LedgerJournal journal = LedgerJournal.open(config.ledgerJournalDir(), config.databaseUrl(),
                                            ledger::append);
                                    try {
                                        spend.refreshed(ledger.spendAt(Instant.now()));
                                    } catch (SQLException | RuntimeException e) {
                                        journal.close();
                                        throw e;
                                    }
                                    return journal;
                                }, false)
                                .map(journal -> new Accounts(vertx, config, prices, db, l, h, spend, journal))
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
     * Whether {@code key} may use {@code publicModel} at all: the allow-lists alone (the key's and its team's), so
     * that a call can refuse a fallback outside them before anything is sent (otherwise platform_options.fallbacks
     * would bypass them).
     */
    public boolean allows(ApiKey key, String publicModel) {
        return key.master() || key.allows(publicModel) && (key.team() == null || key.team().allows(publicModel));
    }

    /**
     * Admission of a fallback model within a call already admitted on its primary: only the buckets of the
     * key's model limit for {@code publicModel} (the key's own buckets and budget were taken by the call), so a
     * per-model limit holds whichever model of the plan answers. A model outside the allow-list is refused.
     */
    public Future<Admission> admitFallback(ApiKey key, String publicModel, long estimatedTokens) {
        if (prices.priceOf(publicModel) == null) return Future.failedFuture(unpriced(publicModel));
        if (key.master()) return Future.succeededFuture(Admission.UNLIMITED);
        if (!allows(key, publicModel)) return Future.failedFuture(notAllowed(key, publicModel));
        return limited(key, RateScope.of(key, publicModel).stream().filter(s -> s.models() != null).toList(), estimatedTokens);
    }

    /**
     * Lets a request through to the upstream or says why not: 403 for a model outside the key's or its team's
     * allow-list, 429 {@code insufficient_quota} for a spent budget (the key's or its team's, in its current
     * period), 429 {@code concurrency_limit_exceeded} when the key has {@code max_concurrent} calls in flight, 429
     * {@code budget_reserved} when those calls may use the rest of a budget, 429 {@code rate_limit_exceeded} with
     * {@code retry-after} for the per-minute limits (the key's, its model limit's, its team's).
     * {@code estimatedTokens} is taken from the token buckets now and corrected by {@link Admission#settle}, which
     * also ends the call's {@link Hold}s.
     */
    public Future<Admission> admit(ApiKey key, String publicModel, long estimatedTokens) {
        ModelPrice price = prices.priceOf(publicModel);
        if (price == null) return Future.failedFuture(unpriced(publicModel));
        if (key.master()) return Future.succeededFuture(Admission.UNLIMITED);
        if (!allows(key, publicModel)) return Future.failedFuture(notAllowed(key, publicModel));
        Instant now = Instant.now();
        Budget own = Budget.of(key, now, spend);
        Budget team = Budget.of(key.team(), now, spend);
        for (Budget b : new Budget[]{own, team}) {
            if (b != null && b.spent()) return Future.failedFuture(budgetSpent(key, b, b.spentE10()));
        }
        // The most this call may cost: every estimated token priced as output, the dearest kind.
        long reserveE10 = own == null && team == null ? 0 : Money.toE10(price.cost(new Usage(0, 0, 0, 0, estimatedTokens, 0)));
        List<RateScope> scopes = RateScope.of(key, publicModel);
        int maxConcurrent = maxConcurrent(key);
        if (maxConcurrent == 0 && own == null && team == null) return limited(key, scopes, estimatedTokens);
        long reserve = reserveE10;
        Future<HoldDecision> keyHold = own == null && maxConcurrent == 0 ? Future.succeededFuture(HoldDecision.granted(() -> { }))
                : holds.take(own == null ? new HoldRequest(key.id(), "", maxConcurrent, -1, 0, 0) : own.request(maxConcurrent, reserve));
        return keyHold.compose(first -> {
                    if (first.refusal() != null) return Future.failedFuture(refused(key, own, first, maxConcurrent));
                    if (team == null) return Future.succeededFuture(first.hold());
                    return holds.take(team.request(0, reserve)).compose(second -> {
                        if (second.refusal() == null) return Future.succeededFuture(both(first.hold(), second.hold()));
                        first.hold().release();
                        return Future.failedFuture(refused(key, team, second, maxConcurrent));
                    }, e -> {
                        first.hold().release();
                        return Future.failedFuture(e);
                    });
                })
                .compose(hold -> limited(key, scopes, estimatedTokens).<Admission>map(limits -> new HeldAdmission(limits, hold))
                        .onFailure(e -> hold.release()));
    }

    private static Hold both(Hold a, Hold b) {
        return () -> {
            a.release();
            b.release();
        };
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
     * Why a key admitted earlier may no longer use {@code publicModel}, for long-lived calls (realtime sessions)
     * checked while they run: deleted, disabled, expired, the model out of its allow-list or its budget spent; empty
     * while it may go on. Reads the key store (blocking, on a worker), not the cache, so a change through the admin
     * API shows at the next check.
     */
    public Future<Optional<GatewayException>> stillAllowed(ApiKey key, String publicModel) {
        if (key.master()) return Future.succeededFuture(Optional.empty());
        return blocking(() -> keys.find(key.id())).map(found -> {
            if (found.isEmpty()) return Optional.of(unauthorized("API key " + key.id() + " was deleted.", "invalid_api_key"));
            ApiKey now = found.get().toApiKey();
            if (now.disabled()) return Optional.of(unauthorized("API key " + key.id() + " was disabled.", "api_key_disabled"));
            if (now.expiredAt(Instant.now())) return Optional.of(unauthorized("API key " + key.id() + " expired.", "api_key_expired"));
            if (!allows(now, publicModel)) return Optional.of(notAllowed(now, publicModel));
            for (Budget b : new Budget[]{Budget.of(now, Instant.now(), spend), Budget.of(now.team(), Instant.now(), spend)}) {
                if (b != null && b.spent()) return Optional.of(budgetSpent(now, b, b.spentE10()));
            }
            return Optional.empty();
        });
    }

    /**
     * Queues a usage record for the ledger, priced with the current price table; never blocks and never throws. A
     * model whose price is the operator's {@code unknown} (or that lost its price since admission) costs 0 and its
     * row is marked, and an alert says so once a day per model: never a silent $0.
     */
    public void record(UsageRecord record) {
        try {
            String model = record.answeredModel() != null ? record.answeredModel() : record.publicModel();
            ModelPrice price = model == null ? null : prices.priceOf(model);
            Usage usage = record.usage() == null ? Usage.ZERO : record.usage();
            boolean unknown = price == null || price.unknown();
            if (unknown && (usage.totalTokens() > 0 || usage.webSearchCalls() > 0)) priceUnknown(model);
            String version = prices.version();
            if (!version.equals(registeredPrices)) registerPrices(version);
            LedgerEntry entry = LedgerEntry.of(record, unknown ? 0 : Money.toE10(price.cost(usage)), version,
                    unknown && model != null);
            writer.submit(journaled(entry));
            for (String holder : entry.holders()) holds.spent(holder, entry.at(), entry.costE10());
        } catch (RuntimeException e) {
            LOG.error("usage record dropped: " + record, e);
        }
    }

    /** The row once in the journal: from here a crash of the process cannot lose it. */
    private LedgerEntry journaled(LedgerEntry entry) {
        try {
            return entry.in(journal.append(entry));
        } catch (RuntimeException e) {
            // a full or failing disk must not stop the gateway: the row still goes to the database, as before
            long now = System.nanoTime();
            long last = journalWarnedAt.get();
            if (now - last > WARN_EVERY_NANOS && journalWarnedAt.compareAndSet(last, now)) {
                LOG.error("ledger journal unavailable, usage rows are queued without it: " + e);
            }
            return entry;
        }
    }

    /** Stores a price table the ledger has not seen (the catalogue changed while running), off the event loop. */
    private void registerPrices(String version) {
        registeredPrices = version;
        blocking(() -> {
            PriceTables.register(db, prices);
            return null;
        }).onFailure(e -> registeredPrices = null);
    }

    /** Prices the ledger rows of {@code [from, to)} again with the current prices (see {@link Repricing}). */
    Future<Repricing.Result> reprice(String actor, Instant from, Instant to) {
        return blocking(() -> {
            Repricing.Result result = Repricing.run(db, prices, from, to);
            audit.record(actor, "reprice", "ledger", null, new JsonObject().put("from", from.toString()).put("to", to.toString()),
                    result.json());
            return result;
        });
    }

    /** Raises the alert of a model used without a price, once a day (see {@link #record}). */
    private void priceUnknown(String model) {
        Instant now = Instant.now();
        String day = BudgetPeriod.DAY.of(now);
        if (model == null || day.equals(priceAlertsRaised.put(model, day))) return;
        LOG.warn("usage of model {} recorded without a price (price: unknown); its ledger rows are marked", model);
        blocking(() -> {
            alerts.priceUnknown(model, now);
            return null;
        }).onFailure(e -> priceAlertsRaised.remove(model, day));
    }

    Future<List<Alerts.Alert>> alerts(int limit) {
        return blocking(() -> alerts.list(limit));
    }

    Future<AlertSettings> alertSettings() {
        return blocking(() -> AlertSettings.read(Sql.pool(db)));
    }

    Future<AlertSettings> updateAlertSettings(String actor, JsonObject body) {
        return change(tx -> {
            AlertSettings before = AlertSettings.read(tx.sql());
            AlertSettings after = before.patch(body);
            after.write(tx.sql());
            tx.audit().record(actor, "alerts.update", "alerts", null, before.json(), after.json());
            return after;
        });
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
                    journal.close();
                    return null;
                }, false)
                .eventually(() -> Future.join(limiter.close(), holds.close(), alertSender.close()))
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

    // Each change commits with its audit entry, made by the actor: the admin API caller's key id, or cli:<user>.

    /** The stores of one transaction: a change and its audit entry commit together or not at all. */
    private record Tx(Sql sql, KeyStore keys, TeamStore teams, AuditLog audit) {}

    @FunctionalInterface
    private interface Change<T> {
        T apply(Tx tx) throws SQLException;
    }

    private <T> Future<T> change(Change<T> work) {
        return blocking(() -> db.transaction(c -> {
            Sql sql = Sql.in(c);
            return work.apply(new Tx(sql, new KeyStore(sql), new TeamStore(sql), new AuditLog(sql)));
        }));
    }

    Future<KeyStore.CreatedKey> createKey(String actor, KeySettings settings) {
        return change(tx -> {
            requireTeam(tx, settings.teamId());
            KeyStore.CreatedKey created = tx.keys().create(settings);
            tx.audit().record(actor, "key.create", "key", created.key().id(), null, AuditLog.of(created.key()));
            return created;
        });
    }

    /** A key may join only a team that exists: a typo would otherwise leave it outside every team's limits. */
    private static void requireTeam(Tx tx, String teamId) throws SQLException {
        if (teamId != null && tx.teams().find(teamId).isEmpty()) {
            throw GatewayException.invalid("team_id", "No team with id '" + teamId + "'.").withCode("team_not_found");
        }
    }

    Future<Team> createTeam(String actor, Team settings) {
        return change(tx -> {
            Team team = tx.teams().create(settings);
            tx.audit().record(actor, "team.create", "team", team.id(), null, AuditLog.of(team));
            return team;
        });
    }

    Future<List<Team>> listTeams() {
        return blocking(teams::list);
    }

    Future<Optional<Team>> findTeam(String id) {
        return blocking(() -> teams.find(id));
    }

    /** Forgets cached keys, which carry their team, before the caller hears of the change. */
    Future<Boolean> updateTeam(String actor, Team team) {
        return change(tx -> {
            Optional<Team> before = tx.teams().find(team.id());
            boolean updated = tx.teams().update(team);
            if (updated) tx.audit().record(actor, "team.update", "team", team.id(), AuditLog.of(before.orElse(null)), AuditLog.of(team));
            return updated;
        }).onSuccess(x -> keysBySecret.invalidateAll());
    }

    /** A team with keys is not deleted (409): its keys would silently lose the team's limits. */
    Future<Boolean> deleteTeam(String actor, String id) {
        return change(tx -> {
            Optional<Team> before = tx.teams().find(id);
            long members = tx.teams().keyCount(id);
            if (members > 0) {
                throw GatewayException.invalid("id", "Team '" + id + "' still has " + members
                        + " keys; move or delete them first.").withStatus(409).withCode("team_not_empty");
            }
            boolean deleted = tx.teams().delete(id);
            if (deleted) tx.audit().record(actor, "team.delete", "team", id, AuditLog.of(before.orElse(null)), null);
            return deleted;
        });
    }

    /** What {@code holder} has spent in the current span of {@code period}. */
    long spentE10(String holder, BudgetPeriod period) {
        return spend.spentE10(holder, period.of(Instant.now()));
    }

    Future<List<StoredKey>> listKeys() {
        return blocking(keys::list);
    }

    Future<Optional<StoredKey>> findKey(String id) {
        return blocking(() -> keys.find(id));
    }

    /** Forgets cached keys before the caller hears of the change, so its next request sees it. */
    Future<Boolean> updateKey(String actor, String id, KeySettings settings, boolean disabled) {
        return change(tx -> {
            requireTeam(tx, settings.teamId());
            Optional<StoredKey> before = tx.keys().find(id);
            boolean updated = tx.keys().update(id, settings, disabled);
            if (updated) {
                tx.audit().record(actor, "key.update", "key", id, AuditLog.of(before.orElse(null)),
                        AuditLog.of(tx.keys().find(id).orElse(null)));
            }
            return updated;
        }).onSuccess(x -> keysBySecret.invalidateAll());
    }

    Future<Boolean> deleteKey(String actor, String id) {
        return change(tx -> {
            Optional<StoredKey> before = tx.keys().find(id);
            boolean deleted = tx.keys().delete(id);
            if (deleted) tx.audit().record(actor, "key.delete", "key", id, AuditLog.of(before.orElse(null)), null);
            return deleted;
        }).onSuccess(x -> keysBySecret.invalidateAll());
    }

    Future<List<AuditLog.Entry>> auditLog(int limit, String targetId) {
        return blocking(() -> audit.list(limit, targetId));
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

    /**
     * 403: the operator has priced nothing for the model. Refused rather than recorded at $0 (docs/accounts.md,
     * "Prices"); {@code price: unknown} in the catalogue allows it explicitly.
     */
    private static GatewayException unpriced(String publicModel) {
        return GatewayException.of(ErrorKind.PERMISSION, "Model '" + publicModel + "' has no price configured, and the"
                + " gateway does not serve a model it cannot bill; the operator can set its price (or price: unknown).")
                .withParam("model").withCode("model_not_priced");
    }

    private static GatewayException unauthorized(String message, String code) {
        return GatewayException.of(ErrorKind.AUTHENTICATION, message).withCode(code);
    }

    private static GatewayException notAllowed(ApiKey key, String publicModel) {
        String who = key.allows(publicModel) ? "API key '" + key.name() + "' (team '" + key.team().name() + "')"
                : "API key '" + key.name() + "'";
        return GatewayException.of(ErrorKind.PERMISSION, who + " may not use model '" + publicModel
                + "'.").withParam("model").withCode("model_not_allowed");
    }

    /**
     * 429 is how OpenAI reports exhausted credit; x-should-retry stops the official SDKs from retrying. A periodic
     * budget says when its period ends.
     */
    private static GatewayException budgetSpent(ApiKey key, Budget b, long spentE10) {
        return GatewayException.of(ErrorKind.RATE_LIMIT, b.describe(key) + " has used its " + b.periodText() + "budget of $"
                + b.usd().toPlainString() + " (spent $" + Money.fromE10(spentE10).toPlainString() + ")"
                + (b.endsAt() == null ? "." : "; it renews at " + b.endsAt() + "."))
                .withCode("insufficient_quota").withHeaders(Map.of("x-should-retry", "false"));
    }

    /** Retrying soon is right for a slot or a reservation: a call in flight ends and gives it back. */
    private static GatewayException refused(ApiKey key, Budget b, HoldDecision taken, int maxConcurrent) {
        return switch (taken.refusal()) {
            case BUDGET_SPENT -> budgetSpent(key, b, taken.spentE10());
            case CONCURRENCY -> GatewayException.of(ErrorKind.RATE_LIMIT, "API key '" + key.name() + "' has " + maxConcurrent
                    + " calls in flight, its limit (max_concurrent " + maxConcurrent + "); retry when one has finished.")
                    .withCode("concurrency_limit_exceeded").withHeaders(Map.of("retry-after", "1"));
            case BUDGET_RESERVED -> GatewayException.of(ErrorKind.RATE_LIMIT, b.describe(key)
                    + ": the calls in flight may use the rest of its " + b.periodText() + "budget of $" + b.usd().toPlainString()
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
