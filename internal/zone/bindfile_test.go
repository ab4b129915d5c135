package zone_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/zone"
)

func TestExportThenImportChangesNothing(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		create(t, b, "A", "@", "192.0.2.1")
		create(t, b, "AAAA", "@", "2001:db8::1")
		create(t, b, "CNAME", "www", "example.inf.nz")
		create(t, b, "CNAME", "*.dev", "target.example.com")
		create(t, b, "MX", "@", "mail.example.com")
		create(t, b, "TXT", "@", `v=spf1 include:_spf.example.com "quoted" back\slash ~all`)
		create(t, b, "TXT", "long", strings.Repeat("0123456789", 400))
		create(t, b, "TXT", "unicode", "héllo wörld ✓")
		create(t, b, "TXT", "quoted", `"whole value in quotes"`)
		create(t, b, "NS", "sub", "ns1.example.com")
		create(t, b, "SRV", "_sip._tcp", "5 5060 sip.example.com")
		create(t, b, "CAA", "@", `0 issue "letsencrypt.org"`)
		_, err := b.svc.Create(ctx, b.dom, zone.Input{Type: "A", Name: "short", Content: "192.0.2.2", TTL: new(300)})
		require.NoError(t, err)
		before, err := b.svc.List(ctx, b.dom)
		require.NoError(t, err)

		text, err := b.svc.Export(ctx, b.dom)
		require.NoError(t, err)
		require.Contains(t, text, "$ORIGIN example.inf.nz.\n$TTL 3600\n")
		require.Contains(t, text, "@\t3600\tIN\tMX\t10 mail.example.com.\n")
		require.Contains(t, text, "_sip._tcp\t3600\tIN\tSRV\t10 5 5060 sip.example.com.\n")
		require.Contains(t, text, "short\t300\tIN\tA\t192.0.2.2\n")
		require.NotContains(t, text, "IN\tSOA")

		plan, err := b.svc.PreviewImport(ctx, b.dom, text, zone.ImportOptions{})
		require.NoError(t, err)
		require.True(t, plan.Empty(), "%+v", plan)
		require.Equal(t, len(before), plan.Unchanged)

		plan, err = b.svc.ApplyImport(ctx, b.dom, text, zone.ImportOptions{})
		require.NoError(t, err)
		require.True(t, plan.Empty())
		after, err := b.svc.List(ctx, b.dom)
		require.NoError(t, err)
		require.Equal(t, before, after)
	})
}

func TestImportPlansAndApplies(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		keep := create(t, b, "A", "@", "192.0.2.1")
		retune := create(t, b, "MX", "@", "mail.example.com")
		drop := create(t, b, "A", "old", "192.0.2.9")

		file := `$ORIGIN example.inf.nz.
$TTL 3600
; the apex
@            IN A     192.0.2.1
example.inf.nz. 600 IN MX 20 mail.example.com.
www          IN CNAME @
_dmarc       IN TXT   ( "v=DMARC1; "
                        "p=reject" )
`
		plan, err := b.svc.PreviewImport(ctx, b.dom, file, zone.ImportOptions{})
		require.NoError(t, err)
		require.Equal(t, 1, plan.Unchanged)
		require.Len(t, plan.Add, 2)
		require.Equal(t, []string{"www", "_dmarc"}, []string{plan.Add[0].Name, plan.Add[1].Name})
		require.Equal(t, "example.inf.nz", plan.Add[0].Content)
		require.Equal(t, `"v=DMARC1; " "p=reject"`, plan.Add[1].Content, "two strings stay two")
		require.Len(t, plan.Change, 1)
		require.Equal(t, retune.ID, plan.Change[0].ID)
		require.Equal(t, 600, plan.Change[0].TTL)
		require.Equal(t, 20, *plan.Change[0].Priority)
		require.Len(t, plan.Remove, 1)
		require.Equal(t, drop.ID, plan.Remove[0].ID)

		unchanged, err := b.svc.List(ctx, b.dom)
		require.NoError(t, err)
		require.Len(t, unchanged, 3, "a preview changes nothing")

		applied, err := b.svc.ApplyImport(ctx, b.dom, file, zone.ImportOptions{})
		require.NoError(t, err)
		require.Equal(t, plan.Unchanged, applied.Unchanged)
		require.Len(t, applied.Add, 2)
		require.NotZero(t, applied.Add[0].ID)

		records, err := b.svc.List(ctx, b.dom)
		require.NoError(t, err)
		require.Len(t, records, 4)
		byName := map[string]zone.Record{}
		for _, r := range records {
			byName[r.Name+" "+r.Type] = r
		}
		require.Equal(t, keep.ID, byName["@ A"].ID, "kept records keep their id")
		require.Equal(t, retune.ID, byName["@ MX"].ID)
		require.Equal(t, 600, byName["@ MX"].TTL)
		require.Equal(t, 20, *byName["@ MX"].Priority)
		require.NotContains(t, byName, "old A")

		again, err := b.svc.PreviewImport(ctx, b.dom, file, zone.ImportOptions{})
		require.NoError(t, err)
		require.True(t, again.Empty())
	})
}

