package server_test

import (
	"context"
	"testing"
	"time"

	"github.com/miekg/dns"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/config"
	"github.com/nameport/nameport/internal/dbtest"
)

// askDO asks addr with the DO bit set.
func askDO(t *testing.T, addr, name string, qtype uint16) *dns.Msg {
	t.Helper()
	q := new(dns.Msg).SetQuestion(name, qtype)
	q.SetEdns0(1232, true)
	m, _, err := (&dns.Client{Net: "tcp", Timeout: 5 * time.Second}).Exchange(q, addr)
	require.NoError(t, err)
	return m
}

// By default (--dnssec) the zones are signed: each has a key, made at the
// start and kept sealed in the database, published as its DNSKEY set, and
// answers to queries with the DO bit carry signatures it verifies, also
// for records added through the API. With --dnssec=false: no key, no
// signatures.
func TestZonesSignedByDefault(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := start(t, engine)
			alice := fundedUser(t, ts)
			shop := registerDomain(t, alice, "shop", ".inf.nz")
			addRecord(t, alice, shop, map[string]any{"type": "A", "name": "@", "content": "192.0.2.10"})

			var m *dns.Msg
			require.Eventually(t, func() bool {
				m = askDO(t, ts.dnsAddr, "inf.nz.", dns.TypeDNSKEY)
				return len(m.Answer) == 2
			}, 10*time.Second, 20*time.Millisecond)
			key, ok := m.Answer[0].(*dns.DNSKEY)
			require.True(t, ok, m.String())
			require.Equal(t, uint8(dns.ECDSAP256SHA256), key.Algorithm)
			require.NoError(t, m.Answer[1].(*dns.RRSIG).Verify(key, m.Answer[:1]))
			require.InDelta(t, time.Now().Unix()+7*24*3600, int64(m.Answer[1].(*dns.RRSIG).Expiration), 120, "valid a week by default")

			require.Eventually(t, func() bool {
				m = askDO(t, ts.dnsAddr, "shop.inf.nz.", dns.TypeA)
				return len(m.Answer) == 2
			}, 10*time.Second, 20*time.Millisecond)
			require.NoError(t, m.Answer[1].(*dns.RRSIG).Verify(key, m.Answer[:1]))

			// The key is the one stored, sealed.
			d := dbtest.Connect(t, ts.dbURL)
			var tag int
			var sealed string
			require.NoError(t, d.Bun.NewRaw("SELECT key_tag, private_sealed FROM dnssec_keys WHERE zone = 'inf.nz.' AND state = 'active'").
				Scan(context.Background(), &tag, &sealed))
			require.Equal(t, int(key.KeyTag()), tag)
			require.NotContains(t, sealed, "PrivateKey")

			// Compact denial for a name that does not exist.
			m = askDO(t, ts.dnsAddr, "nothing.inf.nz.", dns.TypeA)
			require.Equal(t, dns.RcodeSuccess, m.Rcode, m.String())
			require.True(t, hasRRType(m.Ns, dns.TypeNSEC), m.String())
		})
	}
}

// --dnssec-signature-validity and --dnssec-signature-refresh set how long
// the signatures served are valid (from an hour back).
func TestSignatureValidityConfigurable(t *testing.T) {
	t.Parallel()
	ts := startWith(t, dbtest.Engines()[0], func(cfg *config.Config) {
		cfg.DNSSECSignatureValidity, cfg.DNSSECSignatureRefresh = 72*time.Hour, 12*time.Hour
	})
	fundedUser(t, ts)
	var m *dns.Msg
	require.Eventually(t, func() bool {
		m = askDO(t, ts.dnsAddr, "inf.nz.", dns.TypeDNSKEY)
		return len(m.Answer) == 2
	}, 10*time.Second, 20*time.Millisecond)
	sig := m.Answer[1].(*dns.RRSIG)
	now := time.Now().Unix()
	require.InDelta(t, now+72*3600, int64(sig.Expiration), 120, m.String())
	require.InDelta(t, now-3600, int64(sig.Inception), 120, m.String())
}

func TestDNSSECOff(t *testing.T) {
	t.Parallel()
	ts := startWith(t, dbtest.Engines()[0], func(cfg *config.Config) { cfg.NoDNSSEC = true })
	fundedUser(t, ts)
	var m *dns.Msg
	require.Eventually(t, func() bool { // the zone is served once the catalog is in
		m = askDO(t, ts.dnsAddr, "nothing.inf.nz.", dns.TypeA)
		return m.Rcode != dns.RcodeRefused
	}, 10*time.Second, 20*time.Millisecond)
	require.Equal(t, dns.RcodeNameError, m.Rcode, m.String())
	require.False(t, hasRRType(m.Ns, dns.TypeRRSIG), m.String())
	m = askDO(t, ts.dnsAddr, "inf.nz.", dns.TypeDNSKEY)
	require.Empty(t, m.Answer, m.String())
}

func hasRRType(rrs []dns.RR, t uint16) bool {
	for _, rr := range rrs {
		if rr.Header().Rrtype == t {
			return true
		}
	}
	return false
}
