package zone_test

import (
	"context"
	"testing"

	"github.com/miekg/dns"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/zone"
)

// What named-checkzone and kzonecheck refuse is refused, with a message,
// on every path and from either side: the record naming a host, and the
// host's own records.
func TestTargetRules(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		other := registerDomain(t, d, "other", ".inf.nz", b.now.AddDate(1, 0, 0))
		create(t, b, "CNAME", "alias", "real.example.com")
		create(t, b, "CNAME", "*.wild", "real.example.com")
		create(t, b, "A", "host.wild", "192.0.2.5")
		create(t, b, "A", "ns1.sub", "192.0.2.53")
		create(t, b, "NS", "sub", "ns1.sub.example.inf.nz")
		_, err := b.svc.Create(ctx, other, zone.Input{Type: "CNAME", Name: "mx", Content: "real.example.com"})
		require.NoError(t, err)
		before := zoneVersion(t, d)

		tests := []struct {
			in   zone.Input
			want string
		}{
			{zone.Input{Type: "MX", Name: "@", Content: "192.0.2.1", Priority: ptr(10)},
				"Mail server must be a host name, not an IP address: give the address an A record (like mail.example.inf.nz) and name that host"},
			{zone.Input{Type: "MX", Name: "@", Content: "192.0.2.1.", Priority: ptr(10)},
				"Mail server must be a host name, not an IP address: give the address an A record (like mail.example.inf.nz) and name that host"},
			{zone.Input{Type: "NS", Name: "lab", Content: "198.51.100.1"},
				"Nameserver must be a host name, not an IP address: give the address an A record (like ns1.example.inf.nz) and name that host"},
			{zone.Input{Type: "SRV", Name: "_sip._tcp", Content: "10 5 5060 192.0.2.1"},
				"SRV target must be a host name, not an IP address: give the address an A record (like sip.example.inf.nz) and name that host"},
			// A CNAME in this domain, exact or through a wildcard.
			{zone.Input{Type: "MX", Name: "@", Content: "alias.example.inf.nz", Priority: ptr(10)},
				"MX records cannot point to a CNAME: alias.example.inf.nz is an alias of real.example.com; name the host itself instead"},
			{zone.Input{Type: "NS", Name: "lab", Content: "x.wild.example.inf.nz"},
				"NS records cannot point to a CNAME: x.wild.example.inf.nz is an alias of real.example.com; name the host itself instead"},
			{zone.Input{Type: "SRV", Name: "_sip._tcp", Content: "10 5 5060 alias.example.inf.nz"},
				"SRV records cannot point to a CNAME: alias.example.inf.nz is an alias of real.example.com; name the host itself instead"},
			// A CNAME in another customer's domain.
			{zone.Input{Type: "MX", Name: "@", Content: "mx.other.inf.nz", Priority: ptr(10)},
				"MX records cannot point to a CNAME: mx.other.inf.nz is an alias of real.example.com; name the host itself instead"},
			// An in-domain name server without an address.
			{zone.Input{Type: "NS", Name: "lab", Content: "ns1.lab.example.inf.nz"},
				"Name server ns1.lab.example.inf.nz is inside example.inf.nz, so it needs an A or AAAA record there"},
		}
		for _, tt := range tests {
			_, err := b.svc.Create(ctx, b.dom, tt.in)
			requireCode(t, err, apperr.Invalid, tt.want)
		}
		require.Equal(t, before, zoneVersion(t, d), "nothing changed")

		// What is fine: a host with its own records below a wildcard, an
		// outside host, a name server with its address, the null MX.
		create(t, b, "MX", "@", "host.wild.example.inf.nz")
		create(t, b, "MX", "@", "mail.example.com")
		create(t, b, "MX", "nomail", ".")
		create(t, b, "SRV", "_sip._tcp", "5 5060 sip.example.com")
		mx := findRecord(t, b, "@", "MX")

		// The other side: a host named by an MX, NS or SRV record cannot
		// become an alias, here or in another domain, and a name server
		// keeps its address.
		_, err = b.svc.Create(ctx, b.dom, zone.Input{Type: "A", Name: "mx", Content: "192.0.2.25"})
		require.NoError(t, err)
		_, err = b.svc.Create(ctx, other, zone.Input{Type: "MX", Name: "@", Content: "mx.example.inf.nz", Priority: ptr(10)})
		require.NoError(t, err)
		mxHost := findRecord(t, b, "mx", "A")
		_, err = b.svc.Update(ctx, b.dom, mxHost.ID, zone.Input{Type: "CNAME", Name: "mx", Content: "real.example.com"})
		requireCode(t, err, apperr.Invalid, "mx.example.inf.nz would become an alias (CNAME), but the MX record of other.inf.nz names it: "+
			"MX, NS and SRV records must name a host, not an alias")
		_, err = b.svc.Create(ctx, b.dom, zone.Input{Type: "CNAME", Name: "*", Content: "real.example.com"})
		require.NoError(t, err, "a wildcard below the apex does not cover names that exist")

		glue := findRecord(t, b, "ns1.sub", "A")
		requireCode(t, b.svc.Delete(ctx, b.dom, glue.ID), apperr.Invalid,
			"ns1.sub.example.inf.nz must keep an A or AAAA record: the NS record of sub.example.inf.nz names it as a name server")
		_, err = b.svc.Update(ctx, b.dom, glue.ID, zone.Input{Type: "A", Name: "ns2.sub", Content: "192.0.2.53"})
		requireCode(t, err, apperr.Invalid,
			"ns1.sub.example.inf.nz must keep an A or AAAA record: the NS record of sub.example.inf.nz names it as a name server")
		// Removing the record that keeps host.wild from the wildcard CNAME
		// would make the MX name an alias.
		wildHost := findRecord(t, b, "host.wild", "A")
		requireCode(t, b.svc.Delete(ctx, b.dom, wildHost.ID), apperr.Invalid,
			"host.wild.example.inf.nz would become an alias (CNAME), but the MX record of example.inf.nz names it: "+
				"MX, NS and SRV records must name a host, not an alias")
		_, err = b.svc.Update(ctx, b.dom, mx.ID, zone.Input{Type: "MX", Name: "@", Content: "alias.example.inf.nz", Priority: ptr(10)})
		requireCode(t, err, apperr.Invalid,
			"MX records cannot point to a CNAME: alias.example.inf.nz is an alias of real.example.com; name the host itself instead")

		// The set operations of /v1 keep the same rules.
		_, err = b.svc.ReplaceSet(ctx, b.dom, zone.Set{Name: "@", Type: "MX", Values: []string{"10 alias.example.inf.nz"}})
		requireCode(t, err, apperr.Invalid,
			"MX records cannot point to a CNAME: alias.example.inf.nz is an alias of real.example.com; name the host itself instead")
		_, err = b.svc.ReplaceSet(ctx, b.dom, zone.Set{Name: "lab", Type: "NS", Values: []string{"ns1.lab.example.inf.nz"}})
		requireCode(t, err, apperr.Invalid, "Name server ns1.lab.example.inf.nz is inside example.inf.nz, so it needs an A or AAAA record there")
		_, err = b.svc.ReplaceSet(ctx, b.dom, zone.Set{Name: "mx", Type: "A", Values: []string{"192.0.2.26"}})
		require.NoError(t, err, "a host named by an MX may change its address")
		requireCode(t, b.svc.DeleteSet(ctx, b.dom, "ns1.sub", "A"), apperr.Invalid,
			"ns1.sub.example.inf.nz must keep an A or AAAA record: the NS record of sub.example.inf.nz names it as a name server")
		_, err = b.svc.ReplaceSet(ctx, b.dom, zone.Set{Name: "ns1.sub", Type: "A", Values: []string{"192.0.2.54"}})
		require.NoError(t, err, "a name server's address may change")
		glue = findRecord(t, b, "ns1.sub", "A")

		// Once nothing names them, they can go.
		require.NoError(t, b.svc.Delete(ctx, b.dom, findRecord(t, b, "sub", "NS").ID))
		require.NoError(t, b.svc.Delete(ctx, b.dom, glue.ID))
	})
}

