package dnsserver

import (
	"context"
	"encoding/base64"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/miekg/dns"
	"github.com/stretchr/testify/require"
)

var (
	xfrKey   = TSIGKey{Name: "xfr.example.", Algorithm: dns.HmacSHA256, Secret: []byte("0123456789abcdef0123456789abcdef")}
	xfrKey2  = TSIGKey{Name: "Second.Example", Algorithm: "HMAC-SHA512.", Secret: []byte("another secret, 32 bytes long!!!")}
	idleKey  = TSIGKey{Name: "notify-only.example.", Algorithm: dns.HmacSHA256, Secret: []byte("a key allowed no transfers......")}
	b64      = base64.StdEncoding.EncodeToString
	bigZones = func() string {
		var b strings.Builder
		b.WriteString(testZones)
		b.WriteString("$ORIGIN inf.nz.\n")
		// About 60 KB: a transfer of two messages at least.
		for i := range 220 {
			fmt.Fprintf(&b, "txt%d 300 IN TXT \"%s\"\n", i, strings.Repeat("t", 250))
		}
		return b.String()
	}
)

// startTSIG runs a server over the test zones (grown past one transfer
// message) that knows three keys, allows transfers signed with two of them
// and unsigned ones from 127.0.0.21 only.
func startTSIG(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	l.Close()
	snap, err := buildFromText(bigZones())
	require.NoError(t, err)
	s := New(addr, testServer(t, snap).logger, WithTSIGKeys(xfrKey, xfrKey2, idleKey),
		WithTransferKeys("XFR.example", "second.example."), WithTransfer(netip.MustParsePrefix("127.0.0.21/32")))
	s.Publish(snap)
	require.NoError(t, s.Start())
	t.Cleanup(func() { _ = s.Shutdown(context.Background()) })
	return addr
}

// countingProvider verifies with the key ring and counts the messages it
// verified.
type countingProvider struct {
	tsigKeyring
	verified atomic.Int32
}

func (p *countingProvider) Verify(msg []byte, t *dns.TSIG) error {
	err := p.tsigKeyring.Verify(msg, t)
	if err == nil {
		p.verified.Add(1)
	}
	return err
}

// TestSignedTransfer: a transfer signed with an allowed key is given from
// any address, every message of it signed (miekg/dns's transfer client
// verifies each, the later ones chained to the earlier as RFC 8945 5.3.1
// says), for either algorithm and whatever the case of the key's name.
func TestSignedTransfer(t *testing.T) {
	t.Parallel()
	addr := startTSIG(t)
	for _, k := range []TSIGKey{xfrKey, {Name: "SECOND.example.", Algorithm: dns.HmacSHA512, Secret: xfrKey2.Secret}} {
		t.Run(k.Name, func(t *testing.T) {
			p := &countingProvider{tsigKeyring: tsigKeyring{}}
			WithTSIGKeys(k)(&options{tsigKeys: p.tsigKeyring})
			tr := &dns.Transfer{TsigProvider: p}
			m := new(dns.Msg).SetAxfr("inf.nz.")
			m.SetTsig(k.Name, k.Algorithm, 300, time.Now().Unix())
			envelopes, err := tr.In(m, addr)
			require.NoError(t, err)
			var records, messages int
			for e := range envelopes {
				require.NoError(t, e.Error)
				records += len(e.RR)
				messages++
			}
			require.GreaterOrEqual(t, messages, 2, "the zone takes more than one message")
			require.Greater(t, records, 220)
			require.EqualValues(t, messages, p.verified.Load(), "every message is signed and verifies")
		})
	}
}

// signedExchange sends m signed with key (whatever the server knows) over
// proto and returns the answer, and what verifying its signature with key
// reports (dns.ErrSig for an unsigned answer).
func signedExchange(t *testing.T, proto, addr string, m *dns.Msg, key TSIGKey, signedAt time.Time) (*dns.Msg, error) {
	t.Helper()
	m.SetTsig(key.Name, key.Algorithm, 300, signedAt.Unix())
	ring := tsigKeyring{dns.CanonicalName(key.Name): key}
	pkt, mac, err := dns.TsigGenerateWithProvider(m, ring, "", false)
	require.NoError(t, err)
	resp, raw := rawExchange(t, proto, addr, pkt)
	if resp.IsTsig() == nil {
		return resp, dns.ErrSig
	}
	return resp, dns.TsigVerifyWithProvider(raw, ring, mac, false)
}

