package updatekey_test

import (
	"bytes"
	"context"
	"log/slog"
	"math/rand/v2"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/miekg/dns"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/dnsserver"
	"github.com/nameport/nameport/internal/sealer"
	"github.com/nameport/nameport/internal/updatekey"
	"github.com/nameport/nameport/internal/zone"
)

// fixture is a DNS server taking updates over a database with two
// domains, example.inf.nz and other.inf.nz.
type fixture struct {
	db      *db.DB
	keys    *updatekey.Service
	keyring *updatekey.Keyring
	records *zone.Service
	srv     *dnsserver.Server
	addr    string
	dom     zone.Domain
	other   zone.Domain
	log     *syncBuffer
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func addExtension(t *testing.T, d *db.DB, ext string) {
	t.Helper()
	now := time.Now().UTC()
	dbtest.MustExec(t, d, `INSERT INTO extensions (extension, base_price_cents, description, active, min_name_length,
		max_name_length, allowed_characters, renewal_period_days, grace_period_days, dns_nameservers, dns_provider,
		dns_api_key_sealed, dns_api_secret_sealed, dns_zone_id, requires_verification, verification_documents,
		verification_instructions, admin_email, technical_email, billing_email, whois_privacy_enabled,
		allows_subdomains, allows_dns_management, allows_email_forwarding, created_at, updated_at)
		VALUES (?, 800, 'test', TRUE, 1, 63, 'a-z0-9-', 365, 30, '["ns1.nameport.net"]', 'custom', '', '', '', FALSE, '[]', '', '', '', '',
		TRUE, TRUE, TRUE, TRUE, ?, ?)`, ext, now, now)
}

func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	return l.Addr().String()
}

func setup(t *testing.T, d *db.DB) *fixture {
	t.Helper()
	ctx := context.Background()
	addExtension(t, d, ".inf.nz")
	year := time.Now().AddDate(1, 0, 0)
	f := &fixture{db: d, log: &syncBuffer{}}
	f.dom = zone.Domain{ID: dbtest.Domain(t, d, "example", ".inf.nz", year), Name: "example", Extension: ".inf.nz"}
	f.other = zone.Domain{ID: dbtest.Domain(t, d, "other", ".inf.nz", year), Name: "other", Extension: ".inf.nz"}
	seal, err := sealer.New(bytes.Repeat([]byte("k"), 32), "dns-update-keys")
	require.NoError(t, err)
	var srv *dnsserver.Server
	f.records = zone.NewService(d, zone.Options{Changed: func() {
		if srv != nil {
			srv.Poke()
		}
	}})
	f.keys = updatekey.NewService(d, seal, updatekey.Options{})
	f.keyring = updatekey.NewKeyring(f.keys, f.records, nil)
	f.keys.OnChange(f.keyring.Forget)
	_, err = f.records.Create(ctx, f.dom, zone.Input{Type: "A", Name: "www", Content: "192.0.2.1"})
	require.NoError(t, err)
	f.addr = freeAddr(t)
	srv = dnsserver.New(f.addr, slog.New(slog.NewTextHandler(f.log, nil)), dnsserver.WithUpdates(f.keyring))
	require.NoError(t, srv.Reload(ctx, d))
	require.NoError(t, srv.Start())
	wctx, cancel := context.WithCancel(ctx)
	var watching sync.WaitGroup
	watching.Go(func() { srv.Watch(wctx, d, 200*time.Millisecond) })
	t.Cleanup(func() {
		cancel()
		watching.Wait()
		_ = srv.Shutdown(context.Background())
		require.NotContains(t, f.log.String(), "panicked")
	})
	f.srv = srv
	return f
}

// key is a key as a client holds it.
type key struct {
	name, alg, secret string
}

func (f *fixture) newKey(t *testing.T, d zone.Domain, in updatekey.Input) key {
	t.Helper()
	k, secret, err := f.keys.Create(context.Background(), d, in)
	require.NoError(t, err)
	alg := dns.HmacSHA256
	if k.Algorithm == updatekey.HMACSHA512 {
		alg = dns.HmacSHA512
	}
	return key{k.KeyName, alg, secret}
}

