package zone_test

import (
	"context"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/zone"
)

// valuesOf returns each record as "priority content" (or the content alone)
// with its TTL.
func valuesOf(records []zone.Record) []string {
	out := make([]string, len(records))
	for i, r := range records {
		out[i] = r.Content
		if r.Priority != nil {
			out[i] = strconv.Itoa(*r.Priority) + " " + r.Content
		}
		out[i] += " ttl=" + strconv.Itoa(r.TTL)
	}
	return out
}

// A set's values may each carry their own priority (MX) or priority, weight
// and port (SRV); values without one take the set's priority.
func TestSetValuesCarryTheirOwnPriority(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		tests := []struct {
			set  zone.Set
			want []string
		}{
			{zone.Set{Name: "@", Type: "MX", Values: []string{"10 mx1.example.com", "20 MX2.example.com."}},
				[]string{"10 mx1.example.com ttl=3600", "20 mx2.example.com ttl=3600"}},
			{zone.Set{Name: "@", Type: "mx", Values: []string{"mx1.example.com", "30 mx2.example.com"}, Priority: new(30), TTL: new(600)},
				[]string{"30 mx1.example.com ttl=600", "30 mx2.example.com ttl=600"}},
			{zone.Set{Name: "@", Type: "MX", Values: []string{"10 mx1.example.com", "20 mx1.example.com"}},
				[]string{"10 mx1.example.com ttl=3600", "20 mx1.example.com ttl=3600"}},
			{zone.Set{Name: "@", Type: "MX", Values: []string{"10 mx1.example.com"}, Priority: new(10)},
				[]string{"10 mx1.example.com ttl=3600"}},
			{zone.Set{Name: "nomail", Type: "MX", Values: []string{"0 ."}}, []string{"0 . ttl=3600"}},
			{zone.Set{Name: "_sip._tcp", Type: "SRV", Values: []string{"10 5 5060 sip1.example.com", "20 0 5061 sip2.example.com"}},
				[]string{"10 5 5060 sip1.example.com ttl=3600", "20 0 5061 sip2.example.com ttl=3600"}},
			{zone.Set{Name: "_sip._tcp", Type: "SRV", Values: []string{"5 5060 sip1.example.com", "7 5 5060 sip2.example.com"}, Priority: new(7)},
				[]string{"7 5 5060 sip1.example.com ttl=3600", "7 5 5060 sip2.example.com ttl=3600"}},
		}
		for _, tt := range tests {
			records, err := b.svc.ReplaceSet(ctx, b.dom, tt.set)
			require.NoError(t, err, "%+v", tt.set)
			require.Equal(t, tt.want, valuesOf(records), "%+v", tt.set)
		}

		refused := []struct {
			set  zone.Set
			want string
		}{
			{zone.Set{Name: "@", Type: "MX", Values: []string{"10 mx1.example.com"}, Priority: new(20)},
				`The value "10 mx1.example.com" has priority 10, but the set's priority is 20: give the priority in each value or for the whole set, not both`},
			{zone.Set{Name: "_sip._tcp", Type: "SRV", Values: []string{"10 5 5060 sip.example.com"}, Priority: new(20)},
				`The value "10 5 5060 sip.example.com" has priority 10, but the set's priority is 20: give the priority in each value or for the whole set, not both`},
			{zone.Set{Name: "@", Type: "MX", Values: []string{"mx1.example.com"}},
				`MX value "mx1.example.com" needs a priority: write it first, like "10 mx1.example.com", or give the set's priority`},
			{zone.Set{Name: "@", Type: "MX", Values: []string{"ten mx1.example.com"}},
				`MX value "ten mx1.example.com" must be "priority host", like "10 mail.example.com", or a host alone with the set's priority`},
			{zone.Set{Name: "@", Type: "MX", Values: []string{"10 20 mx1.example.com"}},
				`MX value "10 20 mx1.example.com" must be "priority host", like "10 mail.example.com", or a host alone with the set's priority`},
			{zone.Set{Name: "@", Type: "MX", Values: []string{"70000 mx1.example.com"}}, "Priority must be between 0 and 65535"},
			{zone.Set{Name: "@", Type: "MX", Values: []string{"-1 mx1.example.com"}}, "Priority must be between 0 and 65535"},
			{zone.Set{Name: "@", Type: "MX", Values: []string{"10 mx1.example.com", "10 MX1.example.com."}},
				`The value "10 MX1.example.com." appears twice in the set`},
			{zone.Set{Name: "@", Type: "MX", Values: []string{"mx1.example.com", "10 mx1.example.com"}, Priority: new(10)},
				`The value "10 mx1.example.com" appears twice in the set`},
			{zone.Set{Name: "_sip._tcp", Type: "SRV", Values: []string{"x 5 5060 sip.example.com"}},
				`SRV content must be "weight port target", for example "5 5060 sip.example.com" (with the priority in its own field), or "priority weight port target"`},
			{zone.Set{Name: "_sip._tcp", Type: "SRV", Values: []string{"5 5060 sip.example.com"}}, "SRV records need a priority from 0 to 65535"},
		}
		before, err := b.svc.List(ctx, b.dom)
		require.NoError(t, err)
		for _, tt := range refused {
			_, err := b.svc.ReplaceSet(ctx, b.dom, tt.set)
			requireCode(t, err, apperr.Invalid, tt.want)
		}
		after, err := b.svc.List(ctx, b.dom)
		require.NoError(t, err)
		require.Equal(t, before, after, "a refused set changes nothing")
	})
}

