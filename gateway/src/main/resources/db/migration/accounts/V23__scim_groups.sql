-- SCIM 2.0 provisioning (docs/identity/scim.md): groups an identity provider pushes (RFC 7643 §4.2) and their
-- members, which the role mappings read as the `groups` claim of a SCIM user; a person's given and family names
-- (RFC 7643 §4.1.1 `name`), kept as sent; and which of a user's keys its deactivation disabled, so that a
-- reactivation enables exactly those (a key disabled by an administrator stays disabled).

CREATE TABLE scim_groups (
    id             VARCHAR(40)  NOT NULL PRIMARY KEY,   -- grp_<uuid>
    display_name   VARCHAR(200) NOT NULL UNIQUE,
    external_id    VARCHAR(200),
    created_at_ms  BIGINT       NOT NULL,
    updated_at_ms  BIGINT       NOT NULL
);

CREATE TABLE scim_group_members (
    group_id  VARCHAR(40) NOT NULL,
    user_id   VARCHAR(40) NOT NULL,
    PRIMARY KEY (group_id, user_id)
);
CREATE INDEX scim_group_members_user ON scim_group_members (user_id);

-- SCIM's userName is not case-exact (RFC 7643 §4.1.1): its filter and uniqueness check compare lower-cased names
CREATE INDEX users_user_name_lower ON users (LOWER(user_name));

ALTER TABLE users ADD COLUMN given_name VARCHAR(200);
ALTER TABLE users ADD COLUMN family_name VARCHAR(200);
ALTER TABLE api_keys ADD COLUMN disabled_with_user SMALLINT NOT NULL DEFAULT 0;
