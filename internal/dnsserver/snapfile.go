package dnsserver

// The snapshot file: a cache of the zones in the data directory, so that
// the DNS role starts without reading every record from the database.
//
// Why: at 100,000 domains (500,000 records) a start spent about half its
// time stepping and scanning SQLite rows, and most of the rest collecting
// their garbage; the same data decodes from a compact file several times
// faster. The file holds exactly what zone.Stream gives (the head, then
// each domain with its records in stored form), so the snapshot is built
// from it by the same builder as from the database. Before the server
// answers, the change journal brings it up to date, as a running server
// follows changes (Server.catchUp); so it never answers with data older
// than the database at the time it became ready. When the file cannot be
// used, for any reason, the server loads everything from the database, as
// without a file, and writes the file afresh. Deleting it is always safe.
//
// Format (every integer a varint, every string its length then its bytes):
//
//	magic "NPDNSZS\n", format version
//	database identity (databaseIdentity)
//	zone version, catalog version, serial, next expiry (seconds, nanoseconds; 0 0: none)
//	zone count, then each zone: origin, name server count, name servers,
//	    flags (1: unsigned, DNSSEC off)
//	each domain: its zone's index + 1, id, name, record count, then each
//	    record: id, name, type, content, TTL, priority + 1 (0: none)
//	0 (the end)
//	CRC-32 (Castagnoli) of all the above, 4 bytes big-endian
//
// Not gob or JSON: decoding speed is the point, and a varint walk over one
// buffer allocates only the strings and slices the snapshot keeps.

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/zone"
)

// SnapshotFileName is the snapshot file's name in the data directory.
const SnapshotFileName = "dns-zones.snap"

// WithSnapshotFile keeps a cache of the zones in the file at path
// (<data-dir>/dns-zones.snap): the first Reload starts from it when it is
// usable, and brings it up to date from the change journal before the
// server answers; every full load from the database writes it again, and
// so does Watch now and then (snapshotFileRefresh). Without this option
// the server reads the database only.
func WithSnapshotFile(path string) Option {
	return func(o *options) { o.snapshotFile = path }
}

const (
	snapshotMagic  = "NPDNSZS\n"
	snapshotFormat = 2 // bump on any change to the layout: older files are then ignored

	// snapshotFileRefresh is how old the file may get, once the zones
	// have moved on from it, before Watch writes it again. Each refresh
	// reads every zone from the database (about a second at 100,000
	// domains, holding on SQLite the process's one connection, so the API
	// and the DNS poll wait meanwhile), so not often; while a start from a
	// file an hour old catches up on an hour of changes, a short read of
	// the journal (it reads at most 20,000 domains one by one before it
	// loads everything) and far inside the day the journal keeps.
	snapshotFileRefresh = time.Hour
)

var snapshotCRC = crc32.MakeTable(crc32.Castagnoli) // hardware-accelerated on amd64 and arm64

// snapshotFile is the server's snapshot file: at most one write under way
// at a time, and what the file last written (or read at start) holds.
type snapshotFile struct {
	path string

	mu       sync.Mutex
	writing  bool
	closed   bool          // Shutdown: no more writes
	versions zone.Versions // of the file's zones
	tried    time.Time     // when it was last written, or a write failed
	writes   sync.WaitGroup
}

// claim reserves the file for one write, which must end with release;
// false when a write is under way or the server is shutting down.
func (f *snapshotFile) claim() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.writing || f.closed {
		return false
	}
	f.writing = true
	f.writes.Add(1) // under mu: never after close has begun its Wait
	return true
}

// claimIfStale is claim, only when the zones (at versions) have moved on
// from the file and it has not been written for snapshotFileRefresh.
func (f *snapshotFile) claimIfStale(versions zone.Versions, now time.Time) bool {
	f.mu.Lock()
	stale := versions != f.versions && now.Sub(f.tried) >= snapshotFileRefresh
	f.mu.Unlock()
	return stale && f.claim()
}

// release ends a write: written, when it succeeded, holds the versions of
// the zones written. A failed write counts as tried too, so that a
// directory that cannot be written is not tried again at every poll.
func (f *snapshotFile) release(written *zone.Versions) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if written != nil {
		f.versions = *written
	}
	f.tried = time.Now()
	f.writing = false
	f.writes.Done()
}

