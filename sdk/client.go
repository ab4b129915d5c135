package sdk

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"runtime"
	"strings"
	"time"
)

// Version is the version of this SDK, sent in the default User-Agent.
const Version = "0.1.0"

// DefaultBaseURL is where a Nameport server listens by default (`nameport
// serve` on this machine).
const DefaultBaseURL = "http://127.0.0.1:8080"

// Defaults of the retry policy; see WithMaxRetries and WithBackoff.
const (
	DefaultMaxRetries  = 3
	DefaultBackoffBase = 500 * time.Millisecond
	DefaultBackoffMax  = 20 * time.Second
)

// maxRetryAfter is the longest Retry-After the client waits out by itself.
// A server asking for more gets its error returned at once, RetryAfter
// included, so the caller decides.
const maxRetryAfter = time.Minute

// Size limits of response bodies the client reads.
const (
	maxBodyBytes  = 32 << 20
	maxErrorBytes = 64 << 10
)

// Client talks to the /v1 API of a Nameport server with a registrar's API
// key. It is safe for concurrent use.
type Client struct {
	baseURL     string
	apiKey      string
	httpClient  *http.Client
	userAgent   string
	maxRetries  int
	backoffBase time.Duration
	backoffMax  time.Duration

	// Domains checks, registers and lists domains, and manages their email
	// forwarding.
	Domains *DomainsService
	// DNS manages the DNS records of domains.
	DNS *DNSService
	// Wallet reads the balance, adds funds and lists transactions.
	Wallet *WalletService
	// Keys lists, makes, rotates and revokes the registrar's API keys.
	Keys *KeysService
	// Bulk checks and registers many names at once, renews and sets
	// auto-renewal of many domains, and applies DNS templates.
	Bulk *BulkService
	// Logs reads the log of the registrar's /v1 requests.
	Logs *LogsService
	// Webhooks manages the registrar's webhook endpoints and their
	// delivery log.
	Webhooks *WebhooksService
	// Reports reads the registrar's reports and exports them as CSV.
	Reports *ReportsService
}

// Option configures a Client.
type Option func(*Client)

// WithBaseURL sets the server's address, e.g. "https://nameport.example";
// the default is DefaultBaseURL. A path prefix is kept.
func WithBaseURL(u string) Option {
	return func(c *Client) { c.baseURL = strings.TrimRight(u, "/") }
}

// WithHTTPClient sets the HTTP client that sends requests (timeouts,
// proxies, TLS). The default is a client with a 60 second timeout.
func WithHTTPClient(hc *http.Client) Option {
	return func(c *Client) {
		if hc != nil {
			c.httpClient = hc
		}
	}
}

// WithUserAgent sets the User-Agent header, e.g. "my-reseller-app/1.2".
func WithUserAgent(ua string) Option {
	return func(c *Client) { c.userAgent = ua }
}

// WithMaxRetries sets how many times a failed request is retried (default
// 3; 0 turns retries off). Retried are: 429 Too Many Requests, 409
// idempotency_in_progress, 5xx answers and network errors.
func WithMaxRetries(n int) Option {
	return func(c *Client) { c.maxRetries = max(n, 0) }
}

// WithBackoff sets the waits between retries when the server gives no
// Retry-After: about base before the first retry, doubling each time, never
// more than maxWait, each with random jitter. Defaults: 500ms and 20s.
func WithBackoff(base, maxWait time.Duration) Option {
	return func(c *Client) {
		if base > 0 {
			c.backoffBase = base
		}
		if maxWait > 0 {
			c.backoffMax = maxWait
		}
	}
}

// NewClient returns a client that authenticates with apiKey (a registrar's
// key, shown in the registrar dashboard under API Access).
func NewClient(apiKey string, opts ...Option) *Client {
	c := &Client{
		baseURL:     DefaultBaseURL,
		apiKey:      apiKey,
		httpClient:  &http.Client{Timeout: 60 * time.Second},
		userAgent:   fmt.Sprintf("nameport-go/%s (%s)", Version, runtime.Version()),
		maxRetries:  DefaultMaxRetries,
		backoffBase: DefaultBackoffBase,
		backoffMax:  DefaultBackoffMax,
	}
	for _, opt := range opts {
		opt(c)
	}
	if c.backoffMax < c.backoffBase {
		c.backoffMax = c.backoffBase
	}
	c.Domains = &DomainsService{c: c}
	c.DNS = &DNSService{c: c}
	c.Wallet = &WalletService{c: c}
	c.Keys = &KeysService{c: c}
	c.Bulk = &BulkService{c: c}
	c.Logs = &LogsService{c: c}
	c.Webhooks = &WebhooksService{c: c}
	c.Reports = &ReportsService{c: c}
	return c
}

// do sends one API call without an effect (a read, or a check that only
// asks), retrying it as the policy allows, and decodes a successful answer
// into out (when out is not nil). path is already escaped.
func (c *Client) do(ctx context.Context, method, path string, query url.Values, in, out any) error {
	return c.send(ctx, method, path, query, in, out, "")
}

