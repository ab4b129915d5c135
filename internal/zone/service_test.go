package zone_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/zone"
)

func TestValidationMessages(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		tests := []struct {
			in   zone.Input
			want string
		}{
			{zone.Input{Type: "", Name: "www", Content: "192.0.2.1"}, "Record type is required"},
			{zone.Input{Type: "PTR", Name: "www", Content: "x.example.com"}, "Record type must be one of A, AAAA, CNAME, MX, TXT, NS, SRV, CAA"},
			{zone.Input{Type: "A", Name: " ", Content: "192.0.2.1"}, "Record name is required"},
			{zone.Input{Type: "A", Name: "www", Content: "  "}, "Record content is required"},
			{zone.Input{Type: "A", Name: "www", Content: "192.0.2.1", TTL: new(299)}, "TTL must be at least 300 seconds"},
			{zone.Input{Type: "A", Name: "www", Content: "192.0.2.1", TTL: new(604801)}, "TTL must be at most 604800 seconds (a week)"},
			{zone.Input{Type: "A", Name: "www", Content: "192.0.2.1", TTL: new(-5)}, "TTL must be at least 300 seconds"},
			{zone.Input{Type: "A", Name: "www", Content: "192.0.2.1", TTL: new(0)}, "TTL must be at least 300 seconds"},
			{zone.Input{Type: "A", Name: "www", Content: "2001:db8::1"}, "A record content must be an IPv4 address, like 192.0.2.1"},
			{zone.Input{Type: "A", Name: "www", Content: "192.0.2"}, "A record content must be an IPv4 address, like 192.0.2.1"},
			{zone.Input{Type: "AAAA", Name: "www", Content: "192.0.2.1"}, "AAAA record content must be an IPv6 address, like 2001:db8::1"},
			{zone.Input{Type: "AAAA", Name: "www", Content: "::ffff:192.0.2.1"}, "AAAA record content must be an IPv6 address, like 2001:db8::1"},
			{zone.Input{Type: "CNAME", Name: "@", Content: "example.com"}, "A CNAME record cannot be at the domain apex (@); use A or AAAA records there"},
			{zone.Input{Type: "CNAME", Name: "example.inf.nz.", Content: "example.com"}, "A CNAME record cannot be at the domain apex (@); use A or AAAA records there"},
			{zone.Input{Type: "CNAME", Name: "www", Content: "not a host"}, "CNAME target must be a host name, like www.example.com"},
			{zone.Input{Type: "CNAME", Name: "www", Content: "localhost"}, "CNAME target must be a host name, like www.example.com"},
			{zone.Input{Type: "CNAME", Name: "www", Content: "www.example.inf.nz."}, "A CNAME record cannot point to itself"},
			{zone.Input{Type: "MX", Name: "@", Content: "mail.example.com"}, "MX records need a priority from 0 to 65535"},
			{zone.Input{Type: "MX", Name: "@", Content: "mail.example.com", Priority: ptr(65536)}, "Priority must be between 0 and 65535"},
			{zone.Input{Type: "MX", Name: "@", Content: "mail.example.com", Priority: ptr(-1)}, "Priority must be between 0 and 65535"},
			{zone.Input{Type: "MX", Name: "@", Content: "mail_x.example.com", Priority: ptr(1)}, "Mail server must be a host name, like mail.example.com"},
			{zone.Input{Type: "NS", Name: "sub", Content: "ns1"}, "Nameserver must be a host name, like ns1.example.com"},
			{zone.Input{Type: "NS", Name: "*.sub", Content: "ns1.example.com"}, "NS records cannot be at a wildcard name"},
			{zone.Input{Type: "TXT", Name: "@", Content: strings.Repeat("x", 4001)}, "TXT content must be at most 4000 characters"},
			{zone.Input{Type: "TXT", Name: "@", Content: "line\nbreak"}, "TXT content cannot contain control characters (such as line breaks)"},
			{zone.Input{Type: "TXT", Name: "@", Content: `""`}, "Record content is required"},
			{zone.Input{Type: "SRV", Name: "sip", Content: "5 5060 sip.example.com", Priority: ptr(1)}, "SRV record names must look like _service._proto, for example _sip._tcp"},
			{zone.Input{Type: "SRV", Name: "_sip", Content: "5 5060 sip.example.com", Priority: ptr(1)}, "SRV record names must look like _service._proto, for example _sip._tcp"},
			{zone.Input{Type: "SRV", Name: "_sip._tcp", Content: "5 5060 sip.example.com"}, "SRV records need a priority from 0 to 65535"},
			{zone.Input{Type: "SRV", Name: "_sip._tcp", Content: "5060 sip.example.com", Priority: ptr(1)}, `SRV content must be "weight port target", for example "5 5060 sip.example.com" (with the priority in its own field), or "priority weight port target"`},
			{zone.Input{Type: "SRV", Name: "_sip._tcp", Content: "1 5 5060 sip.example.com", Priority: ptr(1)}, `SRV content must be "weight port target", for example "5 5060 sip.example.com" (with the priority in its own field), or "priority weight port target"`},
			{zone.Input{Type: "SRV", Name: "_sip._tcp", Content: "70000 5 5060 sip.example.com"}, "Priority must be between 0 and 65535"},
			{zone.Input{Type: "SRV", Name: "_sip._tcp", Content: "x 5060 sip.example.com", Priority: ptr(1)}, "SRV weight must be a number from 0 to 65535"},
			{zone.Input{Type: "SRV", Name: "_sip._tcp", Content: "5 65536 sip.example.com", Priority: ptr(1)}, "SRV port must be a number from 0 to 65535"},
			{zone.Input{Type: "SRV", Name: "_sip._tcp", Content: "5 5060 sip", Priority: ptr(1)}, "SRV target must be a host name, like sip.example.com"},
			{zone.Input{Type: "CAA", Name: "@", Content: "issue"}, `CAA content must be "flags tag value", for example 0 issue "letsencrypt.org"`},
			{zone.Input{Type: "CAA", Name: "@", Content: "x issue \"ca.example\""}, `CAA content must be "flags tag value", for example 0 issue "letsencrypt.org"`},
			{zone.Input{Type: "CAA", Name: "@", Content: "256 issue \"ca.example\""}, "CAA flags must be between 0 and 255"},
			{zone.Input{Type: "CAA", Name: "@", Content: "0 issuer \"ca.example\""}, "CAA tag must be one of issue, issuewild, issuemail, iodef, contactemail, contactphone"},
			{zone.Input{Type: "CAA", Name: "@", Content: "0 iodef \"ftp://x\""}, "CAA iodef value must be a mailto: or https: URL"},
			{zone.Input{Type: "CAA", Name: "@", Content: "0 issue \"a\"b\""}, "CAA value must be at most 255 printable ASCII characters, without quotes or backslashes"},
			{zone.Input{Type: "A", Name: "www.other.com.", Content: "192.0.2.1"}, "Record name www.other.com. is not inside example.inf.nz"},
			{zone.Input{Type: "A", Name: "a..b", Content: "192.0.2.1"}, `Record name "a..b" is not valid: each label is 1 to 63 letters, digits, hyphens or underscores, and cannot start or end with a hyphen`},
			{zone.Input{Type: "A", Name: "-www", Content: "192.0.2.1"}, `Record name "-www" is not valid: each label is 1 to 63 letters, digits, hyphens or underscores, and cannot start or end with a hyphen`},
			{zone.Input{Type: "A", Name: strings.Repeat("a", 64), Content: "192.0.2.1"}, `Record name "` + strings.Repeat("a", 64) + `" is not valid: each label is 1 to 63 letters, digits, hyphens or underscores, and cannot start or end with a hyphen`},
			{zone.Input{Type: "A", Name: "wé", Content: "192.0.2.1"}, `Record name "wé" is not valid: each label is 1 to 63 letters, digits, hyphens or underscores, and cannot start or end with a hyphen`},
			{zone.Input{Type: "A", Name: "_x", Content: "192.0.2.1"}, "Underscores are only allowed in TXT, SRV and CNAME record names (like _dmarc)"},
			{zone.Input{Type: "A", Name: "a.*", Content: "192.0.2.1"}, "A wildcard (*) can only be the first label of a record name, like * or *.dev"},
			{zone.Input{Type: "A", Name: "*x", Content: "192.0.2.1"}, `Record name "*x" is not valid: each label is 1 to 63 letters, digits, hyphens or underscores, and cannot start or end with a hyphen`},
			{zone.Input{Type: "A", Name: strings.Repeat("abcdefghi.", 24) + "x", Content: "192.0.2.1"}, "Record name is too long: the full name must be at most 253 characters"},
		}
		for _, tt := range tests {
			_, err := b.svc.Create(ctx, b.dom, tt.in)
			requireCode(t, err, apperr.Invalid, tt.want)
		}
		records, err := b.svc.List(ctx, b.dom)
		require.NoError(t, err)
		require.Empty(t, records, "nothing invalid was stored")
	})
}

