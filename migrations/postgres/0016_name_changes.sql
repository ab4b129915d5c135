-- The journal of registered names: one row per name registered or
-- released, numbered by the zone version its transaction bumped. Versions
-- are handed out under zone_version's row lock, held to commit, so they
-- commit in order: an API process that has applied every change up to v
-- only needs the rows after v (see registration.Names). Rows older than an
-- hour are pruned by the lifecycle scan; a process further behind reloads
-- every name.
CREATE TABLE name_changes (
    version     BIGINT NOT NULL,
    name        TEXT NOT NULL,
    extension   TEXT NOT NULL,
    registered  BOOLEAN NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL
);
CREATE INDEX name_changes_version ON name_changes (version);
CREATE INDEX name_changes_created_at ON name_changes (created_at);
