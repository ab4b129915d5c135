package dnsserver_test

import (
	"context"
	"encoding/base64"
	"net/netip"
	"testing"
	"time"

	"github.com/miekg/dns"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/dnsserver"
	"github.com/nameport/nameport/internal/zone"
)

// ixfrKey is the key transfers may be signed with in these tests.
var ixfrKey = dnsserver.TSIGKey{Name: "xfr.example.", Algorithm: dns.HmacSHA256, Secret: []byte("0123456789abcdef0123456789abcdef")}

// ixfrBundle is a running server over d that looks for changes only when
// poked, as the record service pokes it in production (zone.Options
// Changed): so a change made by quiet, a service that does not poke, stays
// unseen until the next poke, like a change made on another node.
type ixfrBundle struct {
	srv   *dnsserver.Server
	addr  string
	svc   *zone.Service // pokes the server
	quiet *zone.Service // does not
	dom   zone.Domain
}

func startIXFR(t *testing.T, d *db.DB) ixfrBundle {
	t.Helper()
	addExtension(t, d, ".inf.nz", true, `["ns1.nameport.net", "ns2.nameport.net"]`)
	b := ixfrBundle{addr: freeAddr(t), quiet: zone.NewService(d, zone.Options{}),
		dom: registerDomain(t, d, "example", ".inf.nz", time.Now().AddDate(1, 0, 0))}
	ctx := context.Background()
	for _, in := range []zone.Input{
		{Type: "A", Name: "@", Content: "192.0.2.1"},
		{Type: "TXT", Name: "@", Content: "v=spf1 -all"},
		{Type: "A", Name: "www", Content: "192.0.2.2"},
	} {
		_, err := b.quiet.Create(ctx, b.dom, in)
		require.NoError(t, err)
	}
	b.srv = dnsserver.New(b.addr, quiet, dnsserver.WithTransfer(netip.MustParsePrefix("127.0.0.0/8")),
		dnsserver.WithTSIGKeys(ixfrKey), dnsserver.WithTransferKeys(ixfrKey.Name))
	require.NoError(t, b.srv.Reload(ctx, d))
	require.NoError(t, b.srv.Start())
	watchCtx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { b.srv.Watch(watchCtx, d, time.Hour); close(done) }()
	t.Cleanup(func() {
		cancel()
		<-done
		_ = b.srv.Shutdown(context.Background())
	})
	b.svc = zone.NewService(d, zone.Options{Changed: b.srv.Poke})
	return b
}

// add adds an A record through the poking service and waits until the
// server serves it; it returns the serial it is served at.
func (b ixfrBundle) add(t *testing.T, name, address string) uint32 {
	t.Helper()
	_, err := b.svc.Create(context.Background(), b.dom, zone.Input{Type: "A", Name: name, Content: address})
	require.NoError(t, err)
	return b.waitFor(t, name, address)
}

// waitFor waits until the server answers address for name (a label of
// b.dom) and returns the serial it answers it at.
func (b ixfrBundle) waitFor(t *testing.T, name, address string) uint32 {
	t.Helper()
	owner := name + ".example.inf.nz."
	require.Eventually(t, func() bool {
		m, _, err := (&dns.Client{Timeout: 2 * time.Second}).Exchange(new(dns.Msg).SetQuestion(owner, dns.TypeA), b.addr)
		if err != nil || len(m.Answer) != 1 {
			return false
		}
		a, ok := m.Answer[0].(*dns.A)
		return ok && a.A.String() == address
	}, 5*time.Second, 10*time.Millisecond, "the server answers %s %s", owner, address)
	return serialOf(t, b.addr)
}

// serialOf asks addr for inf.nz's SOA over UDP.
func serialOf(t *testing.T, addr string) uint32 {
	t.Helper()
	m, _, err := (&dns.Client{Timeout: 2 * time.Second}).Exchange(new(dns.Msg).SetQuestion("inf.nz.", dns.TypeSOA), addr)
	require.NoError(t, err)
	require.Len(t, m.Answer, 1)
	return m.Answer[0].(*dns.SOA).Serial
}

// transferIn sends m over TCP, as a secondary does, and returns every
// record of the answer.
func transferIn(t *testing.T, addr string, m *dns.Msg) []dns.RR {
	t.Helper()
	envelopes, err := (&dns.Transfer{}).In(m, addr)
	require.NoError(t, err)
	var rrs []dns.RR
	for e := range envelopes {
		require.NoError(t, e.Error)
		rrs = append(rrs, e.RR...)
	}
	return rrs
}

