-- Domain forwarding (internal/domainfwd). A rule sends every request for
-- one host name of a domain (host "@" is the domain itself) to a target
-- URL; the host's A/AAAA records point at the forwarding servers while the
-- rule exists. The certificate columns are what the Domain Forwarding tab
-- shows of the host's HTTPS certificate: pending, issued (until
-- cert_not_after) or failed (cert_error holds the CA's message).
CREATE TABLE forward_rules (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    domain_id        INTEGER NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
    host             TEXT NOT NULL,
    name             TEXT NOT NULL,
    target           TEXT NOT NULL,
    status           INTEGER NOT NULL CHECK (status IN (301, 302, 307, 308)),
    keep_path        BOOLEAN NOT NULL,
    keep_query       BOOLEAN NOT NULL,
    cert_state       TEXT NOT NULL DEFAULT 'pending',
    cert_not_after   TIMESTAMP,
    cert_error       TEXT NOT NULL DEFAULT '',
    cert_updated_at  TIMESTAMP,
    created_at       TIMESTAMP NOT NULL,
    updated_at       TIMESTAMP NOT NULL
);
-- A host name forwards from one rule; the name is also what requests and
-- certificates are looked up by.
CREATE UNIQUE INDEX forward_rules_name ON forward_rules (name);
CREATE INDEX forward_rules_domain ON forward_rules (domain_id);

-- Certificates, private keys and ACME accounts (certmagic's storage), shared
-- by every node that terminates TLS; values are sealed with the server
-- secret. Keys are slash-separated paths ("certificates/CA/NAME/NAME.crt").
CREATE TABLE acme_storage (
    key          TEXT PRIMARY KEY,
    value        TEXT NOT NULL,
    modified_at  TIMESTAMP NOT NULL
);

-- Locks that keep two nodes from obtaining or renewing one certificate at
-- once. A lock is held while its holder refreshes expires_at; one whose
-- holder died is taken over once it has expired.
CREATE TABLE acme_locks (
    name        TEXT PRIMARY KEY,
    token       TEXT NOT NULL,
    expires_at  TIMESTAMP NOT NULL
);
