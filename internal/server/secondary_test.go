package server_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/miekg/dns"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/config"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/zone"
)

// envRequireNSD makes the NSD test fail, rather than skip, when nsd is not
// installed: CI sets it, so that the test never skips there unnoticed.
const envRequireNSD = "NAMEPORT_REQUIRE_NSD"

// NSD, a real secondary, transfers the zone from nameport, answers exactly
// what nameport answers, and follows a change made through the API (NOTIFY,
// then a new transfer). A client outside the allow list is refused.
// "Exactly": the rcode, the AA bit, the answer, the SOA of negative answers,
// a referral's NS records, and the additional section (glue, and the
// addresses of NS, MX and SRV targets); and for malformed queries, FORMERR
// from both.
func TestNSDAsSecondary(t *testing.T) {
	t.Parallel()
	nsd := requireInstalled(t, "nsd", envRequireNSD, "nsd")
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			nsdAddr := freeDNSAddr(t)
			ts := startWith(t, engine, func(cfg *config.Config) {
				cfg.DNSTransferAllow = []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}
				cfg.DNSNotify = []config.NotifyTarget{{Addr: nsdAddr}}
			})

			// Data through the API: the extension, a user with funds, a
			// domain and its records.
			alice := fundedUser(t, ts)
			shop := registerDomain(t, alice, "shop", ".inf.nz")
			apexA := addRecord(t, alice, shop, map[string]any{"type": "A", "name": "@", "content": "192.0.2.10", "ttl": 600})
			for _, rec := range []map[string]any{
				{"type": "A", "name": "@", "content": "192.0.2.11", "ttl": 600},
				{"type": "A", "name": "mail", "content": "192.0.2.25"},
				{"type": "AAAA", "name": "@", "content": "2001:db8::10"},
				{"type": "MX", "name": "@", "content": "mail.shop.inf.nz", "priority": 10},
				{"type": "MX", "name": "@", "content": "backup.example.com", "priority": 20},
				{"type": "TXT", "name": "@", "content": "v=spf1 mx -all"},
				// Longer than one character-string: split in two on the wire.
				{"type": "TXT", "name": "@", "content": "k=" + strings.Repeat("x0", 150)},
				{"type": "CNAME", "name": "www", "content": "shop.inf.nz"},
				{"type": "AAAA", "name": "mail", "content": "2001:db8::25"},
				{"type": "A", "name": "*.dyn", "content": "192.0.2.99"},
				{"type": "SRV", "name": "_sip._tcp", "content": "5 5060 mail.shop.inf.nz", "priority": 10},
				{"type": "SRV", "name": "_imap._tcp", "content": "5 143 x.dyn.shop.inf.nz", "priority": 10},
				{"type": "SRV", "name": "_xmpp._tcp", "content": "5 5222 ns1.deleg.inf.nz", "priority": 10},
			} {
				addRecord(t, alice, shop, rec)
			}
			// A domain without records: nothing of it is transferred, so NSD
			// answers NXDOMAIN for it, and so must nameport.
			registerDomain(t, alice, "empty", ".inf.nz")
			// A delegated domain: its nameservers inside it (glue), in the
			// zone outside it (one covered by shop's wildcard), and outside
			// the zone.
			deleg := registerDomain(t, alice, "deleg", ".inf.nz")
			addRecord(t, alice, deleg, map[string]any{"type": "A", "name": "ns1", "content": "192.0.2.53"})
			addRecord(t, alice, deleg, map[string]any{"type": "AAAA", "name": "ns1", "content": "2001:db8::53"})
			for _, ns := range []string{"ns1.deleg.inf.nz", "mail.shop.inf.nz", "host.dyn.shop.inf.nz", "ns.elsewhere.net"} {
				addRecord(t, alice, deleg, map[string]any{"type": "NS", "name": "@", "content": ns})
			}

			// NSD starts with nothing and transfers the zone at once.
			sec := startNSD(t, nsd, nsdAddr, ts.dnsAddr)
			waitSameSerial(t, ts.dnsAddr, sec, "inf.nz.")

			questions := []question{
				{"shop.inf.nz.", dns.TypeA},
				{"shop.inf.nz.", dns.TypeAAAA},
				{"shop.inf.nz.", dns.TypeMX},
				{"shop.inf.nz.", dns.TypeTXT},
				{"shop.inf.nz.", dns.TypeSOA},   // NODATA below the apex
				{"shop.inf.nz.", dns.TypeNS},    // NODATA: not a delegation
				{"SHOP.Inf.NZ.", dns.TypeA},     // case does not matter
				{"www.shop.inf.nz.", dns.TypeA}, // CNAME, followed inside the zone
				{"www.shop.inf.nz.", dns.TypeCNAME},
				{"mail.shop.inf.nz.", dns.TypeA},
				{"mail.shop.inf.nz.", dns.TypeTXT},
				{"nothing.shop.inf.nz.", dns.TypeA}, // NXDOMAIN
				{"unregistered.inf.nz.", dns.TypeA}, // NXDOMAIN
				{"inf.nz.", dns.TypeSOA},
				{"inf.nz.", dns.TypeNS},
				{"inf.nz.", dns.TypeA},           // NODATA at the apex
				{"empty.inf.nz.", dns.TypeA},     // NXDOMAIN: registered, no records
				{"empty.inf.nz.", dns.TypeNS},    // likewise
				{"www.empty.inf.nz.", dns.TypeA}, // NXDOMAIN
				{"deleg.inf.nz.", dns.TypeNS},    // a referral with glue
				{"host.deleg.inf.nz.", dns.TypeA},
				{"deleg.inf.nz.", dns.TypeDS},            // NODATA from the parent side
				{"_sip._tcp.shop.inf.nz.", dns.TypeSRV},  // the target's addresses
				{"_imap._tcp.shop.inf.nz.", dns.TypeSRV}, // a target covered by a wildcard
				{"_xmpp._tcp.shop.inf.nz.", dns.TypeSRV}, // a target below a delegation: none
				{"x.dyn.shop.inf.nz.", dns.TypeA},
				{"dyn.shop.inf.nz.", dns.TypeA}, // NODATA: an empty non-terminal
			}
			waitSameAnswers(t, ts.dnsAddr, sec, questions)
			// The comparison is not vacuous: the data is there.
			m, err := dnsAsk(sec.addr, "shop.inf.nz.", dns.TypeMX)
			require.NoError(t, err)
			require.Len(t, m.Answer, 2, m.String())
			require.True(t, m.Authoritative)
			m, err = dnsAsk(sec.addr, "unregistered.inf.nz.", dns.TypeA)
			require.NoError(t, err)
			require.Equal(t, dns.RcodeNameError, m.Rcode)
			m, err = dnsAsk(sec.addr, "empty.inf.nz.", dns.TypeA)
			require.NoError(t, err)
			require.Equal(t, dns.RcodeNameError, m.Rcode)
			m, err = dnsAsk(sec.addr, "host.deleg.inf.nz.", dns.TypeA)
			require.NoError(t, err)
			require.False(t, m.Authoritative)
			require.Len(t, withoutOPT(m.Extra), 5, "glue: ns1.deleg, mail.shop and host.dyn.shop (A), ns1.deleg and mail.shop (AAAA)\n%s", m)
			m, err = dnsAsk(sec.addr, "shop.inf.nz.", dns.TypeMX)
			require.NoError(t, err)
			require.Len(t, withoutOPT(m.Extra), 2, "mail.shop's A and AAAA\n%s", m)

			// Malformed queries: FORMERR from both; their well-formed
			// neighbours are answered.
			for _, tt := range malformedQueries(t) {
				want, err := rawAsk(ts.dnsAddr, tt.pkt)
				require.NoError(t, err, "nameport: "+tt.about)
				got, err := rawAsk(sec.addr, tt.pkt)
				require.NoError(t, err, "nsd: "+tt.about)
				require.Equal(t, dns.RcodeToString[tt.rcode], dns.RcodeToString[got.Rcode], "nsd: "+tt.about)
				require.Equal(t, dns.RcodeToString[got.Rcode], dns.RcodeToString[want.Rcode], "nameport answers as nsd: "+tt.about)
			}

			// A change through the API: nameport notifies, NSD transfers
			// again and serves the new data. (The SOA refresh is two hours:
			// only the NOTIFY brings the change this soon.) It comes by
			// IXFR.
			before, err := zoneSerial(sec.addr, "inf.nz.")
			require.NoError(t, err)
			r := alice.do("PUT", fmt.Sprintf("/api/domains/%v/dns/%v", shop, apexA["id"]),
				map[string]any{"type": "A", "name": "@", "content": "198.51.100.77", "ttl": 600})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			addRecord(t, alice, shop, map[string]any{"type": "TXT", "name": "new", "content": "added later"})
			require.Eventually(t, func() bool {
				m, err := dnsAsk(sec.addr, "new.shop.inf.nz.", dns.TypeTXT)
				if err != nil || len(m.Answer) != 1 {
					return false
				}
				m, err = dnsAsk(sec.addr, "shop.inf.nz.", dns.TypeA)
				return err == nil && slices.Contains(sortedRRs(m.Answer), "shop.inf.nz.\t600\tIN\tA\t198.51.100.77")
			}, secondaryWait, 50*time.Millisecond, "NSD serves the change (NOTIFY, then a transfer)")
			waitSameSerial(t, ts.dnsAddr, sec, "inf.nz.")
			waitSameAnswers(t, ts.dnsAddr, sec, append(questions, question{"new.shop.inf.nz.", dns.TypeTXT}))
			requireNSDReceivedIXFR(t, sec, before, "new.shop.inf.nz.", "added later")

			// Transfers: refused to an address outside the allow list (it
			// holds 127.0.0.1/32 only), given to one inside it.
			m, err = axfrFrom(ts.dnsAddr, "127.0.0.3", "inf.nz.")
			require.NoError(t, err)
			require.Equal(t, dns.RcodeRefused, m.Rcode)
			require.Empty(t, m.Answer)
			m, err = axfrFrom(ts.dnsAddr, "127.0.0.1", "inf.nz.")
			require.NoError(t, err)
			require.Equal(t, dns.RcodeSuccess, m.Rcode)
			require.NotEmpty(t, m.Answer)
			require.IsType(t, &dns.SOA{}, m.Answer[0])
		})
	}
}