// Records that differ in priority alone are different records (RFC 2181
// section 5), wherever records are written; the same priority is a
// duplicate.
func TestRecordsThatDifferInPriorityAreDifferent(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		mx := func(p int) zone.Input {
			return zone.Input{Type: "MX", Name: "@", Content: "mx.example.com", Priority: new(p)}
		}
		srv := func(p int) zone.Input {
			return zone.Input{Type: "SRV", Name: "_sip._tcp", Content: "5 5060 sip.example.com", Priority: new(p)}
		}
		first, err := b.svc.Create(ctx, b.dom, mx(10))
		require.NoError(t, err)
		_, err = b.svc.Create(ctx, b.dom, mx(20))
		require.NoError(t, err)
		_, err = b.svc.Create(ctx, b.dom, mx(10))
		requireCode(t, err, apperr.Conflict, "This MX record already exists at @")
		_, err = b.svc.Update(ctx, b.dom, first.ID, mx(20))
		requireCode(t, err, apperr.Conflict, "This MX record already exists at @")
		_, err = b.svc.Update(ctx, b.dom, first.ID, mx(15))
		require.NoError(t, err)
		_, err = b.svc.Create(ctx, b.dom, srv(10))
		require.NoError(t, err)
		_, err = b.svc.Create(ctx, b.dom, srv(20))
		require.NoError(t, err)
		_, err = b.svc.Create(ctx, b.dom, zone.Input{Type: "SRV", Name: "_sip._tcp", Content: "20 5 5060 sip.example.com"})
		requireCode(t, err, apperr.Conflict, "This SRV record already exists at _sip._tcp")
		records, err := b.svc.List(ctx, b.dom)
		require.NoError(t, err)
		require.Equal(t, []string{"15 mx.example.com ttl=3600", "20 mx.example.com ttl=3600",
			"10 5 5060 sip.example.com ttl=3600", "20 5 5060 sip.example.com ttl=3600"}, valuesOf(records))

		// A set whose value changes priority alone keeps that record's id.
		set, err := b.svc.ReplaceSet(ctx, b.dom, zone.Set{Name: "@", Type: "MX", Values: []string{"30 mx.example.com"}})
		require.NoError(t, err)
		require.Equal(t, []string{"30 mx.example.com ttl=3600"}, valuesOf(set))
		require.Equal(t, first.ID, set[0].ID)

		// An import takes both priorities; the same one twice is refused.
		file := `$ORIGIN example.inf.nz.
@ IN MX 10 mx.example.com.
@ IN MX 20 mx.example.com.
@ IN MX 10 MX.example.com.
_sip._tcp IN SRV 10 5 5060 sip.example.com.
_sip._tcp IN SRV 20 5 5060 sip.example.com.
`
		plan, err := b.svc.ApplyImport(ctx, b.dom, file, zone.ImportOptions{})
		require.NoError(t, err)
		require.Equal(t, []zone.Note{{Line: 4, Kind: zone.NoteRefused, Message: "Line 4: the same record as line 2"}}, withoutText(plan.Notes))
		records, err = b.svc.List(ctx, b.dom)
		require.NoError(t, err)
		require.Equal(t, []string{"10 mx.example.com ttl=3600", "20 mx.example.com ttl=3600",
			"10 5 5060 sip.example.com ttl=3600", "20 5 5060 sip.example.com ttl=3600"}, valuesOf(records))
	})
}

