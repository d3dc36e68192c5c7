package dev.modelgateway.services;

import dev.modelgateway.config.RedisSettings;
import dev.modelgateway.store.Database;
import dev.modelgateway.store.Schema;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/**
 * What the gateway keeps for callers, shared across event loops (one instance per gateway process) and, when
 * the gateway has PostgreSQL or Redis, across instances (docs/configuration.md, "What the gateway keeps for
 * callers"): the responses the gateway made ({@link ResponseStore}), who created each vendor B response and item
 * ({@link ResponseOwners}), and transcription tasks (in the accounts database).
 */
public record SharedServices(ResponseStore responses, ResponseOwners owners, TranscriptionTasks transcriptions) {
    /** The services' tables beside the accounts' (stored responses, owners), with their own migration history. */
    static final Schema SCHEMA = new Schema("services", "2");

    /**
     * Where each is kept: with PostgreSQL the responses are there, and the owners too unless Redis is configured
     * (then they are in Redis at {@code redisUrl} under {@code redisPrefix}); with the embedded database the
     * responses are in this process, the owners in Redis or in this process.
     */
    public static Future<SharedServices> open(Vertx vertx, Database db, String redisUrl, RedisSettings redisSettings,
                                              String redisPrefix, TranscriptionTasks transcriptions) {
        if (db.vendor() != Database.Vendor.POSTGRESQL) {
            return Future.succeededFuture(new SharedServices(ResponseStore.inProcess(),
                    ResponseOwners.create(vertx, redisUrl, redisSettings, redisPrefix), transcriptions));
        }
        return vertx.executeBlocking(() -> {
            db.migrate(SCHEMA);
            return null;
        }, false).map(migrated -> new SharedServices(SqlResponses.open(vertx, db, ResponseBounds.SHARED),
                redisUrl != null ? ResponseOwners.create(vertx, redisUrl, redisSettings, redisPrefix) : ResponseOwners.inDatabase(vertx, db),
                transcriptions));
    }

    /** Waits for what is being written to the shared stores, then closes their clients; before the database closes. */
    public Future<Void> close() {
        return Future.join(responses.close(), owners.close()).mapEmpty();
    }
}
