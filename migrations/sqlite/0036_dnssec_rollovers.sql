-- DNSSEC key rollovers (internal/dnssec/rollover.go): a zone may now have
-- a KSK (flags 257) and a ZSK (256) active at once, and a key published
-- ahead of a rollover; one of each role and state at a time, which also
-- makes two workers taking the same step at once harmless. A retired key
-- stays published until removed; removed keys are kept for the record.
ALTER TABLE dnssec_keys ADD COLUMN retired_at TIMESTAMP;
ALTER TABLE dnssec_keys ADD COLUMN removed_at TIMESTAMP;
DROP INDEX dnssec_keys_active_zone_idx;
CREATE UNIQUE INDEX dnssec_keys_active_role_idx ON dnssec_keys (zone, flags) WHERE state = 'active';
CREATE UNIQUE INDEX dnssec_keys_published_role_idx ON dnssec_keys (zone, flags) WHERE state = 'published';
