-- The Responses conversations the gateway made for translated models (services/SqlResponses), shared by every
-- instance on one PostgreSQL. Portable SQL like the accounts' migrations; a subsystem of its own
-- (services_schema_history), so its versions never collide with the accounts'.

CREATE TABLE stored_responses (
    id             VARCHAR(64)  NOT NULL PRIMARY KEY,   -- resp_gw_…
    key_id         VARCHAR(32)  NOT NULL,               -- the API key that made it; no other key can see it
    input_json     TEXT         NOT NULL,               -- the expanded input items
    response_json  TEXT         NOT NULL,               -- the response object as the caller received it
    size_bytes     BIGINT       NOT NULL,               -- the two JSON texts' UTF-8 size, for the total bound
    created_at_ms  BIGINT       NOT NULL,
    expires_at_ms  BIGINT       NOT NULL                -- last use + the idle expiry
);

CREATE INDEX stored_responses_expiry ON stored_responses (expires_at_ms);