// effect sends a call with an effect (a registration, a deposit, a record
// change) like do, with an Idempotency-Key: the caller's
// (WithIdempotencyKey) or a fresh random one, the same on every retry, so
// the server runs the call at most once however often it arrives.
func (c *Client) effect(ctx context.Context, method, path string, in, out any) error {
	key := idempotencyKeyFrom(ctx)
	if key == "" {
		key = newIdempotencyKey()
	}
	return c.send(ctx, method, path, nil, in, out, key)
}

// once sends a call that must not run twice and cannot be made safe to
// retry (its answer holds a secret, which the server does not keep for a
// replay): it is sent once, and a failure is the caller's to judge.
func (c *Client) once(ctx context.Context, method, path string, in, out any) error {
	return c.sendTries(ctx, method, path, nil, in, out, "", 0)
}

// send sends a call with idemKey as its Idempotency-Key (none when empty).
func (c *Client) send(ctx context.Context, method, path string, query url.Values, in, out any, idemKey string) error {
	return c.sendTries(ctx, method, path, query, in, out, idemKey, c.maxRetries)
}

// sendTries is send retrying at most maxRetries times.
func (c *Client) sendTries(ctx context.Context, method, path string, query url.Values, in, out any, idemKey string, maxRetries int) error {
	var body []byte
	if in != nil {
		var err error
		if body, err = json.Marshal(in); err != nil {
			return fmt.Errorf("nameport: encode %s %s: %w", method, path, err)
		}
	}
	target := c.baseURL + path
	if len(query) > 0 {
		target += "?" + query.Encode()
	}

	for attempt := 0; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		req, err := c.newRequest(ctx, method, target, body, idemKey)
		if err != nil {
			return err
		}
		resp, err := c.httpClient.Do(req)
		if err != nil {
			if ctx.Err() != nil || attempt >= maxRetries || !retryableNetworkError(err) {
				return err
			}
			if werr := sleep(ctx, backoff(attempt, c.backoffBase, c.backoffMax)); werr != nil {
				return giveUp(werr, err)
			}
			continue
		}
		apiErr, err := c.finish(resp, out)
		if err != nil || apiErr == nil {
			return err
		}
		wait, retry := retryDelay(apiErr, attempt, c.backoffBase, c.backoffMax)
		if !retry || attempt >= maxRetries {
			return apiErr
		}
		if werr := sleep(ctx, wait); werr != nil {
			return giveUp(werr, apiErr)
		}
	}
}

func (c *Client) newRequest(ctx context.Context, method, target string, body []byte, idemKey string) (*http.Request, error) {
	var rd io.Reader
	if body != nil {
		// A fresh reader per attempt: the body is re-sent whole on retry.
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, target, rd)
	if err != nil {
		return nil, fmt.Errorf("nameport: %s %s: %w", method, target, err)
	}
	req.Header.Set("Authorization", "Bearer "+c.apiKey)
	req.Header.Set("Accept", "application/json, application/problem+json")
	req.Header.Set("User-Agent", c.userAgent)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if idemKey != "" {
		req.Header.Set("Idempotency-Key", idemKey)
	}
	return req, nil
}

// finish reads an answer: a success is decoded into out; an error answer is
// returned as apiErr. err is for answers that cannot be read at all.
func (c *Client) finish(resp *http.Response, out any) (apiErr *Error, err error) {
	defer resp.Body.Close()
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		if out == nil || resp.StatusCode == http.StatusNoContent {
			_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxBodyBytes))
			return nil, nil
		}
		if raw, ok := out.(*[]byte); ok { // a body that is not JSON (a CSV export)
			if *raw, err = io.ReadAll(io.LimitReader(resp.Body, maxBodyBytes)); err != nil {
				return nil, fmt.Errorf("nameport: read the answer to %s %s: %w", resp.Request.Method, resp.Request.URL.Path, err)
			}
			return nil, nil
		}
		dec := json.NewDecoder(io.LimitReader(resp.Body, maxBodyBytes))
		if err := dec.Decode(out); err != nil {
			return nil, fmt.Errorf("nameport: read the answer to %s %s (request %s): %w",
				resp.Request.Method, resp.Request.URL.Path, resp.Header.Get("X-Request-Id"), err)
		}
		return nil, nil
	}
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxErrorBytes))
	if err != nil && len(raw) == 0 {
		// The status alone still makes a useful error.
		raw = nil
	}
	return errorFromResponse(resp.StatusCode, resp.Header, raw, time.Now()), nil
}

// escape makes a domain name, record type or record name one path segment.
func escape(s string) string { return url.PathEscape(s) }

// errEmpty reports a required argument left empty, before any request.
func errEmpty(what string) error { return errors.New("nameport: " + what + " is empty") }
