package dnsserver

import (
	"context"
	"net/netip"
	"os"
	"time"

	"github.com/miekg/dns"

	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/zone"
)

// ZoneRecords returns every record of the zone origin in snap, as a
// transfer sends them (SOA first), or nil when snap has no such zone.
func ZoneRecords(snap *Snapshot, origin string) []dns.RR {
	z := snap.zones[origin]
	if z == nil {
		return nil
	}
	return z.records()
}

// IXFR returns the records of an incremental transfer of origin to a
// client at serial, or nil when the history does not reach back to it.
func IXFR(snap *Snapshot, origin string, serial uint32) []dns.RR {
	return snap.ixfr(snap.zones[origin], serial)
}

// AnswerPacket answers the raw query pkt as the server answers one over
// TCP from its published snapshot, through the packet caches.
func AnswerPacket(s *Server, pkt []byte) []byte {
	return s.answerPacket(s.Snapshot(), pkt, make([]byte, 0, dns.MaxMsgSize), netip.MustParseAddr("192.0.2.1"), true)
}

// LoadedFromFile reports whether s started from its snapshot file.
func LoadedFromFile(s *Server) bool {
	s.reloadMu.Lock()
	defer s.reloadMu.Unlock()
	return s.fromFile
}

// WaitSnapshotFile waits until the snapshot file write under way, if any,
// is done.
func WaitSnapshotFile(s *Server) { s.file.writes.Wait() }

// WriteSnapshotFileAt writes s's snapshot file from d as it served at
// now, and waits for it.
func WriteSnapshotFileAt(ctx context.Context, s *Server, d *db.DB, now time.Time) {
	if s.file.claim() {
		s.writeFileFrom(ctx, d, now)
	}
	s.file.writes.Wait()
}

// RefreshSnapshotFile does what Watch does after each check, as if the
// file were old enough to be refreshed, and waits for the write.
func RefreshSnapshotFile(s *Server, d *db.DB) {
	s.file.mu.Lock()
	s.file.tried = time.Time{}
	s.file.mu.Unlock()
	s.refreshFile(d)
	s.file.writes.Wait()
}

// SnapshotFileVersions returns the versions of the zones the snapshot file
// at path holds.
func SnapshotFileVersions(path string) (zone.Versions, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return zone.Versions{}, err
	}
	f, err := parseSnapshotFile(data)
	if err != nil {
		return zone.Versions{}, err
	}
	return f.head.Versions, nil
}
