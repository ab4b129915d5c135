package dnsserver_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/miekg/dns"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/dnsserver"
	"github.com/nameport/nameport/internal/zone"
)

// fileOptions are the options of every server of these tests: a catalog
// zone and a zone host too, which a start from the file must add as a
// full load does.
func fileOptions(path string) []dnsserver.Option {
	return []dnsserver.Option{dnsserver.WithSnapshotFile(path), dnsserver.WithCatalogZone("catalog.nameport.invalid"),
		dnsserver.WithZoneHost("mx", netip.MustParseAddr("192.0.2.25"))}
}

// loadServer returns a server (not listening) loaded from d, from the file
// at path when it can.
func loadServer(t *testing.T, d *db.DB, path string) *dnsserver.Server {
	t.Helper()
	srv := dnsserver.New("127.0.0.1:0", quiet, fileOptions(path)...)
	require.NoError(t, srv.Reload(context.Background(), d))
	require.True(t, srv.Ready())
	t.Cleanup(func() { require.NoError(t, srv.Shutdown(context.Background())) })
	return srv
}

// fullLoad returns what a server without a file serves over d now.
func fullLoad(t *testing.T, d *db.DB) *dnsserver.Snapshot {
	t.Helper()
	srv := dnsserver.New("127.0.0.1:0", quiet, fileOptions("")...)
	require.NoError(t, srv.Reload(context.Background(), d))
	return srv.Snapshot()
}

// requireSameZones checks that got serves what want serves: the serial,
// the zones, every record as a transfer sends them, and the answer to
// every question about the names of w.
func requireSameZones(t *testing.T, w *world, want, got *dnsserver.Snapshot, msg string) {
	t.Helper()
	require.Equal(t, want.Serial(), got.Serial(), msg)
	require.Equal(t, want.Zones(), got.Zones(), msg)
	for _, origin := range want.Zones() {
		require.Equal(t, rrTexts(dnsserver.ZoneRecords(want, origin)), rrTexts(dnsserver.ZoneRecords(got, origin)), "%s: zone %s", msg, origin)
	}
	for _, name := range append(w.questions(want), "mx.inf.nz.", "mx.biz.ee.") {
		for _, qtype := range []uint16{dns.TypeA, dns.TypeAAAA, dns.TypeMX, dns.TypeTXT, dns.TypeNS,
			dns.TypeSRV, dns.TypeCAA, dns.TypeCNAME, dns.TypeSOA, dns.TypeANY} {
			require.Equal(t, result(dnsserver.Lookup(want, name, qtype)), result(dnsserver.Lookup(got, name, qtype)),
				"%s: %s %s", msg, name, dns.TypeToString[qtype])
		}
	}
}

// fileWorld is a random world in d, and the snapshot file a first server
// (a full load) wrote of it.
func fileWorld(t *testing.T, d *db.DB) (*world, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), dnsserver.SnapshotFileName)
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	w := newWorld(t, d, rand.New(rand.NewPCG(seed, 29)))
	for range 30 {
		w.randomChange()
	}
	first := loadServer(t, d, path)
	require.False(t, dnsserver.LoadedFromFile(first), "no file yet")
	dnsserver.WaitSnapshotFile(first)
	versions, err := dnsserver.SnapshotFileVersions(path)
	require.NoError(t, err, "written after the full load")
	current, err := zone.ReadVersions(context.Background(), d.Bun)
	require.NoError(t, err)
	require.Equal(t, current, versions)
	return w, path
}

// A server started from the snapshot file serves exactly what one that
// loads everything from the database serves, however many changes (records,
// registrations, releases, expiries, catalog changes) were committed since
// the file was written: it catches up from the journal before it is ready.
func TestStartFromSnapshotFileMatchesFullLoad(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		w, path := fileWorld(t, d)
		var did []string
		for step := range 12 {
			srv := loadServer(t, d, path)
			msg := fmt.Sprintf("step %d: %s", step, strings.Join(did, "; "))
			require.True(t, dnsserver.LoadedFromFile(srv), msg)
			requireSameZones(t, w, fullLoad(t, d), srv.Snapshot(), msg)
			for range 1 + w.rng.IntN(4) {
				did = append(did, w.randomChange())
			}
		}
	})
}

