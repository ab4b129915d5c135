package zone_test

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/zone"
)

func TestEveryRecordChangeIsJournaled(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		// Another domain with records, changed before: it must not come back.
		other := registerDomain(t, d, "other", ".inf.nz", b.now.AddDate(1, 0, 0))
		_, err := b.svc.Create(ctx, other, zone.Input{Type: "A", Name: "@", Content: "192.0.2.99"})
		require.NoError(t, err)

		recordID := func(t *testing.T, name, typ string) int64 {
			t.Helper()
			records, err := b.svc.List(ctx, b.dom)
			require.NoError(t, err)
			for _, r := range records {
				if r.Name == name && r.Type == typ {
					return r.ID
				}
			}
			t.Fatalf("no %s %s record", name, typ)
			return 0
		}
		first := versions(t, d)
		steps := []struct {
			name   string
			change func(t *testing.T)
		}{
			{"Create", func(t *testing.T) { create(t, b, "A", "www", "192.0.2.1") }},
			{"Update", func(t *testing.T) {
				_, err := b.svc.Update(ctx, b.dom, recordID(t, "www", "A"), zone.Input{Type: "A", Name: "www", Content: "192.0.2.2"})
				require.NoError(t, err)
			}},
			{"ReplaceSet", func(t *testing.T) {
				_, err := b.svc.ReplaceSet(ctx, b.dom, zone.Set{Name: "@", Type: "MX", Values: []string{"10 mx1.example.com", "20 mx2.example.com"}})
				require.NoError(t, err)
			}},
			{"DeleteSet", func(t *testing.T) { require.NoError(t, b.svc.DeleteSet(ctx, b.dom, "@", "MX")) }},
			{"ApplyImport", func(t *testing.T) {
				_, err := b.svc.ApplyImport(ctx, b.dom, "www IN A 192.0.2.3\nmail IN TXT \"hello\"\n", zone.ImportOptions{})
				require.NoError(t, err)
			}},
			{"Delete", func(t *testing.T) { require.NoError(t, b.svc.Delete(ctx, b.dom, recordID(t, "mail", "TXT"))) }},
		}
		for _, step := range steps {
			t.Run(step.name, func(t *testing.T) {
				since := versions(t, d)
				step.change(t)
				c, err := zone.LoadChanges(ctx, d, since, nil, b.now)
				require.NoError(t, err)
				require.Equal(t, since.Zone+1, c.Versions.Zone)
				require.Equal(t, []string{"example.inf.nz."}, changedNames(c))
				require.Equal(t, "inf.nz.", c.Domains[0].Origin)
				require.Equal(t, recordKeys(list(t, b, b.dom)), recordKeys(c.Domains[0].Records), "the records after the change")
				require.Equal(t, []string{"example.inf.nz"}, journalAt(t, d, c.Versions.Zone))
				require.Equal(t, zoneSerial(t, d), journalSerial(t, d, c.Versions.Zone), "the row carries the serial its bump made")
			})
		}

		// A refused change rolls its journal row back with it.
		before := versions(t, d)
		_, err = b.svc.Create(ctx, b.dom, zone.Input{Type: "A", Name: "www", Content: "192.0.2.3"})
		require.Error(t, err)
		require.Equal(t, before, versions(t, d))
		require.Zero(t, dbtest.Count(t, d, "SELECT count(*) FROM zone_changes WHERE version > ?", before.Zone))

		// Many changes to one domain since: it comes back once, as it is now.
		c, err := zone.LoadChanges(ctx, d, first, nil, b.now)
		require.NoError(t, err)
		require.Equal(t, []string{"example.inf.nz."}, changedNames(c))
		require.Equal(t, recordKeys(list(t, b, b.dom)), recordKeys(c.Domains[0].Records))
		require.NotEmpty(t, c.Domains[0].Records)
	})
}

