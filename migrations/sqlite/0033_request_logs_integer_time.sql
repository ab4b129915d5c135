-- The request log's time as an integer (microseconds since 1970, UTC)
-- rather than text: every /v1 request pays for its row's insert
-- (internal/requestlog), and formatting, binding and storing a 32-byte
-- time string was a quarter of it. Rows written before this keep their
-- time to the millisecond.
CREATE TABLE request_logs_new (
    id               INTEGER PRIMARY KEY,
    created_us       INTEGER NOT NULL,
    user_id          INTEGER NOT NULL,
    key_id           INTEGER NOT NULL,
    method           TEXT NOT NULL,
    path             TEXT NOT NULL,
    status           INTEGER NOT NULL,
    latency_us       INTEGER NOT NULL,
    idempotency_key  TEXT NOT NULL DEFAULT '',
    request_id       TEXT NOT NULL DEFAULT ''
);
INSERT INTO request_logs_new (id, created_us, user_id, key_id, method, path, status, latency_us, idempotency_key, request_id)
    SELECT id, CAST(ROUND((julianday(created_at) - 2440587.5) * 86400000.0) AS INTEGER) * 1000,
           user_id, key_id, method, path, status, latency_us, idempotency_key, request_id FROM request_logs;
DROP TABLE request_logs;
ALTER TABLE request_logs_new RENAME TO request_logs;
-- An account's log, newest first (every query is one account's).
CREATE INDEX request_logs_user_id_idx ON request_logs (user_id, id);
