-- Bulk operations of registrars (internal/bulk): a job registers, renews,
-- turns auto-renewal on or off for, or applies a DNS template to many
-- names, one row each, in a background job. Rows are worked in position
-- order; each row's effect is made with an idempotency key derived from the
-- job's token and the row's position, so a job run again charges nothing
-- twice. total_cents is the total the client confirmed; charged_cents what
-- the succeeded rows cost.
CREATE TABLE bulk_jobs (
    id              BIGSERIAL PRIMARY KEY,
    user_id         BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind            TEXT NOT NULL,
    state           TEXT NOT NULL,
    token           TEXT NOT NULL,
    years           INTEGER NOT NULL DEFAULT 1,
    auto_renew      BOOLEAN,
    template_id     BIGINT,
    total           INTEGER NOT NULL,
    succeeded       INTEGER NOT NULL DEFAULT 0,
    failed          INTEGER NOT NULL DEFAULT 0,
    total_cents     BIGINT NOT NULL DEFAULT 0,
    charged_cents   BIGINT NOT NULL DEFAULT 0,
    request_key     TEXT,
    request_hash    TEXT NOT NULL DEFAULT '',
    created_at      TIMESTAMPTZ NOT NULL,
    started_at      TIMESTAMPTZ,
    finished_at     TIMESTAMPTZ
);
CREATE INDEX bulk_jobs_user_id_idx ON bulk_jobs (user_id, id);
CREATE UNIQUE INDEX bulk_jobs_request_key ON bulk_jobs (user_id, request_key);

CREATE TABLE bulk_job_rows (
    id              BIGSERIAL PRIMARY KEY,
    job_id          BIGINT NOT NULL REFERENCES bulk_jobs (id) ON DELETE CASCADE,
    position        INTEGER NOT NULL,
    name            TEXT NOT NULL,
    price_cents     BIGINT NOT NULL DEFAULT 0,
    state           TEXT NOT NULL,
    message         TEXT NOT NULL DEFAULT '',
    charged_cents   BIGINT NOT NULL DEFAULT 0,
    finished_at     TIMESTAMPTZ
);
CREATE UNIQUE INDEX bulk_job_rows_position ON bulk_job_rows (job_id, position);

-- A registrar's saved sets of DNS records (record sets as /v1 takes them,
-- as JSON), applied to many domains by a bulk job.
CREATE TABLE dns_templates (
    id          BIGSERIAL PRIMARY KEY,
    user_id     BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name        TEXT NOT NULL,
    records     TEXT NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL,
    updated_at  TIMESTAMPTZ NOT NULL
);
CREATE UNIQUE INDEX dns_templates_user_name ON dns_templates (user_id, name);
