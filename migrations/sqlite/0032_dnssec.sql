-- Per-extension DNSSEC switch (admin Advanced Config, DNS tab): when false
-- the extension's zone is served unsigned (no DNSKEY, no RRSIG) even with
-- --dnssec on. Changing it bumps catalog_version, as any extension edit
-- does, so that every DNS node rebuilds the zone's apex.
ALTER TABLE extensions ADD COLUMN dnssec_enabled BOOLEAN NOT NULL DEFAULT TRUE;