// note records what the file read at start holds and when it was written.
func (f *snapshotFile) note(versions zone.Versions, written time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.versions, f.tried = versions, written
}

// close refuses further writes and waits for the one under way, if any,
// until ctx ends.
func (f *snapshotFile) close(ctx context.Context) error {
	f.mu.Lock()
	f.closed = true
	f.mu.Unlock()
	done := make(chan struct{})
	go func() { f.writes.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// databaseIdentity names the database d: its random id (the
// database_identity migration) and its last migration. A file made from
// another database, or before a migration (which may have rewritten
// records without going through the journal), is not used.
func databaseIdentity(ctx context.Context, d *db.DB) (string, error) {
	var id, migration string
	err := d.Bun.QueryRowContext(ctx, `SELECT (SELECT uid FROM database_identity WHERE id = 1),
		(SELECT max(version) FROM schema_migrations)`).Scan(&id, &migration)
	if err != nil {
		return "", fmt.Errorf("dnsserver: read database identity: %w", err)
	}
	return id + "/" + migration, nil
}

// snapshotEncoder encodes the snapshot file as a source gives its zones
// (start, then domain for each), in memory: written out once complete
// (writeSnapshotFile).
type snapshotEncoder struct {
	identity string
	buf      []byte
	head     *zone.SnapshotData
	zones    map[string]uint64 // a zone's index + 1, by origin
}

func (e *snapshotEncoder) start(head *zone.SnapshotData) {
	e.head = head
	e.buf = make([]byte, 0, 1<<20)
	e.buf = append(e.buf, snapshotMagic...)
	e.uvarint(snapshotFormat)
	e.string(e.identity)
	e.varint(head.Versions.Zone)
	e.varint(head.Versions.Catalog)
	e.uvarint(uint64(head.Serial))
	if head.NextExpiry.IsZero() {
		e.varint(0)
		e.uvarint(0)
	} else {
		e.varint(head.NextExpiry.Unix())
		e.uvarint(uint64(head.NextExpiry.Nanosecond()) + 1)
	}
	e.uvarint(uint64(len(head.Zones)))
	e.zones = make(map[string]uint64, len(head.Zones))
	for i, z := range head.Zones {
		e.string(z.Origin)
		e.uvarint(uint64(len(z.Nameservers)))
		for _, ns := range z.Nameservers {
			e.string(ns)
		}
		var flags uint64
		if z.Unsigned {
			flags |= 1
		}
		e.uvarint(flags)
		e.zones[z.Origin] = uint64(i) + 1
	}
}

func (e *snapshotEncoder) domain(origin string, d zone.DomainData) {
	index := e.zones[origin]
	if index == 0 {
		return // not a zone of the head: the builder leaves it out too
	}
	e.uvarint(index)
	e.varint(d.ID)
	e.string(d.Name)
	e.uvarint(uint64(len(d.Records)))
	for _, r := range d.Records {
		e.varint(r.ID)
		e.string(r.Name)
		e.string(r.Type)
		e.string(r.Content)
		e.varint(int64(r.TTL))
		if r.Priority == nil {
			e.uvarint(0)
		} else {
			e.uvarint(uint64(*r.Priority) + 1)
		}
	}
}

// finish ends the file and returns it whole.
func (e *snapshotEncoder) finish() []byte {
	e.uvarint(0)
	return binary.BigEndian.AppendUint32(e.buf, crc32.Checksum(e.buf, snapshotCRC))
}

func (e *snapshotEncoder) uvarint(v uint64) { e.buf = binary.AppendUvarint(e.buf, v) }
func (e *snapshotEncoder) varint(v int64)   { e.buf = binary.AppendVarint(e.buf, v) }
func (e *snapshotEncoder) string(s string) {
	e.uvarint(uint64(len(s)))
	e.buf = append(e.buf, s...)
}

// writeSnapshotFile replaces the file at path with data atomically: a
// reader (the next start) finds the old file or the new one, whole, even
// after a crash.
func writeSnapshotFile(path string, data []byte) (err error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("dnsserver: snapshot file: %w", err)
	}
	// One name, not a random one: a crash mid-write leaves at most one
	// stray file, which the next write replaces.
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return fmt.Errorf("dnsserver: snapshot file: %w", err)
	}
	defer func() {
		if err != nil {
			os.Remove(tmp)
		}
	}()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync() // the data reaches the disk before the rename makes it the file
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		return fmt.Errorf("dnsserver: snapshot file: %w", err)
	}
	// And the rename itself (best effort: some systems cannot sync a
	// folder, and the file is only a cache).
	if dir, err := os.Open(filepath.Dir(path)); err == nil {
		_ = dir.Sync()
		dir.Close()
	}
	return nil
}

