package dnsserver_test

import (
	"context"
	"io"
	"log/slog"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/miekg/dns"
	"github.com/stretchr/testify/require"
	"github.com/uptrace/bun"

	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/dnsserver"
	"github.com/nameport/nameport/internal/zone"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// addExtension inserts an active (or not) extension with nameservers.
func addExtension(t testing.TB, d *db.DB, ext string, active bool, nameservers string) {
	t.Helper()
	now := time.Now().UTC()
	dbtest.MustExec(t, d, `INSERT INTO extensions (extension, base_price_cents, description, active, min_name_length,
		max_name_length, allowed_characters, renewal_period_days, grace_period_days, dns_nameservers, dns_provider,
		dns_api_key_sealed, dns_api_secret_sealed, dns_zone_id, requires_verification, verification_documents,
		verification_instructions, admin_email, technical_email, billing_email, whois_privacy_enabled,
		allows_subdomains, allows_dns_management, allows_email_forwarding, created_at, updated_at)
		VALUES (?, 800, 'test', ?, 1, 63, 'a-z0-9-', 365, 30, ?, 'custom', '', '', '', FALSE, '[]', '', '', '', '',
		TRUE, TRUE, TRUE, TRUE, ?, ?)`, ext, active, nameservers, now, now)
}

// registerDomain inserts a domain (and its owner) expiring at expires.
func registerDomain(t *testing.T, d *db.DB, name, ext string, expires time.Time) zone.Domain {
	t.Helper()
	return zone.Domain{ID: dbtest.Domain(t, d, name, ext, expires), Name: name, Extension: ext}
}

type bundle struct {
	db   *db.DB
	svc  *zone.Service
	srv  *dnsserver.Server
	addr string
	dom  zone.Domain
}

// setup fills d with two active extensions and an inactive one, a few
// domains and records, and starts a server over it that watches for changes.
func setup(t *testing.T, d *db.DB, opts ...dnsserver.Option) bundle {
	t.Helper()
	ctx := context.Background()
	addExtension(t, d, ".inf.nz", true, `["ns1.nameport.net", "ns2.nameport.net"]`)
	addExtension(t, d, ".biz.ee", true, `[]`)
	addExtension(t, d, ".orgn.uk", false, `["ns1.nameport.net"]`)
	year := time.Now().AddDate(1, 0, 0)
	b := bundle{db: d, svc: zone.NewService(d, zone.Options{}), dom: registerDomain(t, d, "example", ".inf.nz", year)}
	registerDomain(t, d, "empty", ".inf.nz", year)
	expired := registerDomain(t, d, "expired", ".inf.nz", time.Now().Add(-time.Hour))
	hidden := registerDomain(t, d, "hidden", ".orgn.uk", year)
	deleg := registerDomain(t, d, "deleg", ".biz.ee", year)
	for _, r := range []struct {
		dom zone.Domain
		in  zone.Input
	}{
		{b.dom, zone.Input{Type: "A", Name: "@", Content: "192.0.2.1", TTL: new(300)}},
		{b.dom, zone.Input{Type: "AAAA", Name: "@", Content: "2001:db8::1"}},
		{b.dom, zone.Input{Type: "CNAME", Name: "www", Content: "@"}},
		{b.dom, zone.Input{Type: "MX", Name: "@", Content: "mail.example.inf.nz", Priority: ptr(10)}},
		{b.dom, zone.Input{Type: "A", Name: "mail", Content: "192.0.2.25"}},
		{b.dom, zone.Input{Type: "TXT", Name: "@", Content: "v=spf1 mx -all"}},
		{b.dom, zone.Input{Type: "TXT", Name: "long", Content: strings.Repeat("0123456789", 400)}},
		{b.dom, zone.Input{Type: "SRV", Name: "_sip._tcp", Content: "10 5 5060 sip.example.com"}},
		{b.dom, zone.Input{Type: "CAA", Name: "@", Content: `0 issue "letsencrypt.org"`}},
		{b.dom, zone.Input{Type: "A", Name: "*.dev", Content: "192.0.2.99"}},
		{deleg, zone.Input{Type: "A", Name: "ns1", Content: "198.51.100.53"}}, // glue before the NS that needs it
		{deleg, zone.Input{Type: "NS", Name: "@", Content: "ns1.deleg.biz.ee"}},
		{deleg, zone.Input{Type: "NS", Name: "@", Content: "ns.elsewhere.net"}},
		{expired, zone.Input{Type: "A", Name: "@", Content: "192.0.2.66"}},
		{hidden, zone.Input{Type: "A", Name: "@", Content: "192.0.2.77"}},
	} {
		_, err := b.svc.Create(ctx, r.dom, r.in)
		require.NoError(t, err, "%+v", r.in)
	}
	b.addr = freeAddr(t)
	b.srv = start(t, d, b.addr, opts...)
	return b
}

// start runs a server on addr over d, loaded and watching.
func start(t *testing.T, d *db.DB, addr string, opts ...dnsserver.Option) *dnsserver.Server {
	t.Helper()
	srv := dnsserver.New(addr, quiet, opts...)
	require.NoError(t, srv.Reload(context.Background(), d))
	require.True(t, srv.Ready())
	require.NoError(t, srv.Start())
	ctx, cancel := context.WithCancel(context.Background())
	var watching sync.WaitGroup
	watching.Go(func() { srv.Watch(ctx, d, 500*time.Millisecond) })
	t.Cleanup(func() {
		cancel()
		watching.Wait()
		_ = srv.Shutdown(context.Background())
	})
	return srv
}

func ptr[T any](v T) *T { return &v }

func exchange(t *testing.T, proto, addr, name string, qtype uint16, edns uint16) *dns.Msg {
	t.Helper()
	q := new(dns.Msg).SetQuestion(name, qtype)
	if edns > 0 {
		q.SetEdns0(edns, false)
	}
	c := &dns.Client{Net: proto, Timeout: 2 * time.Second, UDPSize: 65535}
	var resp *dns.Msg
	require.Eventually(t, func() bool {
		var err error
		resp, _, err = c.Exchange(q, addr)
		return err == nil
	}, 3*time.Second, 20*time.Millisecond, "%s %s over %s", name, dns.TypeToString[qtype], proto)
	require.Equal(t, q.Id, resp.Id)
	return resp
}

func rdata(rrs []dns.RR) []string {
	out := []string{}
	for _, rr := range rrs {
		out = append(out, strings.TrimPrefix(rr.String(), rr.Header().String()))
	}
	return out
}

func TestServesTheDatabaseOverUDPAndTCP(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		serial := b.srv.Snapshot().Serial()
		for _, proto := range []string{"udp", "tcp"} {
			ask := func(name string, qtype uint16) *dns.Msg { return exchange(t, proto, b.addr, name, qtype, 1232) }

			m := ask("Example.INF.nz.", dns.TypeA)
			require.Equal(t, dns.RcodeSuccess, m.Rcode, proto)
			require.True(t, m.Authoritative, proto)
			require.False(t, m.RecursionAvailable, proto)
			require.Equal(t, []string{"192.0.2.1"}, rdata(m.Answer), proto)
			require.Equal(t, "Example.INF.nz.", m.Answer[0].Header().Name, proto)
			require.Equal(t, uint32(300), m.Answer[0].Header().Ttl)
			require.NotNil(t, m.IsEdns0())

			require.Equal(t, []string{"2001:db8::1"}, rdata(ask("example.inf.nz.", dns.TypeAAAA).Answer), proto)
			require.Equal(t, []string{"example.inf.nz.", "192.0.2.1"}, rdata(ask("www.example.inf.nz.", dns.TypeA).Answer), proto)
			m = ask("example.inf.nz.", dns.TypeMX)
			require.Equal(t, []string{"10 mail.example.inf.nz."}, rdata(m.Answer), proto)
			require.Equal(t, []string{"192.0.2.25"}, rdata(slices.DeleteFunc(m.Extra, func(rr dns.RR) bool { return rr.Header().Rrtype == dns.TypeOPT })),
				"the MX target's address, in the additional section: "+proto)
			require.Equal(t, []string{`"v=spf1 mx -all"`}, rdata(ask("example.inf.nz.", dns.TypeTXT).Answer), proto)
			require.Equal(t, []string{"10 5 5060 sip.example.com."}, rdata(ask("_sip._tcp.example.inf.nz.", dns.TypeSRV).Answer), proto)
			require.Equal(t, []string{`0 issue "letsencrypt.org"`}, rdata(ask("example.inf.nz.", dns.TypeCAA).Answer), proto)
			require.Equal(t, []string{"192.0.2.99"}, rdata(ask("a.dev.example.inf.nz.", dns.TypeA).Answer), proto)

			m = ask("example.inf.nz.", dns.TypeNS)
			require.Equal(t, dns.RcodeSuccess, m.Rcode)
			require.Empty(t, m.Answer, "a domain that is not delegated has no NS: NODATA")
			require.Len(t, m.Ns, 1)
			soa := m.Ns[0].(*dns.SOA)
			require.Equal(t, "ns1.nameport.net.", soa.Ns)
			require.Equal(t, "hostmaster.inf.nz.", soa.Mbox)
			require.Equal(t, serial, soa.Serial)
			require.Equal(t, uint32(300), soa.Hdr.Ttl, "negative answers: min(SOA TTL, minimum)")

			// A domain without records is not in DNS until it has some:
			// a secondary, which gets nothing for it by AXFR, says the same.
			for _, name := range []string{"empty.inf.nz.", "nope.inf.nz.", "expired.inf.nz.", "www.empty.inf.nz."} {
				m = ask(name, dns.TypeA)
				require.Equal(t, dns.RcodeNameError, m.Rcode, name)
				require.True(t, m.Authoritative, name)
				require.IsType(t, &dns.SOA{}, m.Ns[0], name)
			}
			for _, name := range []string{"hidden.orgn.uk.", "example.com.", "nz."} {
				m = ask(name, dns.TypeA)
				require.Equal(t, dns.RcodeRefused, m.Rcode, name)
				require.False(t, m.Authoritative, name)
			}

			m = ask("inf.nz.", dns.TypeNS)
			require.Equal(t, []string{"ns1.nameport.net.", "ns2.nameport.net."}, rdata(m.Answer))
			m = ask("biz.ee.", dns.TypeNS)
			require.Equal(t, []string{"ns1.biz.ee.", "ns2.biz.ee."}, rdata(m.Answer), "without configured nameservers")
			require.Equal(t, "ns1.biz.ee.", ask("biz.ee.", dns.TypeSOA).Answer[0].(*dns.SOA).Ns)

			m = ask("www.deleg.biz.ee.", dns.TypeA)
			require.Equal(t, dns.RcodeSuccess, m.Rcode)
			require.False(t, m.Authoritative, "a referral")
			require.Empty(t, m.Answer)
			require.ElementsMatch(t, []string{"ns1.deleg.biz.ee.", "ns.elsewhere.net."}, rdata(m.Ns))
			extra := []string{}
			for _, rr := range m.Extra {
				if rr.Header().Rrtype != dns.TypeOPT {
					extra = append(extra, rr.String())
				}
			}
			require.Equal(t, []string{"ns1.deleg.biz.ee.\t3600\tIN\tA\t198.51.100.53"}, extra, "glue inside the delegation only")
		}

		// 4,000 characters of TXT: cut into 255-byte strings; over UDP
		// without EDNS it does not fit, so the client is told to use TCP.
		m := exchange(t, "udp", b.addr, "long.example.inf.nz.", dns.TypeTXT, 0)
		require.True(t, m.Truncated)
		m = exchange(t, "tcp", b.addr, "long.example.inf.nz.", dns.TypeTXT, 0)
		require.False(t, m.Truncated)
		txt := m.Answer[0].(*dns.TXT).Txt
		require.Len(t, txt, 16)
		require.Equal(t, strings.Repeat("0123456789", 400), strings.Join(txt, ""))
		// The client retries over TCP by itself.
		c := &dns.Client{Net: "udp", Timeout: 2 * time.Second}
		resp, _, err := c.Exchange(new(dns.Msg).SetQuestion("long.example.inf.nz.", dns.TypeTXT), b.addr)
		require.NoError(t, err)
		require.True(t, resp.Truncated)
		require.LessOrEqual(t, resp.Len(), 512)
	})
}