func TestImportRefusesWhatItCannotTake(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		create(t, b, "A", "@", "192.0.2.1")
		tests := []struct{ file, want string }{
			{"www IN A 192.0.2.1\nwww.other.com. IN A 192.0.2.2\n", "Line 2: www.other.com. is outside example.inf.nz"},
			{"; comment\n\n1 IN PTR host.example.com.\n", "Line 3: record type PTR is not supported (supported: A, AAAA, CNAME, MX, TXT, NS, SRV, CAA)"},
			{"www IN A 192.0.2.1\nwww CH A 192.0.2.2\n", "Line 2: only class IN is supported"},
			{"www IN A 192.0.2.1\napi IN A 192.0.2\n", `Line 2: cannot read the record: bad A A: "192.0.2"`},
			{"@ IN CNAME example.com.\n", "Line 1: A CNAME record cannot be at the domain apex (@); use A or AAAA records there"},
			{"www IN A 192.0.2.1\nx IN A 192.0.2.1\nWWW.example.inf.nz. IN A 192.0.2.1\n", "Line 3: the same record as line 1"},
			{"www IN A 192.0.2.1\nwww IN CNAME example.com.\n", "Line 2: A CNAME record cannot share its name with other records: www already has A records"},
			{"$INCLUDE /etc/passwd\n", `Line 1: cannot read the record: $INCLUDE directive not allowed: "/etc/passwd"`},
			{"; nothing\n", "The zone file contains no records"},
			{"", "The zone file contains no records"},
			{strings.Repeat("; padding\n", zone.MaxZoneFile/10+1), "The zone file is too large: at most 512 KB"},
			// A type miekg/dns does not know, and one it knows by number only.
			{"www IN A 192.0.2.1\nhost IN WKS 192.0.2.1 TCP smtp\n", "Line 2: record type WKS is not supported (supported: A, AAAA, CNAME, MX, TXT, NS, SRV, CAA)"},
			{"www IN TYPE65226 \\# 1 00\n", "Line 1: record type TYPE65226 is not supported (supported: A, AAAA, CNAME, MX, TXT, NS, SRV, CAA)"},
		}
		// A line that cannot be imported, or read, is skipped with a note,
		// and the others can be imported; a file that holds nothing else is
		// refused whole, naming the line.
		var partial []string
		for _, tt := range tests {
			plan, err := b.svc.PreviewImport(ctx, b.dom, tt.file, zone.ImportOptions{})
			if err != nil {
				requireCode(t, err, apperr.Invalid, tt.want)
				_, err = b.svc.ApplyImport(ctx, b.dom, tt.file, zone.ImportOptions{})
				requireCode(t, err, apperr.Invalid, tt.want)
				continue
			}
			require.Len(t, plan.Notes, 1, tt.file)
			require.Equal(t, zone.Note{Line: plan.Notes[0].Line, Kind: zone.NoteRefused, Message: tt.want}, withoutText(plan.Notes)[0])
			partial = append(partial, tt.file)
		}
		records, err := b.svc.List(ctx, b.dom)
		require.NoError(t, err)
		require.Len(t, records, 1, "a refused import changes nothing")
		require.Len(t, partial, 6, "the files with a good line and a bad one (readable or not)")

		// Applied, the good lines are imported and the bad one is not.
		plan, err := b.svc.ApplyImport(ctx, b.dom, partial[0], zone.ImportOptions{})
		require.NoError(t, err)
		require.Equal(t, "Line 2: www.other.com. is outside example.inf.nz", plan.Notes[0].Message)
		records, err = b.svc.List(ctx, b.dom)
		require.NoError(t, err)
		require.Len(t, records, 1)
		require.Equal(t, "www", records[0].Name)
	})
}

