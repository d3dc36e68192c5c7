-- The console's usage rollups (docs/console.md), rebuilt from usage_ledger by console/RollupJob, so that no
-- screen aggregates the raw ledger. Per hour and per day (UTC), in five cuts, so that a chart reads one row per
-- bucket and group: 'f' key x model x vendor (a key's own view), 'k' per key, 'm' per model, 'v' per vendor,
-- 't' total (the other dimensions '' in each). Portable like the accounts migrations: integer and text types
-- only; cost in units of 1e-10 USD.
CREATE TABLE console_rollup (
    cut                CHAR(1)      NOT NULL,
    grain              CHAR(1)      NOT NULL,   -- 'h' hour, 'd' day (UTC)
    bucket_ms          BIGINT       NOT NULL,   -- start of the hour or day, epoch ms
    key_id             VARCHAR(32)  NOT NULL,
    model              VARCHAR(200) NOT NULL,   -- usage_ledger.public_model, '' when none
    vendor             VARCHAR(100) NOT NULL,   -- '' when no vendor answered
    requests           BIGINT       NOT NULL,
    errors             BIGINT       NOT NULL,   -- status >= 400
    input_tokens       BIGINT       NOT NULL,
    cache_read_tokens  BIGINT       NOT NULL,
    cache_write_tokens BIGINT       NOT NULL,
    output_tokens      BIGINT       NOT NULL,   -- reasoning included, as in the ledger
    reasoning_tokens   BIGINT       NOT NULL,
    cost_usd_e10       BIGINT       NOT NULL,
    latency_sum_ms     BIGINT       NOT NULL,
    ttft_sum_ms        BIGINT       NOT NULL,
    ttft_count         BIGINT       NOT NULL,
    -- latency and TTFT histograms: counts at or below 100, 250, 500, 1000, 2500, 5000, 10000, 30000, 60000 ms, above
    lat_0 BIGINT NOT NULL, lat_1 BIGINT NOT NULL, lat_2 BIGINT NOT NULL, lat_3 BIGINT NOT NULL, lat_4 BIGINT NOT NULL,
    lat_5 BIGINT NOT NULL, lat_6 BIGINT NOT NULL, lat_7 BIGINT NOT NULL, lat_8 BIGINT NOT NULL, lat_9 BIGINT NOT NULL,
    ttft_0 BIGINT NOT NULL, ttft_1 BIGINT NOT NULL, ttft_2 BIGINT NOT NULL, ttft_3 BIGINT NOT NULL, ttft_4 BIGINT NOT NULL,
    ttft_5 BIGINT NOT NULL, ttft_6 BIGINT NOT NULL, ttft_7 BIGINT NOT NULL, ttft_8 BIGINT NOT NULL, ttft_9 BIGINT NOT NULL,
    PRIMARY KEY (cut, grain, bucket_ms, key_id, model, vendor)
);

-- A key's own view (read-only console) reads its rows alone.
CREATE INDEX console_rollup_key ON console_rollup (key_id, cut, grain, bucket_ms);

-- The job's watermark: the last usage_ledger.id added to the rollups ('' before the first). Ledger ids are
-- version-7 UUIDs, the write time first, so every row after the watermark is new.
CREATE TABLE console_rollup_state (
    name  VARCHAR(40) NOT NULL PRIMARY KEY,
    value VARCHAR(36) NOT NULL
);
INSERT INTO console_rollup_state (name, value) VALUES ('watermark', '');

-- One step's new rows, aggregated per hour in the full cut before they are added to every cut and grain;
-- emptied within the step's transaction (a table rather than a temporary one: the same SQL on both databases).
CREATE TABLE console_rollup_batch (
    bucket_ms          BIGINT       NOT NULL,
    key_id             VARCHAR(32)  NOT NULL,
    model              VARCHAR(200) NOT NULL,
    vendor             VARCHAR(100) NOT NULL,
    requests           BIGINT       NOT NULL,
    errors             BIGINT       NOT NULL,
    input_tokens       BIGINT       NOT NULL,
    cache_read_tokens  BIGINT       NOT NULL,
    cache_write_tokens BIGINT       NOT NULL,
    output_tokens      BIGINT       NOT NULL,
    reasoning_tokens   BIGINT       NOT NULL,
    cost_usd_e10       BIGINT       NOT NULL,
    latency_sum_ms     BIGINT       NOT NULL,
    ttft_sum_ms        BIGINT       NOT NULL,
    ttft_count         BIGINT       NOT NULL,
    lat_0 BIGINT NOT NULL, lat_1 BIGINT NOT NULL, lat_2 BIGINT NOT NULL, lat_3 BIGINT NOT NULL, lat_4 BIGINT NOT NULL,
    lat_5 BIGINT NOT NULL, lat_6 BIGINT NOT NULL, lat_7 BIGINT NOT NULL, lat_8 BIGINT NOT NULL, lat_9 BIGINT NOT NULL,
    ttft_0 BIGINT NOT NULL, ttft_1 BIGINT NOT NULL, ttft_2 BIGINT NOT NULL, ttft_3 BIGINT NOT NULL, ttft_4 BIGINT NOT NULL,
    ttft_5 BIGINT NOT NULL, ttft_6 BIGINT NOT NULL, ttft_7 BIGINT NOT NULL, ttft_8 BIGINT NOT NULL, ttft_9 BIGINT NOT NULL
);