func TestRegistrationAndReleaseAreJournaled(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()

		since := versions(t, d)
		fresh := registerDomain(t, d, "fresh", ".inf.nz", b.now.AddDate(1, 0, 0)) // bumps as registration does
		c, err := zone.LoadChanges(ctx, d, since, nil, b.now)
		require.NoError(t, err)
		require.Equal(t, []string{"fresh.inf.nz."}, changedNames(c))
		require.Empty(t, c.Domains[0].Records, "registered without records")
		require.Equal(t, []string{"fresh.inf.nz"}, journalAt(t, d, c.Versions.Zone))
		require.Equal(t, 1, dbtest.Count(t, d, `SELECT count(*) FROM name_changes
			WHERE version = ? AND name = 'fresh' AND extension = '.inf.nz' AND registered`, c.Versions.Zone),
			"the registered names' journal still gets its row")

		_, err = b.svc.Create(ctx, fresh, zone.Input{Type: "A", Name: "@", Content: "192.0.2.5"})
		require.NoError(t, err)
		c, err = zone.LoadChanges(ctx, d, since, nil, b.now)
		require.NoError(t, err)
		require.Equal(t, []string{"fresh.inf.nz."}, changedNames(c))
		require.Equal(t, recordKeys(list(t, b, fresh)), recordKeys(c.Domains[0].Records))
		require.Len(t, c.Domains[0].Records, 1)
		require.Zero(t, dbtest.Count(t, d, "SELECT count(*) FROM name_changes WHERE version = ?", c.Versions.Zone),
			"a record change is no registration")

		// Released: the row goes and the name with it.
		dbtest.MustExec(t, d, "DELETE FROM domains WHERE id = ?", fresh.ID)
		require.NoError(t, zone.BumpVersion(ctx, d.Bun, b.now, zone.NameChange{Name: "fresh", Extension: ".inf.nz", Kind: zone.Released}))
		c, err = zone.LoadChanges(ctx, d, since, nil, b.now)
		require.NoError(t, err)
		require.Equal(t, []string{"fresh.inf.nz."}, changedNames(c))
		require.Empty(t, c.Domains[0].Records, "a released domain serves nothing")
		require.Equal(t, 1, dbtest.Count(t, d, `SELECT count(*) FROM name_changes
			WHERE version = ? AND name = 'fresh' AND NOT registered`, c.Versions.Zone))

		// Registration and release bump at commit (BumpVersionAtCommit); on
		// PostgreSQL that is another path: the statement is sent formatted.
		since = versions(t, d)
		dbtest.Domain(t, d, "late", ".inf.nz", b.now.AddDate(1, 0, 0))
		v := versions(t, d)
		require.NoError(t, d.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
			zone.BumpVersionAtCommit(tx, b.now,
				zone.NameChange{Name: "late", Extension: ".inf.nz", Kind: zone.Registered},
				zone.NameChange{Name: "fresh", Extension: ".inf.nz", Kind: zone.Released},
				zone.NameChange{Name: "example", Extension: ".inf.nz"})
			return nil
		}))
		c, err = zone.LoadChanges(ctx, d, v, nil, b.now)
		require.NoError(t, err)
		require.Equal(t, v.Zone+1, c.Versions.Zone)
		require.Equal(t, []string{"example.inf.nz.", "fresh.inf.nz.", "late.inf.nz."}, changedNames(c))
		require.Equal(t, []string{"example.inf.nz", "fresh.inf.nz", "late.inf.nz"}, journalAt(t, d, c.Versions.Zone))
		require.Equal(t, zoneSerial(t, d), journalSerial(t, d, c.Versions.Zone))
		require.Equal(t, 1, dbtest.Count(t, d, `SELECT count(*) FROM name_changes
			WHERE version = ? AND name = 'late' AND registered`, c.Versions.Zone))
		require.Equal(t, 1, dbtest.Count(t, d, `SELECT count(*) FROM name_changes
			WHERE version = ? AND name = 'fresh' AND NOT registered`, c.Versions.Zone))
		require.Equal(t, 2, dbtest.Count(t, d, "SELECT count(*) FROM name_changes WHERE version = ?", c.Versions.Zone),
			"a renewal (Served) is not a registration")
		c, err = zone.LoadChanges(ctx, d, since, nil, b.now)
		require.NoError(t, err)
		require.Equal(t, []string{"example.inf.nz.", "fresh.inf.nz.", "late.inf.nz."}, changedNames(c))
	})
}

func TestChangedDomainThatExpiredHasNoRecords(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		brief := registerDomain(t, d, "brief", ".inf.nz", b.now.Add(time.Hour))
		since := versions(t, d)
		_, err := b.svc.Create(ctx, brief, zone.Input{Type: "A", Name: "@", Content: "192.0.2.7"})
		require.NoError(t, err)

		c, err := zone.LoadChanges(ctx, d, since, nil, b.now)
		require.NoError(t, err)
		require.Equal(t, []string{"brief.inf.nz."}, changedNames(c))
		require.Len(t, c.Domains[0].Records, 1, "not expired yet")

		c, err = zone.LoadChanges(ctx, d, since, nil, b.now.Add(time.Hour))
		require.NoError(t, err)
		require.Equal(t, []string{"brief.inf.nz."}, changedNames(c))
		require.Empty(t, c.Domains[0].Records, "expires_at <= now: it no longer resolves")

		// Its expiry, once noted, brings it back to servers that had seen
		// the record change.
		seen := versions(t, d)
		require.NoError(t, zone.NoteExpiry(ctx, d, b.now.Add(time.Hour), b.now.Add(time.Hour+time.Second)))
		c, err = zone.LoadChanges(ctx, d, seen, nil, b.now.Add(time.Hour+time.Second))
		require.NoError(t, err)
		require.Equal(t, []string{"brief.inf.nz."}, changedNames(c))
		require.Empty(t, c.Domains[0].Records)
	})
}

