-- The request log without its foreign keys and without AUTOINCREMENT:
-- every /v1 request pays for its row's insert (internal/requestlog), and on
-- SQLite the two key checks and the sqlite_sequence bookkeeping were a
-- fifth of it. Nothing is lost: users and API keys are never deleted (keys
-- are revoked), and ids still grow with each insert (one more than the
-- largest), which is all that paging and pruning need.
CREATE TABLE request_logs_new (
    id               INTEGER PRIMARY KEY,
    created_at       TIMESTAMP NOT NULL,
    user_id          INTEGER NOT NULL,
    key_id           INTEGER NOT NULL,
    method           TEXT NOT NULL,
    path             TEXT NOT NULL,
    status           INTEGER NOT NULL,
    latency_us       INTEGER NOT NULL,
    idempotency_key  TEXT NOT NULL DEFAULT '',
    request_id       TEXT NOT NULL DEFAULT ''
);
INSERT INTO request_logs_new (id, created_at, user_id, key_id, method, path, status, latency_us, idempotency_key, request_id)
    SELECT id, created_at, user_id, key_id, method, path, status, latency_us, idempotency_key, request_id FROM request_logs;
DROP TABLE request_logs;
ALTER TABLE request_logs_new RENAME TO request_logs;
-- An account's log, newest first (every query is one account's).
CREATE INDEX request_logs_user_id_idx ON request_logs (user_id, id);
