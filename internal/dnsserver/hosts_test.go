package dnsserver_test

import (
	"context"
	"net/netip"
	"testing"

	"github.com/miekg/dns"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/dnsserver"
)

// The mail host of email forwarding (mx.<zone>) is answered in every zone,
// also one that the catalog adds later, and travels in transfers.
func TestZoneHosts(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		addExtension(t, d, ".inf.nz", true, "")
		srv := dnsserver.New("127.0.0.1:0", quiet,
			dnsserver.WithZoneHost("mx", netip.MustParseAddr("192.0.2.25"), netip.MustParseAddr("2001:db8::25")))
		require.NoError(t, srv.Reload(ctx, d))
		answer := func(name string, qtype uint16) []string {
			res := dnsserver.Lookup(srv.Snapshot(), name, qtype)
			require.Equal(t, dns.RcodeSuccess, res.Rcode, name)
			var out []string
			for _, rr := range res.Answer {
				out = append(out, rr.String())
			}
			return out
		}
		require.Equal(t, []string{"mx.inf.nz.\t3600\tIN\tA\t192.0.2.25"}, answer("mx.inf.nz.", dns.TypeA))
		require.Equal(t, []string{"MX.inf.nz.\t3600\tIN\tAAAA\t2001:db8::25"}, answer("MX.inf.nz.", dns.TypeAAAA), "in the case asked")
		require.Contains(t, rrTexts(dnsserver.ZoneRecords(srv.Snapshot(), "inf.nz.")), "mx.inf.nz.\t3600\tIN\tA\t192.0.2.25")

		// A zone the catalog adds has it from its first snapshot.
		addExtension(t, d, ".biz.ee", true, "")
		dbtest.MustExec(t, d, "UPDATE catalog_version SET version = version + 1 WHERE id = 1")
		require.NoError(t, srv.Update(ctx, d))
		require.Equal(t, []string{"mx.biz.ee.\t3600\tIN\tA\t192.0.2.25"}, answer("mx.biz.ee.", dns.TypeA))
		require.Equal(t, []string{"mx.inf.nz.\t3600\tIN\tA\t192.0.2.25"}, answer("mx.inf.nz.", dns.TypeA))

		// Without the option, nothing.
		plain := dnsserver.New("127.0.0.1:0", quiet)
		require.NoError(t, plain.Reload(ctx, d))
		require.Equal(t, dns.RcodeNameError, dnsserver.Lookup(plain.Snapshot(), "mx.inf.nz.", dns.TypeA).Rcode)
	})
}