func TestChangesAreAnsweredWithinASecond(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		before := b.srv.Snapshot().Serial()
		answers := func(name string) func() []string {
			return func() []string {
				c := &dns.Client{Timeout: time.Second}
				m, _, err := c.Exchange(new(dns.Msg).SetQuestion(name, dns.TypeA), b.addr)
				if err != nil {
					return nil
				}
				return rdata(m.Answer)
			}
		}
		eventually := func(get func() []string, want []string) {
			t.Helper()
			require.Eventually(t, func() bool { return equal(get(), want) }, time.Second, 20*time.Millisecond, "want %v, have %v", want, get())
		}

		rec, err := b.svc.Create(ctx, b.dom, zone.Input{Type: "A", Name: "new", Content: "192.0.2.50"})
		require.NoError(t, err)
		eventually(answers("new.example.inf.nz."), []string{"192.0.2.50"})
		require.Greater(t, b.srv.Snapshot().Serial(), before)

		_, err = b.svc.Update(ctx, b.dom, rec.ID, zone.Input{Type: "A", Name: "new", Content: "192.0.2.51"})
		require.NoError(t, err)
		eventually(answers("new.example.inf.nz."), []string{"192.0.2.51"})

		require.NoError(t, b.svc.Delete(ctx, b.dom, rec.ID))
		eventually(answers("new.example.inf.nz."), []string{})

		// A newly registered domain, announced by bumping the version: the
		// server reloads, and the domain, without records yet, is NXDOMAIN
		// (as on a secondary) until its first record.
		fresh := registerDomain(t, d, "fresh", ".inf.nz", time.Now().AddDate(1, 0, 0))
		serial := b.srv.Snapshot().Serial()
		require.NoError(t, d.InTx(ctx, func(ctx context.Context, tx *db.Tx) error { return zone.BumpVersion(ctx, tx, time.Now()) }))
		require.Eventually(t, func() bool { return b.srv.Snapshot().Serial() != serial }, time.Second, 20*time.Millisecond)
		rcode := func() int {
			m, _, err := (&dns.Client{Timeout: time.Second}).Exchange(new(dns.Msg).SetQuestion("fresh.inf.nz.", dns.TypeA), b.addr)
			if err != nil {
				return -1
			}
			return m.Rcode
		}
		require.Equal(t, dns.RcodeNameError, rcode())
		_, err = b.svc.Create(ctx, fresh, zone.Input{Type: "A", Name: "@", Content: "192.0.2.52"})
		require.NoError(t, err)
		eventually(answers("fresh.inf.nz."), []string{"192.0.2.52"})
	})
}