func TestChangedDomainOfAnInactiveExtensionKeepsItsOrigin(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		addExtension(t, d, ".orgn.uk", false, `["ns1.nameport.net"]`)
		hidden := registerDomain(t, d, "hidden", ".orgn.uk", b.now.AddDate(1, 0, 0))
		since := versions(t, d)
		_, err := b.svc.Create(ctx, hidden, zone.Input{Type: "A", Name: "@", Content: "192.0.2.77"})
		require.NoError(t, err)

		c, err := zone.LoadChanges(ctx, d, since, nil, b.now)
		require.NoError(t, err)
		require.Len(t, c.Domains, 1)
		require.Equal(t, "orgn.uk.", c.Domains[0].Origin, "the caller serves no such zone and skips it")
		require.Equal(t, "hidden", c.Domains[0].Name)
		require.Equal(t, recordKeys(list(t, b, hidden)), recordKeys(c.Domains[0].Records))
	})
}

func TestNoChangesSinceTheCurrentVersions(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		addExtension(t, d, ".inf.nz", true, "[]") // only domains served count for NextExpiry
		ctx := context.Background()
		create(t, b, "A", "www", "192.0.2.1")
		current := versions(t, d)

		c, err := zone.LoadChanges(ctx, d, current, nil, b.now)
		require.NoError(t, err)
		require.Empty(t, c.Domains)
		require.Equal(t, current, c.Versions)
		data, err := zone.Load(ctx, d, b.now)
		require.NoError(t, err)
		require.Equal(t, data.Serial, c.Serial, "the serial a full load serves")
		require.True(t, c.NextExpiry.Equal(b.now.AddDate(1, 0, 0)), "%v", c.NextExpiry)
	})
}

func TestNextExpiryIsTheFirstAfterNow(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d) // example expires in a year
		addExtension(t, d, ".inf.nz", true, "[]")
		addExtension(t, d, ".orgn.uk", false, "[]")
		// Not served: its expiry is no reason to look again.
		registerDomain(t, d, "hidden", ".orgn.uk", b.now.Add(time.Hour))
		ctx := context.Background()
		registerDomain(t, d, "gone", ".inf.nz", b.now.Add(-time.Minute))
		registerDomain(t, d, "due", ".inf.nz", b.now) // expires_at <= now: gone too
		registerDomain(t, d, "soon", ".inf.nz", b.now.Add(48*time.Hour))
		current := versions(t, d)

		for _, tt := range []struct {
			now  time.Time
			want time.Time
		}{
			{b.now.Add(-2 * time.Minute), b.now.Add(-time.Minute)},
			{b.now.Add(-time.Minute), b.now},
			{b.now, b.now.Add(48 * time.Hour)},
			{b.now.Add(48 * time.Hour), b.now.AddDate(1, 0, 0)},
			{b.now.AddDate(1, 0, 0), time.Time{}},
		} {
			c, err := zone.LoadChanges(ctx, d, current, nil, tt.now)
			require.NoError(t, err)
			require.True(t, c.NextExpiry.Equal(tt.want), "at %v: got %v, want %v", tt.now, c.NextExpiry, tt.want)
		}
	})
}

