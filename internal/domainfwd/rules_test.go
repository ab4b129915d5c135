package domainfwd

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/zone"
)

// badTargets are targets every surface must refuse, with a word of why.
var badTargets = []struct{ target, want string }{
	{"", "Enter the URL"},
	{"http://127.0.0.1", "not an IP address"},
	{"http://127.0.0.1:8080/x", "not an IP address"},
	{"http://[::1]", "not an IP address"},
	{"http://[::1]:80/", "not an IP address"},
	{"http://[fe80::1%25eth0]/", "not an IP address"},
	{"http://10.0.0.1", "not an IP address"},
	{"https://192.168.1.1/admin", "not an IP address"},
	{"http://169.254.169.254/latest/meta-data", "not an IP address"},
	{"http://2130706433", "not an IP address"},
	{"http://0x7f000001/", "not an IP address"},
	{"http://0x7f.0.0.1/", "not an IP address"},
	{"http://0177.0.0.1/", "not an IP address"},
	{"http://127.1/", "not an IP address"},
	{"http://127.0.0.1.", "not an IP address"},
	{"javascript:alert(1)", "only http and https"},
	{"JavaScript://example.com/%0Aalert(1)", "only http and https"},
	{"data:text/html,<script>alert(1)</script>", "only http and https"},
	{"ftp://example.com/file", "only http and https"},
	{"file:///etc/passwd", "only http and https"},
	{"example.com", "starting with https://"},
	{"//example.com/x", "starting with https://"},
	{"http:example.com", "starting with https://"},
	{"https://", "starting with https://"},
	{"https://user:secret@example.com/", "user name or password"},
	{"https://user@example.com/", "user name or password"},
	{"http://localhost/", "local or reserved"},
	{"http://LOCALHOST:3000/", "local or reserved"},
	{"http://app.localhost/", "local or reserved"},
	{"http://printer.local/", "local or reserved"},
	{"http://db.internal/", "local or reserved"},
	{"http://nas.lan/", "local or reserved"},
	{"http://router.home.arpa/", "local or reserved"},
	{"http://x.onion/", "local or reserved"},
	{"http://webserver/", "public domain name"},
	{"http://example.c0m/", "top-level domain of letters"},
	{"https://bücher.de/", "xn-- form"},
	{"https://xn--zz.com/", "not valid punycode"},
	{"https://exa mple.com/", "space or a control character"},
	{"https://example.com/\r\nSet-Cookie: a=b", "space or a control character"},
	{"https://example.com/\x00", "space or a control character"},
	{"https://-bad-.com/", "letters, digits and hyphens"},
	{"https://exa_mple.com/", "letters, digits and hyphens"},
	{"https://a..b.com/", "letters, digits and hyphens"},
	{"https://example.com:99999/", "port must be a number"},
	{"https://example.com:0/", "port must be a number"},
	{"https://example.com/" + strings.Repeat("a", 10_000), "longer than 2000"},
	{"https://" + strings.Repeat("a", 64) + ".com/", "letters, digits and hyphens"},
	{"https://%65xample.com/", "not a valid URL"},
}

func TestParseTargetRefusals(t *testing.T) {
	t.Parallel()
	for _, tc := range badTargets {
		_, err := parseTarget(tc.target)
		requireCode(t, err, apperr.Invalid, tc.want, tc.target)
		require.LessOrEqual(t, len(apperr.Message(err)), 200, "a message does not repeat a long URL")
	}
}