func ixfrQuery(serial uint32) *dns.Msg {
	return new(dns.Msg).SetIxfr("inf.nz.", serial, "ns1.nameport.net.", "hostmaster.inf.nz.")
}

// requireWholeZone requires that rrs, the answer to an IXFR, is the zone
// in AXFR form: the SOA first and last, and between them exactly the
// records an AXFR gives now.
func requireWholeZone(t *testing.T, addr string, rrs []dns.RR) {
	t.Helper()
	axfr := transferIn(t, addr, new(dns.Msg).SetAxfr("inf.nz."))
	require.GreaterOrEqual(t, len(rrs), 3)
	require.IsType(t, &dns.SOA{}, rrs[0], "first the SOA")
	require.IsType(t, &dns.SOA{}, rrs[len(rrs)-1], "and last")
	require.NotEqual(t, dns.TypeSOA, rrs[1].Header().Rrtype, "not the incremental form")
	require.Equal(t, sorted(rrTexts(axfr)), sorted(rrTexts(rrs)), "the whole zone, as AXFR gives it")
}

// Bad and awkward IXFR requests over a real TCP connection: a serial from
// the future or the current one gets the current SOA alone; a serial the
// history never had gets the whole zone in AXFR form; the serial before two
// changes gets both, incrementally, and applying them gives the zone as
// AXFR gives it now; over UDP, the SOA alone (ask over TCP).
func TestIXFRAnswers(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := startIXFR(t, d)
		before := serialOf(t, b.addr)
		zoneBefore := transferIn(t, b.addr, new(dns.Msg).SetAxfr("inf.nz."))
		b.add(t, "one", "192.0.2.11")
		current := b.add(t, "two", "192.0.2.12")
		require.NotEqual(t, before, current)
		soa := func(rrs []dns.RR) uint32 { return rrs[0].(*dns.SOA).Serial }

		for _, tt := range []struct {
			about  string
			serial uint32
		}{
			{"current", current},
			{"from the future", current + 1000},
			{"far in the future (serial arithmetic, RFC 1982)", current + 1<<31 - 1},
		} {
			rrs := transferIn(t, b.addr, ixfrQuery(tt.serial))
			require.Len(t, rrs, 1, "%s: the current SOA alone\n%v", tt.about, rrTexts(rrs))
			require.Equal(t, current, soa(rrs), tt.about)
		}

		for _, unknown := range []uint32{before - 7, 1, current - 1<<31} {
			rrs := transferIn(t, b.addr, ixfrQuery(unknown))
			require.Equal(t, current, soa(rrs))
			requireWholeZone(t, b.addr, rrs)
		}

		rrs := transferIn(t, b.addr, ixfrQuery(before))
		require.Equal(t, current, soa(rrs))
		require.Equal(t, before, rrs[1].(*dns.SOA).Serial, "incremental: the first step starts at the client's serial")
		steps := 0
		for _, rr := range rrs[1 : len(rrs)-1] {
			if rr.Header().Rrtype == dns.TypeSOA {
				steps++
			}
		}
		require.Equal(t, 4, steps, "two changes, each an old and a new SOA\n%v", rrTexts(rrs))
		now := transferIn(t, b.addr, new(dns.Msg).SetAxfr("inf.nz."))
		require.Equal(t, sorted(rrTexts(now[:len(now)-1])), sorted(rrTexts(applyIXFR(t, zoneBefore[:len(zoneBefore)-1], rrs))),
			"the IXFR applied to the zone before gives the zone now")

		m, _, err := (&dns.Client{Timeout: 2 * time.Second}).Exchange(ixfrQuery(before), b.addr)
		require.NoError(t, err)
		require.Equal(t, dns.RcodeSuccess, m.Rcode)
		require.Len(t, m.Answer, 1, "over UDP, the SOA alone: ask over TCP")
		require.Equal(t, current, soa(m.Answer))
	})
}

