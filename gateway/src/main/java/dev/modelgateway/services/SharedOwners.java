package dev.modelgateway.services;

import io.vertx.core.Future;

/** Where the owners of vendor B objects are shared by every instance: Redis, else PostgreSQL. */
sealed interface SharedOwners permits RedisOwners, SqlOwners {
    /** The store's name, for the 503 that says which one did not answer. */
    String name();

    /** First writer wins: an id once owned is never handed to another key. */
    Future<Void> put(String id, String keyId, long ttlMs);

    /** The key id that owns {@code id}, or null when the store has none. */
    Future<String> get(String id);

    Future<Void> delete(String id);

    Future<Void> close();
}
