package server_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/miekg/dns"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/dbtest"
)

// mxAnswer returns the MX records DNS answers for name as "preference host",
// sorted.
func mxAnswer(t *testing.T, addr, name string) []string {
	t.Helper()
	var out []string
	for _, rr := range query(t, addr, name, dns.TypeMX).Answer {
		if mx, ok := rr.(*dns.MX); ok {
			out = append(out, fmt.Sprintf("%d %s", mx.Preference, mx.Mx))
		}
	}
	slices.Sort(out)
	return out
}

// /v1 record sets: each MX and SRV value may carry its own priority; the
// set's priority serves values without one, and one that contradicts a
// value's is refused. DNS answers what was set.
func TestV1RecordSetValuesCarryTheirPriorities(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := start(t, engine)
			seedCatalog(t, ts)
			_, key := registrar(t, ts, "mxsets")
			require.Equal(t, http.StatusCreated, v1(t, ts, key, "POST", "/v1/wallet/deposits", map[string]any{"amount": 20}).status)
			r := v1(t, ts, key, "POST", "/v1/domains/register", map[string]any{"domain": "mxsets.inf.nz"})
			require.Equal(t, http.StatusCreated, r.status, r.raw)

			put := func(set map[string]any) reply {
				t.Helper()
				return v1(t, ts, key, "PUT", "/v1/domains/mxsets.inf.nz/records", set)
			}
			summary := func(r reply) []string {
				t.Helper()
				require.Equal(t, http.StatusOK, r.status, r.raw)
				var out []string
				for _, rec := range r.body["records"].([]any) {
					rec := rec.(map[string]any)
					out = append(out, fmt.Sprintf("%v %v ttl=%v", rec["priority"], rec["content"], rec["ttl"]))
				}
				return out
			}

			r = put(map[string]any{"name": "@", "type": "MX", "values": []string{"10 mx1.example.com", "20 mx2.example.com"}, "ttl": 600})
			require.Equal(t, []string{"10 mx1.example.com ttl=600", "20 mx2.example.com ttl=600"}, summary(r))
			require.Eventually(t, func() bool {
				return slices.Equal(mxAnswer(t, ts.dnsAddr, "mxsets.inf.nz"), []string{"10 mx1.example.com.", "20 mx2.example.com."})
			}, 2*time.Second, 20*time.Millisecond, "DNS answers each priority")

			// The same host at two priorities is two records.
			r = put(map[string]any{"name": "@", "type": "MX", "values": []string{"10 mx1.example.com", "20 mx1.example.com"}})
			require.Equal(t, []string{"10 mx1.example.com ttl=3600", "20 mx1.example.com ttl=3600"}, summary(r))

			// As before, the set's priority for values without their own.
			r = put(map[string]any{"name": "@", "type": "MX", "values": []string{"mx1.example.com", "mx2.example.com"}, "priority": 5})
			require.Equal(t, []string{"5 mx1.example.com ttl=3600", "5 mx2.example.com ttl=3600"}, summary(r))

			r = put(map[string]any{"name": "_sip._tcp", "type": "SRV", "values": []string{"10 5 5060 sip1.example.com", "20 0 5061 sip2.example.com"}})
			require.Equal(t, []string{"10 5 5060 sip1.example.com ttl=3600", "20 0 5061 sip2.example.com ttl=3600"}, summary(r))

			for set, detail := range map[string]string{
				`{"name":"@","type":"MX","values":["10 mx1.example.com"],"priority":20}`:         `The value "10 mx1.example.com" has priority 10, but the set's priority is 20: give the priority in each value or for the whole set, not both`,
				`{"name":"@","type":"MX","values":["mx1.example.com"]}`:                          `MX value "mx1.example.com" needs a priority: write it first, like "10 mx1.example.com", or give the set's priority`,
				`{"name":"@","type":"MX","values":["10 mx1.example.com","10 mx1.example.com."]}`: `The value "10 mx1.example.com." appears twice in the set`,
				`{"name":"@","type":"MX","values":["high mx1.example.com"]}`:                     `MX value "high mx1.example.com" must be "priority host", like "10 mail.example.com", or a host alone with the set's priority`,
			} {
				r = v1(t, ts, key, "PUT", "/v1/domains/mxsets.inf.nz/records", set)
				require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)
				require.Equal(t, "invalid", problemCode(t, r))
				require.Equal(t, detail, r.body["detail"], set)
			}
			r = v1(t, ts, key, "GET", "/v1/domains/mxsets.inf.nz/records", nil)
			var mx []string
			for _, rec := range r.body["records"].([]any) {
				if rec := rec.(map[string]any); rec["type"] == "MX" {
					mx = append(mx, fmt.Sprintf("%v %v", rec["priority"], rec["content"]))
				}
			}
			require.Equal(t, []string{"5 mx1.example.com", "5 mx2.example.com"}, mx, "refused sets changed nothing")
		})
	}
}

