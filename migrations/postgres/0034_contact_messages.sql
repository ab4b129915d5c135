-- Contact requests from the landing page's form and contact messages
-- (internal/contact), kept for admins to read and answer in the Inbox tab.
-- kind 'request' is the landing form's (name is the company, topic the
-- interest, message optional); kind 'message' is the spec's contact
-- message (name, topic the optional subject, message). status moves from
-- new to read (an admin opened it) to answered (an admin replied: reply,
-- answered_at and answered_by say what, when and who).
CREATE TABLE contact_messages (
    id           BIGSERIAL PRIMARY KEY,
    kind         TEXT NOT NULL CHECK (kind IN ('request', 'message')),
    name         TEXT NOT NULL,
    email        TEXT NOT NULL,
    topic        TEXT NOT NULL DEFAULT '',
    message      TEXT NOT NULL DEFAULT '',
    status       TEXT NOT NULL DEFAULT 'new' CHECK (status IN ('new', 'read', 'answered')),
    reply        TEXT NOT NULL DEFAULT '',
    answered_by  BIGINT REFERENCES users (id) ON DELETE SET NULL,
    answered_at  TIMESTAMPTZ,
    created_at   TIMESTAMPTZ NOT NULL
);
CREATE INDEX contact_messages_status_idx ON contact_messages (status, id);
