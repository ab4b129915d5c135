-- Outgoing mail and password reset tokens.

-- Every message the notification worker renders, whether it went out by
-- SMTP ("sent"), could not ("failed"; River retries and the row is updated),
-- or only logged because no SMTP server is configured ("logged"). One row per
-- job: retries update it.
CREATE TABLE mail_outbox (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    job_id       INTEGER NOT NULL,
    user_id      INTEGER REFERENCES users (id) ON DELETE SET NULL,
    to_address   TEXT NOT NULL,
    kind         TEXT NOT NULL,
    subject      TEXT NOT NULL,
    body         TEXT NOT NULL,
    status       TEXT NOT NULL CHECK (status IN ('logged', 'sent', 'failed')),
    error        TEXT NOT NULL DEFAULT '',
    created_at   TIMESTAMP NOT NULL,
    sent_at      TIMESTAMP
);
CREATE UNIQUE INDEX mail_outbox_job_id_key ON mail_outbox (job_id);
CREATE INDEX mail_outbox_user_id_idx ON mail_outbox (user_id);

-- Single-use password reset tokens; only a SHA-256 of the token is stored.
CREATE TABLE password_resets (
    token_hash   TEXT PRIMARY KEY,
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    expires_at   TIMESTAMP NOT NULL,
    used_at      TIMESTAMP,
    created_at   TIMESTAMP NOT NULL
);
CREATE INDEX password_resets_user_id_idx ON password_resets (user_id);
CREATE INDEX password_resets_expires_at_idx ON password_resets (expires_at);
