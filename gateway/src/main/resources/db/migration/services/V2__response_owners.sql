-- Which API key created each vendor B response and output item (services/SqlOwners), for a gateway on
-- PostgreSQL without Redis: shared by every instance on the database, like the Redis keys resp-owner:<id>.

CREATE TABLE response_owners (
    id             VARCHAR(200) NOT NULL PRIMARY KEY,   -- vendor B's response or item id
    key_id         VARCHAR(32)  NOT NULL,
    expires_at_ms  BIGINT       NOT NULL                -- vendor B's retention (30 days) after it was relayed
);

CREATE INDEX response_owners_expiry ON response_owners (expires_at_ms);