// NSD as a secondary with TSIG: nameport allows transfers signed with the
// key only (no address), and signs its NOTIFY; NSD transfers the zone
// with the key, and follows a change announced by a signed NOTIFY. An
// unsigned transfer request, from the very address NSD uses, is refused.
func TestNSDAsSecondaryWithTSIG(t *testing.T) {
	t.Parallel()
	nsd := requireInstalled(t, "nsd", envRequireNSD, "nsd")
	key := config.TSIGKey{Name: "xfr.inf.nz.", Algorithm: "hmac-sha256.", Secret: []byte("0123456789abcdef0123456789abcdef")}
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			nsdAddr := freeDNSAddr(t)
			ts := startWith(t, engine, func(cfg *config.Config) {
				allowSignedTransfersAndNotify(cfg, key, nsdAddr)
			})
			alice := fundedUser(t, ts)
			shop := registerDomain(t, alice, "shop", ".inf.nz")
			addRecord(t, alice, shop, map[string]any{"type": "A", "name": "@", "content": "192.0.2.10", "ttl": 600})

			sec := startNSD(t, nsd, nsdAddr, ts.dnsAddr, key)
			waitSameSerial(t, ts.dnsAddr, sec, "inf.nz.")
			questions := []question{{"shop.inf.nz.", dns.TypeA}, {"shop.inf.nz.", dns.TypeTXT}}
			waitSameAnswers(t, ts.dnsAddr, sec, questions)
			m, err := dnsAsk(sec.addr, "shop.inf.nz.", dns.TypeA)
			require.NoError(t, err)
			require.Len(t, m.Answer, 1, "the data is there: %s", m)

			// A change: only the signed NOTIFY brings it this soon, and it
			// comes by IXFR.
			before, err := zoneSerial(sec.addr, "inf.nz.")
			require.NoError(t, err)
			addRecord(t, alice, shop, map[string]any{"type": "TXT", "name": "@", "content": "signed"})
			require.Eventually(t, func() bool {
				m, err := dnsAsk(sec.addr, "shop.inf.nz.", dns.TypeTXT)
				return err == nil && len(m.Answer) == 1
			}, secondaryWait, 50*time.Millisecond, "NSD serves the change (signed NOTIFY, then a signed transfer)")
			waitSameSerial(t, ts.dnsAddr, sec, "inf.nz.")
			waitSameAnswers(t, ts.dnsAddr, sec, questions)
			requireNSDReceivedIXFR(t, sec, before, "shop.inf.nz.", "signed")

			// A still day later the re-signing job moves the serial of the
			// signed zones (zone.BumpSigned), nothing else: NOTIFY, and NSD
			// takes the new serial (and the signatures made anew with it).
			before, err = zoneSerial(sec.addr, "inf.nz.")
			require.NoError(t, err)
			later := time.Now().Add(zone.ResignAfter + time.Hour)
			bumped, err := zone.NewService(dbtest.Connect(t, ts.dbURL), zone.Options{Now: func() time.Time { return later }}).
				BumpSigned(context.Background())
			require.NoError(t, err)
			require.True(t, bumped)
			require.Eventually(t, func() bool {
				serial, err := zoneSerial(sec.addr, "inf.nz.")
				return err == nil && serial != before
			}, secondaryWait, 50*time.Millisecond, "NSD takes the new serial")
			waitSameSerial(t, ts.dnsAddr, sec, "inf.nz.")
			waitSameAnswers(t, ts.dnsAddr, sec, questions)

			m, err = axfrFrom(ts.dnsAddr, "127.0.0.1", "inf.nz.")
			require.NoError(t, err)
			require.Equal(t, dns.RcodeToString[dns.RcodeRefused], dns.RcodeToString[m.Rcode], "unsigned, and no address is allowed")
		})
	}
}