// A refused record names the field its message is about, so the form can
// show the message beside it; a refusal about the whole record names none.
func TestValidationNamesTheField(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		tests := []struct {
			in    zone.Input
			field string
		}{
			{zone.Input{Type: "PTR", Name: "www", Content: "x.example.com"}, "type"},
			{zone.Input{Type: "A", Name: "-www", Content: "192.0.2.1"}, "name"},
			{zone.Input{Type: "A", Name: "www", Content: "192.0.2.1", TTL: new(299)}, "ttl"},
			{zone.Input{Type: "A", Name: "www", Content: "not-an-ip"}, "content"},
			{zone.Input{Type: "MX", Name: "@", Content: "mail.example.com"}, "priority"},
			{zone.Input{Type: "MX", Name: "@", Content: "mail.example.com", Priority: new(70000)}, "priority"},
			// TXT errors are package variables: naming the field copies them.
			{zone.Input{Type: "TXT", Name: "@", Content: "line\nbreak"}, "content"},
		}
		for _, tt := range tests {
			_, err := b.svc.Create(ctx, b.dom, tt.in)
			require.Equal(t, tt.field, apperr.FieldOf(err), "%+v: %v", tt.in, err)
		}
		_, err := b.svc.Create(ctx, b.dom, zone.Input{Type: "CNAME", Name: "@", Content: "www.example.com"})
		require.Equal(t, "content", apperr.FieldOf(err))

		// A set has values, not a record's content: its refusals name no field.
		_, err = b.svc.ReplaceSet(ctx, b.dom, zone.Set{Name: "www", Type: "A", Values: []string{"not-an-ip"}})
		requireCode(t, err, apperr.Invalid, "A record content must be an IPv4 address, like 192.0.2.1")
		require.Empty(t, apperr.FieldOf(err))
		// Nor does a conflict with the records already there.
		_, err = b.svc.Create(ctx, b.dom, zone.Input{Type: "A", Name: "www", Content: "192.0.2.1"})
		require.NoError(t, err)
		_, err = b.svc.Create(ctx, b.dom, zone.Input{Type: "CNAME", Name: "www", Content: "x.example.com"})
		requireCode(t, err, apperr.Invalid, "A CNAME record cannot share its name with other records: www already has A records")
		require.Empty(t, apperr.FieldOf(err))
	})
}

