package dev.modelgateway.accounts;

import dev.modelgateway.accounts.audit.AlertSender;
import dev.modelgateway.accounts.audit.AlertSettingsStore;
import dev.modelgateway.accounts.audit.Alerts;
import dev.modelgateway.access.Principal;
import dev.modelgateway.accounts.keys.AdminKey;
import dev.modelgateway.accounts.keys.AdminKeyStore;
import dev.modelgateway.accounts.keys.BudgetPeriod;
import dev.modelgateway.accounts.keys.KeyMatch;
import dev.modelgateway.accounts.keys.KeyStore;
import dev.modelgateway.accounts.keys.KeyToken;
import dev.modelgateway.accounts.keys.StoredKey;
import dev.modelgateway.accounts.ledger.Ledger;
import dev.modelgateway.accounts.ledger.LedgerEntry;
import dev.modelgateway.accounts.ledger.LedgerJournal;
import dev.modelgateway.accounts.ledger.LedgerWriter;
import dev.modelgateway.accounts.ledger.Money;
import dev.modelgateway.accounts.ledger.PriceTables;
import dev.modelgateway.accounts.ledger.SpendTracker;
import dev.modelgateway.accounts.limits.Budget;
import dev.modelgateway.accounts.limits.CallHolds;
import dev.modelgateway.accounts.limits.Hold;
import dev.modelgateway.accounts.limits.HoldDecision;
import dev.modelgateway.accounts.limits.HoldRequest;
import dev.modelgateway.accounts.limits.LocalHolds;
import dev.modelgateway.accounts.limits.LocalRateLimiter;
import dev.modelgateway.accounts.limits.RateDecision;
import dev.modelgateway.accounts.limits.RateLimiter;
import dev.modelgateway.accounts.limits.RateScope;
import dev.modelgateway.accounts.limits.RedisHolds;
import dev.modelgateway.accounts.limits.RedisRateLimiter;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.catalogue.ModelPrice;
import dev.modelgateway.catalogue.PriceBook;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.observability.LogThrottle;
import dev.modelgateway.store.Database;
import dev.modelgateway.store.Schema;
import dev.modelgateway.store.Sql;
import dev.modelgateway.time.Ticker;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Platform accounts on the request path: authentication, admission (model allow-list, budget, rate limits, calls in
 * flight) and the usage ledger's recording; the administrator's operations are {@link Administration}, the refusals'
 * errors {@link Refusals}. Nothing here blocks an event loop: JDBC runs on Vert.x worker threads, ledger writes on
 * their own thread.
 */
public final class Accounts {
    /** How often other instances' spend is read back from the database. */
    static final Duration SPEND_REFRESH = Duration.ofSeconds(1);
    /** The accounts tables; the newest of the migrations under {@code db/migration/accounts} (a test checks it). */
    public static final Schema SCHEMA = new Schema("accounts", "23");
    private static final Logger LOG = LoggerFactory.getLogger(Accounts.class);

    private final Vertx vertx;
    private final AccountsConfig config;
    private final PriceBook prices;
    /** A public model id's aliases in the catalogue in force (docs/accounts.md, "Keys": an allow-list may name one). */
    private final Function<String, List<String>> aliasesOf;
    private final Database db;
    private final Blocking blocking;
    private final KeyStore keys;
    private final Ledger ledger;
    private final SpendTracker spend;
    private final LedgerWriter writer;
    private final LedgerJournal journal;
    private final Alerts alerts;
    private final AlertSender alertSender;
    /** Models whose unknown-price alert was raised, with the day: one database call a day per model. */
    private final Map<String, String> priceAlertsRaised = new ConcurrentHashMap<>();
    private final RateLimiter limiter;
    private final CallHolds holds;
    private final Administration admin;
    private final MasterKeys masterKeys;
    /** What decides expiries, budget periods and rate-limit refills: the system clock but in tests. */
    private final InstantSource clock;
    /** The price table version last stored in {@code price_tables}. */
    private volatile String registeredPrices;
    /** Once per 10 s each: during an outage every request fails the same way. */
    private final LogThrottle journalWarnings = new LogThrottle(Duration.ofSeconds(10));
    private final LogThrottle limiterWarnings = new LogThrottle(Duration.ofSeconds(10));
    private final KeyLookups<KeyMatch> keyLookups;
    /** The admin keys the request path reads, cached as platform keys are. */
    private final KeyLookups<AdminKey.Match> adminKeyLookups;
    private final AdminKeyStore adminKeys;
    private final TokenUsers tokenUsers;
    /** When each admin key's use was last written: at most one write a minute per key. */
    private final Map<String, Instant> adminKeyUseWritten = new ConcurrentHashMap<>();
    /** How often an admin key's {@code last_used_at} is written at most. */
    static final Duration LAST_USED_EVERY = Duration.ofMinutes(1);
    private final SignIns signIns;

