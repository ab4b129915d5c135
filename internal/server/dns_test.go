package server_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/miekg/dns"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/dbtest"
)

func query(t *testing.T, addr, name string, qtype uint16) *dns.Msg {
	t.Helper()
	m := new(dns.Msg).SetQuestion(dns.Fqdn(name), qtype)
	resp, _, err := (&dns.Client{Timeout: 2 * time.Second}).Exchange(m, addr)
	require.NoError(t, err)
	return resp
}

// A record made through the API is answered by the DNS server of the same
// process within a second; another account cannot touch it.
func TestRecordsChangedThroughTheAPIAreServed(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := start(t, engine)
			seedCatalog(t, ts)
			alice := signedUp(t, ts, "alice", "user")
			require.Equal(t, http.StatusCreated, alice.do("POST", "/api/wallet/deposit", map[string]any{"amount": 20}).status)
			r := alice.do("POST", "/api/domains", map[string]any{"name": "served", "extension": ".inf.nz"})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			id := data(t, r)["domain"].(map[string]any)["id"]

			// A new domain without records is not in DNS yet: NXDOMAIN (once
			// the zone is loaded), as on a secondary, which gets nothing for
			// it by AXFR.
			require.Eventually(t, func() bool {
				resp := query(t, ts.dnsAddr, "served.inf.nz", dns.TypeA)
				return resp.Rcode == dns.RcodeNameError && resp.Authoritative
			}, time.Second, 20*time.Millisecond)
			require.Equal(t, dns.RcodeNameError, query(t, ts.dnsAddr, "unregistered.inf.nz", dns.TypeA).Rcode)
			require.Equal(t, dns.RcodeRefused, query(t, ts.dnsAddr, "example.com", dns.TypeA).Rcode)

			r = alice.do("POST", fmt.Sprintf("/api/domains/%v/dns", id), map[string]any{"type": "A", "name": "www", "content": "192.0.2.10", "ttl": 600})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			rec := data(t, r)
			require.Eventually(t, func() bool {
				resp := query(t, ts.dnsAddr, "www.served.inf.nz", dns.TypeA)
				return len(resp.Answer) == 1 && resp.Answer[0].(*dns.A).A.String() == "192.0.2.10"
			}, time.Second, 20*time.Millisecond, "answered within a second")
			// Its apex now exists, above its record: NODATA.
			resp := query(t, ts.dnsAddr, "served.inf.nz", dns.TypeA)
			require.Equal(t, dns.RcodeSuccess, resp.Rcode)
			require.Empty(t, resp.Answer)

			// Validation with the spec's messages; nothing stored.
			for body, msg := range map[string]string{
				`{"type":"A","name":"","content":"192.0.2.1"}`:         "Record name is required",
				`{"type":"A","name":"x","content":""}`:                 "Record content is required",
				`{"type":"A","name":"x","content":"1.2.3.4","ttl":60}`: "TTL",
			} {
				r = alice.do("POST", fmt.Sprintf("/api/domains/%v/dns", id), body)
				require.Equal(t, http.StatusUnprocessableEntity, r.status, body)
				require.Contains(t, r.body["error"], msg)
			}
			require.Len(t, alice.do("GET", fmt.Sprintf("/api/domains/%v/dns", id), nil).body["data"].([]any), 1)

			// Another account: not found, and nothing changes.
			bob := signedUp(t, ts, "bob", "user")
			for _, op := range []struct {
				method, path string
				body         any
			}{
				{"GET", fmt.Sprintf("/api/domains/%v/dns", id), nil},
				{"POST", fmt.Sprintf("/api/domains/%v/dns", id), map[string]any{"type": "A", "name": "evil", "content": "198.51.100.1"}},
				{"PUT", fmt.Sprintf("/api/domains/%v/dns/%v", id, rec["id"]), map[string]any{"type": "A", "name": "www", "content": "198.51.100.1"}},
				{"DELETE", fmt.Sprintf("/api/domains/%v/dns/%v", id, rec["id"]), nil},
				{"GET", fmt.Sprintf("/api/domains/%v/zone", id), nil},
				{"POST", fmt.Sprintf("/api/domains/%v/zone/import", id), map[string]any{"zoneFile": ""}},
			} {
				r := bob.do(op.method, op.path, op.body)
				require.Equal(t, http.StatusNotFound, r.status, "%s %s", op.method, op.path)
			}
			require.Equal(t, "192.0.2.10", query(t, ts.dnsAddr, "www.served.inf.nz", dns.TypeA).Answer[0].(*dns.A).A.String())

			// Export, then import a changed file: the preview says what changes.
			zf := data(t, alice.do("GET", fmt.Sprintf("/api/domains/%v/zone", id), nil))
			require.Equal(t, "served.inf.nz.zone", zf["filename"])
			require.Contains(t, zf["zoneFile"], "192.0.2.10")
			file := "$ORIGIN served.inf.nz.\n$TTL 3600\n@ IN MX 10 mail.example.com.\n"
			plan := data(t, alice.do("POST", fmt.Sprintf("/api/domains/%v/zone/preview", id), map[string]any{"zoneFile": file}))
			require.Len(t, plan["add"], 1)
			require.Len(t, plan["remove"], 1)
			require.Len(t, alice.do("GET", fmt.Sprintf("/api/domains/%v/dns", id), nil).body["data"].([]any), 1, "a preview changes nothing")
			r = alice.do("POST", fmt.Sprintf("/api/domains/%v/zone/import", id), map[string]any{"zoneFile": file})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Eventually(t, func() bool {
				return len(query(t, ts.dnsAddr, "served.inf.nz", dns.TypeMX).Answer) == 1 &&
					query(t, ts.dnsAddr, "www.served.inf.nz", dns.TypeA).Rcode == dns.RcodeNameError
			}, time.Second, 20*time.Millisecond)

			// An ordinary zone file names its name servers at the apex. The
			// import skips them, says so, and what it imports is served; kept
			// (delegate), the domain is delegated away.
			file = "$ORIGIN served.inf.nz.\n@ IN NS ns1.elsewhere.example.\nwww IN A 192.0.2.20\n"
			r = alice.do("POST", fmt.Sprintf("/api/domains/%v/zone/import", id), map[string]any{"zoneFile": file})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			notes := data(t, r)["notes"].([]any)
			require.Len(t, notes, 1)
			require.Equal(t, "apex_ns", notes[0].(map[string]any)["kind"])
			require.Equal(t, "@ IN NS ns1.elsewhere.example.", notes[0].(map[string]any)["text"], "the line as the file has it")
			require.Eventually(t, func() bool {
				a := query(t, ts.dnsAddr, "www.served.inf.nz", dns.TypeA)
				return a.Authoritative && len(a.Answer) == 1 && a.Answer[0].(*dns.A).A.String() == "192.0.2.20"
			}, time.Second, 20*time.Millisecond, "the imported records are served")
			// A file naming Nameport's own name servers (as the zone's apex
			// publishes them) needs no choice: nothing to delegate.
			ours := query(t, ts.dnsAddr, "inf.nz", dns.TypeNS).Answer
			require.NotEmpty(t, ours)
			own := "$ORIGIN served.inf.nz.\n"
			for _, rr := range ours {
				own += "@ IN NS " + rr.(*dns.NS).Ns + "\n"
			}
			r = alice.do("POST", fmt.Sprintf("/api/domains/%v/zone/preview", id), map[string]any{"zoneFile": own + "www IN A 192.0.2.20\n"})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			notes = data(t, r)["notes"].([]any)
			require.Len(t, notes, len(ours))
			for _, n := range notes {
				require.Equal(t, "own_ns", n.(map[string]any)["kind"])
			}
			r = alice.do("POST", fmt.Sprintf("/api/domains/%v/zone/import", id), map[string]any{"zoneFile": file, "delegate": true})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Empty(t, data(t, r)["notes"])
			require.Eventually(t, func() bool {
				a := query(t, ts.dnsAddr, "www.served.inf.nz", dns.TypeA)
				return !a.Authoritative && len(a.Answer) == 0 && len(a.Ns) == 1 && a.Ns[0].(*dns.NS).Ns == "ns1.elsewhere.example."
			}, time.Second, 20*time.Millisecond, "a referral to the kept name servers")

			// An extension without DNS management refuses changes.
			admin := loginAdmin2(t, ts)
			exts := admin.do("GET", "/api/domain-extensions", nil).body["data"].([]any)
			r = admin.do("PATCH", fmt.Sprintf("/api/domain-extensions/%v", exts[0].(map[string]any)["id"]), map[string]any{"allowsDnsManagement": false})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			r = alice.do("POST", fmt.Sprintf("/api/domains/%v/dns", id), map[string]any{"type": "A", "name": "x", "content": "192.0.2.1"})
			require.Equal(t, http.StatusForbidden, r.status)
			require.Equal(t, "DNS management is not available for .inf.nz domains", r.body["error"])
			require.Equal(t, http.StatusOK, alice.do("GET", fmt.Sprintf("/api/domains/%v/dns", id), nil).status, "reading still works")
		})
	}
}
