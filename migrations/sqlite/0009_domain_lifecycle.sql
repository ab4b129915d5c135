-- Lifecycle notices already sent for a domain's term (its expiry), so that
-- each expiry warning, expiry notice and renewal failure of a day goes out
-- once however often the scan runs.
CREATE TABLE domain_notices (
    domain_id   INTEGER NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
    expires_at  TIMESTAMP NOT NULL,
    notice      TEXT NOT NULL,
    created_at  TIMESTAMP NOT NULL,
    PRIMARY KEY (domain_id, expires_at, notice)
);
CREATE INDEX domains_expires_at_idx ON domains (expires_at);
