-- Site settings: branding, contact, social and SEO values the site shows, and
-- the payment gateways (the payment_gateways setting, whose secrets are
-- sealed inside its JSON value).
CREATE TABLE site_settings (
    id           BIGSERIAL PRIMARY KEY,
    key          TEXT NOT NULL,
    value        TEXT NOT NULL,
    category     TEXT NOT NULL CHECK (category IN ('branding', 'contact', 'social', 'seo', 'general', 'payment')),
    description  TEXT NOT NULL DEFAULT '',
    is_public    BOOLEAN NOT NULL DEFAULT TRUE,
    created_at   TIMESTAMPTZ NOT NULL,
    updated_at   TIMESTAMPTZ NOT NULL
);
CREATE UNIQUE INDEX site_settings_key_key ON site_settings (key);
