package dev.modelgateway.accounts;

/**
 * Where accounts live.
 *
 * @param databaseUrl    {@code jdbc:sqlite:./data/gateway.db} (the default) or {@code jdbc:postgresql://host:port/db?user=...}
 * @param redisUrl       e.g. {@code redis://127.0.0.1:6379}; null keeps rate-limit counters in this process
 * @param masterKey      the admin bearer token; null disables the admin API (the CLI still works)
 * @param redisKeyPrefix namespace of this deployment's Redis keys, so deployments can share a Redis
 */
public record AccountsConfig(String databaseUrl, String redisUrl, String masterKey, String redisKeyPrefix) {

    public static final String DEFAULT_DATABASE_URL = "jdbc:sqlite:./data/gateway.db";

    public AccountsConfig {
        if (databaseUrl == null || databaseUrl.isBlank()) databaseUrl = DEFAULT_DATABASE_URL;
        if (redisUrl != null && redisUrl.isBlank()) redisUrl = null;
        if (masterKey != null && masterKey.isBlank()) masterKey = null;
        if (redisKeyPrefix == null) redisKeyPrefix = "mg:";
    }

    public AccountsConfig(String databaseUrl, String redisUrl, String masterKey) {
        this(databaseUrl, redisUrl, masterKey, null);
    }
}
