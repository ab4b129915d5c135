-- Accounts, their login sessions and the login throttle.
CREATE TABLE users (
    id              BIGSERIAL PRIMARY KEY,
    username        TEXT NOT NULL,
    email           TEXT NOT NULL,
    full_name       TEXT NOT NULL,
    password_hash   TEXT NOT NULL,
    user_type       TEXT NOT NULL CHECK (user_type IN ('user', 'registrar', 'admin')),
    tier            TEXT CHECK (tier IN ('basic', 'premium', 'enterprise')),
    api_key_hash    TEXT,
    api_key_sealed  TEXT,
    disabled_at     TIMESTAMPTZ,
    created_at      TIMESTAMPTZ NOT NULL,
    updated_at      TIMESTAMPTZ NOT NULL
);
CREATE UNIQUE INDEX users_username_key ON users (lower(username));
CREATE UNIQUE INDEX users_email_key ON users (lower(email));
CREATE UNIQUE INDEX users_api_key_hash_key ON users (api_key_hash);

CREATE TABLE sessions (
    token_hash   TEXT PRIMARY KEY,
    user_id      BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at   TIMESTAMPTZ NOT NULL,
    expires_at   TIMESTAMPTZ NOT NULL,
    client_ip    TEXT NOT NULL,
    user_agent   TEXT NOT NULL
);
CREATE INDEX sessions_user_id_idx ON sessions (user_id);
CREATE INDEX sessions_expires_at_idx ON sessions (expires_at);

CREATE TABLE login_failures (
    throttle_key   TEXT PRIMARY KEY,
    failures       INTEGER NOT NULL,
    window_start   TIMESTAMPTZ NOT NULL
);
