package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/miekg/dns"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/config"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/servertest"
	"github.com/nameport/nameport/internal/zone"
	"github.com/nameport/nameport/sdk"
)

const churnName = "c7.churn-test.inf.nz."

var churnWant = netip.MustParseAddr("198.18.0.7")

func answer(q *dns.Msg, rcode int, rrs ...string) *dns.Msg {
	m := new(dns.Msg).SetRcode(q, rcode)
	for _, s := range rrs {
		rr, err := dns.NewRR(s)
		if err != nil {
			panic(err)
		}
		m.Answer = append(m.Answer, rr)
	}
	return m
}

func TestHoldsRecordOnlyWithTheNewRecord(t *testing.T) {
	q := new(dns.Msg).SetQuestion(churnName, dns.TypeA)
	for _, tt := range []struct {
		name string
		m    *dns.Msg
		want bool
	}{
		{"the record", answer(q, dns.RcodeSuccess, churnName+" 300 IN A 198.18.0.7"), true},
		{"among others", answer(q, dns.RcodeSuccess, churnName+" 300 IN A 192.0.2.1", churnName+" 300 IN A 198.18.0.7"), true},
		{"owner in other case", answer(q, dns.RcodeSuccess, strings.ToUpper(churnName)+" 300 IN A 198.18.0.7"), true},
		{"not yet there", answer(q, dns.RcodeNameError), false},
		{"another value", answer(q, dns.RcodeSuccess, churnName+" 300 IN A 198.18.0.6"), false},
		{"another owner", answer(q, dns.RcodeSuccess, "c8.churn-test.inf.nz. 300 IN A 198.18.0.7"), false},
		{"through an alias", answer(q, dns.RcodeSuccess, churnName+" 300 IN CNAME x.example.", "x.example. 300 IN A 198.18.0.7"), false},
		{"the value in a TXT", answer(q, dns.RcodeSuccess, churnName+` 300 IN TXT "198.18.0.7"`), false},
		{"a failure with the record", answer(q, dns.RcodeServerFailure, churnName+" 300 IN A 198.18.0.7"), false},
		{"another question", answer(new(dns.Msg).SetQuestion("c8.churn-test.inf.nz.", dns.TypeA), dns.RcodeSuccess, churnName+" 300 IN A 198.18.0.7"), false},
		{"a query, not an answer", func() *dns.Msg {
			m := answer(q, dns.RcodeSuccess, churnName+" 300 IN A 198.18.0.7")
			m.Response = false
			return m
		}(), false},
	} {
		require.Equal(t, tt.want, holdsRecord(tt.m, churnName, churnWant), tt.name)
	}
}

// fakeServer answers every question with the answer its handler gives for
// the nth question (from 1), and remembers when it first sent the record.
type fakeServer struct {
	addr string

	mu        sync.Mutex
	questions int
	firstSent time.Time
}

func startFake(t *testing.T, reply func(n int, q *dns.Msg) *dns.Msg) *fakeServer {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	require.NoError(t, err)
	f := &fakeServer{addr: pc.LocalAddr().String()}
	srv := &dns.Server{PacketConn: pc, Handler: dns.HandlerFunc(func(w dns.ResponseWriter, q *dns.Msg) {
		f.mu.Lock()
		f.questions++
		m := reply(f.questions, q)
		if f.firstSent.IsZero() && holdsRecord(m, churnName, churnWant) {
			f.firstSent = time.Now()
		}
		f.mu.Unlock()
		_ = w.WriteMsg(m)
	})}
	started := make(chan struct{})
	srv.NotifyStartedFunc = func() { close(started) }
	go func() { _ = srv.ActivateAndServe() }()
	<-started
	t.Cleanup(func() { _ = srv.Shutdown() })
	return f
}

// Answers without the record do not end the wait; the first answer with it
// does, and the time returned is when it arrived, not earlier.
func TestAwaitRecordEndsAtTheFirstAnswerWithTheRecord(t *testing.T) {
	f := startFake(t, func(n int, q *dns.Msg) *dns.Msg {
		switch {
		case n < 3:
			return answer(q, dns.RcodeNameError)
		case n < 5:
			return answer(q, dns.RcodeSuccess, churnName+" 300 IN A 198.18.0.6")
		case n < 7:
			return answer(q, dns.RcodeSuccess, "c8.churn-test.inf.nz. 300 IN A 198.18.0.7")
		}
		return answer(q, dns.RcodeSuccess, churnName+" 300 IN A 198.18.0.7")
	})
	at, err := awaitRecord(context.Background(), f.addr, churnName, churnWant, time.Millisecond, 30*time.Second)
	require.NoError(t, err)
	f.mu.Lock()
	defer f.mu.Unlock()
	require.GreaterOrEqual(t, f.questions, 7)
	require.False(t, f.firstSent.IsZero())
	require.False(t, at.Before(f.firstSent), "answered at %v, before the record was sent at %v", at, f.firstSent)
}

