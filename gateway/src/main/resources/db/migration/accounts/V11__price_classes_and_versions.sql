-- Each ledger row keeps what it was priced with (docs/accounts.md, "Prices"): the price table's version, whether the
-- model's price was the operator's explicit "unknown" (the row then costs 0 and is marked), and server-tool calls.

ALTER TABLE usage_ledger ADD COLUMN web_search_calls BIGINT NOT NULL DEFAULT 0;
ALTER TABLE usage_ledger ADD COLUMN price_version VARCHAR(40);
ALTER TABLE usage_ledger ADD COLUMN price_unknown SMALLINT NOT NULL DEFAULT 0;

-- Every price table a row was priced with, by version: what a row was charged at stays readable after a correction.
CREATE TABLE price_tables (
    version       VARCHAR(40) NOT NULL PRIMARY KEY,
    prices_json   TEXT        NOT NULL,   -- {"<model id>": {"input": "3.00", ...} | "unknown"}
    first_used_ms BIGINT      NOT NULL
);
