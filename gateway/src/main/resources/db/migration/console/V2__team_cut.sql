-- A team cut in the console's rollups (docs/console.md, "Rollups"): team_id (usage_ledger.team_id, '' outside a
-- team) joins the dimensions and the primary key, and a sixth cut 'g' holds one row per team. The rows already
-- rolled up do not know their team, so the tables are made anew and the watermark goes back to the start: the
-- rollup job rebuilds them from the ledger (at most 400 days back) on its next runs, window by window.
DROP TABLE console_rollup;
DROP TABLE console_rollup_batch;

CREATE TABLE console_rollup (
    cut                CHAR(1)      NOT NULL,
    grain              CHAR(1)      NOT NULL,   -- 'h' hour, 'd' day (UTC)
    bucket_ms          BIGINT       NOT NULL,   -- start of the hour or day, epoch ms
    key_id             VARCHAR(32)  NOT NULL,
    model              VARCHAR(200) NOT NULL,   -- usage_ledger.public_model, '' when none
    vendor             VARCHAR(100) NOT NULL,   -- '' when no vendor answered
    team_id            VARCHAR(32)  NOT NULL,   -- usage_ledger.team_id, '' when none
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
    PRIMARY KEY (cut, grain, bucket_ms, key_id, model, vendor, team_id)
);

CREATE INDEX console_rollup_key ON console_rollup (key_id, cut, grain, bucket_ms);

CREATE TABLE console_rollup_batch (
    bucket_ms          BIGINT       NOT NULL,
    key_id             VARCHAR(32)  NOT NULL,
    model              VARCHAR(200) NOT NULL,
    vendor             VARCHAR(100) NOT NULL,
    team_id            VARCHAR(32)  NOT NULL,
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

UPDATE console_rollup_state SET value = '' WHERE name = 'watermark';
