-- One row per node, rewritten by every /readyz: a database that answers
-- but cannot write (disk full, read-only) is not ready.
CREATE TABLE write_probes (
    node       TEXT PRIMARY KEY,
    probed_at  TIMESTAMPTZ NOT NULL
);