// Two processes on one database: a change made through one is answered by
// the other's DNS server within two seconds.
func TestChangesReachAnotherNodeWithinTwoSeconds(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			url := dbtest.URL(t, engine)
			open := func() *db.DB {
				d, err := db.Open(context.Background(), url)
				require.NoError(t, err)
				t.Cleanup(func() { d.Close() })
				return d
			}
			api, dnsNode := open(), open()
			require.NoError(t, api.Migrate(context.Background()))
			b := setup(t, api)
			otherAddr := freeAddr(t)
			start(t, dnsNode, otherAddr)

			_, err := b.svc.Create(context.Background(), b.dom, zone.Input{Type: "TXT", Name: "_acme-challenge", Content: "token-123"})
			require.NoError(t, err)
			require.Eventually(t, func() bool {
				m, _, err := (&dns.Client{Timeout: time.Second}).Exchange(
					new(dns.Msg).SetQuestion("_acme-challenge.example.inf.nz.", dns.TypeTXT), otherAddr)
				return err == nil && len(m.Answer) == 1
			}, 2*time.Second, 20*time.Millisecond)
		})
	}
}

func TestAnExpiredDomainLeavesDNS(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		soon := registerDomain(t, d, "soon", ".inf.nz", time.Now().Add(1500*time.Millisecond))
		_, err := b.svc.Create(context.Background(), soon, zone.Input{Type: "A", Name: "@", Content: "192.0.2.40"})
		require.NoError(t, err)
		require.Eventually(t, func() bool {
			m := exchange(t, "udp", b.addr, "soon.inf.nz.", dns.TypeA, 0)
			return len(m.Answer) == 1
		}, time.Second, 20*time.Millisecond)
		serial := b.srv.Snapshot().Serial()
		require.Eventually(t, func() bool {
			return exchange(t, "udp", b.addr, "soon.inf.nz.", dns.TypeA, 0).Rcode == dns.RcodeNameError
		}, 3*time.Second, 20*time.Millisecond)
		require.Greater(t, b.srv.Snapshot().Serial(), serial, "the expiry moved the serial")
	})
}

