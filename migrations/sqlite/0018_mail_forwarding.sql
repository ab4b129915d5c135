-- Email forwarding (internal/mailfwd). A domain forwards mail once its
-- owner turns it on (mail_domains); each rule sends one alias ("*" is the
-- catch-all) to one or more destinations; a destination is an address its
-- owner proved they read (the link mailed to it), per account.
CREATE TABLE mail_domains (
    domain_id   INTEGER PRIMARY KEY REFERENCES domains (id) ON DELETE CASCADE,
    created_at  TIMESTAMP NOT NULL
);

CREATE TABLE mail_destinations (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    address      TEXT NOT NULL,
    token_hash   TEXT NOT NULL,
    verified_at  TIMESTAMP,
    sent_at      TIMESTAMP NOT NULL,
    created_at   TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX mail_destinations_user_address ON mail_destinations (user_id, address);
CREATE UNIQUE INDEX mail_destinations_token ON mail_destinations (token_hash);

CREATE TABLE mail_rules (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    domain_id   INTEGER NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
    alias       TEXT NOT NULL,
    created_at  TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX mail_rules_domain_alias ON mail_rules (domain_id, alias);

CREATE TABLE mail_rule_destinations (
    rule_id         INTEGER NOT NULL REFERENCES mail_rules (id) ON DELETE CASCADE,
    destination_id  INTEGER NOT NULL REFERENCES mail_destinations (id) ON DELETE CASCADE,
    PRIMARY KEY (rule_id, destination_id)
);

-- Messages accepted and waiting to be forwarded: one row per message, kept
-- until every delivery job of it has finished. A bounce that comes back to
-- a rewritten (SRS) sender belongs to no domain.
CREATE TABLE mail_messages (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    domain_id   INTEGER REFERENCES domains (id) ON DELETE CASCADE,
    mail_from   TEXT NOT NULL,
    data        BLOB NOT NULL,
    pending     INTEGER NOT NULL,
    created_at  TIMESTAMP NOT NULL
);

-- What became of each message and recipient, the last ones per domain kept
-- for the owner to read.
CREATE TABLE mail_log (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    domain_id   INTEGER NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
    mail_from   TEXT NOT NULL,
    rcpt_to     TEXT NOT NULL,
    forward_to  TEXT NOT NULL,
    size        BIGINT NOT NULL,
    outcome     TEXT NOT NULL,
    detail      TEXT NOT NULL,
    created_at  TIMESTAMP NOT NULL
);
CREATE INDEX mail_log_domain ON mail_log (domain_id, id);