// startNSD runs nsd in the foreground as a secondary of inf.nz that
// transfers from primary and listens on addr, and stops it (and the
// processes it forked) when the test ends. Like nameport in the test, it
// allows transfers to 127.0.0.1, so that both look at a transfer request
// from there (and find an IXFR without the client's SOA malformed). It
// keeps the IXFRs it receives and gives them on (store-ixfr; see
// requireNSDReceivedIXFR).
//
// With a key, NSD requests transfers and takes NOTIFY signed with it
// (TSIG), and nothing unsigned from the primary.
func startNSD(t *testing.T, nsd, addr, primary string, key ...config.TSIGKey) *secondary {
	t.Helper()
	keyName, keySection := "NOKEY", ""
	if len(key) == 1 {
		keyName = key[0].Name
		keySection = fmt.Sprintf("key:\n    name: %q\n    algorithm: %s\n    secret: %q\n\n",
			key[0].Name, strings.TrimSuffix(key[0].Algorithm, "."), base64.StdEncoding.EncodeToString(key[0].Secret))
	}
	dir := t.TempDir()
	host, port := splitHostPort(t, addr)
	primaryHost, primaryPort := splitHostPort(t, primary)
	rrl := ""
	if nsdHasRRL(nsd) {
		rrl = "    rrl-ratelimit: 0\n"
	}
	conf := fmt.Sprintf(`server:
    ip-address: %[1]s
    port: %[2]s
    do-ip4: yes
    do-ip6: no
    server-count: 1
    username: ""
    chroot: ""
    zonesdir: "%[3]s"
    pidfile: "%[3]s/nsd.pid"
    xfrdfile: "%[3]s/xfrd.state"
    xfrdir: "%[3]s"
    zonelistfile: "%[3]s/zone.list"
    database: ""
    verbosity: 2
%[4]s
remote-control:
    control-enable: no

%[7]szone:
    name: "inf.nz"
    zonefile: "%[3]s/inf.nz.zone"
    request-xfr: %[5]s@%[6]s %[8]s
    allow-notify: %[5]s %[8]s
    provide-xfr: 127.0.0.1 NOKEY
    store-ixfr: yes
`, host, port, dir, rrl, primaryHost, primaryPort, keySection, keyName)
	confPath := filepath.Join(dir, "nsd.conf")
	return startSecondary(t, exec.Command(nsd, "-d", "-c", confPath), addr, confPath, conf)
}