// Every zone file has NS records at its apex. Kept, they would delegate the
// domain away and nothing else of the file would be served; so an import
// skips them, saying so line by line, unless the user keeps the delegation.
func TestImportSkipsApexNSUnlessDelegating(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		file := `$ORIGIN example.inf.nz.
@     IN NS  ns1.dns-host.example.
@     IN NS  NS2.dns-host.example.
www   IN A   192.0.2.10
lab   IN NS  ns.lab.example.net.
`
		plan, err := b.svc.PreviewImport(ctx, b.dom, file, zone.ImportOptions{})
		require.NoError(t, err)
		require.Len(t, plan.Add, 2, "www and the delegation of lab, a name below the apex")
		require.Equal(t, []string{"A", "NS"}, []string{plan.Add[0].Type, plan.Add[1].Type})
		require.Len(t, plan.Notes, 2)
		require.Equal(t, zone.Note{Line: 2, Kind: zone.NoteApexNS, Message: "Line 2: NS ns1.dns-host.example at the apex skipped: " +
			"it would delegate example.inf.nz to other name servers, and none of the file's other records would be served. " +
			"Keep the delegation to import it."}, withoutText(plan.Notes)[0])
		require.Equal(t, 3, plan.Notes[1].Line)
		require.Contains(t, plan.Notes[1].Message, "NS ns2.dns-host.example at the apex skipped")

		applied, err := b.svc.ApplyImport(ctx, b.dom, file, zone.ImportOptions{})
		require.NoError(t, err)
		require.Equal(t, plan.Notes, applied.Notes)
		records, err := b.svc.List(ctx, b.dom)
		require.NoError(t, err)
		require.Len(t, records, 2)
		for _, r := range records {
			require.False(t, r.Type == "NS" && r.Name == "@", "no apex NS stored: the domain stays served here")
		}

		// Keeping the delegation imports them, and says nothing.
		plan, err = b.svc.PreviewImport(ctx, b.dom, file, zone.ImportOptions{Delegate: true})
		require.NoError(t, err)
		require.Empty(t, plan.Notes)
		require.Len(t, plan.Add, 2, "the two apex NS")
		for _, r := range plan.Add {
			require.Equal(t, "NS", r.Type)
			require.Equal(t, "@", r.Name)
		}

		// A file of apex NS alone says what to do.
		_, err = b.svc.PreviewImport(ctx, b.dom, "@ IN NS ns1.dns-host.example.\n", zone.ImportOptions{})
		requireCode(t, err, apperr.Invalid, "The zone file holds only NS records at the apex: keep the delegation to import them")
	})
}

