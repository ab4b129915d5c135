package dnsserver

import (
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"testing"
	"time"

	"github.com/miekg/dns"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/zone"
)

// benchData is an extension with n domains of four records each.
func benchData(n int) *zone.SnapshotData {
	zd := zone.ZoneData{Origin: "inf.nz.", Nameservers: []string{"ns1.nameport.net.", "ns2.nameport.net."}}
	prio := 10
	for i := range n {
		zd.Domains = append(zd.Domains, zone.DomainData{ID: int64(i), Name: "domain" + strconv.Itoa(i), Records: []zone.Record{
			{Name: "@", Type: zone.TypeA, Content: "192.0.2." + strconv.Itoa(i%250+1), TTL: 3600},
			{Name: "@", Type: zone.TypeMX, Content: "mail.example.com", TTL: 3600, Priority: &prio},
			{Name: "www", Type: zone.TypeCNAME, Content: "domain" + strconv.Itoa(i) + ".inf.nz", TTL: 3600},
			{Name: "@", Type: zone.TypeTXT, Content: "v=spf1 include:_spf.example.com ~all", TTL: 3600},
		}})
	}
	return &zone.SnapshotData{Serial: 1, Zones: []zone.ZoneData{zd}}
}

const benchDomains = 100_000

func benchSnapshot(b *testing.B) *Snapshot {
	b.Helper()
	snap, skipped := NewSnapshot(benchData(benchDomains))
	require.Empty(b, skipped)
	return snap
}

func BenchmarkNewSnapshot(b *testing.B) {
	data := benchData(benchDomains)
	b.ReportAllocs()
	for b.Loop() {
		NewSnapshot(data)
	}
}

func BenchmarkLookup(b *testing.B) {
	snap := benchSnapshot(b)
	for _, q := range []struct {
		about string
		name  string
		qtype uint16
	}{
		{"answer", "domain4242.inf.nz.", dns.TypeA},
		{"answer, mixed case", "Domain4242.INF.nz.", dns.TypeA},
		{"cname followed", "www.domain4242.inf.nz.", dns.TypeA},
		{"nodata", "domain4242.inf.nz.", dns.TypeAAAA},
		{"nxdomain", "nosuchdomain.inf.nz.", dns.TypeA},
		{"refused", "example.com.", dns.TypeA},
	} {
		b.Run(q.about, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Lookup(snap, q.name, q.qtype)
			}
		})
	}
}

// BenchmarkAnswerPacket measures the handler without sockets: a query's
// bytes in, the answer's bytes out.
func BenchmarkAnswerPacket(b *testing.B) {
	snap := benchSnapshot(b)
	s := testServer(b, snap)
	for _, q := range []struct {
		about string
		name  string
		qtype uint16
		edns  bool
	}{
		{"cached answer", "domain4242.inf.nz.", dns.TypeA, false},
		{"cached answer, EDNS, mixed case", "dOmain4242.inf.NZ.", dns.TypeA, true},
		{"cached nxdomain", "nosuchdomain.inf.nz.", dns.TypeA, true},
		{"refused (never cached)", "example.com.", dns.TypeA, true},
	} {
		b.Run(q.about, func(b *testing.B) {
			m := new(dns.Msg).SetQuestion(q.name, q.qtype)
			if q.edns {
				m.SetEdns0(1232, false)
			}
			pkt := pack(b, m)
			out := make([]byte, 0, dns.MaxMsgSize)
			b.ReportAllocs()
			for b.Loop() {
				if s.answerPacket(snap, pkt, out, netip.Addr{}, false) == nil {
					b.Fatal("no answer")
				}
			}
		})
	}
}

// BenchmarkServeUDP measures whole queries over a real UDP socket on
// 127.0.0.1: each parallel client sends a query and waits for its answer,
// so ns/op is the server's throughput seen through the loopback, clients
// included.
func BenchmarkServeUDP(b *testing.B) {
	snap := benchSnapshot(b)
	l, err := net.ListenPacket("udp", "127.0.0.1:0")
	require.NoError(b, err)
	addr := l.LocalAddr().String()
	l.Close()
	s := testServer(b, snap)
	s.addr = addr
	require.NoError(b, s.Start())
	b.Cleanup(func() { _ = s.Shutdown(b.Context()) })

	for _, q := range []struct {
		about string
		name  string
	}{
		{"one name", "domain4242.inf.nz."},
		{"many names", ""},
	} {
		b.Run(q.about, func(b *testing.B) {
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				conn, err := net.Dial("udp", addr)
				if err != nil {
					b.Error(err)
					return
				}
				defer conn.Close()
				buf := make([]byte, 1500)
				i := 0
				for pb.Next() {
					name := q.name
					if name == "" {
						name = fmt.Sprintf("domain%d.inf.nz.", i%benchDomains)
						i += 7919
					}
					m := new(dns.Msg).SetQuestion(name, dns.TypeA)
					m.SetEdns0(1232, false)
					pkt, _ := m.Pack()
					_ = conn.SetDeadline(time.Now().Add(2 * time.Second))
					if _, err := conn.Write(pkt); err != nil {
						b.Error(err)
						return
					}
					n, err := conn.Read(buf)
					if err != nil || n < 12 || buf[0] != pkt[0] || buf[1] != pkt[1] {
						b.Errorf("bad answer: %v", err)
						return
					}
				}
			})
		})
	}
}