var errCorruptSnapshot = errors.New("dnsserver: snapshot file is corrupt")

// snapshotFileData is a snapshot file read and checked, its head decoded;
// source decodes its domains.
type snapshotFileData struct {
	identity string
	head     *zone.SnapshotData
	body     snapshotDecoder // the domains
}

// parseSnapshotFile checks data (a whole snapshot file: magic, format,
// checksum) and decodes its head.
func parseSnapshotFile(data []byte) (*snapshotFileData, error) {
	if len(data) < len(snapshotMagic)+4 || string(data[:len(snapshotMagic)]) != snapshotMagic {
		return nil, errors.New("dnsserver: not a snapshot file")
	}
	body, sum := data[:len(data)-4], binary.BigEndian.Uint32(data[len(data)-4:])
	if crc32.Checksum(body, snapshotCRC) != sum {
		return nil, fmt.Errorf("%w: checksum mismatch", errCorruptSnapshot)
	}
	dec := snapshotDecoder{buf: body[len(snapshotMagic):]}
	if v := dec.uvarint(); dec.err == nil && v != snapshotFormat {
		return nil, fmt.Errorf("dnsserver: snapshot file format %d, not %d", v, snapshotFormat)
	}
	f := &snapshotFileData{identity: string(dec.bytes()), head: &zone.SnapshotData{}}
	f.head.Versions.Zone = dec.varint()
	f.head.Versions.Catalog = dec.varint()
	f.head.Serial = uint32(dec.uvarint())
	if sec, nsec := dec.varint(), dec.uvarint(); nsec > 0 {
		f.head.NextExpiry = time.Unix(sec, int64(nsec-1)).UTC()
	}
	f.head.Zones = make([]zone.ZoneData, dec.count())
	for i := range f.head.Zones {
		z := &f.head.Zones[i]
		z.Origin = string(dec.bytes())
		z.Nameservers = make([]string, dec.count())
		for j := range z.Nameservers {
			z.Nameservers[j] = string(dec.bytes())
		}
		z.Unsigned = dec.uvarint()&1 != 0
	}
	if dec.err != nil {
		return nil, dec.err
	}
	f.body = dec
	return f, nil
}

// source gives the file's head and domains, as zone.Stream does.
func (f *snapshotFileData) source() source {
	return func(start func(*zone.SnapshotData) error, each func(string, zone.DomainData) error) error {
		if err := start(f.head); err != nil {
			return err
		}
		dec := f.body
		// Record names ("@", "www") and types recur: one string each, as
		// zone.Stream does.
		common := map[string]string{}
		intern := func(b []byte) string {
			if v, ok := common[string(b)]; ok {
				return v
			}
			v := string(b)
			if len(common) < 4096 {
				common[v] = v
			}
			return v
		}
		for {
			index := dec.uvarint()
			if dec.err != nil {
				return dec.err
			}
			if index == 0 {
				break
			}
			if index > uint64(len(f.head.Zones)) {
				return fmt.Errorf("%w: zone %d of %d", errCorruptSnapshot, index, len(f.head.Zones))
			}
			dom := zone.DomainData{ID: dec.varint(), Name: string(dec.bytes())}
			dom.Records = make([]zone.Record, dec.count())
			for i := range dom.Records {
				r := &dom.Records[i]
				r.DomainID = dom.ID
				r.ID = dec.varint()
				r.Name = intern(dec.bytes())
				r.Type = intern(dec.bytes())
				r.Content = string(dec.bytes())
				r.TTL = int(dec.varint())
				if p := dec.uvarint(); p > 0 {
					prio := int(p - 1)
					r.Priority = &prio
				}
			}
			if dec.err != nil {
				return dec.err
			}
			if err := each(f.head.Zones[index-1].Origin, dom); err != nil {
				return err
			}
		}
		if len(dec.buf) != 0 {
			return fmt.Errorf("%w: %d bytes after the end", errCorruptSnapshot, len(dec.buf))
		}
		return nil
	}
}