// A signed IXFR with a key the server does not have, or with the wrong
// secret, is refused NOTAUTH with the TSIG error, and nothing of the zone
// is sent; with the right key it is answered, incrementally.
func TestIXFRRefusesWrongKeys(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := startIXFR(t, d)
		before := serialOf(t, b.addr)
		b.add(t, "one", "192.0.2.11")
		wrongSecret := ixfrKey
		wrongSecret.Secret = []byte("not the secret the server has!!!")
		for _, tt := range []struct {
			about   string
			key     dnsserver.TSIGKey
			tsigErr uint16
		}{
			{"unknown key", dnsserver.TSIGKey{Name: "stranger.example.", Algorithm: dns.HmacSHA256, Secret: ixfrKey.Secret}, dns.RcodeBadKey},
			{"wrong secret", wrongSecret, dns.RcodeBadSig},
		} {
			m := ixfrQuery(before)
			m.SetTsig(tt.key.Name, tt.key.Algorithm, 300, time.Now().Unix())
			pkt, _, err := dns.TsigGenerate(m, base64.StdEncoding.EncodeToString(tt.key.Secret), "", false)
			require.NoError(t, err)
			// Read without verifying: the refusal is not signed.
			c, err := dns.Dial("tcp", b.addr)
			require.NoError(t, err)
			require.NoError(t, c.SetDeadline(time.Now().Add(5*time.Second)))
			_, err = c.Write(pkt)
			require.NoError(t, err)
			raw, err := c.ReadMsgHeader(nil)
			c.Close()
			require.NoError(t, err, tt.about)
			resp := new(dns.Msg)
			require.NoError(t, resp.Unpack(raw))
			require.Equal(t, dns.RcodeToString[dns.RcodeNotAuth], dns.RcodeToString[resp.Rcode], tt.about)
			require.Empty(t, resp.Answer, tt.about)
			require.NotNil(t, resp.IsTsig(), tt.about)
			require.Equal(t, dns.RcodeToString[int(tt.tsigErr)], dns.RcodeToString[int(resp.IsTsig().Error)], tt.about)
		}

		m := ixfrQuery(before)
		m.SetTsig(ixfrKey.Name, ixfrKey.Algorithm, 300, time.Now().Unix())
		tr := &dns.Transfer{TsigSecret: map[string]string{ixfrKey.Name: base64.StdEncoding.EncodeToString(ixfrKey.Secret)}}
		envelopes, err := tr.In(m, b.addr)
		require.NoError(t, err)
		var rrs []dns.RR
		for e := range envelopes {
			require.NoError(t, e.Error, "signed, and verifies")
			rrs = append(rrs, e.RR...)
		}
		require.Greater(t, len(rrs), 2)
		require.Equal(t, before, rrs[1].(*dns.SOA).Serial, "incremental")
	})
}

// A gap in the change journal (a change another node made, whose row is
// gone, say pruned) makes the server load everything: it answers the
// current data all the same, and an IXFR from before the gap gets the
// whole zone, as the history no longer reaches back. The history starts
// again from there.
func TestIXFRAcrossAJournalGap(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := startIXFR(t, d)
		before := serialOf(t, b.addr)
		ctx := context.Background()
		// Unseen: the server is not poked.
		_, err := b.quiet.Create(ctx, b.dom, zone.Input{Type: "A", Name: "unseen", Content: "192.0.2.21"})
		require.NoError(t, err)
		dbtest.MustExec(t, d, "DELETE FROM zone_changes")
		afterGap := b.add(t, "seen", "192.0.2.22")
		require.NotEqual(t, before, afterGap)
		b.waitFor(t, "unseen", "192.0.2.21") // the full load has the change the journal lost

		rrs := transferIn(t, b.addr, ixfrQuery(before))
		require.Equal(t, afterGap, rrs[0].(*dns.SOA).Serial)
		requireWholeZone(t, b.addr, rrs)

		zoneThen := transferIn(t, b.addr, new(dns.Msg).SetAxfr("inf.nz."))
		b.add(t, "later", "192.0.2.23")
		rrs = transferIn(t, b.addr, ixfrQuery(afterGap))
		require.Equal(t, afterGap, rrs[1].(*dns.SOA).Serial, "incremental again from the full load on\n%v", rrTexts(rrs))
		now := transferIn(t, b.addr, new(dns.Msg).SetAxfr("inf.nz."))
		require.Equal(t, sorted(rrTexts(now[:len(now)-1])), sorted(rrTexts(applyIXFR(t, zoneThen[:len(zoneThen)-1], rrs))))
	})
}