// update sends m over proto, signed with k (unless k is zero, or signed
// at signedAt when not zero), and returns the answer.
func (f *fixture) update(t *testing.T, proto string, m *dns.Msg, k key, signedAt time.Time) *dns.Msg {
	t.Helper()
	c := &dns.Client{Net: proto, Timeout: 5 * time.Second}
	if k.name != "" {
		if signedAt.IsZero() {
			signedAt = time.Now()
		}
		m.SetTsig(k.name, k.alg, 300, signedAt.Unix())
		c.TsigSecret = map[string]string{k.name: k.secret}
	}
	resp, _, err := c.Exchange(m, f.addr)
	if resp == nil {
		require.NoError(t, err)
	}
	require.Equal(t, m.Id, resp.Id)
	require.Equal(t, dns.OpcodeUpdate, resp.Opcode)
	return resp
}

func rr(t *testing.T, s string) dns.RR {
	t.Helper()
	r, err := dns.NewRR(s)
	require.NoError(t, err)
	return r
}

// hdr is a record without data, for prerequisites and deletions.
func hdr(name string, t uint16) dns.RR { return &dns.ANY{Hdr: dns.RR_Header{Name: name, Rrtype: t}} }

func newUpdate(zoneName string) *dns.Msg {
	m := new(dns.Msg)
	m.SetUpdate(zoneName)
	return m
}

func (f *fixture) records_(t *testing.T) []string {
	t.Helper()
	rs, err := f.records.List(context.Background(), f.dom)
	require.NoError(t, err)
	out := []string{}
	for _, r := range rs {
		out = append(out, r.Name+" "+r.Type+" "+r.Content)
	}
	return out
}

func TestKeys(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		f := setup(t, d)
		ctx := context.Background()
		k, secret, err := f.keys.Create(ctx, f.dom, updatekey.Input{Name: "Certbot", Names: []string{"_acme-challenge", "_ACME-challenge.example.inf.nz."}, Types: []string{"txt"}})
		require.NoError(t, err)
		require.Equal(t, "certbot", k.Label)
		require.Equal(t, "certbot.example.inf.nz.", k.KeyName)
		require.Equal(t, updatekey.HMACSHA256, k.Algorithm)
		require.Equal(t, []string{"_acme-challenge"}, k.Names)
		require.Equal(t, []string{"TXT"}, k.Types)
		require.Len(t, secret, 44)
		require.Nil(t, k.LastUsedAt)
		// The secret is sealed at rest.
		require.Zero(t, dbtest.Count(t, d, "SELECT COUNT(*) FROM dns_update_keys WHERE secret_sealed = ?", secret))

		_, _, err = f.keys.Create(ctx, f.dom, updatekey.Input{Name: "certbot"})
		require.Equal(t, apperr.Conflict, apperr.Code(err))
		for _, in := range []updatekey.Input{
			{Name: ""}, {Name: "-x"}, {Name: "a.b"}, {Name: strings.Repeat("a", 64)},
			{Name: "x", Algorithm: "hmac-md5"}, {Name: "x", Types: []string{"SOA"}},
			{Name: "x", Names: []string{"www.other.inf.nz."}}, {Name: "x", Names: []string{"bad name"}},
		} {
			_, _, err := f.keys.Create(ctx, f.dom, in)
			require.Equal(t, apperr.Invalid, apperr.Code(err), "%+v", in)
		}
		whole, _, err := f.keys.Create(ctx, f.dom, updatekey.Input{Name: "all", Algorithm: "HMAC-SHA512"})
		require.NoError(t, err)
		require.Equal(t, updatekey.HMACSHA512, whole.Algorithm)
		require.Equal(t, []string{}, whole.Names)

		list, err := f.keys.List(ctx, f.dom)
		require.NoError(t, err)
		require.Len(t, list, 2)
		require.Equal(t, "certbot", list[0].Label)
		others, err := f.keys.List(ctx, f.other)
		require.NoError(t, err)
		require.Empty(t, others)

		// Another domain's key is not found.
		require.Equal(t, apperr.NotFound, apperr.Code(f.keys.Revoke(ctx, f.other, k.ID)))
		require.NoError(t, f.keys.Revoke(ctx, f.dom, k.ID))
		require.Equal(t, apperr.NotFound, apperr.Code(f.keys.Revoke(ctx, f.dom, k.ID)))
		list, err = f.keys.List(ctx, f.dom)
		require.NoError(t, err)
		require.Len(t, list, 1)
	})
}

