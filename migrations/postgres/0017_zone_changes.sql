-- The journal of DNS changes: one row per domain whose served data a
-- change altered (records added, changed or removed; registered, released,
-- expired, restored), numbered by the zone version its transaction bumped,
-- with the zone serial that version produced. An empty name means "every
-- domain" (a change made outside the journal): readers rebuild everything.
-- Versions commit in order (zone_version's row lock is held to commit), so
-- a DNS server that has applied every change up to v applies the rows after
-- v as deltas (see zone.LoadChanges); one that finds a gap, because rows
-- older than a day were pruned, loads every zone again.
CREATE TABLE zone_changes (
    version     BIGINT NOT NULL,
    serial      BIGINT NOT NULL,
    extension   TEXT NOT NULL,
    name        TEXT NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL
);
CREATE INDEX zone_changes_version ON zone_changes (version);
CREATE INDEX zone_changes_created_at ON zone_changes (created_at);