    private Accounts(Vertx vertx, AccountsConfig config, PriceBook prices, Function<String, List<String>> aliasesOf,
                     Database db, RateLimiter limiter, CallHolds holds, SpendTracker spend, LedgerJournal journal,
                     InstantSource clock) {
        this.vertx = vertx;
        this.clock = clock;
        this.config = config;
        this.prices = prices;
        this.aliasesOf = aliasesOf;
        this.db = db;
        this.blocking = new Blocking(vertx);
        this.keys = new KeyStore(Sql.pool(db));
        // a test's clock is also a ticker: advancing it ages the cached keys too, so a rotation's grace ends on every instance
        Ticker ticker = clock instanceof Ticker t ? t : Ticker.SYSTEM;
        this.keyLookups = new KeyLookups<>(vertx, secret -> blocking(() -> keys.findBySecretHash(KeyToken.hash(secret))), ticker);
        this.adminKeys = new AdminKeyStore(Sql.pool(db));
        this.adminKeyLookups = new KeyLookups<>(vertx, secret -> blocking(() -> adminKeys.findBySecretHash(KeyToken.hash(secret))), ticker);
        this.ledger = new Ledger(db);
        this.spend = spend;
        this.journal = journal;
        this.alerts = new Alerts(Sql.pool(db), clock);
        this.writer = new LedgerWriter(ledger, spend, SPEND_REFRESH, clock,
                batch -> alerts.budgetsAfter(batch, AlertSettingsStore.read(Sql.pool(db)).thresholds()));
        this.limiter = limiter;
        this.holds = holds;
        this.registeredPrices = prices.version(); // stored by open
        writer.start();
        this.alertSender = new AlertSender(vertx, db, alerts, clock, config.alertsAllowPrivate());
        this.masterKeys = new MasterKeys(config.masterKey());
        this.tokenUsers = new TokenUsers(db, blocking, clock);
        this.signIns = new SignIns(blocking, Sql.pool(db), clock);
        this.admin = new Administration(config, db, blocking, prices, keys, ledger, spend, alerts, limiter, masterKeys,
                () -> {
                    keyLookups.invalidateAll();
                    adminKeyLookups.invalidateAll();
                }, clock);
    }

    /** The operations of the admin API: keys, teams, usage, limits, re-pricing, alerts, the audit log. */
    public Administration admin() {
        return admin;
    }

    /** The users and teams behind identity providers' tokens (docs/identity/caller-tokens.md). */
    public TokenUsers tokenUsers() {
        return tokenUsers;
    }

    /** The accounts' clock: expiries (keys, console sessions, sign-ins), budget periods, how long the identity caches hold. */
    public InstantSource clock() {
        return clock;
    }

    /** Opens the database (running its migrations) and, if configured, Redis. */
    public static Future<Accounts> open(Vertx vertx, AccountsConfig config, PriceBook prices) {
        return open(vertx, config, prices, RedisHolds.LEASE_MS);
    }

    /** For the accounts used without a catalogue's aliases: a model goes by its id alone. */
    private static final Function<String, List<String>> NO_ALIASES = id -> List.of();

    /** {@code leaseMs}: how long a Redis lease outlives its last renewal (tests of expiry use a short one). */
    static Future<Accounts> open(Vertx vertx, AccountsConfig config, PriceBook prices, long leaseMs) {
        return openDatabase(vertx, config).compose(db -> open(vertx, config, prices, NO_ALIASES, db, leaseMs, InstantSource.system()));
    }

