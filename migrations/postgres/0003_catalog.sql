-- The catalog: extensions with their configuration and length-based prices,
-- and premium names. Money is integer cents; lists are JSON text.
CREATE TABLE extensions (
    id                          BIGSERIAL PRIMARY KEY,
    extension                   TEXT NOT NULL,
    base_price_cents            BIGINT NOT NULL CHECK (base_price_cents >= 0),
    description                 TEXT NOT NULL,
    active                      BOOLEAN NOT NULL,
    min_name_length             INTEGER NOT NULL CHECK (min_name_length BETWEEN 1 AND 63),
    max_name_length             INTEGER NOT NULL CHECK (max_name_length BETWEEN 1 AND 63),
    allowed_characters          TEXT NOT NULL,
    renewal_price_cents         BIGINT CHECK (renewal_price_cents >= 0),
    renewal_period_days         INTEGER NOT NULL CHECK (renewal_period_days >= 30),
    grace_period_days           INTEGER NOT NULL CHECK (grace_period_days >= 0),
    dns_nameservers             TEXT NOT NULL,
    dns_provider                TEXT NOT NULL,
    dns_api_key_sealed          TEXT NOT NULL,
    dns_api_secret_sealed       TEXT NOT NULL,
    dns_zone_id                 TEXT NOT NULL,
    requires_verification       BOOLEAN NOT NULL,
    verification_documents      TEXT NOT NULL,
    verification_instructions   TEXT NOT NULL,
    admin_email                 TEXT NOT NULL,
    technical_email             TEXT NOT NULL,
    billing_email               TEXT NOT NULL,
    whois_privacy_enabled       BOOLEAN NOT NULL,
    allows_subdomains           BOOLEAN NOT NULL,
    allows_dns_management       BOOLEAN NOT NULL,
    allows_email_forwarding     BOOLEAN NOT NULL,
    created_at                  TIMESTAMPTZ NOT NULL,
    updated_at                  TIMESTAMPTZ NOT NULL
);
CREATE UNIQUE INDEX extensions_extension_key ON extensions (extension);

CREATE TABLE length_rules (
    id                      BIGSERIAL PRIMARY KEY,
    extension_id            BIGINT NOT NULL REFERENCES extensions (id) ON DELETE CASCADE,
    min_length              INTEGER NOT NULL CHECK (min_length BETWEEN 1 AND 63),
    max_length              INTEGER NOT NULL CHECK (max_length BETWEEN 1 AND 63),
    price_cents             BIGINT NOT NULL CHECK (price_cents > 0),
    registrar_price_cents   BIGINT CHECK (registrar_price_cents >= 100),
    is_promotion            BOOLEAN NOT NULL,
    promotion_label         TEXT NOT NULL,
    promotion_start         TIMESTAMPTZ,
    promotion_end           TIMESTAMPTZ,
    CHECK (min_length <= max_length)
);
CREATE INDEX length_rules_extension_id_idx ON length_rules (extension_id);

CREATE TABLE premium_domains (
    id                      BIGSERIAL PRIMARY KEY,
    name                    TEXT NOT NULL,
    extension               TEXT NOT NULL,
    price_cents             BIGINT NOT NULL CHECK (price_cents >= 1000),
    is_available            BOOLEAN NOT NULL,
    discount_percentage     INTEGER NOT NULL CHECK (discount_percentage BETWEEN 0 AND 100),
    discount_valid_until    TIMESTAMPTZ,
    featured                BOOLEAN NOT NULL,
    description             TEXT NOT NULL,
    category                TEXT NOT NULL,
    keywords                TEXT NOT NULL,
    created_at              TIMESTAMPTZ NOT NULL,
    updated_at              TIMESTAMPTZ NOT NULL
);
CREATE UNIQUE INDEX premium_domains_name_extension_key ON premium_domains (name, extension);

-- Bumped by every catalog change, so other nodes know to reload theirs.
CREATE TABLE catalog_version (
    id       INTEGER PRIMARY KEY CHECK (id = 1),
    version  BIGINT NOT NULL
);
INSERT INTO catalog_version (id, version) VALUES (1, 0);
