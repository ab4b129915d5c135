-- TSIG keys that sign RFC 2136 dynamic updates of one domain
-- (internal/updatekey). The key's DNS name is name + "." + the domain's
-- name, so key names never collide between domains. The secret is sealed
-- (internal/sealer): the DNS servers need it to verify signatures. names and
-- types are the key's scope, space-separated (relative names, "@" for the
-- apex; record types); empty means the whole domain / every type. Revoking
-- deletes the row; a domain's release deletes its keys.
CREATE TABLE dns_update_keys (
    id             BIGSERIAL PRIMARY KEY,
    domain_id      BIGINT NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
    name           TEXT NOT NULL,
    algorithm      TEXT NOT NULL,
    secret_sealed  TEXT NOT NULL,
    names          TEXT NOT NULL DEFAULT '',
    types          TEXT NOT NULL DEFAULT '',
    created_at     TIMESTAMPTZ NOT NULL,
    last_used_at   TIMESTAMPTZ
);
CREATE UNIQUE INDEX dns_update_keys_domain_name_idx ON dns_update_keys (domain_id, name);