// What every real zone file holds and Nameport does not take as it is: the
// SOA is skipped, a TTL out of bounds moved to the nearest; each said.
func TestImportSkipsTheSOAAndBoundsTTLs(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		file := `$ORIGIN example.inf.nz.
@ IN SOA ns1.dns-host.example. hostmaster.example.inf.nz. 2024010101 3600 600 604800 60
www 60 IN A 192.0.2.1
api 0 IN A 192.0.2.2
old 2000000 IN A 192.0.2.3
ok 3600 IN A 192.0.2.4
`
		plan, err := b.svc.ApplyImport(ctx, b.dom, file, zone.ImportOptions{})
		require.NoError(t, err)
		require.Equal(t, []zone.Note{
			{Line: 2, Kind: zone.NoteSOA, Message: "Line 2: SOA skipped: the registry keeps the SOA record of example.inf.nz"},
			{Line: 3, Kind: zone.NoteTTL, Message: "Line 3: TTL 60 raised to 300 seconds, the least Nameport serves"},
			{Line: 4, Kind: zone.NoteTTL, Message: "Line 4: TTL 0 raised to 300 seconds, the least Nameport serves"},
			{Line: 5, Kind: zone.NoteTTL, Message: "Line 5: TTL 2000000 lowered to 604800 seconds (a week), the most Nameport serves"},
		}, withoutText(plan.Notes))
		ttls := map[string]int{}
		records, err := b.svc.List(ctx, b.dom)
		require.NoError(t, err)
		for _, r := range records {
			ttls[r.Name] = r.TTL
		}
		require.Equal(t, map[string]int{"www": 300, "api": 300, "old": 604800, "ok": 3600}, ttls)
	})
}

// The parser stops at the first record it cannot read; the import reads on
// after it, as the rest of the file says ($ORIGIN, $TTL, the owner a line
// without one inherits, a record over several lines).
func TestImportReadsPastWhatItCannotRead(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		file := `$TTL 600
www      IN A     192.0.2.1
gpos     IN GPOS  "-22.6882" "116.8652" "250.0"
         IN A     192.0.2.2
$ORIGIN sub.example.inf.nz.
host     IN WKS   192.0.2.1 TCP ( smtp
                  domain )
         IN A     192.0.2.3
api      IN A     192.0.2
$TTL 900
mail     IN A     192.0.2.25
@        IN MX    10 mail
`
		plan, err := b.svc.PreviewImport(ctx, b.dom, file, zone.ImportOptions{})
		require.NoError(t, err)
		require.Equal(t, []zone.Note{
			{Line: 3, Kind: zone.NoteRefused, Text: `gpos     IN GPOS  "-22.6882" "116.8652" "250.0"`,
				Message: "Line 3: record type GPOS is not supported (supported: A, AAAA, CNAME, MX, TXT, NS, SRV, CAA)"},
			{Line: 6, Kind: zone.NoteRefused, Text: "host     IN WKS   192.0.2.1 TCP ( smtp",
				Message: "Line 6: record type WKS is not supported (supported: A, AAAA, CNAME, MX, TXT, NS, SRV, CAA)"},
			{Line: 9, Kind: zone.NoteRefused, Text: "api      IN A     192.0.2",
				Message: `Line 9: cannot read the record: bad A A: "192.0.2"`},
		}, plan.Notes, "each note quotes its line")
		var got []string
		for _, r := range plan.Add {
			got = append(got, fmt.Sprintf("%s %d %s %s", r.Name, r.TTL, r.Type, r.Content))
		}
		require.ElementsMatch(t, []string{
			"www 600 A 192.0.2.1",
			"gpos 600 A 192.0.2.2",     // the owner of the line that failed
			"host.sub 600 A 192.0.2.3", // the record over two lines skipped whole
			"mail.sub 900 A 192.0.2.25",
			"sub 900 MX mail.sub.example.inf.nz",
		}, got)

		// A file of nothing but unreadable lines is refused, naming the first.
		_, err = b.svc.PreviewImport(ctx, b.dom, "a IN A 1\nb IN A 2\n", zone.ImportOptions{})
		requireCode(t, err, apperr.Invalid, `Line 1: cannot read the record: bad A A: "1"`)
		// A file that is no zone file is not read to its end.
		_, err = b.svc.PreviewImport(ctx, b.dom, strings.Repeat("x IN A 1\n", 2000), zone.ImportOptions{})
		requireCode(t, err, apperr.Invalid, "The zone file has more than 1000 records that cannot be read: is it a zone file?")
	})
}
