package zone

// FuzzNormalizeRecord sits in package zone because normalize is
// unexported. (FuzzParseZoneFile, bindfile_fuzz_test.go, shares its
// helpers.)
//
//	go test ./internal/zone -run '^$' -fuzz '^FuzzNormalizeRecord$' -fuzztime 60s -parallel 1

import (
	"fmt"
	"strings"
	"testing"

	"github.com/miekg/dns"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/apperr"
)

var fuzzDomain = Domain{ID: 1, Name: "example", Extension: ".inf.nz"}

// FuzzNormalizeRecord checks, for any record a user can send:
//   - normalize never panics, and refuses with an invalid error;
//   - an accepted record is in stored form: a supported type, a TTL in
//     range, a priority only for MX and SRV;
//   - it renders to an RR (Record.RR) whose text miekg/dns parses back
//     (dns.NewRR) to the same data, and whose wire form unpacks to the same
//     data;
//   - the RR read back as an import reads it (inputFromRR, normalize) gives
//     the same stored record: what the server serves and exports is what
//     was stored.
func FuzzNormalizeRecord(f *testing.F) {
	seeds := []struct {
		typ, name, content string
		ttl, prio          int
		hasPrio            bool
	}{
		{"A", "@", "192.0.2.1", 0, 0, false},
		{"a", "WWW", " 192.0.2.1 ", 300, 0, false},
		{"A", "*.dev", "::ffff:192.0.2.1", 0, 0, false},
		{"AAAA", "@", "2001:db8::1", 604800, 0, false},
		{"AAAA", "v6", "::ffff:1.2.3.4", 0, 0, false},
		{"CNAME", "www", "example.inf.nz.", 0, 0, false},
		{"CNAME", "_acme-challenge", "@", 0, 0, false},
		{"CNAME", "www.example.inf.nz.", "www.example.inf.nz", 0, 0, false},
		{"MX", "@", "mail.example.com", 0, 10, true},
		{"MX", "@", ".", 0, 0, true},
		{"MX", "@", "mail.example.com", 0, 70000, true},
		{"TXT", "@", "v=spf1 include:_spf.example.com ~all", 0, 0, false},
		{"TXT", "_dmarc", `"v=DMARC1; " "p=none"`, 0, 0, false},
		{"TXT", "q", `"\"quoted\""`, 0, 0, false},
		{"TXT", "esc", `back\slash "quote" \123`, 0, 0, false},
		{"TXT", "long", strings.Repeat("é", 300), 0, 0, false},
		{"TXT", "semi", "a;b ( c ) $ORIGIN x", 0, 0, false},
		{"NS", "sub", "ns1.example.com", 0, 0, false},
		{"NS", "*", "ns1.example.com", 0, 0, false},
		{"SRV", "_sip._tcp", "5 5060 sip.example.com", 0, 10, true},
		{"SRV", "_sip._tcp", "10 5 5060 .", 0, 0, false},
		{"CAA", "@", `0 issue "letsencrypt.org"`, 0, 0, false},
		{"CAA", "@", `128 ISSUEWILD ;`, 0, 0, false},
		{"CAA", "@", `0 iodef "mailto:a@example.com"`, 0, 0, false},
		{"CAA", "@", `0 issue`, 0, 0, false},
		{"CAA", "@", `0 issue a b "c"`, 0, 0, false},
		{"SOA", "@", "x", 0, 0, false},
		{"A", "a..b", "192.0.2.1", 299, 0, false},
	}
	for _, s := range seeds {
		f.Add(s.typ, s.name, s.content, s.ttl, s.prio, s.hasPrio)
	}
	apex := fuzzDomain.FQDN()
	f.Fuzz(func(t *testing.T, typ, name, content string, ttl, prio int, hasPrio bool) {
		in := Input{Type: typ, Name: name, Content: content}
		if ttl != 0 { // the seeds' 0 is "not given"
			in.TTL = &ttl
		}
		if hasPrio {
			in.Priority = &prio
		}
		rec, err := normalize(fuzzDomain, in)
		if err != nil {
			require.Equal(t, apperr.Invalid, apperr.Code(err), "%v", err)
			require.NotEmpty(t, apperr.Message(err))
			return
		}
		requireStoredForm(t, rec)

		rr, err := rec.RR(apex)
		require.NoError(t, err, "an accepted record renders as an RR")
		requireSameRecord(t, rec, rr)

		text := rr.String()
		parsed, err := dns.NewRR(text)
		require.NoError(t, err, "miekg/dns reads back %q", text)
		require.NotNil(t, parsed, text)
		requireSameRR(t, rr, parsed, text)

		unpacked, _, err := dns.UnpackRR(wire(t, rr), 0)
		require.NoError(t, err, "unpacks: %s", text)
		requireSameRR(t, rr, unpacked, text)

		requireSameRecord(t, rec, parsed)
		requireSameRecord(t, rec, unpacked)
	})
}

// requireStoredForm checks the invariants of Record's documentation.
func requireStoredForm(t *testing.T, rec Record) {
	t.Helper()
	require.Contains(t, Types, rec.Type)
	require.True(t, rec.TTL >= MinTTL && rec.TTL <= MaxTTL, "TTL %d", rec.TTL)
	require.Equal(t, rec.Type == TypeMX || rec.Type == TypeSRV, rec.Priority != nil, "priority of %s", rec.Type)
	if rec.Priority != nil {
		require.True(t, *rec.Priority >= 0 && *rec.Priority <= 65535, "priority %d", *rec.Priority)
	}
	require.Equal(t, strings.ToLower(rec.Name), rec.Name)
	require.NotEmpty(t, rec.Content)
	owner := Owner(rec.Name, fuzzDomain.FQDN())
	_, ok := dns.IsDomainName(owner)
	require.True(t, ok, owner)
	require.LessOrEqual(t, len(owner), maxName+1, owner)
}

// requireSameRecord checks that rr, read back as an import reads it, is
// rec again.
func requireSameRecord(t *testing.T, rec Record, rr dns.RR) {
	t.Helper()
	in, err := inputFromRR(rr)
	require.NoError(t, err, "%s", rr)
	back, err := normalize(fuzzDomain, in)
	require.NoError(t, err, "%s as %+v", rr, in)
	requireEqualRecords(t, []Record{rec}, []Record{back}, rr.String())
}

// requireSameRR checks that got holds the same data as want on the wire:
// the Go values may differ (miekg/dns keeps TXT bytes read from text or the
// wire as \DDD escapes, where Record.RR keeps them raw).
func requireSameRR(t *testing.T, want, got dns.RR, msg string) {
	t.Helper()
	require.Equal(t, wire(t, want), wire(t, got), "%s\nwant %s\ngot  %s", msg, want, got)
}

func wire(t *testing.T, rr dns.RR) []byte {
	t.Helper()
	buf := make([]byte, dns.Len(rr)+64)
	n, err := dns.PackRR(rr, buf, 0, nil, false)
	require.NoError(t, err, "packs: %s", rr)
	return buf[:n]
}

func requireEqualRecords(t *testing.T, want, got []Record, msg string) {
	t.Helper()
	key := func(r Record) string {
		p := "-"
		if r.Priority != nil {
			p = fmt.Sprint(*r.Priority)
		}
		return fmt.Sprintf("%d %q %s %q %d %s", r.DomainID, r.Name, r.Type, r.Content, r.TTL, p)
	}
	var w, g []string
	for _, r := range want {
		w = append(w, key(r))
	}
	for _, r := range got {
		g = append(g, key(r))
	}
	require.Equal(t, w, g, msg)
}
