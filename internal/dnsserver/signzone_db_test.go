package dnsserver_test

import (
	"context"
	"net/netip"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/miekg/dns"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/dnssec"
	"github.com/nameport/nameport/internal/dnsserver"
	"github.com/nameport/nameport/internal/zone"
)

// The zones served from the database, signed with the keys the key store
// makes (inf.nz with ECDSA P-256, biz.ee with Ed25519), transfer as
// signed zones that ldns-verify-zone and kzonecheck accept, and still do
// after records are added and deleted, a domain is registered, and a
// delegated domain gets a DS set; an IXFR from before those changes gets
// the whole signed zone as AXFR gives it.
func TestSignedTransferAfterChanges(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		secret := []byte("0123456789abcdef0123456789abcdef")
		ecdsa, err := dnssec.NewStore(d, secret, dnssec.ECDSAP256SHA256)
		require.NoError(t, err)
		ed25519, err := dnssec.NewStore(d, secret, dnssec.ED25519)
		require.NoError(t, err)
		keys := func(ctx context.Context, zones []string) ([]*dnssec.ZoneKeys, error) {
			var out []*dnssec.ZoneKeys
			for _, z := range zones {
				store := ecdsa
				if z == "biz.ee." {
					store = ed25519
				}
				k, err := store.Keys(ctx, []string{z})
				if err != nil {
					return nil, err
				}
				out = append(out, k...)
			}
			return out, nil
		}
		// Nameservers outside the zones: in-zone ones (biz.ee's default,
		// ns1.biz.ee) would need glue, which kzonecheck asks for.
		addExtension(t, d, ".inf.nz", true, `["ns1.nameport.net", "ns2.nameport.net"]`)
		addExtension(t, d, ".biz.ee", true, `["ns1.nameport.net"]`)
		year := time.Now().AddDate(1, 0, 0)
		b := bundle{db: d, svc: zone.NewService(d, zone.Options{}), dom: registerDomain(t, d, "example", ".inf.nz", year)}
		deleg := registerDomain(t, d, "deleg", ".biz.ee", year)
		for _, r := range []struct {
			dom zone.Domain
			in  zone.Input
		}{
			{b.dom, zone.Input{Type: "A", Name: "@", Content: "192.0.2.1"}},
			{b.dom, zone.Input{Type: "AAAA", Name: "@", Content: "2001:db8::1"}},
			{b.dom, zone.Input{Type: "CNAME", Name: "www", Content: "@"}},
			{b.dom, zone.Input{Type: "MX", Name: "@", Content: "mail.example.inf.nz", Priority: ptr(10)}},
			{b.dom, zone.Input{Type: "A", Name: "mail", Content: "192.0.2.25"}},
			{b.dom, zone.Input{Type: "TXT", Name: "long", Content: strings.Repeat("0123456789", 400)}},
			{b.dom, zone.Input{Type: "SRV", Name: "_sip._tcp", Content: "10 5 5060 sip.example.com"}},
			{b.dom, zone.Input{Type: "CAA", Name: "@", Content: `0 issue "letsencrypt.org"`}},
			{b.dom, zone.Input{Type: "A", Name: "*.dev", Content: "192.0.2.99"}},
			{b.dom, zone.Input{Type: "A", Name: "a.b.c", Content: "192.0.2.3"}}, // empty non-terminals
			{deleg, zone.Input{Type: "A", Name: "ns1", Content: "198.51.100.53"}},
			{deleg, zone.Input{Type: "NS", Name: "@", Content: "ns1.deleg.biz.ee"}},
			{deleg, zone.Input{Type: "NS", Name: "@", Content: "ns.elsewhere.net"}},
		} {
			_, err := b.svc.Create(ctx, r.dom, r.in)
			require.NoError(t, err, "%+v", r.in)
		}
		b.addr = freeAddr(t)
		b.srv = start(t, d, b.addr, dnsserver.WithDNSSEC(keys), dnsserver.WithTransfer(netip.MustParsePrefix("127.0.0.0/8")))
		axfr := func(origin string) []dns.RR { return transferIn(t, b.addr, new(dns.Msg).SetAxfr(origin)) }
		verify := func() {
			t.Helper()
			for _, origin := range []string{"inf.nz.", "biz.ee."} {
				dnsserver.VerifySignedZone(t, origin, axfr(origin))
			}
		}
		verify()
		before := serialOf(t, b.addr)
		infBefore := axfr("inf.nz.") // kept by the server for IXFRs from before

		// Changes: a record added, one deleted, a new domain, a
		// delegation with a DS set.
		_, err = b.svc.Create(ctx, b.dom, zone.Input{Type: "A", Name: "new", Content: "192.0.2.123"})
		require.NoError(t, err)
		mail, err := b.svc.Create(ctx, b.dom, zone.Input{Type: "AAAA", Name: "mail", Content: "2001:db8::25"})
		require.NoError(t, err)
		require.NoError(t, b.svc.Delete(ctx, b.dom, mail.ID))
		fresh := registerDomain(t, d, "fresh", ".inf.nz", time.Now().AddDate(1, 0, 0))
		_, err = b.svc.Create(ctx, fresh, zone.Input{Type: "TXT", Name: "@", Content: "hello"})
		require.NoError(t, err)
		secure := registerDomain(t, d, "secure", ".biz.ee", time.Now().AddDate(1, 0, 0))
		for _, in := range []zone.Input{
			{Type: "A", Name: "ns1", Content: "198.51.100.54"},
			{Type: "NS", Name: "@", Content: "ns1.secure.biz.ee"},
			{Type: "NS", Name: "@", Content: "ns.elsewhere.net"},
		} {
			_, err := b.svc.Create(ctx, secure, in)
			require.NoError(t, err, "%+v", in)
		}
		child, err := dnssec.Generate("secure.biz.ee.", dnssec.ECDSAP256SHA256)
		require.NoError(t, err)
		ds := child.DS()
		_, err = b.svc.AddDS(ctx, secure, zone.DSInput{KeyTag: int(ds.KeyTag), Algorithm: int(ds.Algorithm),
			DigestType: int(ds.DigestType), Digest: ds.Digest})
		require.NoError(t, err)

		// The server polls the database: wait until both zones carry the
		// changes.
		has := func(rrs []dns.RR, name string, rtype uint16) bool {
			return slices.ContainsFunc(rrs, func(rr dns.RR) bool {
				return strings.EqualFold(rr.Header().Name, name) && rr.Header().Rrtype == rtype
			})
		}
		// (asked by query, not transfer: the server keeps the signed
		// versions its transfers sent, and IXFR from before comes below).
		answers := func(name string, qtype uint16) bool {
			m, _, err := (&dns.Client{Net: "tcp", Timeout: 2 * time.Second}).Exchange(new(dns.Msg).SetQuestion(name, qtype), b.addr)
			return err == nil && has(m.Answer, name, qtype)
		}
		require.Eventually(t, func() bool {
			return answers("new.example.inf.nz.", dns.TypeA) && answers("fresh.inf.nz.", dns.TypeTXT) &&
				answers("secure.biz.ee.", dns.TypeDS)
		}, 10*time.Second, 50*time.Millisecond, "the changes are served")
		require.NotEqual(t, before, serialOf(t, b.addr))
		// IXFR from before: the difference of the signed zones, which
		// applied to the zone at before gives the zone now.
		ixfr := transferIn(t, b.addr, ixfrQuery(before))
		require.Equal(t, dns.TypeSOA, ixfr[1].Header().Rrtype, "incremental")
		require.Less(t, len(ixfr), len(infBefore), "only what changed")
		applied := applyIXFR(t, infBefore[:len(infBefore)-1], ixfr) // an AXFR ends with the SOA again
		inf := axfr("inf.nz.")
		require.Equal(t, sorted(rrTexts(inf[:len(inf)-1])), sorted(rrTexts(applied)), "IXFR applied gives the zone AXFR gives")
		verify()
		// From a serial this server sent no signed zone at: the whole zone.
		ixfr = transferIn(t, b.addr, ixfrQuery(before-1))
		require.Equal(t, sorted(rrTexts(inf)), sorted(rrTexts(ixfr)), "the whole zone")
		require.False(t, has(inf, "mail.example.inf.nz.", dns.TypeAAAA), "the deleted record is gone")
		biz := axfr("biz.ee.")
		require.True(t, slices.ContainsFunc(biz, func(rr dns.RR) bool {
			sig, ok := rr.(*dns.RRSIG)
			return ok && sig.Hdr.Name == "secure.biz.ee." && sig.TypeCovered == dns.TypeDS
		}), "the DS set is signed")

		// DNSSEC off for .biz.ee (as the admin's switch does: the column,
		// and the catalog version, which every node watches).
		signed := serialOf(t, b.addr)
		dbtest.MustExec(t, d, `UPDATE extensions SET dnssec_enabled = ? WHERE extension = '.biz.ee'`, false)
		dbtest.MustExec(t, d, `UPDATE catalog_version SET version = version + 1 WHERE id = 1`)
		require.Eventually(t, func() bool { return !has(axfr("biz.ee."), "biz.ee.", dns.TypeDNSKEY) },
			10*time.Second, 50*time.Millisecond, "biz.ee is served unsigned")
		biz = axfr("biz.ee.")
		for _, rr := range biz {
			require.NotContains(t, []uint16{dns.TypeRRSIG, dns.TypeNSEC, dns.TypeDNSKEY}, rr.Header().Rrtype, "unsigned: %s", rr)
		}
		require.True(t, has(biz, "secure.biz.ee.", dns.TypeDS), "the delegation's DS stays")
		// A secondary that had the signed zone gets the whole unsigned one.
		ixfr = transferIn(t, b.addr, new(dns.Msg).SetIxfr("biz.ee.", signed, "ns1.nameport.net.", "hostmaster.biz.ee."))
		require.Equal(t, sorted(rrTexts(biz)), sorted(rrTexts(ixfr)), "signed to unsigned: the whole zone")
		dnsserver.VerifySignedZone(t, "inf.nz.", axfr("inf.nz."))
	})
}