func TestDynamicUpdate(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		f := setup(t, d)
		ctx := context.Background()
		acme := f.newKey(t, f.dom, updatekey.Input{Name: "acme", Names: []string{"_acme-challenge"}, Types: []string{"TXT"}})
		whole := f.newKey(t, f.dom, updatekey.Input{Name: "all", Algorithm: updatekey.HMACSHA512})
		otherKey := f.newKey(t, f.other, updatekey.Input{Name: "all"})

		for _, proto := range []string{"udp", "tcp"} {
			// Add, as certbot does: the zone is the extension's (what an
			// SOA query finds), TTL 120 raised to the floor.
			m := newUpdate("inf.nz.")
			m.Insert([]dns.RR{rr(t, `_acme-challenge.example.inf.nz. 120 IN TXT "token-`+proto+`"`)})
			resp := f.update(t, proto, m, acme, time.Time{})
			require.Equal(t, dns.RcodeSuccess, resp.Rcode, "%s: %v", proto, resp)
			require.NotNil(t, resp.IsTsig(), "the answer is signed")
			require.Contains(t, f.records_(t), "_acme-challenge TXT token-"+proto)
			require.Eventually(t, func() bool {
				a, _, err := (&dns.Client{Net: proto}).Exchange(new(dns.Msg).SetQuestion("_acme-challenge.example.inf.nz.", dns.TypeTXT), f.addr)
				return err == nil && len(a.Answer) == 1 && strings.Contains(a.Answer[0].String(), "token-"+proto)
			}, 5*time.Second, 20*time.Millisecond)

			// Delete that record (class NONE), with the domain as the zone.
			m = newUpdate("example.inf.nz.")
			m.Remove([]dns.RR{rr(t, `_acme-challenge.example.inf.nz. 0 IN TXT "token-`+proto+`"`)})
			resp = f.update(t, proto, m, acme, time.Time{})
			require.Equal(t, dns.RcodeSuccess, resp.Rcode)
			require.Equal(t, []string{"www A 192.0.2.1"}, f.records_(t))
		}

		// A whole-domain key: several records at once, prerequisites met.
		m := newUpdate("inf.nz.")
		m.NameNotUsed([]dns.RR{hdr("new.example.inf.nz.", dns.TypeANY)})
		m.RRsetUsed([]dns.RR{hdr("www.example.inf.nz.", dns.TypeA)})
		m.Used([]dns.RR{rr(t, "www.example.inf.nz. 0 IN A 192.0.2.1")})
		m.Insert([]dns.RR{rr(t, "new.example.inf.nz. 3600 IN A 192.0.2.10"), rr(t, "new.example.inf.nz. 3600 IN AAAA 2001:db8::10"),
			rr(t, "example.inf.nz. 3600 IN MX 10 mail.example.com.")})
		resp := f.update(t, "tcp", m, whole, time.Time{})
		require.Equal(t, dns.RcodeSuccess, resp.Rcode, "%v", resp)
		require.ElementsMatch(t, []string{"@ MX mail.example.com", "new A 192.0.2.10", "new AAAA 2001:db8::10", "www A 192.0.2.1"}, f.records_(t))
		// Delete a set (class ANY).
		m = newUpdate("inf.nz.")
		m.RemoveRRset([]dns.RR{hdr("new.example.inf.nz.", dns.TypeAAAA)})
		require.Equal(t, dns.RcodeSuccess, f.update(t, "udp", m, whole, time.Time{}).Rcode)
		require.NotContains(t, f.records_(t), "new AAAA 2001:db8::10")
		// Delete a name (class ANY, type ANY).
		m = newUpdate("inf.nz.")
		m.RemoveName([]dns.RR{hdr("new.example.inf.nz.", dns.TypeANY)})
		require.Equal(t, dns.RcodeSuccess, f.update(t, "udp", m, whole, time.Time{}).Rcode)
		before := f.records_(t)
		require.ElementsMatch(t, []string{"@ MX mail.example.com", "www A 192.0.2.1"}, before)

		keys, err := f.keys.List(ctx, f.dom)
		require.NoError(t, err)
		require.NotNil(t, keys[0].LastUsedAt, "last use recorded")

		// Refusals: each changes nothing.
		add := func(s string) *dns.Msg {
			m := newUpdate("inf.nz.")
			m.Insert([]dns.RR{rr(t, s)})
			return m
		}
		acmeTXT := `_acme-challenge.example.inf.nz. 300 IN TXT "x"`
		wrong := acme
		wrong.secret = whole.secret
		unknown := key{"nobody.example.inf.nz.", dns.HmacSHA256, acme.secret}
		refusals := []struct {
			name     string
			m        *dns.Msg
			k        key
			at       time.Time
			rcode    int
			tsigCode uint16
		}{
			{"unsigned", add(acmeTXT), key{}, time.Time{}, dns.RcodeRefused, 0},
			{"wrong secret", add(acmeTXT), wrong, time.Time{}, dns.RcodeNotAuth, dns.RcodeBadSig},
			{"unknown key", add(acmeTXT), unknown, time.Time{}, dns.RcodeNotAuth, dns.RcodeBadKey},
			{"expired time", add(acmeTXT), acme, time.Now().Add(-time.Hour), dns.RcodeNotAuth, dns.RcodeBadTime},
			{"another domain's key", add(acmeTXT), otherKey, time.Time{}, dns.RcodeRefused, 0},
			{"name outside scope", add(`www.example.inf.nz. 300 IN TXT "x"`), acme, time.Time{}, dns.RcodeRefused, 0},
			{"type outside scope", add(`_acme-challenge.example.inf.nz. 300 IN A 192.0.2.1`), acme, time.Time{}, dns.RcodeRefused, 0},
			{"outside the zone", add(`www.example.biz.ee. 300 IN A 192.0.2.1`), whole, time.Time{}, dns.RcodeNotZone, 0},
			{"not our zone", func() *dns.Msg {
				m := newUpdate("example.com.")
				m.Insert([]dns.RR{rr(t, `www.example.com. 300 IN A 192.0.2.1`)})
				return m
			}(), whole, time.Time{}, dns.RcodeNotAuth, 0},
			{"prerequisite: name not in use", func() *dns.Msg {
				m := add(`www.example.inf.nz. 300 IN A 192.0.2.2`)
				m.NameNotUsed([]dns.RR{hdr("www.example.inf.nz.", dns.TypeANY)})
				return m
			}(), whole, time.Time{}, dns.RcodeYXDomain, 0},
			{"prerequisite: set exists", func() *dns.Msg {
				m := add(`www.example.inf.nz. 300 IN A 192.0.2.2`)
				m.RRsetUsed([]dns.RR{hdr("www.example.inf.nz.", dns.TypeTXT)})
				return m
			}(), whole, time.Time{}, dns.RcodeNXRrset, 0},
			{"prerequisite: value", func() *dns.Msg {
				m := add(`www.example.inf.nz. 300 IN A 192.0.2.2`)
				m.Used([]dns.RR{rr(t, "www.example.inf.nz. 0 IN A 192.0.2.99")})
				return m
			}(), whole, time.Time{}, dns.RcodeNXRrset, 0},
			{"prerequisite: name in use", func() *dns.Msg {
				m := add(`www.example.inf.nz. 300 IN A 192.0.2.2`)
				m.NameUsed([]dns.RR{hdr("nothing.example.inf.nz.", dns.TypeANY)})
				return m
			}(), whole, time.Time{}, dns.RcodeNameError, 0},
			{"CNAME beside data", add(`www.example.inf.nz. 300 IN CNAME example.com.`), whole, time.Time{}, dns.RcodeRefused, 0},
			{"data beside CNAME, after a good record", func() *dns.Msg {
				m := add(`ok.example.inf.nz. 300 IN A 192.0.2.3`)
				m.Insert([]dns.RR{rr(t, `alias.example.inf.nz. 300 IN CNAME example.com.`), rr(t, `alias.example.inf.nz. 300 IN TXT "x"`)})
				return m
			}(), whole, time.Time{}, dns.RcodeRefused, 0},
			{"SOA", add(`example.inf.nz. 300 IN SOA ns1.example.com. h.example.com. 1 2 3 4 5`), whole, time.Time{}, dns.RcodeRefused, 0},
			{"bad record", add(`www.example.inf.nz. 300 IN MX 10 192.0.2.1.`), whole, time.Time{}, dns.RcodeRefused, 0},
		}
		for _, r := range refusals {
			for _, proto := range []string{"udp", "tcp"} {
				m := r.m.Copy()
				m.Id = dns.Id()
				m.Extra = nil
				resp := f.update(t, proto, m, r.k, r.at)
				require.Equal(t, dns.RcodeToString[r.rcode], dns.RcodeToString[resp.Rcode], "%s over %s", r.name, proto)
				if r.tsigCode != 0 {
					require.NotNil(t, resp.IsTsig(), r.name)
					require.Equal(t, r.tsigCode, resp.IsTsig().Error, r.name)
				}
				require.ElementsMatch(t, before, f.records_(t), "%s changed nothing", r.name)
			}
		}

		// Revoked: BADKEY at once.
		for _, k := range keys {
			require.NoError(t, f.keys.Revoke(ctx, f.dom, k.ID))
		}
		resp = f.update(t, "udp", add(acmeTXT), acme, time.Time{})
		require.Equal(t, dns.RcodeNotAuth, resp.Rcode)
		require.Equal(t, uint16(dns.RcodeBadKey), resp.IsTsig().Error)
	})
}