func TestRecordsAreStoredNormalised(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		tests := []struct {
			in                 zone.Input
			name, typ, content string
			ttl                int
			priority           *int
		}{
			{zone.Input{Type: "a", Name: "WWW", Content: " 192.0.2.1 "}, "www", "A", "192.0.2.1", 3600, nil},
			{zone.Input{Type: "A", Name: "api.Example.INF.nz.", Content: "192.0.2.2", TTL: new(300)}, "api", "A", "192.0.2.2", 300, nil},
			{zone.Input{Type: "A", Name: "example.inf.nz", Content: "192.0.2.3", TTL: new(604800), Priority: ptr(5)}, "@", "A", "192.0.2.3", 604800, nil},
			{zone.Input{Type: "AAAA", Name: "@", Content: "2001:DB8:0:0::1"}, "@", "AAAA", "2001:db8::1", 3600, nil},
			{zone.Input{Type: "CNAME", Name: "*.dev", Content: "Target.Example.com."}, "*.dev", "CNAME", "target.example.com", 3600, nil},
			{zone.Input{Type: "CNAME", Name: "s1._domainkey", Content: "s1.domainkey.u1.wl.sendgrid.net"}, "s1._domainkey", "CNAME", "s1.domainkey.u1.wl.sendgrid.net", 3600, nil},
			{zone.Input{Type: "CNAME", Name: "shop", Content: "@"}, "shop", "CNAME", "example.inf.nz", 3600, nil},
			{zone.Input{Type: "MX", Name: "@", Content: "mail.example.com.", Priority: ptr(10)}, "@", "MX", "mail.example.com", 3600, ptr(10)},
			{zone.Input{Type: "MX", Name: "nomail", Content: ".", Priority: ptr(0)}, "nomail", "MX", ".", 3600, ptr(0)},
			{zone.Input{Type: "TXT", Name: "_dmarc", Content: "v=DMARC1; p=none"}, "_dmarc", "TXT", "v=DMARC1; p=none", 3600, nil},
			{zone.Input{Type: "TXT", Name: "@", Content: `"v=spf1 " "-all"`}, "@", "TXT", `"v=spf1 " "-all"`, 3600, nil},
			{zone.Input{Type: "TXT", Name: "a.b", Content: `say "hi" \o/`}, "a.b", "TXT", `say "hi" \o/`, 3600, nil},
			{zone.Input{Type: "NS", Name: "sub", Content: "NS1.Example.com."}, "sub", "NS", "ns1.example.com", 3600, nil},
			{zone.Input{Type: "SRV", Name: "_sip._tcp", Content: "5 5060 sip.example.com.", Priority: ptr(10)}, "_sip._tcp", "SRV", "5 5060 sip.example.com", 3600, ptr(10)},
			{zone.Input{Type: "SRV", Name: "_sip._udp.voice", Content: "20 5 5060 sip.example.com"}, "_sip._udp.voice", "SRV", "5 5060 sip.example.com", 3600, ptr(20)},
			{zone.Input{Type: "SRV", Name: "_imap._tcp", Content: "0 0 .", Priority: ptr(0)}, "_imap._tcp", "SRV", "0 0 .", 3600, ptr(0)},
			{zone.Input{Type: "CAA", Name: "@", Content: "0 ISSUE letsencrypt.org"}, "@", "CAA", `0 issue "letsencrypt.org"`, 3600, nil},
			{zone.Input{Type: "CAA", Name: "@", Content: `128 iodef "mailto:security@example.com"`}, "@", "CAA", `128 iodef "mailto:security@example.com"`, 3600, nil},
			{zone.Input{Type: "CAA", Name: "@", Content: `0 issuewild ";"`}, "@", "CAA", `0 issuewild ";"`, 3600, nil},
		}
		for _, tt := range tests {
			rec, err := b.svc.Create(ctx, b.dom, tt.in)
			require.NoError(t, err, "%+v", tt.in)
			require.NotZero(t, rec.ID)
			require.Equal(t, []any{tt.name, tt.typ, tt.content, tt.ttl, tt.priority},
				[]any{rec.Name, rec.Type, rec.Content, rec.TTL, rec.Priority}, "%+v", tt.in)
		}
		records, err := b.svc.List(ctx, b.dom)
		require.NoError(t, err)
		require.Len(t, records, len(tests))
		require.Equal(t, "@", records[0].Name, "the apex first")
		var names []string
		for _, r := range records {
			if len(names) == 0 || names[len(names)-1] != r.Name {
				names = append(names, r.Name)
			}
		}
		require.Equal(t, []string{"@", "*.dev", "_dmarc", "_imap._tcp", "_sip._tcp", "_sip._udp.voice", "a.b", "api",
			"nomail", "s1._domainkey", "shop", "sub", "www"}, names, "then by name")
	})
}

