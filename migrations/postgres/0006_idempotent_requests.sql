-- The saved answers of /v1 requests sent with an Idempotency-Key. status 0
-- means the first request is still running (claimed at claimed_at).
CREATE TABLE idempotent_requests (
    user_id       BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    idem_key      TEXT NOT NULL,
    fingerprint   TEXT NOT NULL,
    status        INTEGER NOT NULL DEFAULT 0,
    content_type  TEXT NOT NULL DEFAULT '',
    body          TEXT NOT NULL DEFAULT '',
    claimed_at    TIMESTAMPTZ NOT NULL,
    created_at    TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (user_id, idem_key)
);
CREATE INDEX idempotent_requests_created_at_idx ON idempotent_requests (created_at);
