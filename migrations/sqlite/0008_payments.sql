-- Card payments through a payment provider (Stripe): the provider's id of a
-- deposit's payment, the intents the app created, and every webhook event
-- received, stored once by its id.
ALTER TABLE transactions ADD COLUMN provider_ref TEXT;
CREATE UNIQUE INDEX transactions_provider_ref_key ON transactions (provider_ref) WHERE provider_ref IS NOT NULL;

CREATE TABLE payment_intents (
    id              TEXT PRIMARY KEY, -- the provider's id (pi_...), or pi_demo_... in demo mode
    user_id         INTEGER NOT NULL REFERENCES users (id),
    transaction_id  INTEGER REFERENCES transactions (id), -- the deposit it pays, if any
    amount_cents    BIGINT NOT NULL CHECK (amount_cents > 0),
    currency        TEXT NOT NULL,
    description     TEXT NOT NULL DEFAULT '',
    mode            TEXT NOT NULL CHECK (mode IN ('stripe', 'demo')),
    status          TEXT NOT NULL,
    last_error      TEXT NOT NULL DEFAULT '',
    created_at      TIMESTAMP NOT NULL,
    updated_at      TIMESTAMP NOT NULL
);
CREATE INDEX payment_intents_user_id_idx ON payment_intents (user_id);

CREATE TABLE payment_events (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id      TEXT NOT NULL UNIQUE,
    type          TEXT NOT NULL,
    payload       TEXT NOT NULL,
    received_at   TIMESTAMP NOT NULL,
    processed_at  TIMESTAMP
);