// /api: a record whose TTL differs from the rest of its name and type is
// refused with the set's TTL (setTtl) unless it asks to align them; MX
// records that differ in priority are different records; an import aligns
// a set's TTLs with a note. DNS answers one TTL per set.
func TestAPIRecordsShareTheirSetsTTL(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := start(t, engine)
			seedCatalog(t, ts)
			alice := signedUp(t, ts, "alice", "user")
			require.Equal(t, http.StatusCreated, alice.do("POST", "/api/wallet/deposit", map[string]any{"amount": 20}).status)
			r := alice.do("POST", "/api/domains", map[string]any{"name": "ttls", "extension": ".inf.nz"})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			dnsPath := fmt.Sprintf("/api/domains/%v/dns", data(t, r)["domain"].(map[string]any)["id"])
			ttls := func() map[string][]float64 {
				t.Helper()
				out := map[string][]float64{}
				for _, rec := range alice.do("GET", dnsPath, nil).body["data"].([]any) {
					rec := rec.(map[string]any)
					k := fmt.Sprintf("%v %v", rec["name"], rec["type"])
					out[k] = append(out[k], rec["ttl"].(float64))
				}
				return out
			}

			r = alice.do("POST", dnsPath, map[string]any{"type": "A", "name": "www", "content": "192.0.2.1", "ttl": 300})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			first := data(t, r)["id"]
			r = alice.do("POST", dnsPath, map[string]any{"type": "A", "name": "www", "content": "192.0.2.2", "ttl": 3600})
			require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)
			require.Equal(t, "Records of www A share one TTL (300 seconds): set 300, or change the TTL of the whole set to 3600", r.body["error"])
			require.Equal(t, "invalid", r.body["code"])
			require.Equal(t, 300.0, r.body["setTtl"])
			require.Equal(t, map[string][]float64{"www A": {300}}, ttls(), "nothing stored")

			r = alice.do("POST", dnsPath, map[string]any{"type": "A", "name": "www", "content": "192.0.2.2", "ttl": 3600, "alignTtl": true})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			require.Equal(t, map[string][]float64{"www A": {3600, 3600}}, ttls())
			r = alice.do("PUT", fmt.Sprintf("%s/%v", dnsPath, first), map[string]any{"type": "A", "name": "www", "content": "192.0.2.1", "ttl": 900})
			require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)
			require.Equal(t, 3600.0, r.body["setTtl"])
			r = alice.do("PUT", fmt.Sprintf("%s/%v", dnsPath, first), map[string]any{"type": "A", "name": "www", "content": "192.0.2.1", "ttl": 900, "alignTtl": true})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Equal(t, map[string][]float64{"www A": {900, 900}}, ttls())
			require.Eventually(t, func() bool {
				a := query(t, ts.dnsAddr, "www.ttls.inf.nz", dns.TypeA).Answer
				return len(a) == 2 && a[0].Header().Ttl == 900 && a[1].Header().Ttl == 900
			}, 2*time.Second, 20*time.Millisecond, "served at the set's TTL")
			r = alice.do("POST", dnsPath, map[string]any{"type": "A", "name": "www", "content": "192.0.2.3"})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			require.Equal(t, 900.0, data(t, r)["ttl"], "without a TTL, the set's")

			// MX records that differ in priority alone are two records; the
			// same priority again is a duplicate.
			mx := func(p int) map[string]any {
				return map[string]any{"type": "MX", "name": "@", "content": "mx.example.com", "priority": p}
			}
			require.Equal(t, http.StatusCreated, alice.do("POST", dnsPath, mx(10)).status)
			require.Equal(t, http.StatusCreated, alice.do("POST", dnsPath, mx(20)).status)
			r = alice.do("POST", dnsPath, mx(10))
			require.Equal(t, http.StatusConflict, r.status, r.raw)
			require.Equal(t, "This MX record already exists at @", r.body["error"])
			require.Eventually(t, func() bool {
				return slices.Equal(mxAnswer(t, ts.dnsAddr, "ttls.inf.nz"), []string{"10 mx.example.com.", "20 mx.example.com."})
			}, 2*time.Second, 20*time.Millisecond)

			// An import gives a set of the file one TTL, its lowest, and says so.
			file := "$ORIGIN ttls.inf.nz.\nwww 3600 IN A 192.0.2.1\nwww 600 IN A 192.0.2.2\n"
			r = alice.do("POST", strings.TrimSuffix(dnsPath, "/dns")+"/zone/import", map[string]any{"zoneFile": file})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Equal(t, []any{map[string]any{"line": 2.0, "kind": "ttl",
				"message": "Line 2: TTL 3600 lowered to 600 seconds, the lowest of the www A records: the records of one name and type share one TTL",
				"text":    "www 3600 IN A 192.0.2.1"}},
				data(t, r)["notes"])
			require.Equal(t, map[string][]float64{"www A": {600, 600}}, ttls())
		})
	}
}
