package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/cookiejar"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nameport/nameport/sdk"
)

// opRetryBudget is how long one operation keeps retrying (server down,
// restarting, its Idempotency-Key still in progress) before its outcome is
// counted as unresolved.
const opRetryBudget = 25 * time.Second

// world is what all clients share: the server address, the names they
// compete for, and where they report.
type world struct {
	baseURL    string
	runID      string
	extensions []string
	// start is when the load began: contested names change every two
	// seconds, so that races for fresh names go on all run long.
	start time.Time
	stats *stats
	acks  *acks
	think time.Duration
	// db is the server's database, where sign-up reads the verification
	// mail from the outbox (the server's mailbox without SMTP).
	db *sql.DB
}

// client is one simulated account: an end user on the web app's /api with a
// session cookie, or a registrar on /v1 with its API key (and a session for
// what /v1 lacks: renewals).
type client struct {
	w         *world
	n         int
	registrar bool
	rng       *rand.Rand
	hc        *http.Client
	sdk       *sdk.Client
	userID    int64
	username  string
	domains   []*ownedDomain
	broke     bool // the last charge was refused for want of money
	seq       int  // numbers the names only this client tries
	// throttled: until when each /v1 rate limit class refuses this key.
	throttled map[string]time.Time
}

// ownedDomain is a domain the client holds, with the records it put there.
type ownedDomain struct {
	id   int64
	full string // name + extension
	// records by set: values (registrars) or record ids by value (users).
	sets map[recordSetKey]map[string]int64
}

func newClient(w *world, n int, registrar bool, seed uint64) *client {
	jar, _ := cookiejar.New(nil)
	hc := &http.Client{Jar: jar, Timeout: 15 * time.Second}
	return &client{w: w, n: n, registrar: registrar, rng: rand.New(rand.NewPCG(seed, uint64(n))), hc: hc,
		throttled: map[string]time.Time{}}
}

// apiError is a final or retryable failure of one attempt.
type apiError struct {
	Status     int
	Code       string // /v1 problem code; empty on /api
	Message    string
	RetryAfter time.Duration
}

func (e *apiError) Error() string {
	return fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Message)
}

// classify says whether a failed attempt is worth retrying with the same
// Idempotency-Key, how long to wait first, and what kind of error it was.
func classify(err error) (kind string, retry bool, wait time.Duration) {
	var ae *apiError
	var se *sdk.Error
	status, code, after := 0, "", time.Duration(0)
	switch {
	case errors.As(err, &ae):
		status, code, after = ae.Status, ae.Code, ae.RetryAfter
	case errors.As(err, &se):
		status, code, after = se.StatusCode, se.Code, se.RetryAfter
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return "canceled", false, 0
	default:
		// Connection refused or reset, EOF mid-answer, a timeout: the
		// server is down or was killed with our request in it.
		return "network", true, 0
	}
	switch {
	case status == http.StatusTooManyRequests:
		return "http_429", true, after
	case status == http.StatusConflict && code == sdk.CodeIdempotencyInProgress:
		return "in_progress", true, after
	case status >= 500:
		return "http_" + strconv.Itoa(status), true, after
	}
	return "", false, 0
}

// attempt runs fn until it succeeds, fails for good, or the retry budget
// runs out; each retry repeats the same request (same Idempotency-Key).
// It returns the last error and whether the outcome is resolved. class is
// the /v1 rate limit the request counts against ("" for none): a first
// attempt refused by it is final (the client does something else until the
// limit resets); a retry refused by it waits, since an earlier attempt may
// have had its effect.
func (c *client) attempt(ctx context.Context, class string, fn func(ctx context.Context) error) (error, bool) {
	deadline := time.Now().Add(opRetryBudget)
	backoff := 50 * time.Millisecond
	ambiguous := false
	for {
		err := fn(ctx)
		if err == nil {
			return nil, true
		}
		kind, retry, wait := classify(err)
		if !retry {
			return err, kind != "canceled"
		}
		c.w.stats.attemptFailed(kind)
		if kind == "http_429" {
			c.throttled[class] = time.Now().Add(max(wait, time.Second))
			if !ambiguous {
				return err, true
			}
		} else {
			ambiguous = true
		}
		if wait <= 0 {
			wait = backoff + time.Duration(c.rng.Int64N(int64(backoff)))
			backoff = min(backoff*2, time.Second)
		}
		if time.Now().Add(wait).After(deadline) {
			return err, false
		}
		select {
		case <-ctx.Done():
			return err, false
		case <-time.After(wait):
		}
	}
}