// The records of one name and type share one TTL (RFC 2181 section 5.2):
// a record that differs is refused, naming the set's TTL, unless the change
// aligns the set.
func TestOneTTLPerSet(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		a := func(content string, ttl *int) zone.Input {
			return zone.Input{Type: "A", Name: "www", Content: content, TTL: ttl}
		}
		setTTLs := func(name, typ string) []int {
			t.Helper()
			records, err := b.svc.List(ctx, b.dom)
			require.NoError(t, err)
			var ttls []int
			for _, r := range records {
				if r.Name == name && r.Type == typ {
					ttls = append(ttls, r.TTL)
				}
			}
			return ttls
		}
		first, err := b.svc.Create(ctx, b.dom, a("192.0.2.1", new(300)))
		require.NoError(t, err)

		v := zoneVersion(t, d)
		_, err = b.svc.Create(ctx, b.dom, a("192.0.2.2", new(3600)))
		requireCode(t, err, apperr.Invalid,
			"Records of www A share one TTL (300 seconds): set 300, or change the TTL of the whole set to 3600")
		require.Equal(t, 300, apperr.SetTTLOf(err), "the set's TTL, for a client to offer")
		require.Equal(t, v, zoneVersion(t, d), "nothing changed")
		require.Equal(t, []int{300}, setTTLs("www", "A"))

		// Without a TTL a record takes its set's.
		second, err := b.svc.Create(ctx, b.dom, a("192.0.2.2", nil))
		require.NoError(t, err)
		require.Equal(t, 300, second.TTL)

		// Aligning gives the whole set the new TTL, in the same change.
		third, err := b.svc.Create(ctx, b.dom, zone.Input{Type: "A", Name: "www", Content: "192.0.2.3", TTL: new(900), AlignTTL: true})
		require.NoError(t, err)
		require.Equal(t, 900, third.TTL)
		require.Equal(t, []int{900, 900, 900}, setTTLs("www", "A"))

		// Updates: one record's TTL alone is refused; aligned, it is the set's.
		_, err = b.svc.Update(ctx, b.dom, second.ID, a("192.0.2.2", new(600)))
		requireCode(t, err, apperr.Invalid,
			"Records of www A share one TTL (900 seconds): set 900, or change the TTL of the whole set to 600")
		updated, err := b.svc.Update(ctx, b.dom, second.ID, a("192.0.2.20", nil))
		require.NoError(t, err)
		require.Equal(t, 900, updated.TTL, "without a TTL, the set's")
		_, err = b.svc.Update(ctx, b.dom, second.ID, zone.Input{Type: "A", Name: "www", Content: "192.0.2.20", TTL: new(600), AlignTTL: true})
		require.NoError(t, err)
		require.Equal(t, []int{600, 600, 600}, setTTLs("www", "A"))

		// A record moved into another set meets that set's TTL; one alone in
		// its set, or of another type at the name, has a TTL of its own.
		api, err := b.svc.Create(ctx, b.dom, zone.Input{Type: "A", Name: "api", Content: "192.0.2.9", TTL: new(7200)})
		require.NoError(t, err)
		_, err = b.svc.Update(ctx, b.dom, api.ID, zone.Input{Type: "A", Name: "api", Content: "192.0.2.9", TTL: new(1800)})
		require.NoError(t, err)
		_, err = b.svc.Update(ctx, b.dom, api.ID, zone.Input{Type: "A", Name: "www", Content: "192.0.2.9", TTL: new(1800)})
		requireCode(t, err, apperr.Invalid,
			"Records of www A share one TTL (600 seconds): set 600, or change the TTL of the whole set to 1800")
		_, err = b.svc.Create(ctx, b.dom, zone.Input{Type: "AAAA", Name: "www", Content: "2001:db8::1", TTL: new(86400)})
		require.NoError(t, err)
		_, err = b.svc.Create(ctx, b.dom, zone.Input{Type: "MX", Name: "www", Content: "mx.example.com", Priority: new(10), TTL: new(300)})
		require.NoError(t, err)
		_, err = b.svc.Create(ctx, b.dom, zone.Input{Type: "MX", Name: "www", Content: "mx2.example.com", Priority: new(20), TTL: new(600)})
		requireCode(t, err, apperr.Invalid,
			"Records of www MX share one TTL (300 seconds): set 300, or change the TTL of the whole set to 600")

		// Records stored before the rule may differ: they are listed as
		// they are, and a change to their set offers to align them at the
		// lowest, which DNS serves.
		dbtest.MustExec(t, d, `UPDATE dns_records SET ttl = 3600 WHERE id = ?`, first.ID)
		require.Equal(t, []int{3600, 600, 600}, setTTLs("www", "A"))
		_, err = b.svc.Create(ctx, b.dom, a("192.0.2.4", new(600)))
		requireCode(t, err, apperr.Invalid,
			"Records of www A have different TTLs (600 to 3600 seconds), and all are served at 600: change the TTL of the whole set to 600")
		require.Equal(t, 600, apperr.SetTTLOf(err))
		_, err = b.svc.Create(ctx, b.dom, zone.Input{Type: "A", Name: "www", Content: "192.0.2.4", TTL: new(600), AlignTTL: true})
		require.NoError(t, err)
		require.Equal(t, []int{600, 600, 600, 600}, setTTLs("www", "A"))
		// Deleting is never refused.
		require.NoError(t, b.svc.Delete(ctx, b.dom, first.ID))
	})
}