var (
	rrlOnce    sync.Once
	rrlSupport bool
)

// nsdHasRRL reports whether this nsd was built with response rate limiting
// (Debian's is): its options are then set so that RRL is off.
func nsdHasRRL(nsd string) bool {
	rrlOnce.Do(func() {
		out, _ := exec.Command(nsd, "-v").CombinedOutput()
		rrlSupport = bytes.Contains(out, []byte("--enable-ratelimit"))
	})
	return rrlSupport
}

// requireNSDReceivedIXFR requires that NSD took the changes since serial
// by IXFR, among them the TXT record of owner added with text. NSD 4.6
// does not log whether a transfer it received was incremental; but with
// store-ixfr (and without create-ixfr) it keeps the IXFRs it receives and
// gives them on as they came, while an AXFR leaves it nothing incremental
// to give (it then answers an IXFR with the whole zone). So NSD's own
// answer to an IXFR from serial, in the incremental form (RFC 1995: the
// current SOA, then serial's SOA as the first deletion), shows how it got
// the change.
func requireNSDReceivedIXFR(t *testing.T, sec *secondary, serial uint32, owner, text string) {
	t.Helper()
	var last string
	ok := pollUntil(secondaryWait, func() bool {
		current, err := zoneSerial(sec.addr, "inf.nz.")
		if err != nil {
			last = err.Error()
			return false
		}
		rrs, err := ixfrFrom(sec.addr, "inf.nz.", serial)
		if err != nil {
			last = err.Error()
			return false
		}
		var b strings.Builder
		for _, rr := range rrs {
			b.WriteString(rr.String() + "\n")
		}
		last = fmt.Sprintf("IXFR from %d (NSD at %d):\n%s", serial, current, b.String())
		return len(rrs) >= 4 && soaSerialOf(rrs[0]) == current && soaSerialOf(rrs[1]) == serial &&
			soaSerialOf(rrs[len(rrs)-1]) == current && slices.ContainsFunc(rrs, func(rr dns.RR) bool {
			txt, ok := rr.(*dns.TXT)
			return ok && txt.Hdr.Name == owner && slices.Equal(txt.Txt, []string{text})
		})
	})
	require.True(t, ok, "NSD gives the change on incrementally, so it received it by IXFR: %s", last)
}

