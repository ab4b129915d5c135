-- A random id given to this database once, when it is created (or first
-- migrated to this version). A DNS server's zone snapshot file (a cache in
-- the data directory, see internal/dnsserver/snapfile.go) records it, so
-- that the file is only ever used with the database it was read from.
CREATE TABLE database_identity (
    id   INTEGER PRIMARY KEY CHECK (id = 1),
    uid  TEXT NOT NULL
);
INSERT INTO database_identity (id, uid) VALUES (1, replace(gen_random_uuid()::text, '-', ''));
