-- The throttle of password guesses and sign-ups: one row per key (an
-- account, a client network, or the pair), the attempts of its current
-- streak (reserved before the password hash runs, given back on success),
-- when the last one was counted, and until when the next is refused.
CREATE TABLE auth_throttle (
    throttle_key   TEXT PRIMARY KEY,
    attempts       INTEGER NOT NULL,
    last_at        TIMESTAMPTZ NOT NULL,
    blocked_until  TIMESTAMPTZ NOT NULL
);
CREATE INDEX auth_throttle_last_at_idx ON auth_throttle (last_at);
