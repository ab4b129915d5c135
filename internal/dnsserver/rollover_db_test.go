package dnsserver_test

import (
	"context"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/miekg/dns"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/dnssec"
	"github.com/nameport/nameport/internal/dnsserver"
	"github.com/nameport/nameport/internal/zone"
)

// A zone goes through key rollovers, the key store's clock moved on by
// the waits each step needs, and at every step the DNS server (which
// reads the keys again when a step moves the serial) serves what unbound
// validates with the trust anchors a parent could hold then, and a signed
// transfer that ldns-verify-zone and kzonecheck accept:
//
//   - the first ZSK rollover: the CSK gets a ZSK (published, then signing),
//     and stays as the KSK;
//   - the next one: the new ZSK published, then signing, the old one
//     retired, then removed;
//   - a KSK rollover: the new KSK published beside the old (both sign the
//     DNSKEY set: either DS validates) with CDS and CDNSKEY; the admin's
//     confirmation refused too early, then taken; the old KSK retired,
//     still signing the key set, then removed.
func TestRolloversKeepValidating(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		var mu sync.Mutex
		now := time.Now().UTC()
		clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
		later := func(by time.Duration) { mu.Lock(); defer mu.Unlock(); now = now.Add(by) }
		const lifetime = 30 * 24 * time.Hour
		store, err := dnssec.NewStore(d, []byte("0123456789abcdef0123456789abcdef"), dnssec.ECDSAP256SHA256)
		require.NoError(t, err)
		store.WithZSKLifetime(lifetime).WithClock(clock)

		addExtension(t, d, ".inf.nz", true, `["ns1.nameport.net", "ns2.nameport.net"]`)
		records := zone.NewService(d, zone.Options{})
		dom := registerDomain(t, d, "example", ".inf.nz", time.Now().AddDate(1, 0, 0))
		_, err = records.Create(ctx, dom, zone.Input{Type: "A", Name: "@", Content: "192.0.2.1"})
		require.NoError(t, err)
		addr := freeAddr(t)
		start(t, d, addr, dnsserver.WithDNSSEC(store.Keys), dnsserver.WithTransfer(netip.MustParsePrefix("127.0.0.0/8")))

		keysNow := func() *dnssec.ZoneKeys {
			zk, err := store.Keys(ctx, []string{"inf.nz."})
			require.NoError(t, err)
			return zk[0]
		}
		csk := keysNow().DataSigner
		tags := func(rrs []dns.RR) []uint16 {
			var out []uint16
			for _, rr := range rrs {
				if k, ok := rr.(*dns.DNSKEY); ok {
					out = append(out, k.KeyTag())
				}
			}
			slices.Sort(out)
			return out
		}
		wantTags := func(keys ...*dnssec.Key) []uint16 {
			var out []uint16
			for _, k := range keys {
				out = append(out, k.Tag())
			}
			slices.Sort(out)
			return out
		}
		// served waits until the server publishes the DNSKEY set of keys
		// and signs example.inf.nz's address with signer.
		served := func(signer *dnssec.Key, keys ...*dnssec.Key) {
			t.Helper()
			require.Eventually(t, func() bool {
				m := dnsserver.Resolve(t, addr, "inf.nz.", dns.TypeDNSKEY)
				if !slices.Equal(tags(m.Answer), wantTags(keys...)) {
					return false
				}
				a := dnsserver.Resolve(t, addr, "example.inf.nz.", dns.TypeA)
				return slices.ContainsFunc(a.Answer, func(rr dns.RR) bool {
					sig, ok := rr.(*dns.RRSIG)
					return ok && sig.KeyTag == signer.Tag()
				})
			}, 10*time.Second, 50*time.Millisecond, "keys %v, data signed by %d", wantTags(keys...), signer.Tag())
		}
		// validates requires unbound, with anchors (DS records) as the
		// parent's, to validate a positive answer, the key set and a
		// name that does not exist; and the zone's transfer to verify.
		cskWithZSK := false // the CSK signs the data, a ZSK published
		validates := func(anchors ...*dnssec.Key) {
			t.Helper()
			var ds []string
			for _, k := range anchors {
				ds = append(ds, k.DS().String())
			}
			resolver := dnsserver.StartUnbound(t, ds, map[string]string{"inf.nz": addr})
			for _, q := range []struct {
				name  string
				qtype uint16
			}{{"example.inf.nz.", dns.TypeA}, {"inf.nz.", dns.TypeDNSKEY}, {"nope.inf.nz.", dns.TypeA}} {
				m := dnsserver.Resolve(t, resolver, q.name, q.qtype)
				require.True(t, m.AuthenticatedData, "%s %s with anchors %v\n%s", q.name, dns.TypeToString[q.qtype], ds, m)
			}
			xfr := transferIn(t, addr, new(dns.Msg).SetAxfr("inf.nz."))
			failures := dnsserver.CheckSignedZone(t, "inf.nz.", xfr)
			if len(failures) == 1 && cskWithZSK {
				// kzonecheck takes a zone with a ZSK (flags 256) in its
				// key set for one whose data the ZSK signs; validators
				// (unbound above, ldns-verify-zone) know no roles.
				require.Contains(t, failures[0], "kzonecheck")
				require.Contains(t, failures[0], "no valid signature for a record")
				return
			}
			require.Empty(t, failures)
		}
		advance := func(want int) {
			t.Helper()
			steps, err := store.Advance(ctx)
			require.NoError(t, err)
			require.Equal(t, want, steps)
		}
		status := func() dnssec.ZoneStatus {
			st, err := store.Status(ctx, "inf.nz.")
			require.NoError(t, err)
			return st
		}

		served(csk, csk)
		validates(csk)
		advance(0)
		require.WithinDuration(t, clock().Add(lifetime), status().NextRollover, time.Second)

		// The first ZSK rollover: the CSK gets a ZSK.
		later(lifetime)
		serial := serialOf(t, addr)
		advance(1)
		zsk1 := keysNow().DNSKEYs[1]
		require.Equal(t, csk.Tag(), keysNow().DataSigner.Tag(), "published, not signing yet")
		r := status().Rollover
		require.Equal(t, []string{dnssec.RolloverZSK, dnssec.PhasePublishing}, []string{r.Kind, r.Phase})
		require.WithinDuration(t, clock().Add(dnssec.PublishWait), r.NextStepAt, time.Second)
		served(csk, csk, &dnssec.Key{DNSKEY: zsk1.(*dns.DNSKEY)})
		require.NotEqual(t, serial, serialOf(t, addr), "a step moves the serial")
		cskWithZSK = true
		validates(csk)
		cskWithZSK = false
		later(dnssec.PublishWait - time.Minute)
		advance(0)
		later(time.Minute)
		advance(1)
		zk := keysNow()
		require.Equal(t, zsk1.(*dns.DNSKEY).KeyTag(), zk.DataSigner.Tag())
		require.Equal(t, wantTags(csk), wantTags(zk.KeySigners...), "the CSK signs the key set")
		served(zk.DataSigner, csk, zk.DataSigner)
		validates(csk)
		st := status()
		require.Nil(t, st.Rollover, "the CSK stays, as the KSK: nothing retires")
		require.Equal(t, []string{"KSK", "ZSK"}, []string{st.Keys[0].Role, st.Keys[1].Role})

		// The next ZSK rollover: the old ZSK retires, then goes.
		zskOld := zk.DataSigner
		later(lifetime)
		advance(1)
		zskNew := keysNow().DNSKEYs[2].(*dns.DNSKEY)
		later(dnssec.PublishWait)
		advance(1)
		zk = keysNow()
		require.Equal(t, zskNew.KeyTag(), zk.DataSigner.Tag())
		served(zk.DataSigner, csk, zskOld, zk.DataSigner)
		validates(csk)
		require.Equal(t, dnssec.PhaseRetiring, status().Rollover.Phase)
		later(dnssec.RetireWait)
		advance(1)
		served(zk.DataSigner, csk, zk.DataSigner)
		validates(csk)
		require.Equal(t, []string{"removed"}, statesOf(status(), zskOld.Tag()))

		// A KSK rollover, started by the admin.
		require.NoError(t, store.StartKeyRollover(ctx, "inf.nz.", nil))
		var busy *apperr.Error
		require.ErrorAs(t, store.StartKeyRollover(ctx, "inf.nz.", nil), &busy, "one at a time")
		zk = keysNow()
		require.Len(t, zk.KeySigners, 2)
		ksk := zk.KeySigners[1]
		require.Equal(t, zskNew.KeyTag(), zk.DataSigner.Tag(), "the ZSK signs on")
		served(zk.DataSigner, csk, zk.DataSigner, ksk)
		cds := dnsserver.Resolve(t, addr, "inf.nz.", dns.TypeCDS)
		require.Len(t, cds.Answer, 3, "the CDS, signed by both KSKs\n%s", cds)
		require.Equal(t, strings.ToUpper(ksk.DS().Digest), strings.ToUpper(cds.Answer[0].(*dns.CDS).Digest))
		cdnskey := dnsserver.Resolve(t, addr, "inf.nz.", dns.TypeCDNSKEY)
		require.Equal(t, ksk.DNSKEY.PublicKey, cdnskey.Answer[0].(*dns.CDNSKEY).PublicKey)
		validates(csk)
		validates(ksk)
		err = store.ConfirmDS(ctx, "inf.nz.", nil)
		require.ErrorContains(t, err, "not yet in every resolver's cache", "too early")
		later(dnssec.PublishWait)
		require.Equal(t, dnssec.PhaseAwaitingDS, status().Rollover.Phase)
		advance(0) // the job waits for the admin
		require.NoError(t, store.ConfirmDS(ctx, "inf.nz.", nil))
		require.ErrorContains(t, store.ConfirmDS(ctx, "inf.nz.", nil), "No KSK rollover is waiting")
		zk = keysNow()
		require.Len(t, zk.KeySigners, 2, "the old KSK signs the key set while retired")
		require.Empty(t, zk.CDS, "the parent followed")
		served(zk.DataSigner, csk, zk.DataSigner, ksk)
		validates(ksk)
		validates(csk)
		later(dnssec.RetireWait)
		advance(1)
		served(zk.DataSigner, zk.DataSigner, ksk)
		validates(ksk)
		require.Equal(t, []string{"removed"}, statesOf(status(), csk.Tag()))
		require.Equal(t, []string{"active"}, statesOf(status(), ksk.Tag()))
	})
}

// statesOf returns the states of the keys of st tagged tag.
func statesOf(st dnssec.ZoneStatus, tag uint16) []string {
	var out []string
	for _, k := range st.Keys {
		if k.DNSKEY.KeyTag() == tag {
			out = append(out, k.State)
		}
	}
	return out
}