    /** On another clock than the system's: tests of budget periods and expiries advance it. */
    static Future<Accounts> open(Vertx vertx, AccountsConfig config, PriceBook prices, InstantSource clock) {
        return openDatabase(vertx, config).compose(db -> open(vertx, config, prices, NO_ALIASES, db, RedisHolds.LEASE_MS, clock));
    }

    /** Opens the accounts database and runs its migrations, on a worker thread. */
    public static Future<Database> openDatabase(Vertx vertx, AccountsConfig config) {
        return vertx.executeBlocking(() -> Database.open(config.databaseUrl(), SCHEMA), false);
    }

    /**
     * The accounts on a database {@link #openDatabase opened} already, which they close, also if this fails.
     *
     * @param aliasesOf the aliases of a public model id in the catalogue in force: an allow-list may name a model by one
     */
    public static Future<Accounts> open(Vertx vertx, AccountsConfig config, PriceBook prices,
                                        Function<String, List<String>> aliasesOf, Database db) {
        return open(vertx, config, prices, aliasesOf, db, InstantSource.system());
    }

    /** On another clock than the system's: a test's moves key expiries and rotations, budget periods and the rate limits' buckets. */
    public static Future<Accounts> open(Vertx vertx, AccountsConfig config, PriceBook prices,
                                        Function<String, List<String>> aliasesOf, Database db, InstantSource clock) {
        return open(vertx, config, prices, aliasesOf, db, RedisHolds.LEASE_MS, clock);
    }

    private static Future<Accounts> open(Vertx vertx, AccountsConfig config, PriceBook prices,
                                         Function<String, List<String>> aliasesOf, Database db, long leaseMs,
                                         InstantSource clock) {
        SpendTracker spend = new SpendTracker();
        LocalHolds local = new LocalHolds(spend);
        Future<RateLimiter> limiter = config.redisUrl() == null
                ? Future.succeededFuture(new LocalRateLimiter(clock))
                : RedisRateLimiter.connect(vertx, config.redisUrl(), config.redisSettings(), config.redisKeyPrefix(),
                        // the system clock: the buckets refill on Redis's own, which every instance shares
                        clock == InstantSource.system() ? null : clock).map(r -> r);
        return limiter
                .compose(l -> (config.redisUrl() == null ? Future.<CallHolds>succeededFuture(local)
                        : RedisHolds.connect(vertx, config.redisUrl(), config.redisSettings(), config.redisKeyPrefix(), leaseMs, local)
                        .<CallHolds>map(h -> h))
                        .compose(h -> vertx.executeBlocking(() -> {
                                    PriceTables.registerInForce(db, prices);
                                    // rows a dead process journaled and never wrote count before any spend is read
                                    Ledger ledger = new Ledger(db);
                                    LedgerJournal journal = LedgerJournal.open(config.ledgerJournalDir(), ledger.identity(),
                                            config.ledgerJournalKeep(), ledger::append);
                                    try {
                                        spend.refreshed(ledger.spendAt(clock.instant()));
                                    } catch (SQLException | RuntimeException e) {
                                        journal.close();
                                        throw e;
                                    }
                                    return journal;
                                }, false)
                                .map(journal -> new Accounts(vertx, config, prices, aliasesOf, db, l, h, spend, journal, clock))
                                .onFailure(e -> h.close()))
                        .onFailure(e -> l.close()))
                .onFailure(e -> db.close());
    }

