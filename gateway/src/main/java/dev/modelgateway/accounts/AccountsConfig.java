package dev.modelgateway.accounts;

import dev.modelgateway.config.RedisSettings;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Where accounts live.
 *
 * @param databaseUrl    {@code jdbc:sqlite:./data/gateway.db} (the default) or {@code jdbc:postgresql://host:port/db?user=...}
 * @param redisUrl       e.g. {@code redis://127.0.0.1:6379}; null keeps rate-limit counters in this process
 * @param masterKey      the admin bearer token; null disables the admin API (the CLI still works)
 * @param redisKeyPrefix namespace of this deployment's Redis keys, so deployments can share a Redis; when
 *                       not given, the Redis URL's {@code key_prefix} query parameter, else {@code mg:}
 * @param defaultMaxConcurrent calls in flight at once for a key that sets no {@code max_concurrent}; 0: no bound
 * @param ledgerJournalDir where usage rows are journaled before they reach the database (docs/accounts.md,
 *                       {@code accounts.ledger_journal_dir}); null: {@code ./data/journal}
 * @param alertsAllowPrivate the alert webhook may reach loopback, private and link-local addresses
 *                       ({@code accounts.alerts_allow_private}; off by default, docs/security.md)
 * @param ledgerJournalKeep how long the journal keeps a segment whose rows are all written
 *                       ({@code accounts.ledger_journal_keep_hours}); zero: deleted at once
 * @param redisSettings  replica acknowledgements, failover wait and TLS trust for Redis (docs/operations/scale-out.md)
 */
public record AccountsConfig(String databaseUrl, String redisUrl, String masterKey, String redisKeyPrefix,
                             int defaultMaxConcurrent, Path ledgerJournalDir, boolean alertsAllowPrivate,
                             Duration ledgerJournalKeep, RedisSettings redisSettings) {

    public static final String DEFAULT_DATABASE_URL = "jdbc:sqlite:./data/gateway.db";
    static final String DEFAULT_JOURNAL_DIR = "./data/journal";
    /**
     * High enough for an agent running parallel tool loops (LiteLLM's {@code max_parallel_requests} has no default
     * at all), low enough that one key cannot hold thousands of vendor connections (docs/security.md).
     */
    public static final int DEFAULT_MAX_CONCURRENT = 64;
    static final String DEFAULT_REDIS_KEY_PREFIX = "mg:";
    private static final String PREFIX_PARAM = "key_prefix=";

    public AccountsConfig {
        if (databaseUrl == null || databaseUrl.isBlank()) databaseUrl = DEFAULT_DATABASE_URL;
        if (redisUrl != null && redisUrl.isBlank()) redisUrl = null;
        if (masterKey != null && masterKey.isBlank()) masterKey = null;
        if (redisUrl != null && redisUrl.indexOf('?') >= 0) {
            // key_prefix is ours, not the Redis client's: take it out of the connection string.
            int q = redisUrl.indexOf('?');
            List<String> kept = new ArrayList<>();
            for (String param : redisUrl.substring(q + 1).split("&")) {
                if (!param.startsWith(PREFIX_PARAM)) kept.add(param);
                else if (redisKeyPrefix == null) redisKeyPrefix = param.substring(PREFIX_PARAM.length());
            }
            redisUrl = redisUrl.substring(0, q) + (kept.isEmpty() ? "" : "?" + String.join("&", kept));
        }
        if (redisKeyPrefix == null || redisKeyPrefix.isEmpty()) redisKeyPrefix = DEFAULT_REDIS_KEY_PREFIX;
        if (defaultMaxConcurrent < 0) throw new IllegalArgumentException("the default max_concurrent must not be negative");
        if (ledgerJournalDir == null) ledgerJournalDir = Path.of(DEFAULT_JOURNAL_DIR);
        if (ledgerJournalKeep == null) ledgerJournalKeep = Duration.ZERO;
        if (redisSettings == null) redisSettings = RedisSettings.DEFAULT;
    }

    /** Written journal segments deleted at once; Redis's settings by its URL's mode. */
    public AccountsConfig(String databaseUrl, String redisUrl, String masterKey, String redisKeyPrefix,
                          int defaultMaxConcurrent, Path ledgerJournalDir, boolean alertsAllowPrivate) {
        this(databaseUrl, redisUrl, masterKey, redisKeyPrefix, defaultMaxConcurrent, ledgerJournalDir, alertsAllowPrivate,
                Duration.ZERO, null);
    }

    /** The alert webhook on public addresses only. */
    public AccountsConfig(String databaseUrl, String redisUrl, String masterKey, String redisKeyPrefix,
                          int defaultMaxConcurrent, Path ledgerJournalDir) {
        this(databaseUrl, redisUrl, masterKey, redisKeyPrefix, defaultMaxConcurrent, ledgerJournalDir, false);
    }

    public AccountsConfig(String databaseUrl, String redisUrl, String masterKey, String redisKeyPrefix,
                          int defaultMaxConcurrent) {
        this(databaseUrl, redisUrl, masterKey, redisKeyPrefix, defaultMaxConcurrent, null);
    }

    public AccountsConfig(String databaseUrl, String redisUrl, String masterKey, String redisKeyPrefix) {
        this(databaseUrl, redisUrl, masterKey, redisKeyPrefix, DEFAULT_MAX_CONCURRENT);
    }

    public AccountsConfig(String databaseUrl, String redisUrl, String masterKey) {
        this(databaseUrl, redisUrl, masterKey, null);
    }
}