// rawExchange sends pkt and reads the answer without looking at its
// signature.
func rawExchange(t *testing.T, proto, addr string, pkt []byte) (*dns.Msg, []byte) {
	t.Helper()
	c, err := dns.Dial(proto, addr)
	require.NoError(t, err)
	defer c.Close()
	require.NoError(t, c.SetDeadline(time.Now().Add(10*time.Second)))
	_, err = c.Write(pkt)
	require.NoError(t, err)
	raw, err := c.ReadMsgHeader(nil)
	require.NoError(t, err)
	resp := new(dns.Msg)
	require.NoError(t, resp.Unpack(raw))
	return resp, raw
}

// TestTransferRefusals: wrong or missing signatures are refused with the
// rcode and TSIG error of RFC 8945 5.2, over TCP and UDP (IXFR), and a
// garbled TSIG record gets FORMERR; the server keeps serving.
func TestTransferRefusals(t *testing.T) {
	t.Parallel()
	addr := startTSIG(t)
	wrongSecret := xfrKey
	wrongSecret.Secret = []byte("not the secret the server has!!!")
	otherAlgorithm := xfrKey
	otherAlgorithm.Algorithm = dns.HmacSHA512
	unknown := TSIGKey{Name: "stranger.example.", Algorithm: dns.HmacSHA256, Secret: xfrKey.Secret}
	ixfr := func() *dns.Msg {
		m := new(dns.Msg).SetIxfr("inf.nz.", 1, "a.", "b.")
		return m
	}
	for _, tt := range []struct {
		about    string
		proto    string
		msg      func() *dns.Msg
		key      TSIGKey
		signedAt time.Time
		rcode    int
		tsigErr  uint16
		signed   bool // the answer carries a MAC
	}{
		{"unknown key", "tcp", func() *dns.Msg { return new(dns.Msg).SetAxfr("inf.nz.") }, unknown, time.Now(), dns.RcodeNotAuth, dns.RcodeBadKey, false},
		{"wrong secret", "tcp", func() *dns.Msg { return new(dns.Msg).SetAxfr("inf.nz.") }, wrongSecret, time.Now(), dns.RcodeNotAuth, dns.RcodeBadSig, false},
		{"a known key with another algorithm", "tcp", func() *dns.Msg { return new(dns.Msg).SetAxfr("inf.nz.") }, otherAlgorithm, time.Now(), dns.RcodeNotAuth, dns.RcodeBadKey, false},
		{"signed an hour ago", "tcp", func() *dns.Msg { return new(dns.Msg).SetAxfr("inf.nz.") }, xfrKey, time.Now().Add(-time.Hour), dns.RcodeNotAuth, dns.RcodeBadTime, true},
		{"a valid key allowed no transfers", "tcp", func() *dns.Msg { return new(dns.Msg).SetAxfr("inf.nz.") }, idleKey, time.Now(), dns.RcodeRefused, 0, true},
		{"UDP: unknown key", "udp", ixfr, unknown, time.Now(), dns.RcodeNotAuth, dns.RcodeBadKey, false},
		{"UDP: wrong secret", "udp", ixfr, wrongSecret, time.Now(), dns.RcodeNotAuth, dns.RcodeBadSig, false},
		{"UDP: allowed key (the SOA: ask over TCP)", "udp", ixfr, xfrKey, time.Now(), dns.RcodeSuccess, 0, true},
	} {
		t.Run(tt.about, func(t *testing.T) {
			resp, verified := signedExchange(t, tt.proto, addr, tt.msg(), tt.key, tt.signedAt)
			require.Equal(t, dns.RcodeToString[tt.rcode], dns.RcodeToString[resp.Rcode])
			rr := resp.IsTsig()
			require.NotNil(t, rr, "the answer carries a TSIG record")
			require.Equal(t, dns.RcodeToString[int(tt.tsigErr)], dns.RcodeToString[int(rr.Error)])
			require.Equal(t, dns.CanonicalName(tt.key.Name), dns.CanonicalName(rr.Hdr.Name))
			require.Equal(t, tt.signed, rr.MACSize > 0, "signed: %s", rr)
			switch {
			case tt.tsigErr == dns.RcodeBadTime:
				// miekg/dns verifies no NOTAUTH answer: the MAC's size
				// (SHA-256) shows it was made.
				require.EqualValues(t, 32, rr.MACSize)
			case tt.signed:
				require.NoError(t, verified, "the answer's signature verifies")
			}
			if tt.rcode != dns.RcodeSuccess {
				require.Empty(t, resp.Answer)
			} else {
				require.Len(t, resp.Answer, 1)
			}
			if tt.tsigErr == dns.RcodeBadTime {
				require.EqualValues(t, 6, rr.OtherLen, "the server's clock")
			}
		})
	}

	t.Run("unsigned from an address not allowed", func(t *testing.T) {
		c := &dns.Client{Net: "tcp", Timeout: 5 * time.Second,
			Dialer: &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.22")}}}
		resp, _, err := c.Exchange(new(dns.Msg).SetAxfr("inf.nz."), addr)
		require.NoError(t, err)
		require.Equal(t, dns.RcodeToString[dns.RcodeRefused], dns.RcodeToString[resp.Rcode])
		require.Nil(t, resp.IsTsig())
		c.Dialer.LocalAddr = &net.TCPAddr{IP: net.ParseIP("127.0.0.21")}
		resp, _, err = c.Exchange(new(dns.Msg).SetAxfr("inf.nz."), addr)
		require.NoError(t, err)
		require.Equal(t, dns.RcodeSuccess, resp.Rcode, "unsigned from the allowed address")
	})

	// A signed request, its TSIG record cut short, or not last.
	valid := func() []byte {
		m := new(dns.Msg).SetAxfr("inf.nz.")
		m.SetTsig(xfrKey.Name, xfrKey.Algorithm, 300, time.Now().Unix())
		pkt, _, err := dns.TsigGenerateWithProvider(m, tsigKeyring{xfrKey.Name: xfrKey}, "", false)
		require.NoError(t, err)
		return pkt
	}
	notLast := new(dns.Msg).SetAxfr("inf.nz.")
	notLast.Extra = []dns.RR{&dns.TSIG{Hdr: dns.RR_Header{Name: xfrKey.Name, Rrtype: dns.TypeTSIG, Class: dns.ClassANY},
		Algorithm: xfrKey.Algorithm, Fudge: 300}, &dns.OPT{Hdr: dns.RR_Header{Name: ".", Rrtype: dns.TypeOPT}}}
	notLastPkt, err := notLast.Pack()
	require.NoError(t, err)
	for about, pkt := range map[string][]byte{
		"TSIG cut short":   valid()[:len(valid())-10],
		"TSIG not last":    notLastPkt,
		"MAC length lying": func() []byte { p := valid(); p[len(p)-10]++; return p }(),
	} {
		for _, proto := range []string{"tcp", "udp"} {
			t.Run(proto+": "+about, func(t *testing.T) {
				resp, _ := rawExchange(t, proto, addr, pkt)
				require.Contains(t, []int{dns.RcodeFormatError, dns.RcodeNotAuth}, resp.Rcode, dns.RcodeToString[resp.Rcode])
				require.Empty(t, resp.Answer)
			})
		}
	}
	// Still serving.
	resp, verified := signedExchange(t, "tcp", addr, new(dns.Msg).SetAxfr("inf.nz."), xfrKey, time.Now())
	require.Equal(t, dns.RcodeSuccess, resp.Rcode)
	require.NoError(t, verified)
}

// TestSignedNotify: a NOTIFY to a target with a key is signed with it, and
// a miekg/dns server holding the key verifies it.
func TestSignedNotify(t *testing.T) {
	t.Parallel()
	got := make(chan error, 4)
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	require.NoError(t, err)
	secondary := &dns.Server{PacketConn: pc, TsigSecret: map[string]string{xfrKey.Name: b64(xfrKey.Secret)},
		Handler: dns.HandlerFunc(func(w dns.ResponseWriter, req *dns.Msg) {
			var status error
			if req.IsTsig() == nil {
				status = fmt.Errorf("unsigned NOTIFY")
			} else if status = w.TsigStatus(); status == nil {
				status = func() error { // nil: signed and verified
					if req.Opcode != dns.OpcodeNotify {
						return fmt.Errorf("opcode %d", req.Opcode)
					}
					return nil
				}()
			}
			resp := new(dns.Msg).SetReply(req)
			if t := req.IsTsig(); t != nil {
				resp.SetTsig(t.Hdr.Name, t.Algorithm, 300, time.Now().Unix())
			}
			_ = w.WriteMsg(resp)
			got <- status
		})}
	go func() { _ = secondary.ActivateAndServe() }()
	t.Cleanup(func() { _ = secondary.Shutdown() })

	snap, err := buildFromText(testZones)
	require.NoError(t, err)
	s := testServer(t, snap)
	for _, o := range []Option{WithTSIGKeys(xfrKey), WithSignedNotify("XFR.Example", pc.LocalAddr().String())} {
		o(&s.opts)
	}
	t.Cleanup(s.stopFunc)
	s.notifyAll(snap, emptySnapshot)
	for range len(snap.zones) {
		select {
		case err := <-got:
			require.NoError(t, err)
		case <-time.After(20 * time.Second):
			t.Fatal("no NOTIFY arrived")
		}
	}
}