// An import skips the lines that break the rules, saying why, and imports
// the rest.
func TestImportRefusesTargetBreaches(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		other := registerDomain(t, d, "other", ".inf.nz", b.now.AddDate(1, 0, 0))
		_, err := b.svc.Create(ctx, other, zone.Input{Type: "CNAME", Name: "mx", Content: "real.example.com"})
		require.NoError(t, err)
		_, err = b.svc.Create(ctx, other, zone.Input{Type: "MX", Name: "@", Content: "named.example.inf.nz", Priority: ptr(5)})
		require.NoError(t, err)
		file := `$ORIGIN example.inf.nz.
@        IN MX  10 192.0.2.1
@        IN MX  20 alias
@        IN MX  30 mx.other.inf.nz.
@        IN MX  40 mail
alias    IN CNAME real.example.com.
mail     IN A   192.0.2.25
lab      IN NS  ns1.lab
lab      IN NS  ns.example.net.
named    IN CNAME real.example.com.
`
		plan, err := b.svc.PreviewImport(ctx, b.dom, file, zone.ImportOptions{})
		require.NoError(t, err)
		require.Equal(t, []zone.Note{
			{Line: 2, Kind: zone.NoteRefused, Message: "Line 2: Mail server must be a host name, not an IP address: give the address an A record (like mail.example.inf.nz) and name that host"},
			{Line: 3, Kind: zone.NoteRefused, Message: "Line 3: MX records cannot point to a CNAME: alias.example.inf.nz is an alias of real.example.com; name the host itself instead"},
			{Line: 4, Kind: zone.NoteRefused, Message: "Line 4: MX records cannot point to a CNAME: mx.other.inf.nz is an alias of real.example.com; name the host itself instead"},
			{Line: 8, Kind: zone.NoteRefused, Message: "Line 8: Name server ns1.lab.example.inf.nz is inside example.inf.nz, so it needs an A or AAAA record there"},
			{Line: 10, Kind: zone.NoteRefused, Message: "Line 10: named.example.inf.nz would become an alias (CNAME), but the MX record of other.inf.nz names it: MX, NS and SRV records must name a host, not an alias"},
		}, withoutText(plan.Notes))
		applied, err := b.svc.ApplyImport(ctx, b.dom, file, zone.ImportOptions{})
		require.NoError(t, err)
		require.Equal(t, plan.Notes, applied.Notes)
		records, err := b.svc.List(ctx, b.dom)
		require.NoError(t, err)
		var got []string
		for _, r := range records {
			got = append(got, r.Name+" "+r.Type+" "+r.Content)
		}
		require.Equal(t, []string{"@ MX mail.example.inf.nz", "alias CNAME real.example.com", "lab NS ns.example.net", "mail A 192.0.2.25"}, got)
	})
}

