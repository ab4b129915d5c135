package dnsserver

import (
	"context"
	"encoding/base64"
	"fmt"
	"net"
	"net/netip"
	"slices"
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

// TestSignedQuery: an ordinary query signed with a key the server knows
// (a secondary's SOA refresh query, say) gets an answer signed with that
// key, over UDP and TCP, with EDNS or without, whatever the answer is, and
// whether or not the key is allowed transfers (queries are open to all).
// BIND rejects an unsigned answer to its signed SOA query and never
// refreshes.
func TestSignedQuery(t *testing.T) {
	t.Parallel()
	addr := startTSIG(t)
	notify := func() *dns.Msg {
		m := new(dns.Msg).SetNotify("inf.nz.")
		return m
	}
	for _, tt := range []struct {
		about  string
		msg    func() *dns.Msg
		rcode  int
		answer int
	}{
		{"SOA", func() *dns.Msg { return new(dns.Msg).SetQuestion("inf.nz.", dns.TypeSOA) }, dns.RcodeSuccess, 1},
		{"SOA with EDNS", func() *dns.Msg { return new(dns.Msg).SetQuestion("inf.nz.", dns.TypeSOA).SetEdns0(1232, true) }, dns.RcodeSuccess, 1},
		{"NXDOMAIN", func() *dns.Msg { return new(dns.Msg).SetQuestion("nope.inf.nz.", dns.TypeA) }, dns.RcodeNameError, 0},
		{"a name outside our zones", func() *dns.Msg { return new(dns.Msg).SetQuestion("example.com.", dns.TypeA) }, dns.RcodeRefused, 0},
		{"NOTIFY (we only send them)", notify, dns.RcodeNotImplemented, 0},
	} {
		for _, proto := range []string{"udp", "tcp"} {
			for _, key := range []TSIGKey{xfrKey, {Name: "SECOND.example.", Algorithm: dns.HmacSHA512, Secret: xfrKey2.Secret}, idleKey} {
				t.Run(tt.about+"/"+proto+"/"+key.Name, func(t *testing.T) {
					m := tt.msg()
					resp, verified := signedExchange(t, proto, addr, m, key, time.Now())
					require.NoError(t, verified, "the answer is signed with the query's key and verifies")
					require.Equal(t, dns.RcodeToString[tt.rcode], dns.RcodeToString[resp.Rcode])
					require.Len(t, resp.Answer, tt.answer)
					require.Equal(t, dns.CanonicalName(key.Name), dns.CanonicalName(resp.IsTsig().Hdr.Name))
					require.EqualValues(t, 0, resp.IsTsig().Error)
					require.Equal(t, m.IsEdns0() != nil, resp.IsEdns0() != nil, "OPT in answer to OPT only")
					if tt.answer > 0 {
						require.True(t, resp.Authoritative)
						require.Equal(t, soaInf[:len("inf.nz.")], resp.Answer[0].Header().Name)
					}
				})
			}
		}
	}
}

// TestSignedQueryRefusals: an ordinary query with a signature that fails
// gets NOTAUTH and the TSIG error of RFC 8945 5.2, and nothing else: BADKEY
// and BADSIG unsigned (the key is unknown, or not proved, 5.3.2), BADTIME
// signed with the server's clock in the other data; the server answers
// the next query.
func TestSignedQueryRefusals(t *testing.T) {
	t.Parallel()
	addr := startTSIG(t)
	wrongSecret := xfrKey
	wrongSecret.Secret = []byte("not the secret the server has!!!")
	otherAlgorithm := xfrKey
	otherAlgorithm.Algorithm = dns.HmacSHA512
	unknown := TSIGKey{Name: "stranger.example.", Algorithm: dns.HmacSHA256, Secret: xfrKey.Secret}
	for _, tt := range []struct {
		about    string
		key      TSIGKey
		signedAt time.Time
		tsigErr  uint16
	}{
		{"unknown key", unknown, time.Now(), dns.RcodeBadKey},
		{"wrong secret", wrongSecret, time.Now(), dns.RcodeBadSig},
		{"a known key with another algorithm", otherAlgorithm, time.Now(), dns.RcodeBadKey},
		{"signed an hour ago", xfrKey, time.Now().Add(-time.Hour), dns.RcodeBadTime},
	} {
		for _, proto := range []string{"udp", "tcp"} {
			t.Run(tt.about+"/"+proto, func(t *testing.T) {
				m := new(dns.Msg).SetQuestion("inf.nz.", dns.TypeSOA).SetEdns0(1232, false)
				resp, _ := signedExchange(t, proto, addr, m, tt.key, tt.signedAt)
				require.Equal(t, dns.RcodeToString[dns.RcodeNotAuth], dns.RcodeToString[resp.Rcode])
				require.Empty(t, resp.Answer)
				require.Empty(t, resp.Ns)
				require.Equal(t, m.Question, resp.Question)
				rr := resp.IsTsig()
				require.NotNil(t, rr, "the answer carries a TSIG record")
				require.Equal(t, dns.RcodeToString[int(tt.tsigErr)], dns.RcodeToString[int(rr.Error)])
				require.Equal(t, dns.CanonicalName(tt.key.Name), dns.CanonicalName(rr.Hdr.Name))
				if tt.tsigErr == dns.RcodeBadTime {
					// miekg/dns verifies no NOTAUTH answer: the MAC's
					// size (SHA-256) shows it was made.
					require.EqualValues(t, 32, rr.MACSize)
					require.EqualValues(t, 6, rr.OtherLen, "the server's clock")
				} else {
					require.Zero(t, rr.MACSize, "unsigned")
				}
			})
		}
	}
	resp, verified := signedExchange(t, "udp", addr, new(dns.Msg).SetQuestion("inf.nz.", dns.TypeSOA), xfrKey, time.Now())
	require.Equal(t, dns.RcodeSuccess, resp.Rcode)
	require.NoError(t, verified)
}

// TestSignedAnswerFits: a signed answer over UDP keeps within the client's
// size with its TSIG record counted (the longest, HMAC-SHA512's), set TC
// when the records do not fit, and still verifies.
func TestSignedAnswerFits(t *testing.T) {
	t.Parallel()
	snap, err := buildFromText(fuzzZones())
	require.NoError(t, err)
	s := testServer(t, snap)
	WithTSIGKeys(xfrKey2)(&s.opts)
	// The client's copy of xfrKey2, as the server writes it.
	key := TSIGKey{Name: "second.example.", Algorithm: dns.HmacSHA512, Secret: xfrKey2.Secret}
	ring := tsigKeyring{key.Name: key}
	for _, tt := range []struct {
		qtype    uint16
		udpSize  uint16
		limit    int
		truncate bool
	}{
		{dns.TypeTXT, 0, 512, true},
		{dns.TypeTXT, 1232, 1232, true},
		{dns.TypeA, 0, 512, true},
		{dns.TypeA, 4096, 1232, false},
	} {
		t.Run(fmt.Sprintf("%s/%d", dns.TypeToString[tt.qtype], tt.udpSize), func(t *testing.T) {
			m := new(dns.Msg).SetQuestion("big.inf.nz.", tt.qtype)
			if tt.udpSize > 0 {
				m.SetEdns0(tt.udpSize, false)
			}
			m.SetTsig(key.Name, key.Algorithm, 300, time.Now().Unix())
			pkt, mac, err := dns.TsigGenerateWithProvider(m, ring, "", false)
			require.NoError(t, err)
			raw := s.answerPacket(snap, pkt, make([]byte, 0, dns.MaxMsgSize), netip.MustParseAddr("192.0.2.1"), false)
			require.LessOrEqual(t, len(raw), tt.limit)
			resp := new(dns.Msg)
			require.NoError(t, resp.Unpack(raw))
			// Verification rewrites the header it is given.
			require.NoError(t, dns.TsigVerifyWithProvider(slices.Clone(raw), ring, mac, false), "signed, and verifies")
			require.Equal(t, tt.truncate, resp.Truncated)
			require.NotNil(t, resp.IsTsig(), "TSIG last")
			if !tt.truncate {
				require.Len(t, resp.Answer, 60)
			}
		})
	}
}

// FuzzSignedQuery signs queries built from a question, EDNS size and
// flags with a key the server knows or not, now or long ago, and checks
// what FuzzPacketHandler checks (checkAnswer) and RFC 8945's rules: a good
// signature gets an answer signed with the same key that verifies, within
// the client's size; a bad one NOTAUTH with the TSIG error, and no records.
//
// go test ./internal/dnsserver -run '^$' -fuzz '^FuzzSignedQuery$' -fuzztime 60s -parallel 1
func FuzzSignedQuery(f *testing.F) {
	for i, name := range []string{"inf.nz.", "big.inf.nz.", "BIG.inf.nz.", "www.example.inf.nz.", "nope.inf.nz.",
		"deleg.inf.nz.", "x.ns.big.inf.nz.", "example.com.", "."} {
		for j, qtype := range []uint16{dns.TypeSOA, dns.TypeA, dns.TypeTXT, dns.TypeANY, dns.TypeNS, dns.TypeDS} {
			k := i*6 + j
			f.Add(name, qtype, uint16([]int{0, 512, 1232, 4096, 100}[k%5]), uint8(k), uint8(k%4), k%7 == 0)
		}
	}
	f.Add("inf.nz.", dns.TypeSOA, uint16(0), uint8(0x48), uint8(0), false) // opcode 4, NOTIFY
	// The first server knows xfrKey.
	servers, snaps := fuzzServers(f)
	keys := []TSIGKey{xfrKey, {Name: "stranger.example.", Algorithm: dns.HmacSHA256, Secret: xfrKey.Secret},
		{Name: xfrKey.Name, Algorithm: dns.HmacSHA256, Secret: []byte("not the secret the server has!!!")},
		{Name: xfrKey.Name, Algorithm: dns.HmacSHA512, Secret: xfrKey.Secret}}
	f.Fuzz(func(t *testing.T, name string, qtype, udpSize uint16, flags, which uint8, late bool) {
		m := new(dns.Msg)
		m.Id = uint16(flags)<<8 | uint16(which)
		m.Question = []dns.Question{{Name: name, Qtype: qtype, Qclass: dns.ClassINET}}
		m.RecursionDesired = flags&1 != 0
		if flags&8 != 0 {
			m.Opcode = int(flags>>4) & 0xf
		}
		if udpSize != 0 {
			m.SetEdns0(udpSize, flags&16 != 0)
		}
		key := keys[int(which)%len(keys)]
		signedAt := time.Now()
		if late {
			signedAt = signedAt.Add(-time.Hour)
		}
		m.SetTsig(key.Name, key.Algorithm, 300, signedAt.Unix())
		pkt, mac, err := dns.TsigGenerateWithProvider(m, tsigKeyring{key.Name: key}, "", false)
		var back dns.Msg
		if err != nil || back.Unpack(pkt) != nil || len(back.Question) != 1 || back.Question[0] != m.Question[0] {
			return // not a name miekg/dns writes as given ("" say)
		}
		tcp := flags&2 != 0
		s, snap := servers[0], snaps[0]
		checkAnswer(t, s, snap, pkt, tcp)
		raw := s.answerPacket(snap, pkt, make([]byte, 0, dns.MaxMsgSize), netip.Addr{}, tcp)
		var resp dns.Msg
		require.NoError(t, resp.Unpack(raw))
		if resp.Rcode == dns.RcodeFormatError || isTransfer(m) {
			return // FORMERR goes unsigned; transfers: TestTransferRefusals
		}
		rr := resp.IsTsig()
		require.NotNil(t, rr, "a signed query gets a TSIG record: %s", &resp)
		switch want := map[int]uint16{0: 0, 1: dns.RcodeBadKey, 2: dns.RcodeBadSig, 3: dns.RcodeBadKey}[int(which)%len(keys)]; {
		case want != 0:
			require.Equal(t, dns.RcodeNotAuth, resp.Rcode)
			require.Equal(t, want, rr.Error)
			require.Zero(t, rr.MACSize, "BADKEY and BADSIG go unsigned")
		case late:
			require.Equal(t, dns.RcodeNotAuth, resp.Rcode)
			require.EqualValues(t, dns.RcodeBadTime, rr.Error)
		default:
			require.Zero(t, rr.Error)
			require.NoError(t, dns.TsigVerifyWithProvider(raw, tsigKeyring{key.Name: key}, mac, false), "the answer verifies")
		}
		if resp.Rcode == dns.RcodeNotAuth {
			require.Empty(t, resp.Answer)
			require.Empty(t, resp.Ns)
		}
	})
}
