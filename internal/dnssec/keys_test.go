package dnssec_test

import (
	"context"
	"crypto/sha256"
	"sync"
	"testing"
	"time"

	"github.com/miekg/dns"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/dnssec"
)

var secret = sha256.New().Sum([]byte("dnssec key store test secret...."))

// Keys are made once per zone and every store (node) reads the same ones,
// also when several make them at once; the private key is stored sealed
// and signs after the round trip.
func TestKeysMadeOnceSharedAndSealed(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		zones := []string{"inf.nz.", "EE."}
		const nodes = 4
		got := make([][]*dnssec.ZoneKeys, nodes)
		var wg sync.WaitGroup
		for i := range nodes {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s, err := dnssec.NewStore(d, secret, dnssec.ECDSAP256SHA256)
				require.NoError(t, err)
				got[i], err = s.Keys(ctx, zones)
				require.NoError(t, err)
			}()
		}
		wg.Wait()
		var n int
		require.NoError(t, d.Bun.NewRaw("SELECT count(*) FROM dnssec_keys").Scan(ctx, &n))
		require.Equal(t, 2, n)
		var sealed string
		require.NoError(t, d.Bun.NewRaw("SELECT private_sealed FROM dnssec_keys WHERE zone = 'ee.'").Scan(ctx, &sealed))
		require.NotContains(t, sealed, "PrivateKey")

		// A later start reads the keys made.
		s, err := dnssec.NewStore(d, secret, dnssec.ED25519)
		require.NoError(t, err)
		again, err := s.Keys(ctx, zones)
		require.NoError(t, err)
		for i := range nodes {
			require.Len(t, got[i], 2)
			for j, k := range got[i] {
				require.Equal(t, again[j].DataSigner.DNSKEY.String(), k.DataSigner.DNSKEY.String())
			}
		}
		k := again[1].DataSigner
		require.Equal(t, "ee.", k.Zone)
		require.Equal(t, uint8(dns.ECDSAP256SHA256), k.DNSKEY.Algorithm)
		require.Equal(t, uint16(257), k.DNSKEY.Flags)
		require.Equal(t, k.Tag(), k.DS().KeyTag)

		// The key read back signs what its DNSKEY verifies.
		a := &dns.A{Hdr: dns.RR_Header{Name: "x.ee.", Rrtype: dns.TypeA, Class: dns.ClassINET, Ttl: 60}}
		sig := &dns.RRSIG{Hdr: dns.RR_Header{Name: "x.ee.", Rrtype: dns.TypeRRSIG, Class: dns.ClassINET, Ttl: 60},
			Algorithm: k.DNSKEY.Algorithm, SignerName: "ee.", KeyTag: k.Tag(),
			Inception: uint32(time.Now().Add(-time.Hour).Unix()), Expiration: uint32(time.Now().Add(time.Hour).Unix())}
		a.A = []byte{192, 0, 2, 1}
		require.NoError(t, sig.Sign(k.Signer, []dns.RR{a}))
		require.NoError(t, sig.Verify(k.DNSKEY, []dns.RR{a}))

		// A new zone under the Ed25519 store gets an Ed25519 key.
		more, err := s.Keys(ctx, []string{"uk."})
		require.NoError(t, err)
		require.Equal(t, uint8(dns.ED25519), more[0].DataSigner.DNSKEY.Algorithm)
	})
}

func TestUnsupportedAlgorithm(t *testing.T) {
	t.Parallel()
	_, err := dnssec.NewStore(nil, secret, dns.RSASHA256)
	require.ErrorContains(t, err, "not supported")
}