// A change committed after the file was written is answered, over the
// network, as soon as a server started from the file is ready; and its
// zone transfer is that of a server that loaded everything.
func TestStartFromSnapshotFileServesLaterChanges(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		path := filepath.Join(t.TempDir(), dnsserver.SnapshotFileName)
		transfer := dnsserver.WithTransfer(netip.MustParsePrefix("127.0.0.0/8"))
		b := setup(t, d, dnsserver.WithSnapshotFile(path), transfer)
		dnsserver.WaitSnapshotFile(b.srv)
		_, err := b.svc.Create(context.Background(), b.dom, zone.Input{Type: "A", Name: "later", Content: "192.0.2.200"})
		require.NoError(t, err)

		addr := freeAddr(t)
		srv := start(t, d, addr, dnsserver.WithSnapshotFile(path), transfer)
		require.True(t, dnsserver.LoadedFromFile(srv))
		m := exchange(t, "udp", addr, "later.example.inf.nz.", dns.TypeA, 1232)
		require.Equal(t, []string{"192.0.2.200"}, rdata(m.Answer))

		// The first server sees the change by polling.
		require.Eventually(t, func() bool { return b.srv.Snapshot().Serial() == srv.Snapshot().Serial() }, 5*time.Second, 10*time.Millisecond)
		for _, origin := range []string{"inf.nz.", "biz.ee."} {
			axfr := new(dns.Msg).SetAxfr(origin)
			require.Equal(t, rrTexts(transferIn(t, b.addr, axfr)), rrTexts(transferIn(t, addr, axfr)), origin)
		}
	})
}

// A file that cannot be trusted is not used: the server loads everything
// from the database, serves exactly that, and writes the file again, which
// the next start uses.
func TestSnapshotFileIgnoredWhenUnusable(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		spoil func(t *testing.T, w *world, path string)
	}{
		{"missing", func(t *testing.T, _ *world, path string) { require.NoError(t, os.Remove(path)) }},
		{"empty", func(t *testing.T, _ *world, path string) { require.NoError(t, os.WriteFile(path, nil, 0o600)) }},
		{"truncated", func(t *testing.T, _ *world, path string) {
			data := readFile(t, path)
			require.NoError(t, os.WriteFile(path, data[:len(data)/2], 0o600))
		}},
		{"a byte changed", func(t *testing.T, _ *world, path string) {
			data := readFile(t, path)
			data[len(data)/2] ^= 0x20
			require.NoError(t, os.WriteFile(path, data, 0o600))
		}},
		{"not a snapshot file", func(t *testing.T, _ *world, path string) {
			require.NoError(t, os.WriteFile(path, []byte(strings.Repeat("$ORIGIN inf.nz.\n", 100)), 0o600))
		}},
		{"from another database", func(t *testing.T, w *world, path string) {
			// The same data in another database: its journal would even
			// line up, but its rows are not these.
			other := dbtest.Open(t, w.d.Engine)
			ow := newWorld(t, other, rand.New(rand.NewPCG(1, 2)))
			ow.randomChange()
			srv := loadServer(t, other, path+".other")
			dnsserver.WaitSnapshotFile(srv)
			require.NoError(t, os.Rename(path+".other", path))
		}},
		{"from before a migration", func(t *testing.T, w *world, _ string) {
			dbtest.MustExec(t, w.d, "INSERT INTO schema_migrations (version, applied_at) VALUES ('9999_later', ?)", time.Now().UTC())
		}},
		{"zones ahead of the database (a backup restored)", func(t *testing.T, w *world, _ string) {
			dbtest.MustExec(t, w.d, "UPDATE zone_version SET version = version - 1 WHERE id = 1")
		}},
		{"catalog ahead of the database", func(t *testing.T, w *world, _ string) {
			dbtest.MustExec(t, w.d, "UPDATE catalog_version SET version = version - 1 WHERE id = 1")
		}},
		{"from another history (a backup restored, then changed)", func(t *testing.T, w *world, _ string) {
			// The version the file was written at, reached by other changes.
			dbtest.MustExec(t, w.d, "UPDATE zone_changes SET serial = serial - 7 WHERE version = (SELECT version FROM zone_version WHERE id = 1)")
			w.register()
		}},
		{"at the current version, with another serial", func(t *testing.T, w *world, _ string) {
			dbtest.MustExec(t, w.d, "UPDATE zone_version SET serial = serial + 7 WHERE id = 1")
		}},
		{"journal pruned past the file", func(t *testing.T, w *world, _ string) {
			w.register()
			dbtest.MustExec(t, w.d, "DELETE FROM zone_changes")
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dbtest.Each(t, func(t *testing.T, d *db.DB) {
				w, path := fileWorld(t, d)
				c.spoil(t, w, path)
				srv := loadServer(t, d, path)
				require.False(t, dnsserver.LoadedFromFile(srv))
				requireSameZones(t, w, fullLoad(t, d), srv.Snapshot(), c.name)

				dnsserver.WaitSnapshotFile(srv)
				next := loadServer(t, d, path)
				require.True(t, dnsserver.LoadedFromFile(next), "written again after the full load")
				requireSameZones(t, w, fullLoad(t, d), next.Snapshot(), c.name+", then from the file")
			})
		})
	}
}