// snapshotDecoder reads the values of a snapshot file one after another;
// the first that does not fit sets err, after which every read gives zero.
type snapshotDecoder struct {
	buf []byte
	err error
}

func (d *snapshotDecoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.buf)
	if n <= 0 {
		d.err = errCorruptSnapshot
		return 0
	}
	d.buf = d.buf[n:]
	return v
}

func (d *snapshotDecoder) varint() int64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.buf)
	if n <= 0 {
		d.err = errCorruptSnapshot
		return 0
	}
	d.buf = d.buf[n:]
	return v
}

// bytes reads a string's bytes (which alias the buffer: copy to keep).
func (d *snapshotDecoder) bytes() []byte {
	n := d.uvarint()
	if n > uint64(len(d.buf)) {
		if d.err == nil {
			d.err = errCorruptSnapshot
		}
		return nil
	}
	b := d.buf[:n]
	d.buf = d.buf[n:]
	return b
}

// count reads how many of something follow: each takes at least a byte,
// so a count beyond the bytes left is corrupt (and would allocate for
// nothing).
func (d *snapshotDecoder) count() int {
	n := d.uvarint()
	if n > uint64(len(d.buf)) {
		if d.err == nil {
			d.err = errCorruptSnapshot
		}
		return 0
	}
	return int(n)
}

// startFromFile builds the snapshot from the snapshot file, brings it up to
// date from the change journal and publishes it; false (the reason logged)
// when the file is missing or unusable, or the journal cannot say what
// changed since it was written: the caller loads from the database then.
func (s *Server) startFromFile(ctx context.Context, d *db.DB) bool {
	path := s.file.path
	began := time.Now()
	refuse := func(level func(string, ...any), why string, args ...any) bool {
		level("dns: snapshot file not used; loading the zones from the database", append([]any{"file", path, "why", why}, args...)...)
		return false
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return refuse(s.logger.Info, "no such file (yet)")
	}
	if err != nil {
		return refuse(s.logger.Warn, "unreadable", "err", err)
	}
	var written time.Time
	if info, err := os.Stat(path); err == nil {
		written = info.ModTime()
	}
	f, err := parseSnapshotFile(data)
	if err != nil {
		return refuse(s.logger.Warn, "unusable", "err", err)
	}
	identity, err := databaseIdentity(ctx, d)
	if err != nil {
		return refuse(s.logger.Warn, "database identity unknown", "err", err)
	}
	if f.identity != identity {
		return refuse(s.logger.Info, "made from another database, or before a migration")
	}
	versions, err := zone.ReadVersions(ctx, d.Bun)
	if err != nil {
		return refuse(s.logger.Warn, "database versions unknown", "err", err)
	}
	if f.head.Versions.Zone > versions.Zone || f.head.Versions.Catalog > versions.Catalog {
		return refuse(s.logger.Warn, "ahead of the database (a backup restored?)",
			"file_versions", f.head.Versions, "database_versions", versions)
	}
	// The same version with another serial: a backup restored, then
	// changed, which the journal would not show.
	serial, known, err := zone.SerialAt(ctx, d.Bun, f.head.Versions.Zone)
	if err != nil {
		return refuse(s.logger.Warn, "database serial unknown", "err", err)
	}
	if known && uint32(serial+f.head.Versions.Catalog) != f.head.Serial {
		return refuse(s.logger.Warn, "from another history of the database (a backup restored?)",
			"file_serial", f.head.Serial, "version", f.head.Versions.Zone)
	}
	snap, skipped, err := build(f.source(), nil)
	if err != nil {
		return refuse(s.logger.Warn, "unusable", "err", err)
	}
	s.addHosts(snap, emptySnapshot)
	// Domains the file serves may have expired since, with no server
	// running to note it in the journal: note them now (through now, not
	// through the file's next expiry, which another server may have noted
	// already without the later ones), as checkForChanges would.
	if now := time.Now(); !snap.nextExpiry.IsZero() && !now.Before(snap.nextExpiry) {
		if err := zone.NoteExpiry(ctx, d, now, now); err != nil {
			return refuse(s.logger.Warn, "could not note domain expiry", "err", err)
		}
	}
	next, c, more, err := s.catchUp(ctx, d, snap)
	if errors.Is(err, zone.ErrLoadAll) {
		return refuse(s.logger.Info, "the change journal does not reach back to it")
	}
	if err != nil {
		return refuse(s.logger.Warn, "catching up with the journal failed", "err", err)
	}
	// The catalog zone at the serial of now, as a full load makes it (its
	// serial otherwise stays that of the file while its zones do not
	// change).
	if name := s.opts.catalogZone; name != "" {
		delete(next.zones, name)
	}
	s.addCatalog(next, emptySnapshot)
	if err := s.withKeys(ctx, next, next.origins()); err != nil {
		return refuse(s.logger.Warn, "no DNSSEC keys", "err", err)
	}
	s.publish(next, append(skipped, more...))
	s.file.note(f.head.Versions, written)
	s.fromFile = true
	s.logger.Info("dns zones loaded from the snapshot file", "file", path, "zones", len(next.zones),
		"serial", next.serial, "caught_up_domains", len(c.Domains), "took", time.Since(began))
	return true
}

