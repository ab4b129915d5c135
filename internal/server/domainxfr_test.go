package server_test

import (
	"fmt"
	"net"
	"net/http"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/miekg/dns"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/dbtest"
)

// signedAXFR transfers zone from addr over TCP, signed with key, and
// returns the records, or the error the transfer ended with.
func signedAXFR(addr, zone, keyName, secret string, tcp bool) ([]dns.RR, error) {
	tr := &dns.Transfer{DialTimeout: 5 * time.Second, ReadTimeout: 5 * time.Second,
		TsigSecret: map[string]string{keyName: secret}}
	m := new(dns.Msg).SetAxfr(zone)
	m.SetTsig(keyName, dns.HmacSHA256, 300, time.Now().Unix())
	if !tcp {
		c := &dns.Client{Net: "udp", TsigSecret: tr.TsigSecret, Timeout: 5 * time.Second}
		resp, _, err := c.Exchange(m, addr)
		if err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("rcode %s", dns.RcodeToString[resp.Rcode])
	}
	envelopes, err := tr.In(m, addr)
	if err != nil {
		return nil, err
	}
	var rrs []dns.RR
	for e := range envelopes {
		if e.Error != nil {
			return nil, e.Error
		}
		rrs = append(rrs, e.RR...)
	}
	return rrs, nil
}

// external-dns (rfc2136 provider) reads the records it manages by AXFR of
// its zone, signed with its key: an update key for every name and type of
// a domain transfers that domain, its records only, between the
// extension's SOA under the domain's name. dig, BIND's client, shows it.
// A narrower key, another domain's key, the extension's zone, IXFR, UDP
// and a wrong secret are refused.
func TestDomainTransferUnderUpdateKey(t *testing.T) {
	t.Parallel()
	dig := requireInstalled(t, "dig", envRequireCertbot, "bind9-dnsutils")
	nsupdate := requireInstalled(t, "nsupdate", envRequireCertbot, "bind9-dnsutils")
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := start(t, engine)
			f := newUpdateKeyFixture(t, ts, "kubeops", "kube", map[string]any{"name": "external-dns"})
			out, ok := f.nsupdate(t, nsupdate, true, "update add app.kube.inf.nz. 300 A 192.0.2.10\n"+
				"update add app.kube.inf.nz. 300 TXT \"heritage=external-dns,external-dns/owner=my-cluster\"\n")
			require.True(t, ok, out)
			r := v1(t, ts, f.apiKey, "PUT", "/v1/domains/kube.inf.nz/records",
				map[string]any{"name": "www", "type": "AAAA", "values": []string{"2001:db8::10"}})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			// Another domain of the same registrar, with its own key.
			r = v1(t, ts, f.apiKey, "POST", "/v1/domains/register", map[string]any{"domain": "other.inf.nz"})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			r = v1(t, ts, f.apiKey, "PUT", "/v1/domains/other.inf.nz/records",
				map[string]any{"name": "secret", "type": "A", "values": []string{"192.0.2.99"}})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			r = v1(t, ts, f.apiKey, "POST", "/v1/domains/other.inf.nz/update-keys", map[string]any{"name": "external-dns"})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			otherKey, otherSecret := r.body["key"].(map[string]any)["keyName"].(string), r.body["secret"].(string)
			r = v1(t, ts, f.apiKey, "POST", "/v1/domains/kube.inf.nz/update-keys",
				map[string]any{"name": "acme", "names": []string{"_acme-challenge"}, "types": []string{"TXT"}})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			narrowKey, narrowSecret := r.body["key"].(map[string]any)["keyName"].(string), r.body["secret"].(string)

			// dig: the domain's records, SOA first and last, under its name.
			host, port, err := net.SplitHostPort(ts.dnsAddr)
			require.NoError(t, err)
			var lines []string
			require.Eventually(t, func() bool { // the /v1 change reaches the server
				b, err := exec.Command(dig, "-p", port, "@"+host, "-y", "hmac-sha256:"+f.keyName+":"+f.secret,
					"kube.inf.nz.", "AXFR", "+noall", "+answer", "+nottlid", "+nocl").CombinedOutput()
				require.NoError(t, err, string(b))
				lines = nil
				for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
					if l != "" && !strings.HasPrefix(l, ";") {
						lines = append(lines, strings.Join(strings.Fields(l), " "))
					}
				}
				return slices.Contains(lines, "www.kube.inf.nz. AAAA 2001:db8::10")
			}, 10*time.Second, 50*time.Millisecond, "dig's transfer: %v", lines)
			require.GreaterOrEqual(t, len(lines), 5, lines)
			require.True(t, strings.HasPrefix(lines[0], "kube.inf.nz. SOA "), lines)
			require.Equal(t, lines[0], lines[len(lines)-1])
			require.Contains(t, lines, "app.kube.inf.nz. A 192.0.2.10")
			require.Contains(t, lines, `app.kube.inf.nz. TXT "heritage=external-dns,external-dns/owner=my-cluster"`)
			for _, l := range lines {
				require.True(t, strings.HasPrefix(l, "kube.inf.nz. ") || strings.Contains(l, ".kube.inf.nz. "), "only the domain's: %s", l)
			}

			// Refused: each with the right rcode, nothing sent.
			refused := func(zone, keyName, secret string, tcp bool) string {
				_, err := signedAXFR(ts.dnsAddr, zone, keyName, secret, tcp)
				require.Error(t, err)
				return err.Error()
			}
			require.Contains(t, refused("kube.inf.nz.", narrowKey, narrowSecret, true), "bad xfr rcode: 5", "a key for some names only")
			require.Contains(t, refused("kube.inf.nz.", otherKey, otherSecret, true), "bad xfr rcode: 5", "another domain's key")
			require.Contains(t, refused("inf.nz.", f.keyName, f.secret, true), "bad xfr rcode: 5", "the extension's zone")
			require.Contains(t, refused("kube.inf.nz.", f.keyName, f.secret, false), "rcode FORMERR", "AXFR over UDP")
			wrong := "c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0MDA="
			require.NotEmpty(t, refused("kube.inf.nz.", f.keyName, wrong, true), "a wrong secret")
			// The other key transfers its own domain.
			rrs, err := signedAXFR(ts.dnsAddr, "other.inf.nz.", otherKey, otherSecret, true)
			require.NoError(t, err)
			require.Contains(t, fmt.Sprint(rrs), "secret.other.inf.nz.")
		})
	}
}
