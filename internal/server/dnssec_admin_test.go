package server_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/miekg/dns"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/config"
	"github.com/nameport/nameport/internal/dbtest"
)

// An admin sees each extension's DNSSEC keys and the DS record to give to
// the parent registry, which matches the DNSKEY the DNS server publishes;
// turning the extension's switch off serves its zone unsigned (no DNSKEY,
// no RRSIG even with DO) while the other zones stay signed, and turning it
// on again signs it with the same key. A bad switch value changes nothing.
func TestDNSSECSwitchAndKeysView(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := startWith(t, engine, func(cfg *config.Config) { cfg.DNSSECZSKLifetime = 90 * 24 * time.Hour })
			admin := loginAdmin(t, ts)
			data(t, admin.do("POST", "/api/domain-extensions", map[string]any{"extension": ".inf.nz", "description": "Information sites"}))
			other := data(t, admin.do("POST", "/api/domain-extensions", map[string]any{"extension": ".biz.ee", "description": "Business"}))
			alice := signedUp(t, ts, "alice", "user")
			require.Equal(t, http.StatusCreated, alice.do("POST", "/api/wallet/deposit", map[string]any{"amount": 200}).status)
			shop := registerDomain(t, alice, "shop", ".inf.nz")
			addRecord(t, alice, shop, map[string]any{"type": "A", "name": "@", "content": "192.0.2.10"})

			var extID any
			for _, e := range admin.do("GET", "/api/domain-extensions", nil).body["data"].([]any) {
				if e := e.(map[string]any); e["extension"] == ".inf.nz" {
					extID = e["id"]
					require.Equal(t, true, e["dnssecEnabled"], "on by default")
				}
			}
			require.NotNil(t, extID)
			path := fmt.Sprintf("/api/domain-extensions/%v", extID)

			// The key the DNS server publishes.
			var dnskey *dns.DNSKEY
			require.Eventually(t, func() bool {
				m := askDO(t, ts.dnsAddr, "inf.nz.", dns.TypeDNSKEY)
				if len(m.Answer) == 0 {
					return false
				}
				dnskey, _ = m.Answer[0].(*dns.DNSKEY)
				return dnskey != nil
			}, 10*time.Second, 20*time.Millisecond)

			view := data(t, admin.do("GET", path+"/dnssec", nil))
			require.Equal(t, "inf.nz.", view["zone"])
			require.Equal(t, true, view["enabled"])
			require.Equal(t, true, view["serverSigning"])
			require.Equal(t, true, view["signed"])
			require.NotContains(t, view, "rollover", "none under way")
			next, err := time.Parse(time.RFC3339, view["nextRollover"].(string))
			require.NoError(t, err)
			require.WithinDuration(t, time.Now().Add(90*24*time.Hour), next, time.Minute, "the ZSK's lifetime from now")
			keys := view["keys"].([]any)
			require.Len(t, keys, 1)
			key := keys[0].(map[string]any)
			require.Equal(t, float64(dnskey.KeyTag()), key["keyTag"])
			require.Equal(t, "ECDSAP256SHA256", key["algorithmName"])
			require.Equal(t, "CSK", key["role"])
			require.Equal(t, "active", key["state"])
			require.Equal(t, dnskey.PublicKey, key["publicKey"])
			ds := key["ds"].(map[string]any)
			want := dnskey.ToDS(dns.SHA256)
			require.Equal(t, float64(2), ds["digestType"])
			require.Equal(t, strings.ToUpper(want.Digest), ds["digest"])
			require.Contains(t, ds["record"], fmt.Sprintf("inf.nz. 3600 IN DS %d 13 2 ", dnskey.KeyTag()))
			require.Contains(t, key["dnskey"], "inf.nz. 3600 IN DNSKEY 257 3 13 ")
			for _, k := range []string{"privateKey", "private", "sealed"} {
				require.NotContains(t, key, k)
			}

			// Bad input: nothing changes.
			r := admin.do("PATCH", path, map[string]any{"dnssecEnabled": "no"})
			require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)
			require.Equal(t, true, data(t, admin.do("GET", path+"/dnssec", nil))["enabled"])
			require.Equal(t, http.StatusNotFound, admin.do("GET", "/api/domain-extensions/999999/dnssec", nil).status)

			// Off: served unsigned.
			r = admin.do("PATCH", path, map[string]any{"dnssecEnabled": false})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Equal(t, false, data(t, r)["dnssecEnabled"])
			require.Eventually(t, func() bool {
				return len(askDO(t, ts.dnsAddr, "inf.nz.", dns.TypeDNSKEY).Answer) == 0
			}, 10*time.Second, 20*time.Millisecond, "no DNSKEY once off")
			m := askDO(t, ts.dnsAddr, "shop.inf.nz.", dns.TypeA)
			require.Len(t, m.Answer, 1, m.String())
			require.False(t, hasRRType(m.Answer, dns.TypeRRSIG), m.String())
			m = askDO(t, ts.dnsAddr, "nothing.inf.nz.", dns.TypeA)
			require.Equal(t, dns.RcodeNameError, m.Rcode, "plain NXDOMAIN, no compact denial\n%s", m)
			require.False(t, hasRRType(m.Ns, dns.TypeNSEC), m.String())
			view = data(t, admin.do("GET", path+"/dnssec", nil))
			require.Equal(t, false, view["enabled"])
			require.Equal(t, false, view["signed"])
			require.Len(t, view["keys"], 1, "the key is kept")
			// The other zone stays signed.
			require.Eventually(t, func() bool {
				return len(askDO(t, ts.dnsAddr, "biz.ee.", dns.TypeDNSKEY).Answer) == 2
			}, 10*time.Second, 20*time.Millisecond)
			require.Equal(t, true, data(t, admin.do("GET", fmt.Sprintf("/api/domain-extensions/%v/dnssec", other["id"]), nil))["signed"])

			// On again: signed with the same key.
			r = admin.do("PATCH", path, map[string]any{"dnssecEnabled": true})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Eventually(t, func() bool {
				m = askDO(t, ts.dnsAddr, "shop.inf.nz.", dns.TypeA)
				return hasRRType(m.Answer, dns.TypeRRSIG)
			}, 10*time.Second, 20*time.Millisecond, "signed again")
			m = askDO(t, ts.dnsAddr, "inf.nz.", dns.TypeDNSKEY)
			require.NotEmpty(t, m.Answer)
			require.Equal(t, dnskey.KeyTag(), m.Answer[0].(*dns.DNSKEY).KeyTag())
		})
	}
}