// apiCall sends one /api request and decodes the envelope's data into out.
func (c *client) apiCall(ctx context.Context, method, path, idemKey string, in, out any) error {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.w.baseURL+path, body)
	if err != nil {
		return err
	}
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if idemKey != "" {
		req.Header.Set("Idempotency-Key", idemKey)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	var env struct {
		Success bool            `json:"success"`
		Data    json.RawMessage `json:"data"`
		Error   string          `json:"error"`
	}
	if resp.StatusCode >= 300 {
		_ = json.Unmarshal(raw, &env)
		ae := &apiError{Status: resp.StatusCode, Message: env.Error}
		if ae.Message == "" {
			ae.Message = strings.TrimSpace(string(raw))
		}
		if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil {
			ae.RetryAfter = time.Duration(s) * time.Second
		}
		return ae
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(raw, &env); err != nil {
		return fmt.Errorf("decode %s %s: %w", method, path, err)
	}
	return json.Unmarshal(env.Data, out)
}

func (c *client) newKey(op string) string {
	return fmt.Sprintf("load-%s-%d-%s-%016x", c.w.runID, c.n, op, c.rng.Uint64())
}

// signUp creates the client's account (retried: the server may be down).
func (c *client) signUp(ctx context.Context) error {
	kind := "user"
	if c.registrar {
		kind = "registrar"
	}
	c.username = fmt.Sprintf("load%s%s%d", c.w.runID, kind[:1], c.n)
	in := map[string]any{"username": c.username, "email": c.username + "@load.test", "password": "load-secret-1",
		"confirmPassword": "load-secret-1", "fullName": "Load " + c.username, "userType": kind}
	var me struct {
		ID     int64  `json:"id"`
		APIKey string `json:"apiKey"`
	}
	err, _ := c.attempt(ctx, "", func(ctx context.Context) error {
		err := c.apiCall(ctx, http.MethodPost, "/api/auth/register", "", in, &me)
		var ae *apiError
		if errors.As(err, &ae) && ae.Status == http.StatusConflict {
			// An earlier attempt got through before its answer was lost.
			return c.apiCall(ctx, http.MethodPost, "/api/auth/login", "",
				map[string]any{"username": c.username, "password": "load-secret-1"}, &me)
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("sign up %s: %w", c.username, err)
	}
	if err := c.verifyEmail(ctx, c.username+"@load.test"); err != nil {
		return fmt.Errorf("sign up %s: %w", c.username, err)
	}
	c.userID = me.ID
	if c.registrar && me.APIKey == "" {
		// Logged in after a lost sign-up answer: the key is in no login
		// answer, only sign-up's and its own endpoint's.
		err, _ := c.attempt(ctx, "", func(ctx context.Context) error {
			return c.apiCall(ctx, http.MethodGet, "/api/registrar/api-key", "", nil, &me)
		})
		if err != nil {
			return fmt.Errorf("api key of %s: %w", c.username, err)
		}
	}
	if c.registrar {
		if me.APIKey == "" {
			return fmt.Errorf("registrar %s got no API key", c.username)
		}
		// Retries are ours (same key, counted), not the SDK's.
		c.sdk = sdk.NewClient(me.APIKey, sdk.WithBaseURL(c.w.baseURL), sdk.WithMaxRetries(0),
			sdk.WithHTTPClient(&http.Client{Timeout: 15 * time.Second}))
	}
	return nil
}

var verifyTokenInLink = regexp.MustCompile(`/verify-email\?token=([A-Za-z0-9_-]+)`)

// verifyEmail follows the verification link mailed to email, as its owner
// would: accounts must verify before they register names or add funds.
func (c *client) verifyEmail(ctx context.Context, email string) error {
	deadline := time.Now().Add(30 * time.Second)
	for {
		var body string
		err := c.w.db.QueryRowContext(ctx, `SELECT body FROM mail_outbox WHERE kind = 'verify_email'
			AND lower(to_address) = lower($1) ORDER BY id DESC LIMIT 1`, email).Scan(&body)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("read the verification mail: %w", err)
		}
		if m := verifyTokenInLink.FindStringSubmatch(body); m != nil {
			err, _ := c.attempt(ctx, "", func(ctx context.Context) error {
				return c.apiCall(ctx, http.MethodPost, "/api/auth/verify-email", "", map[string]any{"token": m[1]}, nil)
			})
			return err
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no verification mail to %s", email)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// run does operations until ctx ends.
func (c *client) run(ctx context.Context) {
	for ctx.Err() == nil {
		c.step(ctx)
		if c.w.think > 0 {
			select {
			case <-ctx.Done():
			case <-time.After(time.Duration(c.rng.Int64N(int64(c.w.think) * 2))):
			}
		}
	}
}

func (c *client) step(ctx context.Context) {
	// Operations started before the end run to completion (with their
	// retries) on their own context: the end of the run is not a failure.
	opCtx := context.WithoutCancel(ctx)
	r := c.rng.IntN(100)
	switch {
	case r < 3:
		c.registerPremium(opCtx)
	case c.broke || r < 12:
		c.deposit(opCtx)
	case r < 45 || len(c.domains) == 0:
		if c.isThrottled("registrations") {
			c.pause(ctx)
			return
		}
		c.register(opCtx)
	case r < 57:
		c.renew(opCtx)
	case c.isThrottled("dns"):
		c.pause(ctx)
	case r < 90:
		c.upsertRecords(opCtx)
	default:
		c.deleteRecords(opCtx)
	}
}

// isThrottled reports whether a /v1 rate limit refuses this client now.
func (c *client) isThrottled(class string) bool {
	return c.registrar && time.Now().Before(c.throttled[class])
}

// pause waits a little instead of an operation the rate limit refuses.
func (c *client) pause(ctx context.Context) {
	select {
	case <-ctx.Done():
	case <-time.After(100 * time.Millisecond):
	}
}

// finish counts an operation's outcome; refused answers by their message.
func (c *client) finish(op string, err error, resolved bool) string {
	outcome := outcomeOK
	switch {
	case !resolved:
		outcome = outcomeUnresolved
	case isStatus(err, http.StatusTooManyRequests):
		outcome = outcomeThrottled
	case err != nil:
		outcome = outcomeRefused
		why := err.Error()
		var ae *apiError
		var se *sdk.Error
		if errors.As(err, &ae) {
			why = fmt.Sprintf("%d %s", ae.Status, firstWords(ae.Message))
		} else if errors.As(err, &se) {
			why = fmt.Sprintf("%d %s", se.StatusCode, se.Code)
		}
		c.w.stats.refused(op, why)
	}
	c.w.stats.op(op, outcome)
	return outcome
}

// firstWords shortens a message to its gist, without names and amounts.
func firstWords(msg string) string {
	f := strings.Fields(msg)
	if len(f) > 3 {
		f = f[:3]
	}
	for i, w := range f {
		if strings.ContainsAny(w, "0123456789$") {
			f[i] = "…"
		}
	}
	return strings.Join(f, " ")
}

func (c *client) deposit(ctx context.Context) {
	c.depositAmount(ctx, float64(20+c.rng.IntN(5)*10))
}

func (c *client) depositAmount(ctx context.Context, amount float64) {
	var (
		id     int64
		status string
	)
	var err error
	resolved := false
	if c.registrar {
		key := c.newKey("deposit")
		err, resolved = c.attempt(ctx, "", func(ctx context.Context) error {
			d, err := c.sdk.Wallet.Deposit(sdk.WithIdempotencyKey(ctx, key), sdk.DepositRequest{Amount: amount})
			if err == nil {
				id, status = d.Transaction.ID, d.Transaction.Status
			}
			return err
		})
	} else {
		// The web app sends one Idempotency-Key per deposit attempt, so a
		// retry after a lost answer deposits once, as on /v1.
		key := c.newKey("deposit")
		err, resolved = c.attempt(ctx, "", func(ctx context.Context) error {
			var out struct {
				Transaction struct {
					ID     int64  `json:"id"`
					Status string `json:"status"`
				} `json:"transaction"`
			}
			err := c.apiCall(ctx, http.MethodPost, "/api/wallet/deposit", key, map[string]any{"amount": amount}, &out)
			id, status = out.Transaction.ID, out.Transaction.Status
			return err
		})
	}
	c.w.acks.depositTried(c.userID)
	if c.finish("deposit", err, resolved) == outcomeOK {
		c.broke = false
		if status == "completed" {
			c.w.acks.transaction(id, ackedTransaction{UserID: c.userID, Type: "deposit", AmountCents: int64(amount * 100)})
		}
	}
}

// register tries a contested name (every client wants the same three of
// the moment) or a name of its own.
func (c *client) register(ctx context.Context) {
	ext := c.w.extensions[c.rng.IntN(len(c.w.extensions))]
	var label string
	if c.rng.IntN(2) == 0 {
		label = fmt.Sprintf("lc%s%dn%d", c.w.runID, int(time.Since(c.w.start)/(2*time.Second)), c.rng.IntN(3))
		// Contested names compete within one extension, so races are real.
		ext = c.w.extensions[0]
	} else {
		c.seq++
		label = fmt.Sprintf("ld%s%dx%d", c.w.runID, c.n, c.seq)
	}
	years := 1
	if c.rng.IntN(5) == 0 {
		years = 2
	}
	full := label + ext
	c.w.acks.tried(full)
	key := c.newKey("register")
	var domainID, txID, txCents int64
	var err error
	var resolved bool
	if c.registrar {
		err, resolved = c.attempt(ctx, "registrations", func(ctx context.Context) error {
			r, err := c.sdk.Domains.Register(sdk.WithIdempotencyKey(ctx, key), sdk.RegisterRequest{Domain: full, Years: &years})
			if err == nil {
				domainID, txID, txCents = r.Domain.ID, r.Transaction.ID, dollarsToCents(r.Transaction.Amount)
			}
			return err
		})
	} else {
		err, resolved = c.attempt(ctx, "", func(ctx context.Context) error {
			var out struct {
				Domain      struct{ ID int64 } `json:"domain"`
				Transaction struct {
					ID     int64   `json:"id"`
					Amount float64 `json:"amount"`
				} `json:"transaction"`
			}
			err := c.apiCall(ctx, http.MethodPost, "/api/domains", key,
				map[string]any{"name": label, "extension": ext, "years": years}, &out)
			domainID, txID, txCents = out.Domain.ID, out.Transaction.ID, dollarsToCents(out.Transaction.Amount)
			return err
		})
	}
	op := "register"
	if strings.HasPrefix(label, "lc") {
		op = "register_contest"
	}
	if err != nil && resolved && isStatus(err, http.StatusConflict) {
		c.w.stats.op(op, outcomeLost)
		if op == "register" {
			// Nobody else tries this name: a conflict means a retry did
			// not find its own first attempt.
			c.w.acks.lostOwn(full, c.userID, err.Error())
		}
		return
	}
	if err != nil && resolved && isStatus(err, http.StatusPaymentRequired) {
		c.broke = true
	}
	if c.finish(op, err, resolved) != outcomeOK {
		return
	}
	c.w.acks.registered(full, c.userID)
	c.w.acks.transaction(txID, ackedTransaction{UserID: c.userID, Type: "domain_purchase", AmountCents: txCents, DomainID: domainID})
	if !slices.ContainsFunc(c.domains, func(d *ownedDomain) bool { return d.id == domainID }) {
		c.domains = append(c.domains, &ownedDomain{id: domainID, full: full, sets: map[recordSetKey]map[string]int64{}})
	}
}

// premiumNames are the demo catalog's premium names on sale (not the
// reserved one); every client that can pay races for them.
var premiumNames = []string{"cloud.inf.nz", "ai.inf.nz", "shop.biz.ee", "money.biz.ee", "travel.orgn.uk", "health.inf.nz",
	"learn.orgn.uk", "games.inf.nz", "sport.biz.ee", "style.orgn.uk", "startup.biz.ee", "news.orgn.uk"}

// registerPremium funds the wallet for the dearest premium name and races
// the other clients for one of them: each can be sold once.
func (c *client) registerPremium(ctx context.Context) {
	full := premiumNames[c.rng.IntN(len(premiumNames))]
	c.w.acks.tried(full)
	c.depositAmount(ctx, 1600)
	label, ext, _ := strings.Cut(full, ".")
	ext = "." + ext
	key := c.newKey("premium")
	var domainID, txID, txCents int64
	var err error
	var resolved bool
	if c.registrar {
		err, resolved = c.attempt(ctx, "registrations", func(ctx context.Context) error {
			r, err := c.sdk.Domains.Register(sdk.WithIdempotencyKey(ctx, key), sdk.RegisterRequest{Domain: full})
			if err == nil {
				domainID, txID, txCents = r.Domain.ID, r.Transaction.ID, dollarsToCents(r.Transaction.Amount)
			}
			return err
		})
	} else {
		err, resolved = c.attempt(ctx, "", func(ctx context.Context) error {
			var out struct {
				Domain      struct{ ID int64 } `json:"domain"`
				Transaction struct {
					ID     int64   `json:"id"`
					Amount float64 `json:"amount"`
				} `json:"transaction"`
			}
			err := c.apiCall(ctx, http.MethodPost, "/api/domains", key, map[string]any{"name": label, "extension": ext}, &out)
			domainID, txID, txCents = out.Domain.ID, out.Transaction.ID, dollarsToCents(out.Transaction.Amount)
			return err
		})
	}
	if err != nil && resolved && isStatus(err, http.StatusConflict) {
		c.w.stats.op("register_premium", outcomeLost)
		return
	}
	if c.finish("register_premium", err, resolved) != outcomeOK {
		return
	}
	c.w.acks.registered(full, c.userID)
	c.w.acks.transaction(txID, ackedTransaction{UserID: c.userID, Type: "domain_purchase", AmountCents: txCents, DomainID: domainID})
	c.domains = append(c.domains, &ownedDomain{id: domainID, full: full, sets: map[recordSetKey]map[string]int64{}})
}

func (c *client) pickDomain() *ownedDomain {
	if len(c.domains) == 0 {
		return nil
	}
	return c.domains[c.rng.IntN(len(c.domains))]
}

// renew renews by hand on /api (registrars too: /v1 has no renewal), racing
// the automatic renewal job that the short --renew-ahead queues.
func (c *client) renew(ctx context.Context) {
	d := c.pickDomain()
	if d == nil {
		return
	}
	key := c.newKey("renew")
	var txID, txCents int64
	err, resolved := c.attempt(ctx, "", func(ctx context.Context) error {
		var out struct {
			Transaction struct {
				ID     int64   `json:"id"`
				Amount float64 `json:"amount"`
			} `json:"transaction"`
		}
		err := c.apiCall(ctx, http.MethodPost, fmt.Sprintf("/api/domains/%d/renew", d.id), key, nil, &out)
		txID, txCents = out.Transaction.ID, dollarsToCents(out.Transaction.Amount)
		return err
	})
	if err != nil && resolved && isStatus(err, http.StatusPaymentRequired) {
		c.broke = true
	}
	if c.finish("renew", err, resolved) == outcomeOK {
		c.w.acks.transaction(txID, ackedTransaction{UserID: c.userID, Type: "domain_renewal", AmountCents: txCents, DomainID: d.id})
	}
}

var (
	recordNames = []string{"@", "www", "api", "mail"}
	recordTypes = []string{"A", "TXT"}
)

func (c *client) randomValue(typ string) string {
	if typ == "A" {
		nets := []string{"192.0.2.", "198.51.100.", "203.0.113."}
		return nets[c.rng.IntN(len(nets))] + strconv.Itoa(1+c.rng.IntN(254))
	}
	return fmt.Sprintf("load-%s-%d-%x", c.w.runID, c.n, c.rng.Uint32())
}

// upsertRecords replaces a record set (registrars, PUT /v1) or adds one
// record to it (users, POST /api).
func (c *client) upsertRecords(ctx context.Context) {
	d := c.pickDomain()
	if d == nil {
		return
	}
	c.w.acks.busy(d.full, true)
	defer c.w.acks.busy(d.full, false)
	k := recordSetKey{Domain: d.full, Name: recordNames[c.rng.IntN(len(recordNames))], Type: recordTypes[c.rng.IntN(len(recordTypes))]}
	if c.registrar {
		values := []string{c.randomValue(k.Type)}
		for c.rng.IntN(3) == 0 && len(values) < 4 {
			if v := c.randomValue(k.Type); !slices.Contains(values, v) {
				values = append(values, v)
			}
		}
		key := c.newKey("upsert")
		var got []sdk.Record
		err, resolved := c.attempt(ctx, "dns", func(ctx context.Context) error {
			var err error
			got, err = c.sdk.DNS.Upsert(sdk.WithIdempotencyKey(ctx, key), d.full,
				sdk.RecordSet{Name: k.Name, Type: k.Type, Values: values, TTL: sdk.Int(300)})
			return err
		})
		if c.finish("dns_upsert", err, resolved) == outcomeOK {
			set := map[string]int64{}
			for _, r := range got {
				set[r.Content] = r.ID
			}
			d.sets[k] = set
			c.w.acks.setKnown(k, values)
		} else {
			c.reread(ctx, d)
		}
		return
	}
	value := c.randomValue(k.Type)
	var rec struct {
		ID int64 `json:"id"`
	}
	err, resolved := c.attempt(ctx, "", func(ctx context.Context) error {
		return c.apiCall(ctx, http.MethodPost, fmt.Sprintf("/api/domains/%d/dns", d.id), "",
			map[string]any{"type": k.Type, "name": k.Name, "content": value, "ttl": 300}, &rec)
	})
	if c.finish("dns_add", err, resolved) == outcomeOK {
		if d.sets[k] == nil {
			d.sets[k] = map[string]int64{}
		}
		d.sets[k][value] = rec.ID
		c.w.acks.setKnown(k, keysOf(d.sets[k]))
	} else {
		c.reread(ctx, d)
	}
}

// deleteRecords removes a whole set (registrars) or one record (users).
func (c *client) deleteRecords(ctx context.Context) {
	d := c.pickDomain()
	if d == nil || len(d.sets) == 0 {
		return
	}
	c.w.acks.busy(d.full, true)
	defer c.w.acks.busy(d.full, false)
	var keys []recordSetKey
	for k := range d.sets {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b recordSetKey) int { return strings.Compare(a.Name+a.Type, b.Name+b.Type) })
	k := keys[c.rng.IntN(len(keys))]
	if c.registrar {
		tries := 0
		err, resolved := c.attempt(ctx, "dns", func(ctx context.Context) error {
			tries++
			err := c.sdk.DNS.Delete(ctx, d.full, k.Type, k.Name)
			if tries > 1 && sdk.IsNotFound(err) {
				return nil // the first attempt deleted it; its answer was lost
			}
			return err
		})
		if c.finish("dns_delete", err, resolved) == outcomeOK {
			delete(d.sets, k)
			c.w.acks.setKnown(k, nil)
		} else {
			c.reread(ctx, d)
		}
		return
	}
	var id int64
	var value string
	for v, rid := range d.sets[k] {
		id, value = rid, v
		break
	}
	tries := 0
	err, resolved := c.attempt(ctx, "", func(ctx context.Context) error {
		tries++
		err := c.apiCall(ctx, http.MethodDelete, fmt.Sprintf("/api/domains/%d/dns/%d", d.id, id), "", nil, nil)
		if tries > 1 && isStatus(err, http.StatusNotFound) {
			return nil
		}
		return err
	})
	if c.finish("dns_delete", err, resolved) == outcomeOK {
		delete(d.sets[k], value)
		if len(d.sets[k]) == 0 {
			delete(d.sets, k)
		}
		c.w.acks.setKnown(k, keysOf(d.sets[k]))
	} else {
		c.reread(ctx, d)
	}
}

// reread learns a domain's records from the server after a change whose
// outcome is unknown; until it succeeds the client knows nothing of them.
func (c *client) reread(ctx context.Context, d *ownedDomain) {
	for k := range d.sets {
		c.w.acks.forget(k)
	}
	type rec struct {
		ID      int64  `json:"id"`
		Name    string `json:"name"`
		Type    string `json:"type"`
		Content string `json:"content"`
	}
	var list []rec
	// The web app's read, for registrars too: /v1 reads count against the
	// DNS rate limit.
	err, _ := c.attempt(ctx, "", func(ctx context.Context) error {
		return c.apiCall(ctx, http.MethodGet, fmt.Sprintf("/api/domains/%d/dns", d.id), "", nil, &list)
	})
	c.finish("dns_reread", err, err == nil)
	if err != nil {
		// Its records are unknown now: leave the domain alone from here on.
		c.domains = slices.DeleteFunc(c.domains, func(o *ownedDomain) bool { return o == d })
		return
	}
	old := d.sets
	d.sets = map[recordSetKey]map[string]int64{}
	for _, r := range list {
		k := recordSetKey{Domain: d.full, Name: r.Name, Type: r.Type}
		if d.sets[k] == nil {
			d.sets[k] = map[string]int64{}
		}
		d.sets[k][r.Content] = r.ID
	}
	for k, set := range d.sets {
		c.w.acks.setKnown(k, keysOf(set))
	}
	for k := range old {
		if _, ok := d.sets[k]; !ok {
			c.w.acks.setKnown(k, nil)
		}
	}
}

func keysOf(m map[string]int64) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

func isStatus(err error, status int) bool {
	var ae *apiError
	var se *sdk.Error
	return (errors.As(err, &ae) && ae.Status == status) || (errors.As(err, &se) && se.StatusCode == status)
}

func dollarsToCents(d float64) int64 {
	if d < 0 {
		return -int64(-d*100 + 0.5)
	}
	return int64(d*100 + 0.5)
}

// fetchExtensions reads the active extensions the catalog sells.
func fetchExtensions(ctx context.Context, baseURL string) ([]string, error) {
	c := &client{w: &world{baseURL: baseURL}, hc: &http.Client{Timeout: 10 * time.Second}}
	var list []struct {
		Extension string `json:"extension"`
	}
	if err := c.apiCall(ctx, http.MethodGet, "/api/domain-extensions", "", nil, &list); err != nil {
		return nil, err
	}
	var out []string
	for _, e := range list {
		out = append(out, e.Extension)
	}
	if len(out) == 0 {
		return nil, errors.New("the catalog has no extensions (is --demo on?)")
	}
	return out, nil
}