// A domain that expired after the file was written, with no server
// running to note it, is not served by a server started from the file.
func TestStartFromSnapshotFileDropsDomainsExpiredSince(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		path := filepath.Join(t.TempDir(), dnsserver.SnapshotFileName)
		w := newWorld(t, d, rand.New(rand.NewPCG(3, 4)))
		gone := registerDomain(t, d, "gone", ".inf.nz", time.Now().Add(-time.Hour))
		_, err := w.svc.Create(ctx, gone, zone.Input{Type: "A", Name: "@", Content: "192.0.2.9"})
		require.NoError(t, err)
		w.domains = append(w.domains, gone)
		// The file as a server wrote it two hours ago, when gone was
		// served and due to expire in an hour.
		writer := dnsserver.New("127.0.0.1:0", quiet, fileOptions(path)...)
		dnsserver.WriteSnapshotFileAt(ctx, writer, d, time.Now().Add(-2*time.Hour))

		srv := loadServer(t, d, path)
		require.True(t, dnsserver.LoadedFromFile(srv))
		require.Equal(t, dns.RcodeNameError, dnsserver.Lookup(srv.Snapshot(), "gone.inf.nz.", dns.TypeA).Rcode)
		requireSameZones(t, w, fullLoad(t, d), srv.Snapshot(), "expired")
	})
}

// Watch writes the file again once the zones have moved on from it (and it
// is old enough: forced here), so that a start has little to catch up on.
func TestSnapshotFileRefreshed(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		w, path := fileWorld(t, d)
		srv := loadServer(t, d, path)
		written, err := dnsserver.SnapshotFileVersions(path)
		require.NoError(t, err)

		dnsserver.RefreshSnapshotFile(srv, d)
		versions, err := dnsserver.SnapshotFileVersions(path)
		require.NoError(t, err)
		require.Equal(t, written, versions, "nothing changed: not written again")

		w.register()
		require.NoError(t, srv.Update(context.Background(), d))
		dnsserver.RefreshSnapshotFile(srv, d)
		versions, err = dnsserver.SnapshotFileVersions(path)
		require.NoError(t, err)
		current, err := zone.ReadVersions(context.Background(), d.Bun)
		require.NoError(t, err)
		require.Equal(t, current, versions)
		require.NotEqual(t, written, versions)
	})
}

// A file that cannot be written (its folder is a file) is only logged:
// the server serves all the same.
func TestSnapshotFileUnwritable(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		blocker := filepath.Join(t.TempDir(), "blocker")
		require.NoError(t, os.WriteFile(blocker, nil, 0o600))
		w := newWorld(t, d, rand.New(rand.NewPCG(5, 6)))
		w.randomChange()
		srv := loadServer(t, d, filepath.Join(blocker, dnsserver.SnapshotFileName))
		dnsserver.WaitSnapshotFile(srv)
		requireSameZones(t, w, fullLoad(t, d), srv.Snapshot(), "unwritable")
	})
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return data
}