func TestDuplicatesAndCNAMERules(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		create(t, b, "A", "www", "192.0.2.1")
		create(t, b, "CNAME", "blog", "example.com")

		_, err := b.svc.Create(ctx, b.dom, zone.Input{Type: "A", Name: "WWW.example.inf.nz.", Content: "192.0.2.1", TTL: new(300)})
		requireCode(t, err, apperr.Conflict, "This A record already exists at www")
		_, err = b.svc.Create(ctx, b.dom, zone.Input{Type: "CNAME", Name: "www", Content: "example.com"})
		requireCode(t, err, apperr.Invalid, "A CNAME record cannot share its name with other records: www already has A records")
		_, err = b.svc.Create(ctx, b.dom, zone.Input{Type: "TXT", Name: "blog", Content: "hello"})
		requireCode(t, err, apperr.Invalid, "blog has a CNAME record, so it cannot have other records")
		_, err = b.svc.Create(ctx, b.dom, zone.Input{Type: "CNAME", Name: "blog", Content: "other.example.com"})
		requireCode(t, err, apperr.Invalid, "blog already has a CNAME record; a name can have only one")
		_, err = b.svc.Create(ctx, b.dom, zone.Input{Type: "CNAME", Name: "blog", Content: "example.com"})
		requireCode(t, err, apperr.Conflict, "This CNAME record already exists at blog")

		// Another A beside the first is fine; so is the same content under another name.
		create(t, b, "A", "www", "192.0.2.2")
		create(t, b, "A", "api", "192.0.2.1")

		// Updating a record into a duplicate of another is refused; into itself, fine.
		second := create(t, b, "A", "mail", "192.0.2.9")
		_, err = b.svc.Update(ctx, b.dom, second.ID, zone.Input{Type: "A", Name: "www", Content: "192.0.2.2"})
		requireCode(t, err, apperr.Conflict, "This A record already exists at www")
		updated, err := b.svc.Update(ctx, b.dom, second.ID, zone.Input{Type: "A", Name: "mail", Content: "192.0.2.9", TTL: new(600)})
		require.NoError(t, err)
		require.Equal(t, 600, updated.TTL)
		require.Equal(t, second.CreatedAt, updated.CreatedAt)
		// The CNAME itself can be changed in place.
		blog := findRecord(t, b, "blog", "CNAME")
		_, err = b.svc.Update(ctx, b.dom, blog.ID, zone.Input{Type: "CNAME", Name: "blog", Content: "new.example.com"})
		require.NoError(t, err)
		// An A record cannot become a CNAME beside other A records at its name.
		www := findRecord(t, b, "www", "A")
		_, err = b.svc.Update(ctx, b.dom, www.ID, zone.Input{Type: "CNAME", Name: "www", Content: "x.example.com"})
		requireCode(t, err, apperr.Invalid, "A CNAME record cannot share its name with other records: www already has A records")
	})
}