func TestChangesNeedAFullLoad(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, tt := range []struct {
		name string
		// change makes changes after since and returns versions from which
		// the journal can still tell (zero when none can).
		change func(t *testing.T, b bundle, since zone.Versions) zone.Versions
	}{
		{"the catalog went back (a restored backup)", func(t *testing.T, b bundle, since zone.Versions) zone.Versions {
			dbtest.MustExec(t, b.db, "UPDATE catalog_version SET version = version - 1 WHERE id = 1")
			return zone.Versions{}
		}},
		{"a bump named no domain", func(t *testing.T, b bundle, since zone.Versions) zone.Versions {
			create(t, b, "A", "www", "192.0.2.1")
			require.NoError(t, zone.BumpVersion(ctx, b.db.Bun, b.now))
			require.Equal(t, []string{""}, journalAt(t, b.db, since.Zone+2), "one row for everything")
			after := versions(t, b.db)
			create(t, b, "A", "www", "192.0.2.2")
			return after
		}},
		{"the first row needed was pruned", func(t *testing.T, b bundle, since zone.Versions) zone.Versions {
			create(t, b, "A", "www", "192.0.2.1")
			after := versions(t, b.db)
			create(t, b, "A", "www", "192.0.2.2")
			dbtest.MustExec(t, b.db, "DELETE FROM zone_changes WHERE version = ?", since.Zone+1)
			return after
		}},
		{"PruneJournal dropped the rows", func(t *testing.T, b bundle, since zone.Versions) zone.Versions {
			create(t, b, "A", "www", "192.0.2.1") // journaled at b.now
			require.NoError(t, zone.PruneJournal(ctx, b.db.Bun, b.now.Add(zone.JournalKeep-time.Minute)))
			c, err := zone.LoadChanges(ctx, b.db, since, nil, b.now)
			require.NoError(t, err, "kept for JournalKeep")
			require.Equal(t, []string{"example.inf.nz."}, changedNames(c))
			require.NoError(t, zone.PruneJournal(ctx, b.db.Bun, b.now.Add(zone.JournalKeep+time.Minute)))
			return zone.Versions{}
		}},
		{"since is ahead of the database", func(t *testing.T, b bundle, since zone.Versions) zone.Versions {
			dbtest.MustExec(t, b.db, "UPDATE zone_version SET version = version - 1 WHERE id = 1") // a restored backup
			return zone.Versions{}
		}},
		{"too many domains changed", func(t *testing.T, b bundle, since zone.Versions) zone.Versions {
			require.NoError(t, zone.BumpVersion(ctx, b.db.Bun, b.now, manyNames(20000)...))
			after := versions(t, b.db)
			c, err := zone.LoadChanges(ctx, b.db, since, nil, b.now)
			require.NoError(t, err, "20,000 are read one by one")
			require.Len(t, c.Domains, 20000)
			require.NoError(t, zone.BumpVersion(ctx, b.db.Bun, b.now, manyNames(1)...))
			return after
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dbtest.Each(t, func(t *testing.T, d *db.DB) {
				b := setup(t, d)
				since := versions(t, d)
				still := tt.change(t, b, since)
				_, err := zone.LoadChanges(ctx, d, since, nil, b.now)
				require.ErrorIs(t, err, zone.ErrLoadAll)
				if still != (zone.Versions{}) {
					c, err := zone.LoadChanges(ctx, d, still, nil, b.now)
					require.NoError(t, err, "from versions the journal covers")
					require.NotEmpty(t, c.Domains)
				}
			})
		})
	}
}

func TestConcurrentNotesJournalEachExpiryOnce(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		base := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
		const rounds, nodes = 8, 3
		for i := 1; i <= rounds; i++ {
			registerDomain(t, d, "d"+strconv.Itoa(i), ".inf.nz", base.Add(time.Duration(i)*time.Minute))
		}
		registered := zoneVersion(t, d)
		for i := 1; i <= rounds; i++ {
			through := base.Add(time.Duration(i) * time.Minute)
			before := zoneVersion(t, d)
			start := make(chan struct{})
			errs := make([]error, nodes)
			var wg sync.WaitGroup
			for n := range nodes {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					errs[n] = zone.NoteExpiry(ctx, d, through, through.Add(time.Second))
				}()
			}
			close(start)
			wg.Wait()
			for _, err := range errs {
				require.NoError(t, err)
			}
			require.Equal(t, before+1, zoneVersion(t, d), "round %d: one bump", i)
			require.Equal(t, []string{"d" + strconv.Itoa(i) + ".inf.nz"}, journalAt(t, d, before+1))
		}
		require.Equal(t, rounds, dbtest.Count(t, d, "SELECT count(*) FROM zone_changes WHERE version > ?", registered),
			"each expired domain journaled once")
	})
}

func versions(t *testing.T, d *db.DB) zone.Versions {
	t.Helper()
	v, err := zone.ReadVersions(context.Background(), d.Bun)
	require.NoError(t, err)
	return v
}

func list(t *testing.T, b bundle, dom zone.Domain) []zone.Record {
	t.Helper()
	records, err := b.svc.List(context.Background(), dom)
	require.NoError(t, err)
	return records
}

// changedNames returns the fully qualified names of the changed domains,
// sorted.
func changedNames(c *zone.Changes) []string {
	names := make([]string, len(c.Domains))
	for i, cd := range c.Domains {
		names[i] = cd.Name + "." + cd.Origin
	}
	slices.Sort(names)
	return names
}