// TXT strings are kept as given: several strings stay several, in storage,
// export and the DNS answer; plain text is split into 255-byte strings as
// it always was.
func TestTXTStringsAreKept(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		long := ""
		for range 30 {
			long += "0123456789"
		}
		tests := []struct {
			name, content, stored string
			strings               []string // as miekg/dns holds them (escaped)
		}{
			{"two", `"foo" "bar"`, `"foo" "bar"`, []string{"foo", "bar"}},
			{"spf", `"v=spf1 " "-all"`, `"v=spf1 " "-all"`, []string{"v=spf1 ", "-all"}},
			{"one", `"foobar"`, "foobar", []string{"foobar"}},
			{"plain", "v=spf1 -all", "v=spf1 -all", []string{"v=spf1 -all"}},
			{"plain-long", long, long, []string{long[:255], long[255:]}},
			{"quoted-long", `"` + long[:100] + `" "` + long[100:] + `"`, `"` + long[:100] + `" "` + long[100:] + `"`, []string{long[:100], long[100:]}},
			{"quotes", `"say \"hi\"" "a\\b"`, `"say \"hi\"" "a\\b"`, []string{`say \"hi\"`, `a\\b`}},
			{"adjacent", `"a""b"`, `"a" "b"`, []string{"a", "b"}},
			{"unclosed", `"a" "b`, `"a" "b`, []string{`\"a\" \"b`}},
			{"decimal", `"\065" "B"`, `"A" "B"`, []string{"A", "B"}},
		}
		for _, tt := range tests {
			rec, err := b.svc.Create(ctx, b.dom, zone.Input{Type: "TXT", Name: tt.name, Content: tt.content})
			require.NoError(t, err, tt.content)
			require.Equal(t, tt.stored, rec.Content, tt.content)
			rr, err := rec.RR(b.dom.FQDN())
			require.NoError(t, err)
			require.Equal(t, tt.strings, rr.(*dns.TXT).Txt, tt.content)
		}
		_, err := b.svc.Create(ctx, b.dom, zone.Input{Type: "TXT", Name: "x", Content: `"` + long + `"`})
		requireCode(t, err, apperr.Invalid, `Each quoted TXT string can be at most 255 bytes: split a longer text into several strings, like "first part" "second part"`)
		_, err = b.svc.Create(ctx, b.dom, zone.Input{Type: "TXT", Name: "x", Content: `"a" "\010"`})
		requireCode(t, err, apperr.Invalid, "TXT content cannot contain control characters (such as line breaks)")
		_, err = b.svc.Create(ctx, b.dom, zone.Input{Type: "TXT", Name: "x", Content: `"" ""`})
		requireCode(t, err, apperr.Invalid, "Record content is required")

		text, err := b.svc.Export(ctx, b.dom)
		require.NoError(t, err)
		require.Contains(t, text, "two\t3600\tIN\tTXT\t\"foo\" \"bar\"\n")
		require.Contains(t, text, "one\t3600\tIN\tTXT\t\"foobar\"\n")
		plan, err := b.svc.PreviewImport(ctx, b.dom, text, zone.ImportOptions{})
		require.NoError(t, err)
		require.True(t, plan.Empty(), "the export imports as it is: %+v", plan)
	})
}