// ixfrFrom asks addr over TCP for an IXFR of zone from serial and returns
// every record of the answer.
func ixfrFrom(addr, zone string, serial uint32) ([]dns.RR, error) {
	tr := &dns.Transfer{DialTimeout: 5 * time.Second, ReadTimeout: 5 * time.Second}
	envelopes, err := tr.In(new(dns.Msg).SetIxfr(zone, serial, "a.", "b."), addr)
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

// soaSerialOf is rr's serial if it is an SOA record, else 0.
func soaSerialOf(rr dns.RR) uint32 {
	if soa, ok := rr.(*dns.SOA); ok {
		return soa.Serial
	}
	return 0
}

// axfrFrom asks addr for a transfer of zone over TCP from the local address
// from, and returns the first message of the answer.
func axfrFrom(addr, from, zone string) (*dns.Msg, error) {
	c := &dns.Client{Net: "tcp", Timeout: 5 * time.Second,
		Dialer: &net.Dialer{Timeout: 5 * time.Second, LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}}
	resp, _, err := c.Exchange(new(dns.Msg).SetAxfr(zone), addr)
	return resp, err
}

type rawQuery struct {
	about string
	pkt   []byte
	rcode int // what NSD answers
}

// malformedQueries are packets NSD and Knot answer with FORMERR, each but
// the last, and the well-formed neighbour of the EDNS ones.
func malformedQueries(t *testing.T) []rawQuery {
	t.Helper()
	pack := func(m *dns.Msg) []byte {
		b, err := m.Pack()
		require.NoError(t, err)
		return b
	}
	// A query for shop.inf.nz with raw bytes as its one additional record.
	withOPT := func(opt ...byte) []byte {
		b := pack(new(dns.Msg).SetQuestion("shop.inf.nz.", dns.TypeA))
		b[11] = 1 // ARCOUNT
		return append(b, opt...)
	}
	// Root owner, type OPT, 1232 bytes, no flags, then RDLENGTH and options.
	withAnswer := new(dns.Msg).SetQuestion("shop.inf.nz.", dns.TypeA)
	withAnswer.Answer = []dns.RR{&dns.A{Hdr: dns.RR_Header{Name: "shop.inf.nz.", Rrtype: dns.TypeA, Class: dns.ClassINET}, A: net.IPv4(192, 0, 2, 1)}}
	withAuthority := new(dns.Msg).SetQuestion("shop.inf.nz.", dns.TypeA)
	withAuthority.Ns = withAnswer.Answer
	return []rawQuery{
		{"an EDNS option running past the end of the OPT record", withOPT(0, 0, 41, 4, 0xd0, 0, 0, 0, 0, 0, 4, 0, 10, 0, 8), dns.RcodeFormatError},
		{"an EDNS option whose header is cut short", withOPT(0, 0, 41, 4, 0xd0, 0, 0, 0, 0, 0, 3, 0, 10, 0), dns.RcodeFormatError},
		{"an OPT record not owned by the root", withOPT(1, 'x', 0, 0, 41, 4, 0xd0, 0, 0, 0, 0, 0, 0), dns.RcodeFormatError},
		{"IXFR over UDP without the client's SOA", pack(new(dns.Msg).SetQuestion("inf.nz.", dns.TypeIXFR)), dns.RcodeFormatError},
		{"a record in the answer section", pack(withAnswer), dns.RcodeFormatError},
		{"a record in the authority section", pack(withAuthority), dns.RcodeFormatError},
		{"a well-formed EDNS option", withOPT(0, 0, 41, 4, 0xd0, 0, 0, 0, 0, 0, 12, 0, 10, 0, 8, 1, 2, 3, 4, 5, 6, 7, 8), dns.RcodeSuccess},
	}
}

// rawAsk sends pkt over UDP to addr and reads the answer, trying again on a
// timeout.
func rawAsk(addr string, pkt []byte) (*dns.Msg, error) {
	var err error
	for range 3 {
		var c *dns.Conn
		if c, err = dns.Dial("udp", addr); err != nil {
			continue
		}
		_ = c.SetDeadline(time.Now().Add(2 * time.Second))
		var m *dns.Msg
		if _, err = c.Write(pkt); err == nil {
			m, err = c.ReadMsg()
		}
		c.Close()
		if err == nil {
			return m, nil
		}
	}
	return nil, err
}