// A server that never answers with the record fails the change at its
// deadline, and the error shows the last answer it gave instead.
func TestAwaitRecordFailsWithoutTheRecord(t *testing.T) {
	f := startFake(t, func(_ int, q *dns.Msg) *dns.Msg {
		return answer(q, dns.RcodeSuccess, churnName+" 300 IN A 198.18.0.6")
	})
	_, err := awaitRecord(context.Background(), f.addr, churnName, churnWant, time.Millisecond, 200*time.Millisecond)
	require.ErrorContains(t, err, "not answered within 200ms")
	require.ErrorContains(t, err, "198.18.0.6")
}

// registrarKey signs a registrar up and verifies its email, so that its key
// may deposit and register.
func registrarKey(t *testing.T, url, username string) string {
	t.Helper()
	body, err := json.Marshal(map[string]any{"username": username, "email": username + "@example.com",
		"password": "secret123", "confirmPassword": "secret123", "fullName": "Test " + username, "userType": "registrar"})
	require.NoError(t, err)
	resp, err := http.Post(url+"/api/auth/register", "application/json", bytes.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	var out struct {
		Data struct {
			APIKey string `json:"apiKey"`
		} `json:"data"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
	require.Equal(t, http.StatusCreated, resp.StatusCode)
	servertest.VerifyEmail(t, url, username+"@example.com")
	return out.Data.APIKey
}

// churnFigures parses churn's line into its key=value pairs.
func churnFigures(t *testing.T, line string) map[string]string {
	t.Helper()
	figures := map[string]string{}
	for _, kv := range strings.Fields(line) {
		k, v, ok := strings.Cut(kv, "=")
		require.True(t, ok, line)
		figures[k] = v
	}
	return figures
}

// churn against a real server: changes one after another, at a rate, and
// all sent before any is awaited, each answered over DNS, and the records
// are in the registrar's domain.
func TestChurnAgainstTheServer(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			srv := servertest.Start(t, engine, func(c *config.Config) { c.Demo = true })
			key := registrarKey(t, srv.URL, "churner")
			client := sdk.NewClient(key, sdk.WithBaseURL(srv.URL))
			ctx := context.Background()
			_, err := client.Wallet.Deposit(ctx, sdk.DepositRequest{Amount: 100, PaymentMethod: "credit_card"})
			require.NoError(t, err)

			o := churnOptions{url: srv.URL, key: key, server: srv.DNSAddr, changes: 3, poll: time.Millisecond, deadline: 30 * time.Second}
			var out bytes.Buffer
			require.NoError(t, churn(ctx, o, &out))
			f := churnFigures(t, out.String())
			require.Equal(t, "3", f["changes"], out.String())
			require.Equal(t, "3", f["answered"], out.String())
			require.Equal(t, "3", f["timed"], out.String())
			require.Equal(t, "0", f["failed"], out.String())

			o.rate = 20
			out.Reset()
			require.NoError(t, churn(ctx, o, &out))
			f = churnFigures(t, out.String())
			require.Equal(t, "3", f["answered"], out.String())

			o.rate, o.awaitAtEnd = 0, true
			out.Reset()
			require.NoError(t, churn(ctx, o, &out))
			f = churnFigures(t, out.String())
			require.Equal(t, "3", f["answered"], out.String())

			var domains []string
			for d, err := range client.Domains.List(ctx, sdk.ListOptions{}) {
				require.NoError(t, err)
				domains = append(domains, d.Domain)
			}
			require.Len(t, domains, 3, "each run registers its own domain")
			for _, d := range domains {
				require.True(t, strings.HasPrefix(d, "churn-"), d)
				records, err := client.DNS.List(ctx, d)
				require.NoError(t, err)
				var got []string
				for _, r := range records {
					got = append(got, r.Name+" "+r.Type+" "+r.Content)
				}
				require.ElementsMatch(t, []string{"c0 A 198.18.0.0", "c1 A 198.18.0.1", "c2 A 198.18.0.2", "c3 A 198.18.0.3"}, got)
			}
		})
	}
}

func authoritative(m *dns.Msg) *dns.Msg {
	m.Authoritative = true
	return m
}

// Only the zone's own answer without the record shows it gone: a refusal,
// a failure or a non-authoritative answer says nothing of the zone.
func TestLacksRecordOnlyInTheZonesAnswerWithoutIt(t *testing.T) {
	q := new(dns.Msg).SetQuestion(churnName, dns.TypeA)
	for _, tt := range []struct {
		name string
		m    *dns.Msg
		want bool
	}{
		{"NXDOMAIN", authoritative(answer(q, dns.RcodeNameError)), true},
		{"NODATA", authoritative(answer(q, dns.RcodeSuccess)), true},
		{"another value only", authoritative(answer(q, dns.RcodeSuccess, churnName+" 300 IN A 198.18.0.6")), true},
		{"still there", authoritative(answer(q, dns.RcodeSuccess, churnName+" 300 IN A 198.18.0.7")), false},
		{"still there among others", authoritative(answer(q, dns.RcodeSuccess, churnName+" 300 IN A 192.0.2.1", churnName+" 300 IN A 198.18.0.7")), false},
		{"not authoritative", answer(q, dns.RcodeNameError), false},
		{"refused", authoritative(answer(q, dns.RcodeRefused)), false},
		{"a failure", authoritative(answer(q, dns.RcodeServerFailure)), false},
		{"another question", authoritative(answer(new(dns.Msg).SetQuestion("c8.churn-test.inf.nz.", dns.TypeA), dns.RcodeNameError)), false},
		{"a query, not an answer", func() *dns.Msg {
			m := authoritative(answer(q, dns.RcodeNameError))
			m.Response = false
			return m
		}(), false},
	} {
		require.Equal(t, tt.want, lacksRecord(tt.m, churnName, churnWant), tt.name)
	}
}

// The check at the end of a -db run at a rate: when the last change removed
// c3, the newest record (c5) must be answered and c3 must be gone; a server
// still answering c3 has not applied the last change.
func TestAwaitLastNeedsTheNewestAndTheRemoval(t *testing.T) {
	domain := zone.Domain{Name: "churn-test", Extension: extension}
	c3, c5 := "c3."+domain.FQDN(), "c5."+domain.FQDN()
	serve := func(removed bool) string {
		return startFake(t, func(_ int, q *dns.Msg) *dns.Msg {
			switch {
			case q.Question[0].Name == c5:
				return authoritative(answer(q, dns.RcodeSuccess, c5+" 300 IN A "+churnAddress(5).String()))
			case q.Question[0].Name == c3 && !removed:
				return authoritative(answer(q, dns.RcodeSuccess, c3+" 300 IN A "+churnAddress(3).String()))
			}
			return authoritative(answer(q, dns.RcodeNameError))
		}).addr
	}
	w := &dbChurn{domain: domain, held: []heldRecord{{i: 5}}}
	removal := dbChange{i: 6, record: 3}
	o := churnOptions{server: serve(true), poll: time.Millisecond, deadline: 30 * time.Second}
	_, err := w.awaitLast(context.Background(), o, removal)
	require.NoError(t, err)

	o.server, o.deadline = serve(false), 200*time.Millisecond
	_, err = w.awaitLast(context.Background(), o, removal)
	require.ErrorContains(t, err, "change 6: "+c3+" without A 198.18.0.3: not answered within 200ms")

	// When the newest record is missing, all changes since are in doubt.
	w.held = []heldRecord{{i: 7}}
	_, err = w.awaitLast(context.Background(), o, dbChange{i: 7, record: 7, added: true})
	require.ErrorContains(t, err, "not answered within 200ms")
}

// churn -db against a DNS-only server over a database of dnsbench prepare:
// the changes are written through the record service by another handle on
// the database, so the server learns of them only by polling. One after
// another, each add and removal is answered; at a rate, the last is. The
// records left are the base five and the two newest of each run.
func TestChurnThroughTheDatabase(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			url := dbtest.URL(t, engine)
			require.NoError(t, createDatabase(ctx, url, 3))
			srv := servertest.Start(t, engine, func(c *config.Config) {
				c.DatabaseURL = url
				c.Roles = []string{config.RoleDNS}
				c.DNSPollInterval = 20 * time.Millisecond
			})

			o := churnOptions{db: url, server: srv.DNSAddr, changes: 4, spread: 20 * time.Millisecond, poll: time.Millisecond, deadline: 30 * time.Second}
			var out bytes.Buffer
			require.NoError(t, churnDB(ctx, o, &out))
			f := churnFigures(t, out.String())
			for k, v := range map[string]string{"changes": "4", "answered": "4", "timed": "4", "failed": "0"} {
				require.Equal(t, v, f[k], "%s in %s", k, out.String())
			}
			require.NotContains(t, f, "api_errors")
			require.Contains(t, f, "db_p99_ms")

			o.changes, o.rate = 5, 50
			out.Reset()
			require.NoError(t, churnDB(ctx, o, &out))
			f = churnFigures(t, out.String())
			for k, v := range map[string]string{"changes": "5", "answered": "5", "timed": "1", "failed": "0"} {
				require.Equal(t, v, f[k], "%s in %s", k, out.String())
			}

			d := dbtest.Connect(t, url)
			var domains []struct {
				ID       int64  `bun:"id"`
				Name     string `bun:"name"`
				Username string `bun:"username"`
			}
			require.NoError(t, d.Bun.NewSelect().Table("domains").Join("JOIN users ON users.id = domains.user_id").
				ColumnExpr("domains.id, domains.name, users.username").Where("domains.name LIKE 'churn-%'").
				OrderExpr("domains.id").Scan(ctx, &domains))
			require.Len(t, domains, 2, "each run registers its own domain")
			records := zone.NewService(d, zone.Options{})
			for run, want := range [][]string{{"c3 A 198.18.0.3"}, {"c3 A 198.18.0.3", "c5 A 198.18.0.5"}} {
				dom := domains[run]
				require.Equal(t, "bench", dom.Username)
				list, err := records.List(ctx, zone.Domain{ID: dom.ID, Name: dom.Name, Extension: extension})
				require.NoError(t, err)
				var churned []string
				for _, r := range list {
					if strings.HasPrefix(r.Name, "c") {
						churned = append(churned, r.Name+" "+r.Type+" "+r.Content)
					}
				}
				require.ElementsMatch(t, want, churned, dom.Name)
				require.Len(t, list, 5+len(want), "the five records of every prepared domain and the run's")
			}
		})
	}
}

// -db wants a database of dnsbench prepare and writes only there.
func TestChurnThroughTheDatabaseRefuses(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := dbtest.URL(t, dbtest.Engines()[0])
	d := dbtest.Connect(t, url)
	require.NoError(t, d.Migrate(ctx))
	o := churnOptions{db: url, server: "127.0.0.1:1", changes: 1, poll: time.Millisecond, deadline: time.Second}
	require.ErrorContains(t, churnDB(ctx, o, io.Discard), "no user bench")
	o.url, o.key = "http://127.0.0.1:1", "k"
	require.ErrorContains(t, churnDB(ctx, o, io.Discard), "-url and -key are for writing through the API")
	o.url, o.key, o.awaitAtEnd = "", "", true
	require.ErrorContains(t, churnDB(ctx, o, io.Discard), "-await-at-end is for the API")
}

// With -do, the question has the DO bit and the record alone is not
// enough: the wait ends at the first answer that also signs it.
func TestAwaitSignedWaitsForTheSignature(t *testing.T) {
	var unsignedAsked bool
	f := startFake(t, func(n int, q *dns.Msg) *dns.Msg {
		if opt := q.IsEdns0(); opt == nil || !opt.Do() {
			unsignedAsked = true
		}
		if n < 4 {
			return answer(q, dns.RcodeSuccess, churnName+" 300 IN A 198.18.0.7")
		}
		return answer(q, dns.RcodeSuccess, churnName+" 300 IN A 198.18.0.7",
			churnName+" 300 IN RRSIG A 13 5 300 20261204000000 20261127000000 1234 inf.nz. AAAA")
	})
	_, err := awaitSigned(context.Background(), f.addr, churnName, churnWant, time.Millisecond, 30*time.Second)
	require.NoError(t, err)
	f.mu.Lock()
	defer f.mu.Unlock()
	require.GreaterOrEqual(t, f.questions, 4)
	require.False(t, unsignedAsked, "every question has the DO bit")
}
