package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/cookiejar"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/config"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/servertest"
	"github.com/nameport/nameport/sdk"
)

// The SDK is the harness of the /v1 API: these tests drive a real server
// (every role, demo catalog) through the public Go client only.

// sdkBundle is a running server with one registrar and its client.
type sdkBundle struct {
	url    string
	client *sdk.Client
}

func sdkSetup(t *testing.T, engine db.Engine, edit func(*config.Config)) *sdkBundle {
	t.Helper()
	srv := servertest.Start(t, engine, func(c *config.Config) {
		c.Demo = true
		if edit != nil {
			edit(c)
		}
	})
	return &sdkBundle{url: srv.URL, client: sdkClient(srv.URL, sdkRegistrarKey(t, srv.URL, "acme"))}
}

// sdkClient is a client that retries quickly, so that tests stay fast.
func sdkClient(url, key string, opts ...sdk.Option) *sdk.Client {
	return sdk.NewClient(key, append([]sdk.Option{sdk.WithBaseURL(url), sdk.WithBackoff(10*time.Millisecond, 200*time.Millisecond)}, opts...)...)
}

// sdkSignUp creates an account through the web app's sign-up and returns its
// data and an HTTP client holding the account's session cookie.
func sdkSignUp(t *testing.T, url, username, userType string) (map[string]any, *http.Client) {
	t.Helper()
	jar, err := cookiejar.New(nil)
	require.NoError(t, err)
	hc := &http.Client{Jar: jar}
	body, err := json.Marshal(map[string]any{"username": username, "email": username + "@example.com",
		"password": "secret123", "confirmPassword": "secret123", "fullName": "Test " + username, "userType": userType})
	require.NoError(t, err)
	resp, err := hc.Post(url+"/api/auth/register", "application/json", bytes.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	var out struct {
		Success bool           `json:"success"`
		Data    map[string]any `json:"data"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
	require.Equal(t, http.StatusCreated, resp.StatusCode, out)
	servertest.VerifyEmail(t, url, username+"@example.com")
	return out.Data, hc
}

// sdkRegistrarKey signs up a registrar and returns its API key.
func sdkRegistrarKey(t *testing.T, url, username string) string {
	t.Helper()
	d, _ := sdkSignUp(t, url, username, "registrar")
	key, _ := d["apiKey"].(string)
	require.NotEmpty(t, key, "a registrar gets an API key at sign-up")
	return key
}

// sdkAPIError asserts that err is an API error with status and code.
func sdkAPIError(t *testing.T, err error, status int, code string) *sdk.Error {
	t.Helper()
	var apiErr *sdk.Error
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, status, apiErr.StatusCode, apiErr.Error())
	require.Equal(t, code, apiErr.Code, apiErr.Error())
	require.NotEmpty(t, apiErr.RequestID, "every answer has a request id")
	require.NotEmpty(t, apiErr.Message)
	return apiErr
}

func cents(dollars float64) int64 { return int64(math.Round(dollars * 100)) }

func dollarText(dollars float64) string {
	c := cents(dollars)
	return fmt.Sprintf("$%d.%02d", c/100, c%100)
}

func sdkDeposit(t *testing.T, c *sdk.Client, amount float64) {
	t.Helper()
	dep, err := c.Wallet.Deposit(context.Background(), sdk.DepositRequest{Amount: amount})
	require.NoError(t, err)
	require.Equal(t, "completed", dep.Transaction.Status)
}

func sdkRegister(t *testing.T, c *sdk.Client, domain string) *sdk.Registration {
	t.Helper()
	reg, err := c.Domains.Register(context.Background(), sdk.RegisterRequest{Domain: domain})
	require.NoError(t, err)
	return reg
}

func collect[T any](t *testing.T, seq func(func(T, error) bool)) []T {
	t.Helper()
	var out []T
	for v, err := range seq {
		require.NoError(t, err)
		out = append(out, v)
	}
	return out
}

func TestSDKRegisterAndPay(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			b := sdkSetup(t, engine, nil)
			ctx := context.Background()
			c := b.client

			w, err := c.Wallet.Get(ctx)
			require.NoError(t, err)
			require.Equal(t, sdk.Wallet{Balance: 0, Currency: "USD"}, *w)

			a, err := c.Domains.Check(ctx, "Acme-Site.inf.nz")
			require.NoError(t, err)
			require.Equal(t, "acme-site.inf.nz", a.Domain)
			require.Equal(t, "acme-site", a.Name)
			require.Equal(t, ".inf.nz", a.Extension)
			require.True(t, a.Available)
			require.Empty(t, a.Reason)
			require.Equal(t, "USD", a.Currency)
			require.Positive(t, a.Price)
			price := a.Price

			// Without funds: 402, the message says how much to add, nothing
			// is charged or registered.
			_, err = c.Domains.Register(ctx, sdk.RegisterRequest{Domain: "acme-site.inf.nz", Years: sdk.Int(2)})
			apiErr := sdkAPIError(t, err, http.StatusPaymentRequired, sdk.CodeInsufficientFunds)
			require.Contains(t, apiErr.Error(), "Add "+dollarText(2*price))
			require.Equal(t, &sdk.Shortfall{Needed: 2 * price, Balance: 0}, apiErr.Shortfall)
			require.Equal(t, sdk.CodeInsufficientFunds, sdk.ErrorCode(err))
			w, err = c.Wallet.Get(ctx)
			require.NoError(t, err)
			require.Zero(t, w.Balance)
			require.Empty(t, collect(t, c.Wallet.Transactions(ctx, sdk.ListOptions{})))
			_, err = c.Domains.Get(ctx, "acme-site.inf.nz")
			require.True(t, sdk.IsNotFound(err), "%v", err)

			dep, err := c.Wallet.Deposit(ctx, sdk.DepositRequest{Amount: 50, PaymentMethod: "credit_card"})
			require.NoError(t, err)
			require.Equal(t, 50.0, dep.Wallet.Balance)
			require.Equal(t, "deposit", dep.Transaction.Type)
			require.Equal(t, 50.0, dep.Transaction.Amount)
			require.Equal(t, "credit_card", dep.Transaction.PaymentMethod)
			require.Equal(t, "completed", dep.Transaction.Status)

			_, err = c.Wallet.Deposit(ctx, sdk.DepositRequest{Amount: 0.5})
			require.Contains(t, sdkAPIError(t, err, http.StatusUnprocessableEntity, sdk.CodeInvalid).Error(), "The minimum deposit is $1.00")

			reg, err := c.Domains.Register(ctx, sdk.RegisterRequest{Domain: "acme-site.inf.nz", Years: sdk.Int(2)})
			require.NoError(t, err)
			d := reg.Domain
			require.Equal(t, "acme-site.inf.nz", d.Domain)
			require.Equal(t, cents(price), cents(d.Price))
			require.True(t, d.AutoRenew, "auto-renew is on by default")
			require.Empty(t, d.Nameservers)
			require.NotNil(t, d.Nameservers, "an empty list, not null")
			require.WithinDuration(t, d.RegisteredAt.AddDate(2, 0, 0), d.ExpiresAt, 48*time.Hour)
			require.Equal(t, "domain_purchase", reg.Transaction.Type)
			require.Equal(t, -cents(2*price), cents(reg.Transaction.Amount))
			require.Equal(t, &d.ID, reg.Transaction.DomainID)
			require.Equal(t, cents(50-2*price), cents(reg.Wallet.Balance))

			got, err := c.Domains.Get(ctx, "acme-site.inf.nz")
			require.NoError(t, err)
			require.Equal(t, d.ID, got.ID)
			require.Equal(t, d.ExpiresAt, got.ExpiresAt)

			a, err = c.Domains.Check(ctx, "acme-site.inf.nz")
			require.NoError(t, err)
			require.False(t, a.Available)
			require.Equal(t, "registered", a.Reason)

			_, err = c.Domains.Register(ctx, sdk.RegisterRequest{Domain: "acme-site.inf.nz"})
			sdkAPIError(t, err, http.StatusConflict, sdk.CodeConflict)
			_, err = c.Domains.Register(ctx, sdk.RegisterRequest{Domain: "other.inf.nz", Years: sdk.Int(11)})
			sdkAPIError(t, err, http.StatusUnprocessableEntity, sdk.CodeInvalid)
			_, err = c.Domains.Check(ctx, "no-extension")
			sdkAPIError(t, err, http.StatusUnprocessableEntity, sdk.CodeInvalid)
			_, err = c.Domains.Check(ctx, "bad..name.inf.nz")
			sdkAPIError(t, err, http.StatusUnprocessableEntity, sdk.CodeInvalid)

			// Delegated at registration, auto-renew off.
			off := false
			reg, err = c.Domains.Register(ctx, sdk.RegisterRequest{Domain: "acme-delegated.inf.nz",
				Nameservers: []string{"ns1.example.net", "ns2.example.net"}, AutoRenew: &off})
			require.NoError(t, err)
			require.False(t, reg.Domain.AutoRenew)
			require.ElementsMatch(t, []string{"ns1.example.net", "ns2.example.net"}, reg.Domain.Nameservers)

			txs := collect(t, c.Wallet.Transactions(ctx, sdk.ListOptions{}))
			require.Len(t, txs, 3)
			require.Equal(t, []string{"domain_purchase", "domain_purchase", "deposit"},
				[]string{txs[0].Type, txs[1].Type, txs[2].Type}, "newest first")
			require.Equal(t, reg.Transaction.ID, txs[0].ID)
		})
	}
}

func TestSDKListsEveryPage(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			b := sdkSetup(t, engine, nil)
			ctx := context.Background()
			c := b.client

			const n = 7
			a, err := c.Domains.Check(ctx, "acme-page-0.inf.nz")
			require.NoError(t, err)
			sdkDeposit(t, c, math.Ceil(a.Price*n)+1)
			var want []string
			for i := range n {
				name := fmt.Sprintf("acme-page-%d.inf.nz", i)
				sdkRegister(t, c, name)
				want = append(want, name)
			}

			page, err := c.Domains.ListPage(ctx, sdk.ListOptions{Limit: 3})
			require.NoError(t, err)
			require.Len(t, page.Domains, 3)
			require.NotEmpty(t, page.NextCursor)
			require.Equal(t, want[:3], []string{page.Domains[0].Domain, page.Domains[1].Domain, page.Domains[2].Domain}, "oldest first")
			page, err = c.Domains.ListPage(ctx, sdk.ListOptions{Limit: 3, Cursor: page.NextCursor})
			require.NoError(t, err)
			require.Equal(t, want[3], page.Domains[0].Domain)
			page, err = c.Domains.ListPage(ctx, sdk.ListOptions{Limit: 3, Cursor: page.NextCursor})
			require.NoError(t, err)
			require.Len(t, page.Domains, 1)
			require.Empty(t, page.NextCursor, "the last page")

			for _, limit := range []int{0, 1, 3, 7, 100} {
				var got []string
				for d, err := range c.Domains.List(ctx, sdk.ListOptions{Limit: limit}) {
					require.NoError(t, err)
					got = append(got, d.Domain)
				}
				require.Equal(t, want, got, "limit %d", limit)
			}

			// Stopping early stops fetching.
			var first []string
			for d, err := range c.Domains.List(ctx, sdk.ListOptions{Limit: 2}) {
				require.NoError(t, err)
				first = append(first, d.Domain)
				if len(first) == 3 {
					break
				}
			}
			require.Equal(t, want[:3], first)

			txs := collect(t, c.Wallet.Transactions(ctx, sdk.ListOptions{Limit: 2}))
			require.Len(t, txs, n+1)
			require.Equal(t, "deposit", txs[n].Type, "newest first: the deposit came first")
			seen := map[int64]bool{}
			for _, tx := range txs {
				require.False(t, seen[tx.ID], "transaction %d twice", tx.ID)
				seen[tx.ID] = true
			}

			_, err = c.Domains.ListPage(ctx, sdk.ListOptions{Limit: 101})
			sdkAPIError(t, err, http.StatusUnprocessableEntity, sdk.CodeInvalid)
			_, err = c.Domains.ListPage(ctx, sdk.ListOptions{Limit: 3, Cursor: "not-a-cursor"})
			require.Equal(t, sdk.CodeInvalid, sdk.ErrorCode(err), "%v", err)
		})
	}
}

func TestSDKManagesDNSRecords(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			b := sdkSetup(t, engine, nil)
			ctx := context.Background()
			c := b.client
			sdkDeposit(t, c, 100)
			const dom = "acme-dns.inf.nz"
			sdkRegister(t, c, dom)

			type rec struct {
				name, typ, content string
				ttl                int
			}
			has := func(records []sdk.Record, name, typ string) []rec {
				var out []rec
				for _, r := range records {
					if r.Name == name && r.Type == typ {
						out = append(out, rec{r.Name, r.Type, r.Content, r.TTL})
					}
				}
				return out
			}

			// Another set first, so that an answer with all records would show.
			_, err := c.DNS.Upsert(ctx, dom, sdk.RecordSet{Name: "mail", Type: "A", Values: []string{"192.0.2.25"}})
			require.NoError(t, err)
			records, err := c.DNS.Upsert(ctx, dom, sdk.RecordSet{Name: "www", Type: "A", Values: []string{"192.0.2.10", "192.0.2.11"}, TTL: sdk.Int(300)})
			require.NoError(t, err)
			require.ElementsMatch(t, []rec{{"www", "A", "192.0.2.10", 300}, {"www", "A", "192.0.2.11", 300}}, has(records, "www", "A"))
			require.Len(t, records, 2, "upsert answers the set it wrote, not the domain's other records: %+v", records)
			listed, err := c.DNS.List(ctx, dom)
			require.NoError(t, err)
			require.Subset(t, listed, records, "as stored, ids included")
			require.Len(t, has(listed, "mail", "A"), 1, "the other set is untouched")

			// An upsert replaces the whole set.
			records, err = c.DNS.Upsert(ctx, dom, sdk.RecordSet{Name: "www", Type: "A", Values: []string{"192.0.2.12"}})
			require.NoError(t, err)
			require.Equal(t, []rec{{"www", "A", "192.0.2.12", 3600}}, has(records, "www", "A"), "the default TTL is 3600")

			ten := 10
			records, err = c.DNS.Upsert(ctx, dom, sdk.RecordSet{Name: "@", Type: "MX", Values: []string{"mail.example.net"}, Priority: &ten})
			require.NoError(t, err)
			for _, r := range records {
				if r.Type == "MX" {
					require.Equal(t, &ten, r.Priority)
				}
			}
			_, err = c.DNS.Upsert(ctx, dom, sdk.RecordSet{Name: "@", Type: "TXT", Values: []string{"v=spf1 mx -all", "a, b; c"}})
			require.NoError(t, err)
			_, err = c.DNS.Upsert(ctx, dom, sdk.RecordSet{Name: "*", Type: "A", Values: []string{"192.0.2.99"}})
			require.NoError(t, err)

			_, err = c.DNS.Upsert(ctx, dom, sdk.RecordSet{Name: "www", Type: "A", Values: []string{"not-an-ip"}})
			sdkAPIError(t, err, http.StatusUnprocessableEntity, sdk.CodeInvalid)
			_, err = c.DNS.Upsert(ctx, dom, sdk.RecordSet{Name: "www", Type: "A", Values: []string{}})
			sdkAPIError(t, err, http.StatusUnprocessableEntity, sdk.CodeInvalid)

			// Deletes, with names that need escaping.
			require.NoError(t, c.DNS.Delete(ctx, dom, "A", "www"))
			require.NoError(t, c.DNS.Delete(ctx, dom, "a", "*"))
			require.NoError(t, c.DNS.Delete(ctx, dom, "TXT", "@"))
			listed, err = c.DNS.List(ctx, dom)
			require.NoError(t, err)
			require.Empty(t, has(listed, "www", "A"))
			require.Empty(t, has(listed, "*", "A"))
			require.Empty(t, has(listed, "@", "TXT"))
			require.Len(t, has(listed, "@", "MX"), 1, "other sets are untouched")
			err = c.DNS.Delete(ctx, dom, "A", "www")
			sdkAPIError(t, err, http.StatusNotFound, sdk.CodeNotFound)

			_, err = c.DNS.List(ctx, "acme-unknown.inf.nz")
			sdkAPIError(t, err, http.StatusNotFound, sdk.CodeNotFound)
		})
	}
}

func TestSDKIdempotentRetries(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			b := sdkSetup(t, engine, nil)
			ctx := context.Background()
			c := b.client
			sdkDeposit(t, c, 100)
			a, err := c.Domains.Check(ctx, "acme-once.inf.nz")
			require.NoError(t, err)

			// The same key and body: registered and charged once, the same
			// answer twice.
			keyed := sdk.WithIdempotencyKey(ctx, "order-4711")
			first, err := c.Domains.Register(keyed, sdk.RegisterRequest{Domain: "acme-once.inf.nz"})
			require.NoError(t, err)
			again, err := c.Domains.Register(keyed, sdk.RegisterRequest{Domain: "acme-once.inf.nz"})
			require.NoError(t, err)
			require.Equal(t, first, again)
			w, err := c.Wallet.Get(ctx)
			require.NoError(t, err)
			require.Equal(t, cents(100-a.Price), cents(w.Balance), "charged once")
			require.Len(t, collect(t, c.Domains.List(ctx, sdk.ListOptions{})), 1)

			// The same key with another body is refused.
			_, err = c.Domains.Register(keyed, sdk.RegisterRequest{Domain: "acme-twice.inf.nz"})
			sdkAPIError(t, err, http.StatusUnprocessableEntity, sdk.CodeIdempotencyKeyReused)

			// Without a key of the caller's, each call is its own.
			_, err = c.Domains.Register(ctx, sdk.RegisterRequest{Domain: "acme-once.inf.nz"})
			sdkAPIError(t, err, http.StatusConflict, sdk.CodeConflict)

			// Deposits too.
			depKey := sdk.WithIdempotencyKey(ctx, "topup-1")
			d1, err := c.Wallet.Deposit(depKey, sdk.DepositRequest{Amount: 10})
			require.NoError(t, err)
			d2, err := c.Wallet.Deposit(depKey, sdk.DepositRequest{Amount: 10})
			require.NoError(t, err)
			require.Equal(t, d1.Transaction.ID, d2.Transaction.ID)
			w, err = c.Wallet.Get(ctx)
			require.NoError(t, err)
			require.Equal(t, cents(110-a.Price), cents(w.Balance), "deposited once")

			// Concurrent calls with one key: one runs, the others wait out
			// idempotency_in_progress (the SDK retries after Retry-After) and
			// get its answer.
			concurrent := sdk.WithIdempotencyKey(ctx, "order-4712")
			var wg sync.WaitGroup
			results := make([]*sdk.Registration, 5)
			errs := make([]error, 5)
			for i := range results {
				wg.Go(func() {
					results[i], errs[i] = c.Domains.Register(concurrent, sdk.RegisterRequest{Domain: "acme-race.inf.nz"})
				})
			}
			wg.Wait()
			for i := range results {
				require.NoError(t, errs[i])
				require.Equal(t, results[0].Domain.ID, results[i].Domain.ID)
				require.Equal(t, results[0].Transaction.ID, results[i].Transaction.ID)
			}
			w, err = c.Wallet.Get(ctx)
			require.NoError(t, err)
			require.Equal(t, cents(110-2*a.Price), cents(w.Balance), "the race charged once")
		})
	}
}

func TestSDKKeepsRegistrarsApart(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			b := sdkSetup(t, engine, nil)
			ctx := context.Background()
			sdkDeposit(t, b.client, 50)
			const dom = "acme-private.inf.nz"
			sdkRegister(t, b.client, dom)
			_, err := b.client.DNS.Upsert(ctx, dom, sdk.RecordSet{Name: "www", Type: "A", Values: []string{"192.0.2.1"}})
			require.NoError(t, err)

			other := sdkClient(b.url, sdkRegistrarKey(t, b.url, "rival"))
			_, err = other.Domains.Get(ctx, dom)
			sdkAPIError(t, err, http.StatusNotFound, sdk.CodeNotFound)
			_, err = other.DNS.List(ctx, dom)
			sdkAPIError(t, err, http.StatusNotFound, sdk.CodeNotFound)
			_, err = other.DNS.Upsert(ctx, dom, sdk.RecordSet{Name: "www", Type: "A", Values: []string{"198.51.100.1"}})
			sdkAPIError(t, err, http.StatusNotFound, sdk.CodeNotFound)
			err = other.DNS.Delete(ctx, dom, "A", "www")
			sdkAPIError(t, err, http.StatusNotFound, sdk.CodeNotFound)
			require.Empty(t, collect(t, other.Domains.List(ctx, sdk.ListOptions{})))
			require.Empty(t, collect(t, other.Wallet.Transactions(ctx, sdk.ListOptions{})))
			w, err := other.Wallet.Get(ctx)
			require.NoError(t, err)
			require.Zero(t, w.Balance)
			records, err := b.client.DNS.List(ctx, dom)
			require.NoError(t, err)
			var www []string
			for _, r := range records {
				if r.Name == "www" && r.Type == "A" {
					www = append(www, r.Content)
				}
			}
			require.Equal(t, []string{"192.0.2.1"}, www, "the rival changed nothing")

			// A wrong or missing key: 401, not retried.
			for _, key := range []string{"np_not-a-key", ""} {
				_, err = sdkClient(b.url, key).Wallet.Get(ctx)
				sdkAPIError(t, err, http.StatusUnauthorized, sdk.CodeUnauthenticated)
			}

			// An end user's session cookie does not open /v1, nor does the
			// registrar's own.
			for _, userType := range []string{"user", "registrar"} {
				d, session := sdkSignUp(t, b.url, "cookie-"+userType, userType)
				if userType == "user" {
					require.NotContains(t, d, "apiKey")
				}
				resp, err := session.Get(b.url + "/v1/wallet")
				require.NoError(t, err)
				resp.Body.Close()
				require.Equal(t, http.StatusUnauthorized, resp.StatusCode, userType)
				require.Equal(t, "application/problem+json", resp.Header.Get("Content-Type"))
				require.NotEmpty(t, resp.Header.Get("X-Request-Id"))
			}
		})
	}
}

func TestSDKWaitsOutRateLimits(t *testing.T) {
	t.Parallel()
	// A short window, so that waiting it out keeps the test short.
	const window = 5 * time.Second
	b := sdkSetup(t, db.SQLite, func(c *config.Config) { c.RateLimitWindow = window })
	ctx := context.Background()

	// Without retries the 101st check in a window is refused with a
	// Retry-After.
	once := sdkClient(b.url, sdkRegistrarKey(t, b.url, "hasty"), sdk.WithMaxRetries(0))
	var apiErr *sdk.Error
	for i := range 101 {
		_, err := once.Domains.Check(ctx, fmt.Sprintf("hasty-%d.inf.nz", i))
		if err != nil {
			apiErr = sdkAPIError(t, err, http.StatusTooManyRequests, sdk.CodeTooManyRequests)
			break
		}
	}
	require.NotNil(t, apiErr, "101 checks in a window pass")
	require.Positive(t, apiErr.RetryAfter)
	require.LessOrEqual(t, apiErr.RetryAfter, window)

	patient := sdkClient(b.url, sdkRegistrarKey(t, b.url, "patient"))
	for i := range 100 {
		_, err := patient.Domains.Check(ctx, fmt.Sprintf("patient-%d.inf.nz", i))
		require.NoError(t, err)
	}

	// A context whose deadline comes before the Retry-After ends does not
	// wait: the 429 comes back at once, before the deadline.
	short, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	_, err := patient.Domains.Check(short, "patient-x.inf.nz")
	require.Equal(t, sdk.CodeTooManyRequests, sdk.ErrorCode(err), "%v", err)
	require.NoError(t, short.Err(), "no wait past the deadline")

	// Cancelling the context ends the wait; the error says both.
	cancelled, cancelNow := context.WithCancel(ctx)
	time.AfterFunc(50*time.Millisecond, cancelNow)
	_, err = patient.Domains.Check(cancelled, "patient-y.inf.nz")
	require.ErrorIs(t, err, context.Canceled)
	require.Equal(t, sdk.CodeTooManyRequests, sdk.ErrorCode(err))

	// With retries (the default) the client waits for the Retry-After and
	// succeeds.
	a, err := patient.Domains.Check(ctx, "patient-z.inf.nz")
	require.NoError(t, err)
	require.True(t, a.Available)
}
