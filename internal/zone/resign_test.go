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

// BumpSigned moves the SOA serial of signed zones once they have stayed
// still for ResignAfter, and only then: not unless an active extension
// has DNSSEC on, not twice for one still day (several workers), and with
// nothing else changed (the journal names no domain to load again).
func TestBumpSignedMovesStillSerials(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		addExtension(t, d, ".inf.nz", true, `["ns1.nameport.net"]`)
		addExtension(t, d, ".biz.ee", true, `["ns1.nameport.net"]`)
		dbtest.MustExec(t, d, `UPDATE extensions SET dnssec_enabled = ?`, false)
		start := time.Now().UTC()
		clock := start
		svc := zone.NewService(d, zone.Options{Now: func() time.Time { return clock }})
		dom := registerDomain(t, d, "example", ".inf.nz", start.AddDate(1, 0, 0)) // journaled now (real time)
		serial := func() (zone.Versions, uint32) {
			c, err := zone.LoadChanges(ctx, d, zone.Versions{}, nil, clock)
			require.NoError(t, err)
			return c.Versions, c.Serial
		}
		v0, s0 := serial()

		// No extension signed: the serial stays, however still.
		clock = start.Add(zone.ResignAfter + time.Hour)
		bumped, err := svc.BumpSigned(ctx)
		require.NoError(t, err)
		require.False(t, bumped, "no zone is signed")
		v, s := serial()
		require.Equal(t, v0, v)
		require.Equal(t, s0, s)

		// inf.nz signed: not yet within a day of the last change...
		dbtest.MustExec(t, d, `UPDATE extensions SET dnssec_enabled = ? WHERE extension = '.inf.nz'`, true)
		clock = start.Add(time.Hour)
		bumped, err = svc.BumpSigned(ctx)
		require.NoError(t, err)
		require.False(t, bumped, "the serial moved within ResignAfter")

		// ...then once a day still, once.
		clock = start.Add(zone.ResignAfter + time.Hour)
		bumped, err = svc.BumpSigned(ctx)
		require.NoError(t, err)
		require.True(t, bumped)
		v1, s1 := serial()
		require.Equal(t, v0.Zone+1, v1.Zone)
		require.Equal(t, v0.Catalog, v1.Catalog, "the catalog stays")
		require.Greater(t, s1, s0)
		require.GreaterOrEqual(t, int64(s1), clock.Unix(), "a serial of the bump's time, as any change's")
		bumped, err = svc.BumpSigned(ctx) // another worker, the same hour
		require.NoError(t, err)
		require.False(t, bumped, "one bump a still day")

		// The DNS servers find the new serial and no domain to load.
		c, err := zone.LoadChanges(ctx, d, v0, nil, clock)
		require.NoError(t, err)
		require.Equal(t, s1, c.Serial)
		require.Empty(t, c.Domains)
		require.Nil(t, c.Zones)
		var journaled []string
		require.NoError(t, d.Bun.NewSelect().Table("zone_changes").Column("extension").
			Where("version = ?", v1.Zone).Order("extension").Scan(ctx, &journaled))
		require.Equal(t, []string{".inf.nz"}, journaled, "the signed extensions")

		// A record change in between resets the day.
		clock = start.Add(2*zone.ResignAfter + time.Hour)
		_, err = svc.Create(ctx, dom, zone.Input{Type: "A", Name: "@", Content: "192.0.2.1"})
		require.NoError(t, err)
		clock = clock.Add(time.Hour)
		bumped, err = svc.BumpSigned(ctx)
		require.NoError(t, err)
		require.False(t, bumped)
		clock = clock.Add(zone.ResignAfter)
		bumped, err = svc.BumpSigned(ctx)
		require.NoError(t, err)
		require.True(t, bumped)
	})
}