func findRecord(t *testing.T, b bundle, name, typ string) zone.Record {
	t.Helper()
	records, err := b.svc.List(context.Background(), b.dom)
	require.NoError(t, err)
	for _, r := range records {
		if r.Name == name && r.Type == typ {
			return r
		}
	}
	t.Fatalf("no %s record at %s", typ, name)
	return zone.Record{}
}

func TestAnotherDomainsRecordIsNotFound(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		other := registerDomain(t, d, "other", ".inf.nz", b.now.AddDate(1, 0, 0))
		theirs, err := b.svc.Create(ctx, other, zone.Input{Type: "A", Name: "www", Content: "192.0.2.7"})
		require.NoError(t, err)

		_, err = b.svc.Update(ctx, b.dom, theirs.ID, zone.Input{Type: "A", Name: "www", Content: "192.0.2.8"})
		requireCode(t, err, apperr.NotFound, "DNS record not found")
		requireCode(t, b.svc.Delete(ctx, b.dom, theirs.ID), apperr.NotFound, "DNS record not found")
		requireCode(t, b.svc.Delete(ctx, b.dom, 987654), apperr.NotFound, "DNS record not found")

		records, err := b.svc.List(ctx, other)
		require.NoError(t, err)
		require.Len(t, records, 1)
		require.Equal(t, "192.0.2.7", records[0].Content, "untouched")

		require.NoError(t, b.svc.Delete(ctx, other, theirs.ID))
		records, err = b.svc.List(ctx, other)
		require.NoError(t, err)
		require.Empty(t, records)
	})
}