// An admin starts a KSK rollover: the new key is published beside the old
// one, the DNS server publishes its CDS and CDNSKEY, and the view shows
// the rollover; a second start, and the DS confirmed before the new key
// has been published long enough, are refused and change nothing; so is a
// rollover of a zone with DNSSEC off. (The steps that follow, in time, are
// proven in internal/dnsserver's TestRolloversKeepValidating.)
func TestKSKRolloverFromTheAdmin(t *testing.T) {
	t.Parallel()
	ts := start(t, dbtest.Engines()[0])
	admin := loginAdmin(t, ts)
	ext := data(t, admin.do("POST", "/api/domain-extensions", map[string]any{"extension": ".inf.nz", "description": "Information sites"}))
	path := fmt.Sprintf("/api/domain-extensions/%v/dnssec", ext["id"])
	var old *dns.DNSKEY
	require.Eventually(t, func() bool {
		m := askDO(t, ts.dnsAddr, "inf.nz.", dns.TypeDNSKEY)
		if len(m.Answer) == 0 {
			return false
		}
		old, _ = m.Answer[0].(*dns.DNSKEY)
		return old != nil
	}, 10*time.Second, 20*time.Millisecond)

	r := admin.do("POST", path+"/ksk-rollover", nil)
	require.Equal(t, http.StatusOK, r.status, r.raw)
	view := data(t, r)
	rollover := view["rollover"].(map[string]any)
	require.Equal(t, "KSK", rollover["kind"])
	require.Equal(t, "publishing", rollover["phase"])
	require.NotContains(t, view, "nextRollover", "none scheduled while one is under way")
	keys := view["keys"].([]any)
	require.Len(t, keys, 2)
	require.Equal(t, "active", keys[0].(map[string]any)["state"])
	fresh := keys[1].(map[string]any)
	require.Equal(t, "published", fresh["state"])
	require.Equal(t, "CSK", fresh["role"])
	require.Equal(t, float64(257), fresh["flags"])

	// Served: both keys, and the CDS of the new one, for the parent.
	require.Eventually(t, func() bool {
		return len(askDO(t, ts.dnsAddr, "inf.nz.", dns.TypeCDS).Answer) > 0
	}, 10*time.Second, 20*time.Millisecond, "the CDS is published")
	m := askDO(t, ts.dnsAddr, "inf.nz.", dns.TypeCDS)
	cds := m.Answer[0].(*dns.CDS)
	require.Equal(t, fresh["keyTag"], float64(cds.KeyTag))
	require.Equal(t, fresh["ds"].(map[string]any)["digest"], strings.ToUpper(cds.Digest))
	require.Len(t, askDO(t, ts.dnsAddr, "inf.nz.", dns.TypeDNSKEY).Answer, 2+2, "two keys, each signing the set")

	// Recorded in the audit log: who, which zone, which key.
	entries := auditEntries(t, admin, "")
	require.Equal(t, "dnssec.ksk_rollover", entries[0]["action"], "the latest")
	require.Equal(t, fmt.Sprint(ext["id"]), entries[0]["targetId"])
	require.Contains(t, fmt.Sprint(entries[0]["after"]), fmt.Sprint(fresh["keyTag"]))

	// Refused, changing nothing.
	r = admin.do("POST", path+"/ksk-rollover", nil)
	require.Equal(t, http.StatusConflict, r.status, r.raw)
	require.Contains(t, r.raw, "A key rollover is already under way for this zone")
	r = admin.do("POST", path+"/ksk-rollover/ds-confirmed", nil)
	require.Equal(t, http.StatusConflict, r.status, r.raw)
	require.Contains(t, r.raw, "The new key is not yet in every resolver's cache: confirm its DS after ")
	require.Equal(t, http.StatusNotFound, admin.do("POST", "/api/domain-extensions/999999/dnssec/ksk-rollover", nil).status)
	after := data(t, admin.do("GET", path, nil))
	require.Len(t, after["keys"], 2)
	require.Equal(t, "publishing", after["rollover"].(map[string]any)["phase"])

	other := data(t, admin.do("POST", "/api/domain-extensions", map[string]any{"extension": ".biz.ee", "description": "Business",
		"dnssecEnabled": false}))
	r = admin.do("POST", fmt.Sprintf("/api/domain-extensions/%v/dnssec/ksk-rollover", other["id"]), nil)
	require.Equal(t, http.StatusConflict, r.status, r.raw)
	require.Contains(t, r.raw, "The zone is not signed: turn DNSSEC on for the extension first")
}

// With --dnssec=false the view says the server does not sign, with no keys.
func TestDNSSECViewWhenServerDoesNotSign(t *testing.T) {
	t.Parallel()
	ts := startWith(t, dbtest.Engines()[0], func(cfg *config.Config) { cfg.NoDNSSEC = true })
	admin := loginAdmin(t, ts)
	ext := data(t, admin.do("POST", "/api/domain-extensions", map[string]any{"extension": ".inf.nz", "description": "Information sites"}))
	view := data(t, admin.do("GET", fmt.Sprintf("/api/domain-extensions/%v/dnssec", ext["id"]), nil))
	require.Equal(t, true, view["enabled"])
	require.Equal(t, false, view["serverSigning"])
	require.Equal(t, false, view["signed"])
	require.Empty(t, view["keys"])
}
