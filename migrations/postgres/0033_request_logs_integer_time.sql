-- The request log's time as an integer (microseconds since 1970, UTC), as
-- on SQLite, where formatting, binding and storing a time string was a
-- quarter of each /v1 request's insert: one model for both engines
-- (internal/requestlog).
ALTER TABLE request_logs ADD COLUMN created_us BIGINT;
UPDATE request_logs SET created_us = (extract(epoch FROM created_at) * 1000000)::bigint;
ALTER TABLE request_logs ALTER COLUMN created_us SET NOT NULL;
ALTER TABLE request_logs DROP COLUMN created_at;
