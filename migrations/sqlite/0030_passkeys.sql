-- Account security, second part (issue 23): passkeys (WebAuthn), the
-- browsers an account has signed in from, and the two-factor rule for
-- admins made from now on.

-- An account's passkeys. credential_id is the authenticator's id of the
-- credential (base64url), unique across accounts: a discoverable sign-in
-- finds the account by it. credential holds the rest of the library's
-- record (public key, flags, authenticator data) as JSON; sign_count is
-- kept apart because every sign-in moves it.
CREATE TABLE passkeys (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id        INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    credential_id  TEXT NOT NULL,
    name           TEXT NOT NULL,
    credential     TEXT NOT NULL,
    sign_count     BIGINT NOT NULL DEFAULT 0,
    created_at     TIMESTAMP NOT NULL,
    last_used_at   TIMESTAMP
);
CREATE UNIQUE INDEX passkeys_credential_id_key ON passkeys (credential_id);
CREATE INDEX passkeys_user_id_idx ON passkeys (user_id);

-- A WebAuthn ceremony between its options and the browser's answer: the
-- challenge and what the library needs to check the answer, found by the
-- hash of a token the browser holds. A row is taken (deleted) by the
-- answer that uses it, so a challenge is good once; expires_at bounds it.
-- user_id is the account a registration or a second factor is for; NULL
-- for a sign-in with a passkey alone, whose account the passkey names.
CREATE TABLE webauthn_ceremonies (
    token_hash  TEXT PRIMARY KEY,
    kind        TEXT NOT NULL CHECK (kind IN ('register', 'login', 'second_factor')),
    user_id     INTEGER REFERENCES users (id) ON DELETE CASCADE,
    session     TEXT NOT NULL,
    created_at  TIMESTAMP NOT NULL,
    expires_at  TIMESTAMP NOT NULL
);
CREATE INDEX webauthn_ceremonies_expires_at_idx ON webauthn_ceremonies (expires_at);

-- Browsers an account has signed in from: a keyed hash of a long-lived
-- random cookie, per account. A sign-in from a browser not listed here
-- mails a notice.
CREATE TABLE known_devices (
    user_id       INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    device_hash   TEXT NOT NULL,
    created_at    TIMESTAMP NOT NULL,
    last_seen_at  TIMESTAMP NOT NULL,
    PRIMARY KEY (user_id, device_hash)
);

-- Admins made from now on must set up a second factor before admin
-- operations; those from before are asked (a banner), not held.
ALTER TABLE users ADD COLUMN two_factor_required BOOLEAN NOT NULL DEFAULT FALSE;
