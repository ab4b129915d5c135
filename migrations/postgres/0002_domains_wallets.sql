-- Registered domains and the prepaid wallet ledger. Money is integer cents.
CREATE TABLE domains (
    id             BIGSERIAL PRIMARY KEY,
    user_id        BIGINT NOT NULL REFERENCES users (id),
    name           TEXT NOT NULL,
    extension      TEXT NOT NULL,
    is_premium     BOOLEAN NOT NULL DEFAULT FALSE,
    price_cents    BIGINT NOT NULL CHECK (price_cents >= 0),
    auto_renew     BOOLEAN NOT NULL DEFAULT TRUE,
    registered_at  TIMESTAMPTZ NOT NULL,
    expires_at     TIMESTAMPTZ NOT NULL,
    created_at     TIMESTAMPTZ NOT NULL,
    updated_at     TIMESTAMPTZ NOT NULL
);
-- A name is registered once per extension: the race-free guard of registration.
CREATE UNIQUE INDEX domains_name_extension_key ON domains (name, extension);
CREATE INDEX domains_user_id_idx ON domains (user_id);

CREATE TABLE wallets (
    user_id        BIGINT PRIMARY KEY REFERENCES users (id),
    balance_cents  BIGINT NOT NULL DEFAULT 0 CHECK (balance_cents >= 0),
    currency       TEXT NOT NULL DEFAULT 'USD',
    updated_at     TIMESTAMPTZ NOT NULL
);

CREATE TABLE transactions (
    id              BIGSERIAL PRIMARY KEY,
    user_id         BIGINT NOT NULL REFERENCES users (id),
    type            TEXT NOT NULL CHECK (type IN ('deposit', 'withdrawal', 'domain_purchase', 'domain_renewal')),
    amount_cents    BIGINT NOT NULL,
    status          TEXT NOT NULL CHECK (status IN ('pending', 'completed', 'failed')),
    payment_method  TEXT NOT NULL DEFAULT '',
    description     TEXT NOT NULL DEFAULT '',
    domain_id       BIGINT REFERENCES domains (id),
    created_at      TIMESTAMPTZ NOT NULL
);
CREATE INDEX transactions_user_id_idx ON transactions (user_id, created_at);