// An import recognises the extension's own name servers at the apex: they
// serve the domain already, so nothing changes and no choice is asked for.
func TestImportRecognisesOwnNameservers(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		addExtension(t, d, ".biz.ee", true, `["NS1.nameport.net", "ns2.nameport.net."]`)
		b := setup(t, d)
		ctx := context.Background()
		dom := registerDomain(t, d, "shop", ".biz.ee", b.now.AddDate(1, 0, 0))
		file := `$ORIGIN shop.biz.ee.
@     IN NS  ns1.nameport.net.
@     IN NS  ns2.nameport.net.
www   IN A   192.0.2.10
`
		plan, err := b.svc.PreviewImport(ctx, dom, file, zone.ImportOptions{})
		require.NoError(t, err)
		require.Equal(t, []zone.Note{
			{Line: 2, Kind: zone.NoteOwnNS, Message: "Line 2: NS ns1.nameport.net at the apex is one of Nameport's own name servers, which serve shop.biz.ee already: nothing to change"},
			{Line: 3, Kind: zone.NoteOwnNS, Message: "Line 3: NS ns2.nameport.net at the apex is one of Nameport's own name servers, which serve shop.biz.ee already: nothing to change"},
		}, withoutText(plan.Notes), "no apex_ns: nothing to choose")
		require.Len(t, plan.Add, 1)
		require.Equal(t, "A", plan.Add[0].Type)

		// Kept with the delegation too: a domain is not delegated to the
		// servers that serve it.
		plan, err = b.svc.ApplyImport(ctx, dom, file+"@ IN NS ns.elsewhere.example.\n", zone.ImportOptions{Delegate: true})
		require.NoError(t, err)
		require.Equal(t, []string{zone.NoteOwnNS, zone.NoteOwnNS}, []string{plan.Notes[0].Kind, plan.Notes[1].Kind})
		records, err := b.svc.List(ctx, dom)
		require.NoError(t, err)
		require.Len(t, records, 2)
		require.Equal(t, "ns.elsewhere.example", records[0].Content)

		// Another extension's name servers are not this one's.
		plan, err = b.svc.PreviewImport(ctx, b.dom, "$ORIGIN example.inf.nz.\n@ NS ns1.nameport.net.\nwww A 192.0.2.1\n", zone.ImportOptions{})
		require.NoError(t, err)
		require.Equal(t, zone.NoteApexNS, plan.Notes[0].Kind)

		// An extension without configured name servers is served from ns1
		// and ns2 under it (as the DNS server publishes them).
		addExtension(t, d, ".orgn.uk", true, `[]`)
		plain := registerDomain(t, d, "plain", ".orgn.uk", b.now.AddDate(1, 0, 0))
		plan, err = b.svc.PreviewImport(ctx, plain, "$ORIGIN plain.orgn.uk.\n@ NS ns1.orgn.uk.\n@ NS ns2.orgn.uk.\nwww A 192.0.2.1\n", zone.ImportOptions{})
		require.NoError(t, err)
		require.Equal(t, []string{zone.NoteOwnNS, zone.NoteOwnNS}, []string{plan.Notes[0].Kind, plan.Notes[1].Kind})
		require.Len(t, plan.Notes, 2)

		_, err = b.svc.PreviewImport(ctx, dom, "@ NS ns1.nameport.net.\n", zone.ImportOptions{})
		requireCode(t, err, apperr.Invalid, "The zone file holds only the NS records of Nameport's own name servers, which serve the domain already: there is nothing to import")
	})
}
