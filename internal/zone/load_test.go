package zone_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/zone"
)

func TestLoadReadsWhatDNSServes(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d) // example.inf.nz, expiring in a year
		ctx := context.Background()
		addExtension(t, d, ".inf.nz", true, `["ns1.nameport.net", "NS2.Nameport.net."]`)
		addExtension(t, d, ".biz.ee", true, `[]`)
		addExtension(t, d, ".orgn.uk", false, `["ns1.nameport.net"]`)
		create(t, b, "A", "@", "192.0.2.1")
		create(t, b, "TXT", "www", "hello")
		registerDomain(t, d, "empty", ".inf.nz", b.now.Add(48*time.Hour))
		gone := registerDomain(t, d, "gone", ".inf.nz", b.now.Add(-time.Minute))
		_, err := b.svc.Create(ctx, gone, zone.Input{Type: "A", Name: "@", Content: "192.0.2.66"})
		require.NoError(t, err)
		hidden := registerDomain(t, d, "hidden", ".orgn.uk", b.now.AddDate(1, 0, 0))
		_, err = b.svc.Create(ctx, hidden, zone.Input{Type: "A", Name: "@", Content: "192.0.2.77"})
		require.NoError(t, err)

		data, err := zone.Load(ctx, d, b.now)
		require.NoError(t, err)
		require.Len(t, data.Zones, 2, "active extensions only")
		biz, inf := data.Zones[0], data.Zones[1]
		require.Equal(t, "biz.ee.", biz.Origin)
		require.Equal(t, []string{"ns1.biz.ee.", "ns2.biz.ee."}, biz.Nameservers, "none configured: ns1 and ns2 under the zone")
		require.Empty(t, biz.Domains)
		require.Equal(t, "inf.nz.", inf.Origin)
		require.Equal(t, []string{"ns1.nameport.net.", "ns2.nameport.net."}, inf.Nameservers)
		// Expired domains do not resolve; one without records serves
		// nothing (NXDOMAIN), so there is nothing to read for it.
		require.Len(t, inf.Domains, 1)
		require.Equal(t, "example", inf.Domains[0].Name)
		require.Equal(t, "example.inf.nz.", inf.Domains[0].FQDN(inf.Origin))
		require.Len(t, inf.Domains[0].Records, 2)
		require.True(t, data.NextExpiry.Equal(b.now.Add(48*time.Hour)), "the empty domain's expiry counts: %v", data.NextExpiry)

		v, err := zone.ReadVersions(ctx, d.Bun)
		require.NoError(t, err)
		require.Equal(t, v, data.Versions)
		require.Greater(t, data.Serial, uint32(1_700_000_000), "the serial starts from the clock")

		// Every change moves the serial forward, even many in one second.
		serial := data.Serial
		for range 3 {
			create(t, b, "A", "www2", "192.0.2."+string(rune('1'+serial%8)))
			data, err = zone.Load(ctx, d, b.now)
			require.NoError(t, err)
			require.Greater(t, data.Serial, serial)
			serial = data.Serial
		}
		dbtest.MustExec(t, d, "UPDATE catalog_version SET version = version + 1 WHERE id = 1")
		data, err = zone.Load(ctx, d, b.now)
		require.NoError(t, err)
		require.Equal(t, serial+1, data.Serial, "a catalog change moves it too")
	})
}

func TestNoteExpiryBumpsOnce(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
		registerDomain(t, d, "soon", ".inf.nz", now.Add(time.Hour))
		registerDomain(t, d, "later", ".inf.nz", now.Add(2*time.Hour))

		// None expired in the window (the one due was renewed, say):
		// nothing moves.
		v0 := zoneVersion(t, d)
		require.NoError(t, zone.NoteExpiry(ctx, d, now.Add(-time.Second), now))
		require.Equal(t, v0, zoneVersion(t, d))

		// One expired: the version moves once and the journal names it.
		expiry := now.Add(time.Hour)
		require.NoError(t, zone.NoteExpiry(ctx, d, expiry, expiry.Add(time.Second)))
		v1 := zoneVersion(t, d)
		require.Equal(t, v0+1, v1)
		require.Equal(t, []string{"soon.inf.nz"}, journalAt(t, d, v1))
		require.Equal(t, zoneSerial(t, d), journalSerial(t, d, v1))

		// A second node noting the same window changes nothing.
		require.NoError(t, zone.NoteExpiry(ctx, d, expiry, expiry.Add(2*time.Second)))
		require.Equal(t, v1, zoneVersion(t, d))
		require.Equal(t, 1, dbtest.Count(t, d, "SELECT count(*) FROM zone_changes WHERE version > ?", v0))

		// A later expiry counts again.
		require.NoError(t, zone.NoteExpiry(ctx, d, now.Add(2*time.Hour), now.Add(2*time.Hour)))
		require.Equal(t, v1+1, zoneVersion(t, d))
		require.Equal(t, []string{"later.inf.nz"}, journalAt(t, d, v1+1))
	})
}

func TestNoteExpiryJournalsEveryDomainExpiredByNow(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
		registerDomain(t, d, "first", ".inf.nz", now.Add(time.Hour))
		registerDomain(t, d, "second", ".inf.nz", now.Add(time.Hour+time.Second))
		registerDomain(t, d, "third", ".inf.nz", now.Add(2*time.Hour))

		// A DNS server notes its next expiry, first's, a little late: second
		// has expired too. Its next snapshot's next expiry is third's, so
		// no server would note second later: this note must journal it.
		v0 := zoneVersion(t, d)
		require.NoError(t, zone.NoteExpiry(ctx, d, now.Add(time.Hour), now.Add(time.Hour+2*time.Second)))
		require.Equal(t, v0+1, zoneVersion(t, d))
		require.Equal(t, []string{"first.inf.nz", "second.inf.nz"}, journalAt(t, d, v0+1))
	})
}
