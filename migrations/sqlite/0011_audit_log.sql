-- Every change an admin makes, with the object before and after it (JSON
-- text), newest first by id. And indexes for the admin statistics, which
-- aggregate domains and transactions by day and by extension from the
-- indexes alone (covering indexes).
CREATE TABLE audit_log (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    actor_id     INTEGER REFERENCES users (id) ON DELETE SET NULL,
    action       TEXT NOT NULL,
    target_type  TEXT NOT NULL,
    target_id    TEXT NOT NULL DEFAULT '',
    before       TEXT,
    after        TEXT,
    created_at   TIMESTAMP NOT NULL
);
CREATE INDEX audit_log_target_idx ON audit_log (target_type, target_id);

CREATE INDEX domains_registered_at_idx ON domains (registered_at);
CREATE INDEX domains_extension_idx ON domains (extension, is_premium, price_cents);
CREATE INDEX transactions_type_created_at_idx ON transactions (type, created_at, status, amount_cents);