func TestZoneTransferAndNotify(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		notified := make(chan *dns.Msg, 16)
		secondary := &dns.Server{Addr: freeAddr(t), Net: "udp", Handler: dns.HandlerFunc(func(w dns.ResponseWriter, r *dns.Msg) {
			notified <- r
			resp := new(dns.Msg).SetReply(r)
			_ = w.WriteMsg(resp)
		})}
		started := make(chan struct{})
		secondary.NotifyStartedFunc = func() { close(started) }
		go func() { _ = secondary.ListenAndServe() }()
		<-started
		t.Cleanup(func() { _ = secondary.Shutdown() })

		b := setup(t, d, dnsserver.WithTransfer(netip.MustParsePrefix("127.0.0.0/8")), dnsserver.WithNotify(secondary.Addr))

		// The first load notifies for every zone.
		zones := map[string]bool{}
		for len(zones) < 2 {
			select {
			case m := <-notified:
				require.Equal(t, dns.OpcodeNotify, m.Opcode)
				zones[m.Question[0].Name] = true
			case <-time.After(3 * time.Second):
				t.Fatalf("no NOTIFY; have %v", zones)
			}
		}
		require.Equal(t, map[string]bool{"inf.nz.": true, "biz.ee.": true}, zones)

		tr := &dns.Transfer{}
		axfr := new(dns.Msg).SetAxfr("inf.nz.")
		envelopes, err := tr.In(axfr, b.addr)
		require.NoError(t, err)
		var records []dns.RR
		for e := range envelopes {
			require.NoError(t, e.Error)
			records = append(records, e.RR...)
		}
		require.GreaterOrEqual(t, len(records), 13)
		require.IsType(t, &dns.SOA{}, records[0])
		require.IsType(t, &dns.SOA{}, records[len(records)-1])
		names := map[string]bool{}
		for _, rr := range records {
			names[rr.Header().Name] = true
		}
		require.True(t, names["_sip._tcp.example.inf.nz."])
		require.True(t, names["*.dev.example.inf.nz."])
		require.False(t, names["expired.inf.nz."])

		// A change notifies again, with the new serial.
		_, err = b.svc.Create(context.Background(), b.dom, zone.Input{Type: "A", Name: "later", Content: "192.0.2.80"})
		require.NoError(t, err)
		waitForNotify(t, notified, "inf.nz.", func(serial uint32) bool { return serial > records[0].(*dns.SOA).Serial })

		// Transfers: not a zone, over UDP, and from a client not allowed.
		m := exchange(t, "tcp", b.addr, "example.inf.nz.", dns.TypeAXFR, 0)
		require.Equal(t, dns.RcodeNotAuth, m.Rcode)
		m = exchange(t, "udp", b.addr, "inf.nz.", dns.TypeAXFR, 0)
		require.Equal(t, dns.RcodeFormatError, m.Rcode)
		m = exchange(t, "udp", b.addr, "inf.nz.", dns.TypeIXFR, 0)
		require.Equal(t, dns.RcodeFormatError, m.Rcode, "IXFR without the client's SOA (RFC 1995)")
		ixfr := new(dns.Msg).SetIxfr("inf.nz.", 1, "ns1.nameport.net.", "hostmaster.inf.nz.")
		m, _, err = (&dns.Client{Timeout: 2 * time.Second}).Exchange(ixfr, b.addr)
		require.NoError(t, err)
		require.Equal(t, dns.RcodeSuccess, m.Rcode)
		require.IsType(t, &dns.SOA{}, m.Answer[0], "IXFR over UDP: the SOA, to say 'use TCP'")
	})
}

