-- Which database the ledger's journal segments belong to (docs/accounts.md, "A ledger that loses nothing"): a random
-- id the gateway stores at its first start on the database, one row at most. A backup restored under another URL keeps
-- it, so that the journal written before the loss replays into the restored database
-- (docs/operations/backup-and-restore.md).

CREATE TABLE ledger_identity (
    singleton SMALLINT PRIMARY KEY CHECK (singleton = 1),
    id VARCHAR(36) NOT NULL
);
