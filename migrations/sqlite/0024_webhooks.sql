-- A registrar's webhook endpoints (internal/webhook): where events are
-- POSTed, which events (comma-separated names), and the signing secret,
-- sealed (internal/sealer) so that only the server can sign with it. A
-- disabled endpoint gets no new deliveries.
CREATE TABLE webhook_endpoints (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id        INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    url            TEXT NOT NULL,
    events         TEXT NOT NULL,
    secret_sealed  TEXT NOT NULL,
    created_at     TIMESTAMP NOT NULL,
    disabled_at    TIMESTAMP
);
-- Every change that emits an event asks this index (most accounts: no row).
CREATE INDEX webhook_endpoints_user_id_idx ON webhook_endpoints (user_id);

-- One event sent to one endpoint: the exact body every attempt sends (so
-- receivers can dedupe by event_id), and how the attempts went. state is
-- pending (being tried), succeeded or failed (retries exhausted).
CREATE TABLE webhook_deliveries (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    endpoint_id      INTEGER NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    user_id          INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    event_id         TEXT NOT NULL,
    event_type       TEXT NOT NULL,
    payload          TEXT NOT NULL,
    state            TEXT NOT NULL DEFAULT 'pending',
    attempts         INTEGER NOT NULL DEFAULT 0,
    last_status      INTEGER,
    last_latency_ms  INTEGER,
    last_error       TEXT NOT NULL DEFAULT '',
    created_at       TIMESTAMP NOT NULL,
    next_attempt_at  TIMESTAMP,
    delivered_at     TIMESTAMP
);
CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, id);
