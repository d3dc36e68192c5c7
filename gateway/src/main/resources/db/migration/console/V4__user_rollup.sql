-- The user as a console dimension (issue 33; docs/console.md, "Rollups"): usage_ledger.user_id (accounts V22) per
-- hour and per day (UTC), in a table of its own because console_rollup's primary key stays as it is. Its rows keep
-- the team and the key beside the user, so that a team's or a key's reach filters them as console_rollup's full cut.
-- Ledger rows without a user are not kept here. Fed by console/RollupJob with the same rows past the same watermark,
-- in the same transaction; rebuilt by console/RepricedRollups for the days a reprice changed.
CREATE TABLE console_user_rollup (
    grain              CHAR(1)      NOT NULL,   -- 'h' hour, 'd' day (UTC)
    bucket_ms          BIGINT       NOT NULL,   -- start of the hour or day, epoch ms
    user_id            VARCHAR(40)  NOT NULL,   -- usage_ledger.user_id
    team_id            VARCHAR(32)  NOT NULL,   -- usage_ledger.team_id, '' when none
    key_id             VARCHAR(32)  NOT NULL,
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
    PRIMARY KEY (grain, bucket_ms, user_id, team_id, key_id)
);

-- A person's own view reads their rows alone.
CREATE INDEX console_user_rollup_user ON console_user_rollup (user_id, grain, bucket_ms);

-- The rows the rollups already hold (up to the watermark; none before the first run) are rolled up once here, so the
-- per-user table starts level with console_rollup rather than from the next ledger row.
INSERT INTO console_user_rollup SELECT 'h', (at_ms / 3600000) * 3600000, user_id, COALESCE(team_id, ''), key_id,
    COUNT(*), SUM(CASE WHEN status >= 400 THEN 1 ELSE 0 END), SUM(input_tokens), SUM(cache_read_tokens),
    SUM(cache_write_5m_tokens + cache_write_1h_tokens), SUM(output_tokens), SUM(reasoning_tokens), SUM(cost_usd_e10),
    SUM(latency_ms), COALESCE(SUM(ttft_ms), 0), COUNT(ttft_ms),
    SUM(CASE WHEN latency_ms <= 100 THEN 1 ELSE 0 END), SUM(CASE WHEN latency_ms > 100 AND latency_ms <= 250 THEN 1 ELSE 0 END),
    SUM(CASE WHEN latency_ms > 250 AND latency_ms <= 500 THEN 1 ELSE 0 END), SUM(CASE WHEN latency_ms > 500 AND latency_ms <= 1000 THEN 1 ELSE 0 END),
    SUM(CASE WHEN latency_ms > 1000 AND latency_ms <= 2500 THEN 1 ELSE 0 END), SUM(CASE WHEN latency_ms > 2500 AND latency_ms <= 5000 THEN 1 ELSE 0 END),
    SUM(CASE WHEN latency_ms > 5000 AND latency_ms <= 10000 THEN 1 ELSE 0 END), SUM(CASE WHEN latency_ms > 10000 AND latency_ms <= 30000 THEN 1 ELSE 0 END),
    SUM(CASE WHEN latency_ms > 30000 AND latency_ms <= 60000 THEN 1 ELSE 0 END), SUM(CASE WHEN latency_ms > 60000 THEN 1 ELSE 0 END),
    SUM(CASE WHEN ttft_ms <= 100 THEN 1 ELSE 0 END), SUM(CASE WHEN ttft_ms > 100 AND ttft_ms <= 250 THEN 1 ELSE 0 END),
    SUM(CASE WHEN ttft_ms > 250 AND ttft_ms <= 500 THEN 1 ELSE 0 END), SUM(CASE WHEN ttft_ms > 500 AND ttft_ms <= 1000 THEN 1 ELSE 0 END),
    SUM(CASE WHEN ttft_ms > 1000 AND ttft_ms <= 2500 THEN 1 ELSE 0 END), SUM(CASE WHEN ttft_ms > 2500 AND ttft_ms <= 5000 THEN 1 ELSE 0 END),
    SUM(CASE WHEN ttft_ms > 5000 AND ttft_ms <= 10000 THEN 1 ELSE 0 END), SUM(CASE WHEN ttft_ms > 10000 AND ttft_ms <= 30000 THEN 1 ELSE 0 END),
    SUM(CASE WHEN ttft_ms > 30000 AND ttft_ms <= 60000 THEN 1 ELSE 0 END), SUM(CASE WHEN ttft_ms > 60000 THEN 1 ELSE 0 END)
FROM usage_ledger
WHERE user_id IS NOT NULL AND id <= (SELECT value FROM console_rollup_state WHERE name = 'watermark')
GROUP BY (at_ms / 3600000) * 3600000, user_id, COALESCE(team_id, ''), key_id;

INSERT INTO console_user_rollup SELECT 'd', (bucket_ms / 86400000) * 86400000, user_id, team_id, key_id,
    SUM(requests), SUM(errors), SUM(input_tokens), SUM(cache_read_tokens), SUM(cache_write_tokens), SUM(output_tokens),
    SUM(reasoning_tokens), SUM(cost_usd_e10), SUM(latency_sum_ms), SUM(ttft_sum_ms), SUM(ttft_count),
    SUM(lat_0), SUM(lat_1), SUM(lat_2), SUM(lat_3), SUM(lat_4), SUM(lat_5), SUM(lat_6), SUM(lat_7), SUM(lat_8), SUM(lat_9),
    SUM(ttft_0), SUM(ttft_1), SUM(ttft_2), SUM(ttft_3), SUM(ttft_4), SUM(ttft_5), SUM(ttft_6), SUM(ttft_7), SUM(ttft_8), SUM(ttft_9)
FROM console_user_rollup WHERE grain = 'h'
GROUP BY (bucket_ms / 86400000) * 86400000, user_id, team_id, key_id;