// recordKeys returns what DNS serves of records (not their timestamps),
// one string each, sorted.
func recordKeys(records []zone.Record) []string {
	keys := make([]string, len(records))
	for i, r := range records {
		priority := "-"
		if r.Priority != nil {
			priority = strconv.Itoa(*r.Priority)
		}
		keys[i] = fmt.Sprintf("%d %s %s %q %d %s", r.ID, r.Name, r.Type, r.Content, r.TTL, priority)
	}
	slices.Sort(keys)
	return keys
}

// journalAt returns the domains (name and extension; "" for everything)
// journaled at version, sorted.
func journalAt(t *testing.T, d *db.DB, version int64) []string {
	t.Helper()
	var rows []struct {
		Name      string `bun:"name"`
		Extension string `bun:"extension"`
	}
	require.NoError(t, d.Bun.NewSelect().Table("zone_changes").Column("name", "extension").
		Where("version = ?", version).Scan(context.Background(), &rows))
	names := make([]string, len(rows))
	for i, r := range rows {
		names[i] = r.Name + r.Extension
	}
	slices.Sort(names)
	return names
}

func journalSerial(t *testing.T, d *db.DB, version int64) int {
	t.Helper()
	return dbtest.Count(t, d, "SELECT max(serial) FROM zone_changes WHERE version = ?", version)
}

func zoneSerial(t *testing.T, d *db.DB) int {
	t.Helper()
	return dbtest.Count(t, d, "SELECT serial FROM zone_version WHERE id = 1")
}

// manyNames returns n changes to domains that do not exist.
func manyNames(n int) []zone.NameChange {
	names := make([]zone.NameChange, n)
	for i := range names {
		names[i] = zone.NameChange{Name: "n" + strconv.Itoa(i), Extension: ".inf.nz"}
	}
	return names
}

// A catalog change is a delta too: the zones to serve now, each new one
// with its domains, the ones already served without; and the journal's
// domains as ever.
func TestCatalogChangesComeWithTheZones(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		addExtension(t, d, ".inf.nz", true, `["ns1.nameport.net"]`)
		create(t, b, "A", "www", "192.0.2.1")
		since := versions(t, d)

		c, err := zone.LoadChanges(ctx, d, since, []string{"inf.nz."}, b.now)
		require.NoError(t, err)
		require.Nil(t, c.Zones, "the catalog did not move")

		// An extension is added and has a domain with records; the one
		// served gets other name servers; a record changes.
		addExtension(t, d, ".biz.ee", true, `[]`)
		shop := registerDomain(t, d, "shop", ".biz.ee", b.now.AddDate(1, 0, 0))
		_, err = b.svc.Create(ctx, shop, zone.Input{Type: "A", Name: "@", Content: "192.0.2.80"})
		require.NoError(t, err)
		dbtest.MustExec(t, d, `UPDATE extensions SET dns_nameservers = '["ns9.nameport.net"]' WHERE extension = '.inf.nz'`)
		dbtest.MustExec(t, d, "UPDATE catalog_version SET version = version + 1 WHERE id = 1")
		create(t, b, "A", "mail", "192.0.2.25")

		c, err = zone.LoadChanges(ctx, d, since, []string{"inf.nz."}, b.now)
		require.NoError(t, err)
		require.Len(t, c.Zones, 2)
		biz, inf := c.Zones[0], c.Zones[1]
		require.Equal(t, "biz.ee.", biz.Origin)
		require.Len(t, biz.Domains, 1, "a new zone comes with its domains")
		require.Equal(t, "shop", biz.Domains[0].Name)
		require.Equal(t, "inf.nz.", inf.Origin)
		require.Equal(t, []string{"ns9.nameport.net."}, inf.Nameservers)
		require.Empty(t, inf.Domains, "a zone already served comes without")
		require.ElementsMatch(t, []string{"example.inf.nz.", "shop.biz.ee."}, changedNames(c))

		// The extension is deactivated: it is no longer among the zones.
		dbtest.MustExec(t, d, "UPDATE extensions SET active = FALSE WHERE extension = '.biz.ee'")
		dbtest.MustExec(t, d, "UPDATE catalog_version SET version = version + 1 WHERE id = 1")
		c, err = zone.LoadChanges(ctx, d, since, []string{"inf.nz.", "biz.ee."}, b.now)
		require.NoError(t, err)
		require.Len(t, c.Zones, 1)
		require.Equal(t, "inf.nz.", c.Zones[0].Origin)
	})
}
