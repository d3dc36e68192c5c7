package dev.modelgateway.console;

import dev.modelgateway.accounts.Accounts;
import dev.modelgateway.store.Database;
import dev.modelgateway.store.Schema;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The web console (docs/console.md): its pages under {@code /console/} ({@link ConsolePages}), its read API under
 * {@code /api/v1/console/} ({@link ConsoleApi}), both routed by {@code server/GatewayRouter}, and the rollups behind
 * the usage charts. One per accounts database, however many
 * event loops mount its routes. Its tables are migrated, and {@link RollupJob} started on a timer of the
 * gateway's verticles (so that undeploying the gateway stops it), at the console's first request or one rollup
 * period after the mount, whichever comes first: not during the start-up, where a new database's console
 * migrations (a Flyway set-up and its scripts) took 0.1-0.2 s of the one core from the first requests
 * (docs/performance.md, "Start-up"). The charts are a rollup period behind the ledger in any case.
 */
public final class Console {
    /** The console's tables; the newest of the migrations under {@code db/migration/console}. */
    public static final Schema SCHEMA = new Schema("console", "4");
    /** How often the rollups catch up with the ledger: the usage charts are at most this much behind. */
    static final long ROLLUP_EVERY_MS = 5_000;
    private static final Logger LOG = LoggerFactory.getLogger(Console.class);
    /** By the gateway's accounts, weakly: a console never refers to them, so a closed gateway's console goes too. */
    private static final Map<Accounts, Console> BY_ACCOUNTS = new WeakHashMap<>();

    private final Vertx vertx;
    private final Database db;
    private final RollupJob job;
    private final Promise<Void> ready = Promise.promise();
    private final AtomicBoolean started = new AtomicBoolean();
    private final AtomicBoolean rolling = new AtomicBoolean();

    private Console(Vertx vertx, Database db) {
        this.vertx = vertx;
        this.db = db;
        this.job = new RollupJob(db);
        vertx.setTimer(ROLLUP_EVERY_MS, id -> start());
    }

    /** Migrates the console's tables, then rolls up now and every period; once, whoever asks first. */
    private void start() {
        if (!started.compareAndSet(false, true)) return;
        vertx.executeBlocking(() -> {
            db.migrate(SCHEMA);
            return null;
        }, false).<Void>mapEmpty().onSuccess(v -> {
            roll();
            vertx.setPeriodic(ROLLUP_EVERY_MS, id -> roll());
        }).onFailure(e -> LOG.error("console tables could not be migrated; the console's API answers 503", e))
                .onComplete(ready);
    }

    /** The console's read API for a gateway router (asked once per event loop), on the one console of these accounts. */
    public static ConsoleApi api(Vertx vertx, Accounts accounts) {
        Console console;
        synchronized (BY_ACCOUNTS) {
            console = BY_ACCOUNTS.computeIfAbsent(accounts, a -> new Console(vertx, a.database()));
        }
        return new ConsoleApi(vertx, console);
    }

    Database database() {
        return db;
    }

    Future<Void> ready() {
        start();
        return ready.future();
    }

    /** One catch-up on a worker thread, skipped while the previous one still runs. */
    private void roll() {
        if (!rolling.compareAndSet(false, true)) return;
        vertx.executeBlocking(() -> {
            job.catchUp(System.currentTimeMillis());
            return null;
        }, false).onComplete(r -> {
            rolling.set(false);
            // two instances on one PostgreSQL may rebuild the same hour at once: one wins, the other retries next time
            if (r.failed()) LOG.warn("console rollups not updated this time: {}", r.cause().toString());
        });
    }
}