func TestSetRefusesBadInput(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		b := setup(t, d, "bad", Options{OwnHosts: []string{"Forward.Nameport.NET."}})
		// One rule, for the loop checks; the rest must leave no trace.
		_, err := b.rules.Set(ctx, b.domain, Input{Host: "fwd", Target: "https://example.com/"}, false)
		require.NoError(t, err)
		records := dbtest.Count(t, d, "SELECT COUNT(*) FROM dns_records")

		for _, tc := range badTargets {
			_, err := b.rules.Set(ctx, b.domain, Input{Host: "www", Target: tc.target, Status: 301}, false)
			requireCode(t, err, apperr.Invalid, tc.want, tc.target)
		}
		for _, tc := range []struct {
			in   Input
			want string
		}{
			{Input{Host: "www", Target: "https://www.bad.inf.nz/"}, "loop"},
			{Input{Host: "www", Target: "https://WWW.bad.inf.nz./other"}, "loop"},
			{Input{Host: "@", Target: "http://bad.inf.nz/"}, "loop"},
			{Input{Host: "www", Target: "https://fwd.bad.inf.nz/"}, "loop"},
			{Input{Host: "www", Target: "https://forward.nameport.net/x"}, "loop"},
			{Input{Host: "*", Target: "https://example.com/"}, "wildcard"},
			{Input{Host: "*.www", Target: "https://example.com/"}, "wildcard"},
			{Input{Host: "a b", Target: "https://example.com/"}, "letters, digits and hyphens"},
			{Input{Host: "-www", Target: "https://example.com/"}, "letters, digits and hyphens"},
			{Input{Host: "a..b", Target: "https://example.com/"}, "letters, digits and hyphens"},
			{Input{Host: "_dmarc", Target: "https://example.com/"}, "letters, digits and hyphens"},
			{Input{Host: strings.Repeat("a", 64), Target: "https://example.com/"}, "letters, digits and hyphens"},
			{Input{Host: strings.Repeat("a.", 125) + "a", Target: "https://example.com/"}, "longer than 253"},
			{Input{Host: "bücher", Target: "https://example.com/"}, "xn-- form"},
			{Input{Host: "www", Target: "https://example.com/", Status: 200}, "301, 302, 307 or 308"},
			{Input{Host: "www", Target: "https://example.com/", Status: 303}, "301, 302, 307 or 308"},
			{Input{Host: "www", Target: "https://example.com/", Status: -1}, "301, 302, 307 or 308"},
		} {
			_, err := b.rules.Set(ctx, b.domain, tc.in, false)
			requireCode(t, err, apperr.Invalid, tc.want, tc.in)
		}
		require.Equal(t, 1, dbtest.Count(t, d, "SELECT COUNT(*) FROM forward_rules"), "nothing stored")
		require.Equal(t, records, dbtest.Count(t, d, "SELECT COUNT(*) FROM dns_records"), "no record touched")

		// The forwarding addresses are checked once, at start.
		for _, opts := range []Options{
			{Records: b.records},
			{Records: b.records, IPv4: []string{"2001:db8::1"}},
			{Records: b.records, IPv6: []string{"192.0.2.1"}},
			{Records: b.records, IPv4: []string{"192.0.2"}},
			{Records: b.records, IPv6: []string{"::ffff:192.0.2.1"}},
		} {
			_, err := NewService(d, opts)
			require.Error(t, err, "%+v", opts)
		}
	})
}

