-- Asynchronous transcription tasks (docs/endpoints.md). Portable between SQLite and PostgreSQL like V1:
-- text and integer types only; the audio is kept as base64 text until the task ends, then cleared.

CREATE TABLE transcription_tasks (
    id             VARCHAR(40)  NOT NULL PRIMARY KEY,
    key_id         VARCHAR(32)  NOT NULL,
    public_model   VARCHAR(200) NOT NULL,
    state          VARCHAR(16)  NOT NULL,   -- queued | running | succeeded | failed
    form_json      TEXT         NOT NULL,   -- the caller's form fields other than the file, as a JSON object
    file_name      VARCHAR(300) NOT NULL,
    file_type      VARCHAR(100),
    audio_b64      TEXT,
    result_json    TEXT,                    -- {"content_type","body"}: the vendor's answer as received
    error_json     TEXT,                    -- {"message","code","status"}
    attempts       INTEGER      NOT NULL DEFAULT 0,
    created_at_ms  BIGINT       NOT NULL,
    started_at_ms  BIGINT,
    finished_at_ms BIGINT,
    updated_at_ms  BIGINT       NOT NULL
);

CREATE INDEX transcription_tasks_state ON transcription_tasks (state);
