-- DNS records of registered domains, stored relative to their domain ("@",
-- "www", "*"), and the counter that tells DNS servers to reload.
CREATE TABLE dns_records (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    domain_id   INTEGER NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
    name        TEXT NOT NULL,
    type        TEXT NOT NULL,
    content     TEXT NOT NULL,
    ttl         INTEGER NOT NULL CHECK (ttl > 0),
    priority    INTEGER CHECK (priority BETWEEN 0 AND 65535),
    created_at  TIMESTAMP NOT NULL,
    updated_at  TIMESTAMP NOT NULL
);
CREATE INDEX dns_records_domain_id_idx ON dns_records (domain_id, name);

-- Bumped in the same transaction as every change to what DNS serves. serial
-- is the zones' SOA serial (plus catalog_version): unix seconds of the last
-- change, or one more than before when changes come faster. expired_through
-- (unix microseconds) is how far domain expiries have been counted as changes.
CREATE TABLE zone_version (
    id               INTEGER PRIMARY KEY CHECK (id = 1),
    version          BIGINT NOT NULL,
    serial           BIGINT NOT NULL,
    expired_through  BIGINT NOT NULL
);
INSERT INTO zone_version (id, version, serial, expired_through)
VALUES (1, 0, CAST(strftime('%s', 'now') AS INTEGER), 0);
