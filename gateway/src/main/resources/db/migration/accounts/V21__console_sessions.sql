-- Console sign-in (docs/identity/sso.md). A pending login: the OpenID provider's redirect may reach any replica, so
-- the PKCE verifier, the nonce and the provider wait here, keyed by the SHA-256 of `state` and bound to the browser
-- by the SHA-256 of a short-lived cookie; taken once, refused after `expires_at_ms`.
CREATE TABLE sign_in_states (
    id              VARCHAR(64)  NOT NULL PRIMARY KEY,   -- hex SHA-256 of the state parameter
    binding_hash    VARCHAR(64)  NOT NULL,               -- hex SHA-256 of the browser's sign-in cookie
    provider        VARCHAR(100) NOT NULL,
    code_verifier   VARCHAR(128) NOT NULL,
    nonce           VARCHAR(128) NOT NULL,
    expires_at_ms   BIGINT       NOT NULL
);
CREATE INDEX sign_in_states_expiry ON sign_in_states (expires_at_ms);

-- A person's console session: the cookie holds a random value, only its SHA-256 is stored. Ends when unused for
-- console.session_idle_seconds (last_seen_ms), at expires_at_ms, at sign-out, or when its user is deactivated.
CREATE TABLE console_sessions (
    id              VARCHAR(64)  NOT NULL PRIMARY KEY,   -- hex SHA-256 of the mg_session cookie's value
    user_id         VARCHAR(40)  NOT NULL,
    provider        VARCHAR(100) NOT NULL,
    created_at_ms   BIGINT       NOT NULL,
    last_seen_ms    BIGINT       NOT NULL,
    expires_at_ms   BIGINT       NOT NULL,
    csrf_token      VARCHAR(64)  NOT NULL,
    id_token        TEXT                                 -- the logout's id_token_hint (OpenID RP-Initiated Logout 1.0)
);
CREATE INDEX console_sessions_user ON console_sessions (user_id);
CREATE INDEX console_sessions_expiry ON console_sessions (expires_at_ms);
