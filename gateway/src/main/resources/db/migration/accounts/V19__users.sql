-- People (docs/identity/README.md): a user is a record, made by just-in-time provisioning at a console sign-in or an
-- identity provider's token when a mapping rule matches, or by SCIM. `grants_json` holds the roles last mapped
-- ([{"role":"team_admin","team":"team_x"}]); `active` 0 suspends the user's sessions and keys. An identity
-- provider's (issuer, subject) pair names at most one user; a user may have several. A key may belong to a user
-- (`owner_user_id`): a member's own keys, disabled with the user.

CREATE TABLE users (
    id                VARCHAR(40)  NOT NULL PRIMARY KEY,   -- usr_<uuid>
    user_name         VARCHAR(200) NOT NULL UNIQUE,        -- SCIM userName; an email or preferred_username at sign-in
    email             VARCHAR(320),
    display_name      VARCHAR(200),
    external_id       VARCHAR(200),                        -- SCIM externalId
    active            SMALLINT     NOT NULL DEFAULT 1,
    grants_json       TEXT,
    created_at_ms     BIGINT       NOT NULL,
    updated_at_ms     BIGINT       NOT NULL
);

CREATE TABLE user_identities (
    issuer   VARCHAR(300) NOT NULL,
    subject  VARCHAR(300) NOT NULL,
    user_id  VARCHAR(40)  NOT NULL,
    PRIMARY KEY (issuer, subject)
);
CREATE INDEX user_identities_user ON user_identities (user_id);

ALTER TABLE api_keys ADD COLUMN owner_user_id VARCHAR(40);
CREATE INDEX api_keys_owner ON api_keys (owner_user_id);
