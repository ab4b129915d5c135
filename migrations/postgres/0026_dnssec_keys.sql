-- DNSSEC signing keys (internal/dnssec), one active key per zone (origin,
-- lower case, fully qualified): a CSK (flags 257) for now. The private key
-- is sealed (internal/sealer) so that only the servers can sign with it;
-- every DNS node loads the same keys. The partial unique index makes the
-- first start race-safe: of two nodes generating a zone's key at once, one
-- insert wins and the other reads the winner's. state is active (signs and
-- is published); rollovers will add others (published, retired).
CREATE TABLE dnssec_keys (
    id              BIGSERIAL PRIMARY KEY,
    zone            TEXT NOT NULL,
    algorithm       INTEGER NOT NULL,
    flags           INTEGER NOT NULL,
    key_tag         INTEGER NOT NULL,
    public_key      TEXT NOT NULL,
    private_sealed  TEXT NOT NULL,
    state           TEXT NOT NULL DEFAULT 'active',
    created_at      TIMESTAMPTZ NOT NULL,
    activated_at    TIMESTAMPTZ
);
CREATE UNIQUE INDEX dnssec_keys_active_zone_idx ON dnssec_keys (zone) WHERE state = 'active';
