-- Account security (issue 23): sessions an account can see and end, and
-- two-factor sign-in with an authenticator app (TOTP, RFC 6238).
--
-- public_id names a session in the API (the token's hash is the lookup key
-- and stays inside); sessions from before get a prefix of their hash.
-- last_seen_at is moved forward at most once a minute (see Authenticate).
ALTER TABLE sessions ADD COLUMN public_id TEXT;
ALTER TABLE sessions ADD COLUMN last_seen_at TIMESTAMP;
UPDATE sessions SET public_id = substr(token_hash, 1, 32), last_seen_at = created_at;
CREATE UNIQUE INDEX sessions_public_id_key ON sessions (public_id);

-- One authenticator secret per account, sealed (internal/sealer). It is
-- pending until the first code confirms it (confirmed_at). last_step is the
-- last time step a code was accepted for: a code is never taken twice.
CREATE TABLE totp_secrets (
    user_id        INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    secret_sealed  TEXT NOT NULL,
    confirmed_at   TIMESTAMP,
    last_step      BIGINT NOT NULL DEFAULT 0,
    created_at     TIMESTAMP NOT NULL
);

-- Single-use recovery codes, kept as keyed hashes only.
CREATE TABLE recovery_codes (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    code_hash   TEXT NOT NULL,
    used_at     TIMESTAMP,
    created_at  TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX recovery_codes_user_hash_key ON recovery_codes (user_id, code_hash);

-- The step between a right password and a second factor: a short-lived
-- token (only its hash stored) that is no session. failures counts wrong
-- codes against it; too many end it.
CREATE TABLE two_factor_challenges (
    token_hash  TEXT PRIMARY KEY,
    user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    failures    INTEGER NOT NULL DEFAULT 0,
    created_at  TIMESTAMP NOT NULL,
    expires_at  TIMESTAMP NOT NULL
);
CREATE INDEX two_factor_challenges_expires_at_idx ON two_factor_challenges (expires_at);
