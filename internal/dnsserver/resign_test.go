package dnsserver

import (
	"testing"
	"time"

	"github.com/miekg/dns"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/dnssec"
	"github.com/nameport/nameport/internal/zone"
)

// A serial-only change (zone.BumpSigned, a still day after the last
// transfer) brings secondaries fresh signatures: the IXFR from the
// secondary's serial deletes every signature it holds and adds ones made
// at the transfer, valid for sigValidity from then; applied to the
// secondary's copy, it gives the zone as an AXFR now sends it.
func TestSerialOnlyChangeTransfersFreshSignatures(t *testing.T) {
	t.Parallel()
	s, _ := signingServer(t, dnssec.ECDSAP256SHA256)
	snap := s.Snapshot()
	z := snap.zones["inf.nz."]
	signedAt := time.Now()
	held := s.transferRecords(z, signedAt) // the secondary's copy

	next, skipped := snap.apply(&zone.Changes{Versions: snap.versions, Serial: z.soa.Serial + 1}, 10)
	require.Empty(t, skipped)
	s.Publish(next)
	nz := s.Snapshot().zones["inf.nz."]
	require.Equal(t, z.soa.Serial+1, nz.soa.Serial)
	now := signedAt.Add(zone.ResignAfter + time.Minute) // the job's bump, and the transfer it brings
	ixfr := s.signedIXFR(nz, z.soa.Serial, now)
	require.NotNil(t, ixfr, "an IXFR, not the whole zone")

	// [new SOA, old SOA, deleted..., new SOA, added..., new SOA]
	require.Equal(t, nz.soa.Serial, ixfr[0].(*dns.SOA).Serial)
	require.Equal(t, z.soa.Serial, ixfr[1].(*dns.SOA).Serial)
	mid := 2
	for ; mid < len(ixfr); mid++ {
		if _, ok := ixfr[mid].(*dns.SOA); ok {
			break
		}
	}
	deleted, added := ixfr[2:mid], ixfr[mid+1:len(ixfr)-1]
	gone := map[string]bool{}
	for _, rr := range deleted {
		gone[rr.String()] = true
	}
	after := map[string]bool{nz.soa.String(): true}
	for _, rr := range held[1:] {
		if !gone[rr.String()] {
			after[rr.String()] = true
		}
	}
	for _, rr := range added {
		after[rr.String()] = true
	}
	want := map[string]bool{}
	sigs := 0
	for _, rr := range s.transferRecords(nz, now) {
		want[rr.String()] = true
		if sig, ok := rr.(*dns.RRSIG); ok {
			sigs++
			require.Equal(t, uint32(now.Add(-sigInception).Unix()), sig.Inception, "%s: signed at the transfer", sig)
			require.Equal(t, uint32(now.Add(sigValidity).Unix()), sig.Expiration, "%s: valid a week from it", sig)
		}
	}
	require.Positive(t, sigs)
	require.Equal(t, want, after, "the secondary's copy after the IXFR is the zone now")
	for _, rr := range held {
		if _, ok := rr.(*dns.RRSIG); ok {
			require.True(t, gone[rr.String()], "%s: the old signature goes", rr)
		}
	}
}
