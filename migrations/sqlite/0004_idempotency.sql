-- Idempotency keys: a retried request with the same key returns the result
-- of the first instead of repeating its effect. Kept at least 24 hours.
CREATE TABLE idempotency_keys (
    user_id       INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    idem_key      TEXT NOT NULL,
    operation     TEXT NOT NULL,
    request_hash  TEXT NOT NULL,
    result_id     INTEGER,
    created_at    TIMESTAMP NOT NULL,
    PRIMARY KEY (user_id, idem_key)
);
CREATE INDEX idempotency_keys_created_at_idx ON idempotency_keys (created_at);
CREATE INDEX transactions_domain_id_idx ON transactions (domain_id);