    /**
     * Resolves a bearer token: a master key ({@link MasterKeys}) to a synthetic unlimited key, else a stored key by hash.
     * Fails with a 401 that says whether the key is missing, unknown, disabled or expired.
     */
    public Future<ApiKey> authenticate(String bearerToken) {
        if (bearerToken == null || bearerToken.isBlank()) {
            return Future.failedFuture(Refusals.unauthorized("Missing API key: send it as 'Authorization: Bearer <key>'.", "missing_api_key"));
        }
        if (masterKeys.matches(bearerToken)) {
            return Future.succeededFuture(ApiKey.MASTER);
        }
        return keyLookups.find(bearerToken).compose(m -> {
            if (m.isEmpty()) return Future.failedFuture(Refusals.unauthorized("Invalid API key.", "invalid_api_key"));
            StoredKey stored = m.get().key();
            ApiKey key = m.get().previousSecret() ? stored.toApiKey().withSecretAcceptedUntil(stored.previous().acceptedUntil())
                    : stored.toApiKey();
            Instant now = clock.instant();
            String shown = "API key " + (m.get().previousSecret() ? stored.previous().prefix() : stored.prefix()) + "... (" + key.id() + ")";
            if (!m.get().acceptedAt(now)) {
                return Future.failedFuture(Refusals.unauthorized(shown + " was rotated: this secret was accepted until "
                        + stored.previous().acceptedUntil() + "; use the key's new secret.", "api_key_rotated"));
            }
            if (key.disabled()) return Future.failedFuture(Refusals.unauthorized(shown + " is disabled.", "api_key_disabled"));
            if (key.expiredAt(now)) {
                return Future.failedFuture(Refusals.unauthorized(shown + " expired at " + key.expiresAt() + ".", "api_key_expired"));
            }
            return Future.succeededFuture(key);
        });
    }

    /**
     * Resolves an admin key's secret ({@link KeyToken#isAdminSecret}) to its principal. Fails with a 401 that says
     * whether the key is unknown, disabled, expired or its secret rotated out. Its {@code last_used_at} is written at
     * most once a minute, on a worker, without the request waiting for it.
     */
    public Future<Principal> authenticateAdminKey(String secret) {
        return adminKeyLookups.find(secret).compose(m -> {
            if (m.isEmpty()) return Future.failedFuture(Refusals.unauthorized("Invalid admin key.", "invalid_admin_key"));
            AdminKey key = m.get().key();
            Instant now = clock.instant();
            String shown = "Admin key " + (m.get().previousSecret() ? key.previous().prefix() : key.prefix()) + "... (" + key.id() + ")";
            if (!m.get().acceptedAt(now)) {
                return Future.failedFuture(Refusals.unauthorized(shown + " was rotated: this secret was accepted until "
                        + key.previous().acceptedUntil() + "; use the key's new secret.", "admin_key_rotated"));
            }
            if (key.disabled()) return Future.failedFuture(Refusals.unauthorized(shown + " is disabled.", "admin_key_disabled"));
            if (key.expiredAt(now)) {
                return Future.failedFuture(Refusals.unauthorized(shown + " expired at " + key.expiresAt() + ".", "admin_key_expired"));
            }
            used(key.id(), now);
            return Future.succeededFuture(key.principal());
        });
    }

    /** Writes an admin key's use if none was written for it in the last {@link #LAST_USED_EVERY}. */
    private void used(String id, Instant now) {
        Instant written = adminKeyUseWritten.compute(id,
                (k, last) -> last != null && now.isBefore(last.plus(LAST_USED_EVERY)) ? last : now);
        if (written != now) return;
        blocking(() -> {
            adminKeys.touch(id, now);
            return null;
        }).onFailure(e -> {
            adminKeyUseWritten.remove(id, now);
            LOG.warn("could not record the use of admin key {}: {}", id, e.toString());
        });
    }

    /**
     * Whether {@code key} may use {@code publicModel} at all: the allow-lists alone (the key's and its team's), so
     * that a call can refuse a fallback outside them before anything is sent (otherwise platform_options.fallbacks
     * would bypass them).
     */
    public boolean allows(ApiKey key, String publicModel) {
        if (key.master()) return true;
        List<String> names = names(publicModel);
        return key.allows(names) && (key.team() == null || key.team().allows(names));
    }

    /** The names a public model goes by: its id, then its aliases, resolved now (a reload may move an alias). */
    private List<String> names(String publicModel) {
        List<String> aliases = aliasesOf.apply(publicModel);
        if (aliases.isEmpty()) return List.of(publicModel);
        List<String> names = new ArrayList<>(aliases.size() + 1);
        names.add(publicModel);
        names.addAll(aliases);
        return names;
    }

