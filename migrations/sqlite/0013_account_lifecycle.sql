-- Registrar tier applications: sign-up gives every registrar the basic tier;
-- premium and enterprise are applied for and granted by an admin. At most
-- one application per account is pending.
CREATE TABLE tier_applications (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id         INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    requested_tier  TEXT NOT NULL CHECK (requested_tier IN ('premium', 'enterprise')),
    status          TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'declined')),
    reason          TEXT NOT NULL DEFAULT '',
    decided_by      INTEGER REFERENCES users (id) ON DELETE SET NULL,
    decided_at      TIMESTAMP,
    created_at      TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX tier_applications_pending_key ON tier_applications (user_id) WHERE status = 'pending';
CREATE INDEX tier_applications_status_idx ON tier_applications (status, id);

-- Email verification: an account whose address is not verified can sign in
-- but neither register names nor add funds. Accounts that exist already are
-- verified (they were made before the rule). A verification link's token is
-- stored hashed, like a password reset's.
ALTER TABLE users ADD COLUMN email_verified_at TIMESTAMP;
UPDATE users SET email_verified_at = created_at;

CREATE TABLE email_verifications (
    token_hash   TEXT PRIMARY KEY,
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    expires_at   TIMESTAMP NOT NULL,
    used_at      TIMESTAMP,
    created_at   TIMESTAMP NOT NULL
);
CREATE INDEX email_verifications_user_id_idx ON email_verifications (user_id);
CREATE INDEX email_verifications_expires_at_idx ON email_verifications (expires_at);

-- Reset links used to sit in the mail jobs' arguments (a reader of the
-- database could take over accounts): remove them from the jobs River
-- still keeps, and use up every reset token issued before, so none of the
-- links that were exposed works.
UPDATE river_job SET args = jsonb_remove(args, '$.data.link')
WHERE kind = 'notify.send' AND json_extract(args, '$.data.link') IS NOT NULL;
UPDATE password_resets SET used_at = expires_at WHERE used_at IS NULL;
