-- A registrar's API keys (internal/account/apikey.go): several, each with a
-- name, scopes ("read,dns,register,wallet"), the client addresses and
-- prefixes it may be used from (comma-separated; empty: anywhere) and an
-- optional expiry. hash (an HMAC of the key) finds it; sealed holds the key
-- itself, encrypted, for the first key only: the one the API Access tab
-- shows again. Revoked keys stay, so that their use is refused as revoked.
CREATE TABLE api_keys (
    id             BIGSERIAL PRIMARY KEY,
    user_id        BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name           TEXT NOT NULL,
    hash           TEXT NOT NULL,
    sealed         TEXT,
    scopes         TEXT NOT NULL,
    allowed_cidrs  TEXT NOT NULL DEFAULT '',
    expires_at     TIMESTAMPTZ,
    created_at     TIMESTAMPTZ NOT NULL,
    last_used_at   TIMESTAMPTZ,
    revoked_at     TIMESTAMPTZ
);
CREATE UNIQUE INDEX api_keys_hash_key ON api_keys (hash);
CREATE INDEX api_keys_user_id_idx ON api_keys (user_id);

-- Each registrar's one key so far becomes its first key, with every scope:
-- the same hash and sealed key, so it works and shows as before.
INSERT INTO api_keys (user_id, name, hash, sealed, scopes, created_at)
    SELECT id, 'Default', api_key_hash, api_key_sealed, 'read,dns,register,wallet', created_at
    FROM users WHERE api_key_hash IS NOT NULL ORDER BY id;

DROP INDEX users_api_key_hash_key;
ALTER TABLE users DROP COLUMN api_key_hash;
ALTER TABLE users DROP COLUMN api_key_sealed;