// An imported set gets the lowest TTL its records have in the file, with a
// note on each line whose TTL changed.
func TestImportGivesASetOneTTL(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		file := `$ORIGIN example.inf.nz.
www 3600 IN A 192.0.2.1
@ IN SOA ns1.dns-host.example. hostmaster.example.inf.nz. 2024010101 3600 600 604800 60
www 600 IN A 192.0.2.2
www 60 IN A 192.0.2.3
www 86400 IN AAAA 2001:db8::1
@ 300 IN MX 10 mx1.example.com.
@ 900 IN MX 20 mx2.example.com.
`
		plan, err := b.svc.ApplyImport(ctx, b.dom, file, zone.ImportOptions{})
		require.NoError(t, err)
		require.Equal(t, []zone.Note{
			{Line: 2, Kind: zone.NoteTTL, Message: "Line 2: TTL 3600 lowered to 300 seconds, the lowest of the www A records: the records of one name and type share one TTL"},
			{Line: 3, Kind: zone.NoteSOA, Message: "Line 3: SOA skipped: the registry keeps the SOA record of example.inf.nz"},
			{Line: 4, Kind: zone.NoteTTL, Message: "Line 4: TTL 600 lowered to 300 seconds, the lowest of the www A records: the records of one name and type share one TTL"},
			{Line: 5, Kind: zone.NoteTTL, Message: "Line 5: TTL 60 raised to 300 seconds, the least Nameport serves"},
			{Line: 8, Kind: zone.NoteTTL, Message: "Line 8: TTL 900 lowered to 300 seconds, the lowest of the @ MX records: the records of one name and type share one TTL"},
		}, withoutText(plan.Notes))
		records, err := b.svc.List(ctx, b.dom)
		require.NoError(t, err)
		require.Equal(t, []string{"10 mx1.example.com ttl=300", "20 mx2.example.com ttl=300",
			"192.0.2.1 ttl=300", "192.0.2.2 ttl=300", "192.0.2.3 ttl=300", "2001:db8::1 ttl=86400"}, valuesOf(records))
	})
}

// ReplaceSets writes every set or none: a later set the domain cannot take
// (a CNAME beside a record that stays, or beside an earlier set) leaves the
// records as they were; sets that fit replace their names' records in one
// change.
func TestReplaceSetsAllOrNothing(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		_, err := b.svc.ReplaceSet(ctx, b.dom, zone.Set{Name: "@", Type: "A", Values: []string{"192.0.2.1"}})
		require.NoError(t, err)
		_, err = b.svc.ReplaceSet(ctx, b.dom, zone.Set{Name: "shop", Type: "A", Values: []string{"192.0.2.2"}})
		require.NoError(t, err)
		before, err := b.svc.List(ctx, b.dom)
		require.NoError(t, err)
		version := zoneVersion(t, d)

		err = b.svc.ReplaceSets(ctx, b.dom, []zone.Set{
			{Name: "@", Type: "A", Values: []string{"192.0.2.10"}},
			{Name: "www", Type: "A", Values: []string{"192.0.2.11"}},
			{Name: "shop", Type: "CNAME", Values: []string{"shops.example.com."}},
		})
		requireCode(t, err, apperr.Invalid, "A CNAME record cannot share its name with other records: shop already has A records")
		err = b.svc.ReplaceSets(ctx, b.dom, []zone.Set{
			{Name: "www", Type: "A", Values: []string{"192.0.2.11"}},
			{Name: "www", Type: "CNAME", Values: []string{"example.com."}},
		})
		requireCode(t, err, apperr.Invalid, "A CNAME record cannot share its name with other records: www already has A records")
		after, err := b.svc.List(ctx, b.dom)
		require.NoError(t, err)
		require.Equal(t, before, after, "a refused change writes nothing")
		require.Equal(t, version, zoneVersion(t, d), "nor bumps the zone")

		require.NoError(t, b.svc.ReplaceSets(ctx, b.dom, []zone.Set{
			{Name: "@", Type: "A", Values: []string{"192.0.2.1", "192.0.2.10"}},
			{Name: "www", Type: "CNAME", Values: []string{"example.com."}},
		}))
		after, err = b.svc.List(ctx, b.dom)
		require.NoError(t, err)
		var have []string
		for _, r := range after {
			have = append(have, r.Type+" "+r.Name+" "+r.Content)
			if r.Content == "192.0.2.1" {
				require.Equal(t, before[0].ID, r.ID, "a value that stays keeps its record")
			}
		}
		require.ElementsMatch(t, []string{"A @ 192.0.2.1", "A @ 192.0.2.10", "A shop 192.0.2.2", "CNAME www example.com"}, have)
	})
}