func TestTransfersAreRefusedByDefault(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		m := exchange(t, "tcp", b.addr, "inf.nz.", dns.TypeAXFR, 0)
		require.Equal(t, dns.RcodeRefused, m.Rcode)
	})
}

// waitForNotify waits for a NOTIFY of zone whose SOA serial satisfies ok.
func waitForNotify(t *testing.T, notified <-chan *dns.Msg, zone string, ok func(serial uint32) bool) {
	t.Helper()
	deadline := time.After(3 * time.Second)
	for {
		select {
		case m := <-notified:
			if m.Question[0].Name == zone && len(m.Answer) == 1 && ok(m.Answer[0].(*dns.SOA).Serial) {
				return
			}
		case <-deadline:
			t.Fatalf("no NOTIFY of %s", zone)
		}
	}
}

func equal(a, b []string) bool { return a != nil && slices.Equal(a, b) }

// BenchmarkReload measures reading the zones from the database and building
// the snapshot: 10,000 domains of four records each.
func BenchmarkReload(b *testing.B) {
	for _, engine := range dbtest.Engines() {
		b.Run(string(engine), func(b *testing.B) {
			d := dbtest.Open(b, engine)
			ctx := context.Background()
			now := time.Now().UTC()
			dbtest.MustExec(b, d, `INSERT INTO users (username, email, full_name, password_hash, user_type, created_at, updated_at)
				VALUES ('owner', 'owner@example.com', 'Owner', 'x', 'user', ?, ?)`, now, now)
			const n = 10_000
			type domainRow struct {
				bun.BaseModel `bun:"table:domains"`
				ID            int64     `bun:"id,pk,autoincrement"`
				UserID        int64     `bun:"user_id"`
				Name          string    `bun:"name"`
				Extension     string    `bun:"extension"`
				PriceCents    int64     `bun:"price_cents"`
				RegisteredAt  time.Time `bun:"registered_at"`
				ExpiresAt     time.Time `bun:"expires_at"`
				CreatedAt     time.Time `bun:"created_at"`
				UpdatedAt     time.Time `bun:"updated_at"`
			}
			var ownerID int64
			require.NoError(b, d.Bun.NewSelect().Table("users").Column("id").Scan(ctx, &ownerID))
			for start := 0; start < n; start += 1000 {
				rows := make([]domainRow, 1000)
				for i := range rows {
					rows[i] = domainRow{UserID: ownerID, Name: "domain" + strconv.Itoa(start+i), Extension: ".inf.nz",
						PriceCents: 800, RegisteredAt: now, ExpiresAt: now.AddDate(1, 0, 0), CreatedAt: now, UpdatedAt: now}
				}
				_, err := d.Bun.NewInsert().Model(&rows).Exec(ctx)
				require.NoError(b, err)
				var records []zone.Record
				prio := 10
				for _, r := range rows {
					records = append(records,
						zone.Record{DomainID: r.ID, Name: "@", Type: "A", Content: "192.0.2.1", TTL: 3600, CreatedAt: now, UpdatedAt: now},
						zone.Record{DomainID: r.ID, Name: "@", Type: "MX", Content: "mail.example.com", TTL: 3600, Priority: &prio, CreatedAt: now, UpdatedAt: now},
						zone.Record{DomainID: r.ID, Name: "www", Type: "CNAME", Content: r.Name + ".inf.nz", TTL: 3600, CreatedAt: now, UpdatedAt: now},
						zone.Record{DomainID: r.ID, Name: "@", Type: "TXT", Content: "v=spf1 -all", TTL: 3600, CreatedAt: now, UpdatedAt: now})
				}
				_, err = d.Bun.NewInsert().Model(&records).Exec(ctx)
				require.NoError(b, err)
			}
			addExtension(b, d, ".inf.nz", true, `["ns1.nameport.net"]`)
			srv := dnsserver.New("127.0.0.1:0", quiet)
			b.ReportAllocs()
			for b.Loop() {
				require.NoError(b, srv.Reload(ctx, d))
			}
			require.Equal(b, dns.RcodeSuccess, dnsserver.Lookup(srv.Snapshot(), "www.domain9999.inf.nz.", dns.TypeA).Rcode)
		})
	}
}