// fileEncoder returns an encoder for the next snapshot file, its write
// claimed; nil when there is none to write (no file configured, a write
// under way, the database's identity unreadable: logged).
func (s *Server) fileEncoder(ctx context.Context, d *db.DB) *snapshotEncoder {
	if s.file == nil || !s.file.claim() {
		return nil
	}
	identity, err := databaseIdentity(ctx, d)
	if err != nil {
		s.file.release(nil)
		s.logger.Warn("dns: snapshot file not written", "err", err)
		return nil
	}
	return &snapshotEncoder{identity: identity}
}

// writeFile writes what enc encoded to the snapshot file in the
// background (the fsync may take a while; queries never wait for it), and
// releases the write claimed.
func (s *Server) writeFile(enc *snapshotEncoder) {
	go func() {
		data := enc.finish()
		if err := writeSnapshotFile(s.file.path, data); err != nil {
			s.file.release(nil)
			s.logger.Warn("dns: snapshot file not written", "err", err)
			return
		}
		s.file.release(&enc.head.Versions)
		s.logger.Debug("dns snapshot file written", "file", s.file.path, "bytes", len(data), "serial", enc.head.Serial)
	}()
}

// refreshFile writes the snapshot file again, in the background, from a
// fresh read of the database, when the zones have moved on from it and it
// is older than snapshotFileRefresh (see there why); so that a start
// catches up on little. Failures are only logged.
func (s *Server) refreshFile(d *db.DB) {
	if s.file == nil || !s.file.claimIfStale(s.Snapshot().versions, time.Now()) {
		return
	}
	go s.writeFileFrom(s.stop, d, time.Now())
}

// writeFileFrom reads the zones from d (at now) into the snapshot file, its
// write claimed, then writes it; if ctx ends first (Shutdown), the file is
// left as it was.
func (s *Server) writeFileFrom(ctx context.Context, d *db.DB, now time.Time) {
	identity, err := databaseIdentity(ctx, d)
	enc := &snapshotEncoder{identity: identity}
	if err == nil {
		err = zone.Stream(ctx, d, now, func(head *zone.SnapshotData) error {
			enc.start(head)
			return nil
		}, func(origin string, dom zone.DomainData) error {
			enc.domain(origin, dom)
			return nil
		})
	}
	if err != nil {
		s.file.release(nil)
		if ctx.Err() == nil {
			s.logger.Warn("dns: snapshot file not written", "err", err)
		}
		return
	}
	s.writeFile(enc)
}

// SnapshotFilePath is the snapshot file in the data directory dataDir;
// "" (no file) when dataDir is "".
func SnapshotFilePath(dataDir string) string {
	if dataDir == "" {
		return ""
	}
	return filepath.Join(dataDir, SnapshotFileName)
}