// TestBadUpdates sends updates cut short and garbled: every answer is a
// refusal or an error of the client's, never a fault of the server's, and
// the server answers queries after.
func TestBadUpdates(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		f := setup(t, d)
		whole := f.newKey(t, f.dom, updatekey.Input{Name: "all"})
		m := newUpdate("inf.nz.")
		m.Insert([]dns.RR{rr(t, `a.example.inf.nz. 300 IN TXT "x"`), rr(t, `a.example.inf.nz. 300 IN MX 10 mail.example.com.`)})
		m.Remove([]dns.RR{rr(t, `www.example.inf.nz. 0 IN A 192.0.2.1`)})
		m.SetTsig(whole.name, whole.alg, 300, time.Now().Unix())
		good, _, err := dns.TsigGenerate(m, whole.secret, "", false)
		require.NoError(t, err)
		rnd := rand.New(rand.NewPCG(1, 2))
		conn, err := net.Dial("udp", f.addr)
		require.NoError(t, err)
		defer conn.Close()
		buf := make([]byte, 65535)
		for i := range 300 {
			pkt := append([]byte(nil), good...)
			switch i % 3 {
			case 0:
				pkt = pkt[:rnd.IntN(len(pkt))]
			case 1:
				for range 1 + rnd.IntN(4) {
					pkt[12+rnd.IntN(len(pkt)-12)] = byte(rnd.Uint32())
				}
			case 2:
				pkt[4+rnd.IntN(8)] = byte(rnd.Uint32()) // the counts
			}
			if len(pkt) >= 3 {
				pkt[2] = pkt[2]&^0xf8 | dns.OpcodeUpdate<<3
			}
			_, err := conn.Write(pkt)
			require.NoError(t, err)
			if len(pkt) < 12 {
				continue // no answer to what is not a message
			}
			require.NoError(t, conn.SetReadDeadline(time.Now().Add(5*time.Second)))
			n, err := conn.Read(buf)
			require.NoError(t, err, "packet %d: %x", i, pkt)
			resp := new(dns.Msg)
			if resp.Unpack(buf[:n]) == nil {
				require.NotEqual(t, dns.RcodeServerFailure, resp.Rcode, "packet %d: %x", i, pkt)
			}
		}
		a, _, err := (&dns.Client{}).Exchange(new(dns.Msg).SetQuestion("www.example.inf.nz.", dns.TypeA), f.addr)
		require.NoError(t, err)
		require.Len(t, a.Answer, 1)
	})
}