func TestEveryChangeBumpsTheZoneVersion(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		v0 := zoneVersion(t, d)
		rec := create(t, b, "A", "www", "192.0.2.1")
		v1 := zoneVersion(t, d)
		require.Greater(t, v1, v0)

		_, err := b.svc.Create(ctx, b.dom, zone.Input{Type: "A", Name: "www", Content: "bad"})
		require.Error(t, err)
		_, err = b.svc.Create(ctx, b.dom, zone.Input{Type: "A", Name: "www", Content: "192.0.2.1"})
		require.Error(t, err)
		require.Equal(t, v1, zoneVersion(t, d), "a refused change bumps nothing (the transaction rolled back)")

		_, err = b.svc.Update(ctx, b.dom, rec.ID, zone.Input{Type: "A", Name: "www", Content: "192.0.2.2"})
		require.NoError(t, err)
		v2 := zoneVersion(t, d)
		require.Greater(t, v2, v1)
		require.NoError(t, b.svc.Delete(ctx, b.dom, rec.ID))
		v3 := zoneVersion(t, d)
		require.Greater(t, v3, v2)
		_, err = b.svc.ApplyImport(ctx, b.dom, "www IN A 192.0.2.3\n", zone.ImportOptions{})
		require.NoError(t, err)
		require.Greater(t, zoneVersion(t, d), v3)
	})
}

func TestChangedIsCalledAfterCommit(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		calls := 0
		svc := zone.NewService(d, zone.Options{Changed: func() { calls++ }})
		_, err := svc.Create(context.Background(), b.dom, zone.Input{Type: "A", Name: "www", Content: "192.0.2.1"})
		require.NoError(t, err)
		_, err = svc.Create(context.Background(), b.dom, zone.Input{Type: "A", Name: "www", Content: "192.0.2.1"})
		require.Error(t, err)
		require.Equal(t, 1, calls)
	})
}

func TestRecordLimitPerDomain(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		var text strings.Builder
		for i := range zone.MaxRecordsPerDomain {
			text.WriteString("h")
			text.WriteString(strings.Repeat("x", i%7+1))
			text.WriteString(" IN TXT \"")
			text.WriteString(strings.Repeat("y", 3))
			text.WriteString(strconv.Itoa(i))
			text.WriteString("\"\n")
		}
		_, err := b.svc.ApplyImport(context.Background(), b.dom, text.String(), zone.ImportOptions{})
		require.NoError(t, err)
		_, err = b.svc.Create(context.Background(), b.dom, zone.Input{Type: "A", Name: "www", Content: "192.0.2.1"})
		requireCode(t, err, apperr.Invalid, "A domain can have at most 1000 DNS records")
	})
}
