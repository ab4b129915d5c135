-- Every /v1 request made with a valid API key (internal/requestlog): when,
-- which key of which account, method, path (never the query string), final
-- status, latency in microseconds, the Idempotency-Key sent and the request
-- id. Never bodies or secrets. Rows older than 30 days are pruned by a
-- periodic job. Written in batches off the request path.
CREATE TABLE request_logs (
    id               BIGSERIAL PRIMARY KEY,
    created_at       TIMESTAMPTZ NOT NULL,
    user_id          BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    key_id           BIGINT NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
    method           TEXT NOT NULL,
    path             TEXT NOT NULL,
    status           INTEGER NOT NULL,
    latency_us       BIGINT NOT NULL,
    idempotency_key  TEXT NOT NULL DEFAULT '',
    request_id       TEXT NOT NULL DEFAULT ''
);
-- An account's log, newest first (every query is one account's).
CREATE INDEX request_logs_user_id_idx ON request_logs (user_id, id);
-- No index on created_at: rows come in time order, so the prune job walks
-- the oldest ids, and each index costs every request's insert.