    /**
     * Admission of a fallback model within a call already admitted on its primary: only the buckets of the
     * key's model limit for {@code publicModel} (the key's own buckets and budget were taken by the call), so a
     * per-model limit holds whichever model of the plan answers. A model outside the allow-list is refused.
     */
    public Future<Admission> admitFallback(ApiKey key, String publicModel, long estimatedTokens) {
        if (prices.priceOf(publicModel) == null) return Future.failedFuture(Refusals.unpriced(publicModel));
        if (key.master()) return Future.succeededFuture(Admission.UNLIMITED);
        if (!allows(key, publicModel)) return Future.failedFuture(Refusals.notAllowed(key, publicModel, names(publicModel)));
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
        if (price == null) return Future.failedFuture(Refusals.unpriced(publicModel));
        if (key.master()) return Future.succeededFuture(Admission.UNLIMITED);
        if (!allows(key, publicModel)) return Future.failedFuture(Refusals.notAllowed(key, publicModel, names(publicModel)));
        Instant now = clock.instant();
        Budget own = Budget.of(key, now, spend);
        Budget team = Budget.of(key.team(), now, spend);
        for (Budget b : new Budget[]{own, team}) {
            if (b != null && b.spent()) return Future.failedFuture(Refusals.budgetSpent(key, b, b.spentE10()));
        }
        // The most this call may cost: every estimated token priced as output, the dearest kind.
        long reserveE10 = own == null && team == null ? 0 : Money.toE10(price.cost(new Usage(0, 0, 0, 0, estimatedTokens, 0)));
        List<RateScope> scopes = RateScope.of(key, publicModel);
        int maxConcurrent = admin.maxConcurrent(key);
        if (maxConcurrent == 0 && own == null && team == null) return limited(key, scopes, estimatedTokens);
        long reserve = reserveE10;
        Future<HoldDecision> keyHold = own == null && maxConcurrent == 0 ? Future.succeededFuture(HoldDecision.granted(() -> { }))
                : holds.take(own == null ? new HoldRequest(key.id(), "", maxConcurrent, -1, 0, 0) : own.request(maxConcurrent, reserve));
        return keyHold.compose(first -> {
                    if (first.refusal() != null) return Future.failedFuture(Refusals.refused(key, own, first, maxConcurrent));
                    if (team == null) return Future.succeededFuture(first.hold());
                    return holds.take(team.request(0, reserve)).compose(second -> {
                        if (second.refusal() == null) return Future.succeededFuture(both(first.hold(), second.hold()));
                        first.hold().release();
                        return Future.failedFuture(Refusals.refused(key, team, second, maxConcurrent));
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

    /** Takes {@code estimatedTokens} from the buckets of {@code scopes}, or says which limit refuses them. */
    private Future<Admission> limited(ApiKey key, List<RateScope> scopes, long estimatedTokens) {
        if (scopes.isEmpty()) return Future.succeededFuture(Admission.UNLIMITED);
        return limiter.acquire(scopes, estimatedTokens)
                .<Admission>compose(d -> d.getFirst().allowed()
                        ? Future.succeededFuture(new LimitedAdmission(RateDecision.headers(d), limiter, scopes, estimatedTokens))
                        : Future.failedFuture(Refusals.rateLimited(key, scopes, d)))
                .recover(e -> {
                    if (e instanceof GatewayException) return Future.failedFuture(e);
                    // Rate limiting protects upstreams; an unreachable Redis should not take the gateway down with it.
                    limiterWarnings.warn(LOG, "rate limiter unavailable, admitting without limits: " + e);
                    return Future.succeededFuture(Admission.UNLIMITED);
                });
    }

    /**
     * Why a key admitted earlier may no longer use {@code publicModel}, for long-lived calls (realtime sessions)
     * checked while they run: deleted, disabled, its secret replaced by a rotation whose grace has ended, expired, the
     * model out of its allow-list or its budget spent; empty while it may go on. Reads the key store (blocking, on a
     * worker), not the cache, so a change through the admin API shows at the next check.
     */
    public Future<Optional<GatewayException>> stillAllowed(ApiKey key, String publicModel) {
        if (key.master()) return Future.succeededFuture(Optional.empty());
        if (key.forUser()) {
            // no stored key: the user behind the identity provider's token must still be active
            return tokenUsers.user(key.userId()).map(user -> {
                if (user.isEmpty() || !user.get().active()) {
                    return Optional.of(Refusals.unauthorized("User " + key.name() + " was deactivated.", "user_deactivated"));
                }
                if (key.expiredAt(clock.instant())) {
                    return Optional.of(Refusals.unauthorized("The token this session authenticated with expired.", "token_expired"));
                }
                if (!allows(key, publicModel)) return Optional.of(Refusals.notAllowed(key, publicModel, names(publicModel)));
                for (Budget b : new Budget[]{Budget.of(key, clock.instant(), spend), Budget.of(key.team(), clock.instant(), spend)}) {
                    if (b != null && b.spent()) return Optional.of(Refusals.budgetSpent(key, b, b.spentE10()));
                }
                return Optional.empty();
            });
        }
        return blocking(() -> keys.find(key.id())).map(found -> {
            if (found.isEmpty()) return Optional.of(Refusals.unauthorized("API key " + key.id() + " was deleted.", "invalid_api_key"));
            ApiKey now = found.get().toApiKey();
            if (now.disabled()) return Optional.of(Refusals.unauthorized("API key " + key.id() + " was disabled.", "api_key_disabled"));
            if (key.secretAcceptedUntil() != null && !clock.instant().isBefore(key.secretAcceptedUntil())) {
                return Optional.of(Refusals.unauthorized("API key " + key.id() + " was rotated: the secret this session"
                        + " authenticated with was accepted until " + key.secretAcceptedUntil() + ".", "api_key_rotated"));
            }
            if (now.expiredAt(clock.instant())) return Optional.of(Refusals.unauthorized("API key " + key.id() + " expired.", "api_key_expired"));
            if (!allows(now, publicModel)) return Optional.of(Refusals.notAllowed(now, publicModel, names(publicModel)));
            for (Budget b : new Budget[]{Budget.of(now, clock.instant(), spend), Budget.of(now.team(), clock.instant(), spend)}) {
                if (b != null && b.spent()) return Optional.of(Refusals.budgetSpent(now, b, b.spentE10()));
            }
            return Optional.empty();
        });
    }

    /**
     * Queues a usage record for the ledger, priced with the current price table (the price of the deployment that
     * served it when it has its own, else its model's: docs/clouds.md, "Prices"); never blocks and never throws. A
     * model whose price is the operator's {@code unknown} (or that lost its price since admission) costs 0 and its
     * row is marked, and an alert says so once a day per model: never a silent $0.
     */
    public void record(UsageRecord record) {
        try {
            String model = record.answeredModel() != null ? record.answeredModel() : record.publicModel();
            ModelPrice price = model == null ? null : prices.priceOf(model, record.deployment());
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
            if (journalWarnings.occurred() > 0) LOG.error("ledger journal unavailable, usage rows are queued without it: " + e);
            return entry;
        }
    }

    /** Stores a price table the ledger has not seen (the catalogue changed while running), off the event loop. */
    private void registerPrices(String version) {
        registeredPrices = version;
        blocking(() -> {
            PriceTables.registerInForce(db, prices);
            return null;
        }).onFailure(e -> registeredPrices = null);
    }

    /** Raises the alert of a model used without a price, once a day (see {@link #record}). */
    private void priceUnknown(String model) {
        Instant now = clock.instant();
        String day = BudgetPeriod.DAY.of(now);
        if (model == null || day.equals(priceAlertsRaised.put(model, day))) return;
        LOG.warn("usage of model {} recorded without a price (price: unknown); its ledger rows are marked", model);
        blocking(() -> {
            alerts.priceUnknown(model, now);
            return null;
        }).onFailure(e -> priceAlertsRaised.remove(model, day));
    }

    /** People's console sign-ins and sessions. */
    public SignIns signIns() {
        return signIns;
    }

    /** The accounts database, shared with other per-key records (transcription tasks); blocking, use a worker. */
    public Database database() {
        return db;
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
        return blocking.run(work);
    }
}