func TestRulesFollowDNS(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		b := setup(t, d, "dns", Options{IPv4: []string{"127.0.0.1"}, IPv6: []string{"2001:db8::80"}})
		z := b.domain.zone()
		for _, in := range []zone.Input{
			{Type: "A", Name: "@", Content: "192.0.2.1"},
			{Type: "A", Name: "www", Content: "192.0.2.10"},
			{Type: "TXT", Name: "www", Content: "site-verification=abc"},
			{Type: "CNAME", Name: "shop", Content: "shops.example.com"},
			{Type: "NS", Name: "sub", Content: "ns1.elsewhere.example"},
		} {
			_, err := b.records.Create(ctx, z, in)
			require.NoError(t, err, "%+v", in)
		}

		// What would change, said before it changes.
		p, err := b.rules.Preview(ctx, b.domain, "WWW.dns.inf.nz.")
		require.NoError(t, err)
		require.Equal(t, &Preview{Host: "www", Name: "www.dns.inf.nz", Adds: []string{"A 127.0.0.1", "AAAA 2001:db8::80"},
			Replaces: []string{"A 192.0.2.10"}}, p)
		p, err = b.rules.Preview(ctx, b.domain, "blog")
		require.NoError(t, err)
		require.Empty(t, p.Replaces)

		// The user's own address record is not replaced without consent.
		in := Input{Host: "www", Target: "https://example.com/landing", Status: 301, KeepPath: true}
		_, err = b.rules.Set(ctx, b.domain, in, false)
		requireCode(t, err, apperr.Conflict, "A 192.0.2.10")
		require.Equal(t, []string{"A 192.0.2.10", "TXT site-verification=abc"}, hostRecords(t, b, "www"), "nothing changed")
		require.Equal(t, 0, dbtest.Count(t, d, "SELECT COUNT(*) FROM forward_rules"))

		rule, err := b.rules.Set(ctx, b.domain, in, true)
		require.NoError(t, err)
		require.Equal(t, "www", rule.Host)
		require.Equal(t, "www.dns.inf.nz", rule.Name)
		require.Equal(t, "https://example.com/landing", rule.Target)
		require.Equal(t, CertPending, rule.Certificate.State)
		require.Equal(t, []string{"A 127.0.0.1", "AAAA 2001:db8::80", "TXT site-verification=abc"}, hostRecords(t, b, "www"),
			"the address records replaced, the TXT kept")

		// Setting it again changes the rule, not the records, and keeps the
		// rule's identity; forwarding's own records are no conflict.
		again, err := b.rules.Set(ctx, b.domain, Input{Host: "www", Target: "https://example.org/", Status: 308, KeepQuery: true}, false)
		require.NoError(t, err)
		require.Equal(t, rule.ID, again.ID)
		require.Equal(t, 308, again.Status)
		require.False(t, again.KeepPath)
		require.True(t, again.KeepQuery)
		require.Equal(t, []string{"A 127.0.0.1", "AAAA 2001:db8::80", "TXT site-verification=abc"}, hostRecords(t, b, "www"))

		// A CNAME is in the way too; the apex's own A as well.
		_, err = b.rules.Set(ctx, b.domain, Input{Host: "shop", Target: "https://example.com/"}, false)
		requireCode(t, err, apperr.Conflict, "CNAME shops.example.com")
		_, err = b.rules.Set(ctx, b.domain, Input{Host: "@", Target: "https://example.com/"}, false)
		requireCode(t, err, apperr.Conflict, "A 192.0.2.1")
		shop, err := b.rules.Set(ctx, b.domain, Input{Host: "shop", Target: "https://example.com/"}, true)
		require.NoError(t, err)
		require.Equal(t, DefaultStatus, shop.Status)
		require.Equal(t, []string{"A 127.0.0.1", "AAAA 2001:db8::80"}, hostRecords(t, b, "shop"))

		// A delegated name is served elsewhere: no forward, not even with
		// consent.
		_, err = b.rules.Preview(ctx, b.domain, "x.sub")
		requireCode(t, err, apperr.Conflict, "delegated")
		_, err = b.rules.Set(ctx, b.domain, Input{Host: "x.sub", Target: "https://example.com/"}, true)
		requireCode(t, err, apperr.Conflict, "delegated")

		// A name without records, several labels deep.
		_, err = b.rules.Set(ctx, b.domain, Input{Host: "a.b", Target: "https://example.com/"}, false)
		require.NoError(t, err)

		rules, err := b.rules.List(ctx, b.domain)
		require.NoError(t, err)
		var hosts []string
		for _, r := range rules {
			hosts = append(hosts, r.Host)
		}
		require.Equal(t, []string{"a.b", "shop", "www"}, hosts)
		_, err = b.rules.Set(ctx, b.domain, Input{Host: "@", Target: "https://example.com/"}, true)
		require.NoError(t, err)
		rules, err = b.rules.List(ctx, b.domain)
		require.NoError(t, err)
		require.Equal(t, "@", rules[0].Host, "the domain itself first")

		// Deleting takes forwarding's records only.
		require.NoError(t, b.rules.Delete(ctx, b.domain, "www"))
		require.Equal(t, []string{"TXT site-verification=abc"}, hostRecords(t, b, "www"))
		requireCode(t, b.rules.Delete(ctx, b.domain, "www"), apperr.NotFound, "not found")
		other := Domain{ID: b.domain.ID + 1000, Label: "other", Extension: ".inf.nz"}
		requireCode(t, b.rules.Delete(ctx, other, "shop"), apperr.NotFound, "not found")
		require.Equal(t, []string{"A 127.0.0.1", "AAAA 2001:db8::80"}, hostRecords(t, b, "shop"), "another domain's delete touches nothing")

		// A rule may not target a host that forwards (the last step of any
		// loop); one that stopped forwarding is fine again.
		_, err = b.rules.Set(ctx, b.domain, Input{Host: "old", Target: "https://shop.dns.inf.nz/"}, false)
		requireCode(t, err, apperr.Invalid, "loop")
		_, err = b.rules.Set(ctx, b.domain, Input{Host: "old", Target: "https://www.dns.inf.nz/"}, false)
		require.NoError(t, err)
	})
}

func TestRuleLimit(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		b := setup(t, d, "limit", Options{MaxRules: 2})
		for _, host := range []string{"a", "b"} {
			_, err := b.rules.Set(ctx, b.domain, Input{Host: host, Target: "https://example.com/"}, false)
			require.NoError(t, err)
		}
		_, err := b.rules.Set(ctx, b.domain, Input{Host: "c", Target: "https://example.com/"}, false)
		requireCode(t, err, apperr.Invalid, "at most 2 host names")
		_, err = b.rules.Set(ctx, b.domain, Input{Host: "a", Target: "https://example.org/"}, false)
		require.NoError(t, err, "changing a rule is no new rule")
		require.NoError(t, b.rules.Delete(ctx, b.domain, "b"))
		_, err = b.rules.Set(ctx, b.domain, Input{Host: "c", Target: "https://example.com/"}, false)
		require.NoError(t, err)
		require.Equal(t, 2, dbtest.Count(t, d, "SELECT COUNT(*) FROM forward_rules"))
	})
}
