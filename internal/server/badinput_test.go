package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/config"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
)

// The bad-input sweep: every write operation of the OpenAPI document gets
// malformed JSON, wrong types, missing and unknown fields, an oversized
// body, hostile strings and bad path parameters. Each must answer a 4xx
// (never a 5xx, never a hang) with a message a person can read, and must
// change nothing in the database.
//
// Unknown body fields are refused (422 naming the field), never ignored:
// huma closes every request schema (additionalProperties: false), so a
// typo such as "autorenew" cannot silently do nothing. The sweep holds every
// operation to that.
//
// Operations without a body (logout, key rotation, renew, deletes, job
// retry and cancel) get the bad path parameters only: any body sent to them
// is ignored, so their well-formed call would really log out, rotate or
// delete. Free-text fields (descriptions, passwords, setting values) may
// hold hostile-looking text, which is data, always returned as JSON; they
// are held to the NUL rule only.

// writeOp is a write operation as the OpenAPI document describes it.
type writeOp struct {
	id, method, path string
	params           []string          // path parameters, in order
	hasBody          bool              // has a request body
	required         []string          // required by the schema
	props            map[string]string // body property -> JSON type
	arrays           map[string]string // array property -> item JSON type
}

// writeOps reads the write operations from the served OpenAPI document.
func writeOps(t *testing.T, b *browser) []writeOp {
	t.Helper()
	r := b.do("GET", "/openapi.json", nil)
	require.Equal(t, http.StatusOK, r.status)
	var doc struct {
		Paths map[string]map[string]struct {
			OperationID string `json:"operationId"`
			Parameters  []struct {
				Name string `json:"name"`
				In   string `json:"in"`
			} `json:"parameters"`
			RequestBody *struct {
				Content map[string]struct {
					Schema schemaRef `json:"schema"`
				} `json:"content"`
			} `json:"requestBody"`
		} `json:"paths"`
		Components struct {
			Schemas map[string]schemaRef `json:"schemas"`
		} `json:"components"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.raw), &doc))
	resolve := func(s schemaRef) schemaRef {
		if s.Ref != "" {
			return doc.Components.Schemas[strings.TrimPrefix(s.Ref, "#/components/schemas/")]
		}
		return s
	}
	var ops []writeOp
	for path, item := range doc.Paths {
		for method, op := range item {
			method = strings.ToUpper(method)
			if !slices.Contains([]string{"POST", "PUT", "PATCH", "DELETE"}, method) {
				continue
			}
			w := writeOp{id: op.OperationID, method: method, path: path, props: map[string]string{}, arrays: map[string]string{}}
			for _, p := range op.Parameters {
				if p.In == "path" {
					w.params = append(w.params, p.Name)
				}
			}
			if op.RequestBody != nil {
				w.hasBody = true
				for _, c := range op.RequestBody.Content {
					s := resolve(c.Schema)
					w.required = s.Required
					for name, p := range s.Properties {
						w.props[name] = p.jsonType()
						if p.Items != nil {
							w.arrays[name] = resolve(*p.Items).jsonType()
						}
					}
				}
			}
			ops = append(ops, w)
		}
	}
	sort.Slice(ops, func(i, j int) bool { return ops[i].path+ops[i].method < ops[j].path+ops[j].method })
	return ops
}

type schemaRef struct {
	Ref        string               `json:"$ref"`
	Type       any                  `json:"type"` // "string" or ["array","null"]
	Required   []string             `json:"required"`
	Properties map[string]schemaRef `json:"properties"`
	Items      *schemaRef           `json:"items"`
}

func (s schemaRef) jsonType() string {
	switch v := s.Type.(type) {
	case string:
		return v
	case []any:
		for _, x := range v {
			if x != "null" {
				return fmt.Sprint(x)
			}
		}
	}
	if s.Ref != "" || s.Properties != nil {
		return "object"
	}
	return ""
}

// badInputFixture is how to call one operation well: who calls, the path
// parameters and a body that would succeed.
type badInputFixture struct {
	caller string // "visitor", "user", "registrar" (API key), "registrar-web" (its session) or "admin"
	params map[string]string
	body   map[string]any
	// free are string fields whose content is the caller's own text
	// (descriptions, passwords, setting values): hostile-looking strings
	// there are legitimate data, stored verbatim and always sent back as
	// JSON, so the sweep does not expect them to be refused.
	free []string
	// blankOK are fields of body where "" or spaces mean "the default",
	// as if the field were not sent.
	blankOK []string
	// ok, when set, is the status of the well-formed call, sent after the
	// sweep to prove the sweep's refusals came from the bad part.
	ok int
	// names are path parameters that are host names, not ids: "abc" or
	// "0" are good names, so they get badNameValues instead.
	names []string
}

// hostileStrings are values no identifier-like field may accept.
var hostileStrings = map[string]string{
	"sql":          "' OR 1=1 --",
	"script":       "<script>alert(1)</script>",
	"traversal":    "../../etc/passwd",
	"jndi":         "${jndi:ldap://x}",
	"crlf":         "a\r\nSet-Cookie: x=1",
	"nul":          "a\x00b",
	"idn":          "münchen",
	"emoji":        "😀",
	"rtl override": "abc\u202egpj",
	"overlong":     strings.Repeat("a", 300),
	"very long":    strings.Repeat("b", 100_000),
}

// badPathValues replace one path parameter at a time (already escaped).
var badPathValues = map[string]string{
	"letters":   "abc",
	"negative":  "-1",
	"zero":      "0",
	"huge":      "99999999999999999999999",
	"float":     "1.5",
	"slash":     "1%2F2",
	"traversal": "..%2F..%2Fetc%2Fpasswd",
	"nul":       "1%00",
	"sql":       url.PathEscape("1' OR 1=1 --"),
	"emoji":     url.PathEscape("😀"),
	"crlf":      "1%0D%0AX-Evil:%201",
	"long":      strings.Repeat("9", 2000),
}

// badNameValues replace a path parameter that is a host name.
var badNameValues = map[string]string{
	"leading hyphen": "-go",
	"empty label":    "a..b",
	"underscore":     "a_b",
	"slash":          "a%2Fb",
	"traversal":      "..%2F..%2Fetc%2Fpasswd",
	"nul":            "a%00",
	"sql":            url.PathEscape("a' OR 1=1 --"),
	"emoji":          url.PathEscape("😀"),
	"idn":            url.PathEscape("münchen"),
	"crlf":           "a%0D%0AX-Evil:%201",
	"long label":     strings.Repeat("a", 64),
	"long":           strings.Repeat("a.", 150),
	"outside":        "example.com.",
}

func TestBadInputOnEveryWriteOperation(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			// Rate limits would answer 429 before validation and hide it.
			ts := startWith(t, engine, func(c *config.Config) { c.RateLimitWindow = time.Millisecond })
			d, err := db.Open(context.Background(), ts.dbURL)
			require.NoError(t, err)
			t.Cleanup(func() { d.Close() })

			fx := setupBadInput(t, ts)
			settle(t, d)
			ops := writeOps(t, fx.browsers["visitor"])
			require.GreaterOrEqual(t, len(ops), 30, "the document lists the write operations")
			for _, op := range ops {
				f, known := fx.ops[op.id]
				require.True(t, known, "operation %s %s (%s) has no fixture in the bad-input sweep: add one", op.method, op.path, op.id)
				t.Run(op.id, func(t *testing.T) {
					before := snapshot(t, d)
					var sent []string
					send := func(name, path string, body any) reply {
						sent = append(sent, name)
						return fx.call(t, f.caller, op.method, path, body)
					}
					path := fillPath(op.path, f.params)
					for _, c := range badRequests(op, f) {
						r := send(c.name, path, c.body)
						t.Logf("%-40.40s %d %.200s", c.name, r.status, messageOf(r))
						requireRefused(t, op, c.name, r)
						if c.status != 0 {
							assert.Equal(t, c.status, r.status, "%s: %s", c.name, r.raw)
						}
					}
					if f.caller == "registrar" && f.body != nil && (op.method == "POST" || op.method == "PUT") {
						// With an Idempotency-Key the body is read before huma reads it.
						big := `{"x":"` + strings.Repeat("a", 1<<20+10) + `"}`
						r := fx.call(t, f.caller, op.method, path, big, "Idempotency-Key", "badinput-"+op.id)
						sent = append(sent, "over 1 MiB with an Idempotency-Key")
						requireRefused(t, op, "over 1 MiB with an Idempotency-Key", r)
						assert.Equal(t, http.StatusRequestEntityTooLarge, r.status, r.raw)
						assert.Equal(t, "request_too_large", r.body["code"], r.raw)
					}
					for _, param := range op.params {
						values := badPathValues
						if slices.Contains(f.names, param) {
							values = badNameValues
						}
						for name, v := range values {
							p := map[string]string{}
							for k, x := range f.params {
								p[k] = x
							}
							p[param] = v
							var body any
							if f.body != nil {
								body = f.body
							}
							r := send("path "+param+" "+name, fillPath(op.path, p), body)
							t.Logf("%-40.40s %d %.200s", "path "+param+" "+name, r.status, messageOf(r))
							requireRefused(t, op, "path "+param+" "+name, r)
						}
					}
					after := snapshot(t, d)
					assert.Equal(t, before, after, "%s changed the database; requests sent: %v", op.id, sent)
					if f.ok != 0 {
						r := fx.call(t, f.caller, op.method, path, f.body)
						require.Equal(t, f.ok, r.status, "the well-formed call: %s", r.raw)
						settle(t, d) // its mails are sent in the background
					}
				})
			}
		})
	}
}

// badRequest is one bad call: its name, its body (a string is sent as is)
// and, when not zero, the exact status expected.
type badRequest struct {
	name   string
	body   any
	status int
}

func badRequests(op writeOp, f badInputFixture) []badRequest {
	if !op.hasBody {
		return nil
	}
	with := func(field string, v any) map[string]any {
		m := map[string]any{}
		for k, x := range f.body {
			m[k] = x
		}
		m[field] = v
		return m
	}
	big := `{"x":"` + strings.Repeat("a", 1<<20+10) + `"}`
	cases := []badRequest{
		{name: "truncated", body: `{"a":`},
		{name: "open brace", body: `{`},
		{name: "array", body: `[]`},
		{name: "null", body: `null`},
		{name: "plain text", body: `hello`},
		{name: "number", body: `42`},
		{name: "trailing garbage", body: `{}}`},
		{name: "empty body", body: ``},
		{name: "over 1 MiB", body: big, status: http.StatusRequestEntityTooLarge},
	}
	if op.id == "stripe-webhook" { // a raw body: no schema to break
		return cases
	}
	unknown := with("isAdmin", true)
	cases = append(cases, badRequest{name: "unknown field", body: unknown, status: http.StatusUnprocessableEntity})
	for _, field := range op.required {
		m := with(field, nil)
		delete(m, field)
		cases = append(cases, badRequest{name: "missing " + field, body: m})
	}
	if len(op.required) > 0 || f.body != nil && op.method == "POST" {
		cases = append(cases, badRequest{name: "empty object", body: map[string]any{}})
	}
	for field, typ := range op.props {
		wrong := map[string][]any{
			"string":  {123, true, map[string]any{"a": 1}, []any{"a"}},
			"number":  {"12", map[string]any{}, -1, -0.01, 1e300, 12345678901234567890.0, 10.123456789, 1e-9},
			"integer": {"12", 1.5, map[string]any{}, -1, 1e300, json.Number("9223372036854775808")},
			"boolean": {"yes", 1, map[string]any{}},
			"array":   {"x", 1, map[string]any{}},
			"object":  {"x", 1, []any{}},
		}[typ]
		for i, v := range wrong {
			cases = append(cases, badRequest{name: fmt.Sprintf("%s %s #%d (%v)", field, typ, i, v), body: with(field, v)})
		}
		if item, ok := op.arrays[field]; ok {
			cases = append(cases, badRequest{name: field + " items of wrong type", body: with(field, []any{map[string]any{"x": 1}})})
			if item == "string" && !slices.Contains(f.free, field) {
				for name, s := range hostileStrings {
					cases = append(cases, badRequest{name: field + " item " + name, body: with(field, []any{s})})
				}
			}
			if item == "integer" {
				cases = append(cases, badRequest{name: field + " item -1", body: with(field, []any{-1})},
					badRequest{name: field + " item huge", body: with(field, []any{json.Number("99999999999999999999")})})
			}
		}
		if typ == "string" && slices.Contains(f.free, field) || op.arrays[field] == "string" && slices.Contains(f.free, field) {
			// Free text may say anything but NUL, which no column stores.
			var v any = "a\x00b"
			if typ == "array" {
				v = []any{v}
			}
			cases = append(cases, badRequest{name: field + " nul in free text", body: with(field, v), status: http.StatusBadRequest})
		}
		if typ == "string" && !slices.Contains(f.free, field) {
			for name, s := range hostileStrings {
				cases = append(cases, badRequest{name: field + " " + name, body: with(field, s)})
			}
			if _, given := f.body[field]; given && !slices.Contains(f.blankOK, field) {
				cases = append(cases, badRequest{name: field + " empty", body: with(field, "")},
					badRequest{name: field + " spaces", body: with(field, "   ")})
			}
		}
	}
	return cases
}

// requireRefused checks a refusal: a 4xx in its API's shape with a message
// for a person. It reports every problem and goes on, so one run shows them
// all.
func requireRefused(t *testing.T, op writeOp, name string, r reply) {
	t.Helper()
	if !assert.True(t, r.status >= 400 && r.status < 500, "%s %s: want a 4xx, got %d: %.300s", op.id, name, r.status, r.raw) {
		return
	}
	var msg string
	if strings.HasPrefix(op.path, "/v1/") {
		assert.Equal(t, "application/problem+json", r.header.Get("Content-Type"), "%s %s: %.300s", op.id, name, r.raw)
		assert.NotEmpty(t, r.body["title"], "%s %s: %.300s", op.id, name, r.raw)
		msg, _ = r.body["detail"].(string)
	} else {
		assert.Equal(t, false, r.body["success"], "%s %s: %.300s", op.id, name, r.raw)
		msg, _ = r.body["error"].(string)
	}
	assert.NotEmpty(t, strings.TrimSpace(msg), "%s %s: a message for a person: %.300s", op.id, name, r.raw)
	for _, internal := range []string{"json:", "cannot unmarshal", "Go struct", "Go value", "strconv", "runtime error",
		"panic", "sql:", "SQLSTATE", "pq:", "pgx", "sqlite", "goroutine", "reflect", "<nil>", "%!"} {
		assert.NotContains(t, msg, internal, "%s %s: no internals in the message", op.id, name)
	}
	assert.LessOrEqual(t, len([]rune(msg)), 400, "%s %s: the message does not echo a huge input", op.id, name)
}

// messageOf is the message of a /api or /v1 error.
func messageOf(r reply) string {
	if m, ok := r.body["error"].(string); ok {
		return m
	}
	m, _ := r.body["detail"].(string)
	return m
}

func fillPath(path string, params map[string]string) string {
	for k, v := range params {
		path = strings.ReplaceAll(path, "{"+k+"}", v)
	}
	return path
}

// snapshotTables are the tables whose rows a refused request must leave
// alone. Left out: login_failures (a refused login is counted, by design),
// sessions (reads refresh their last use) and River's job tables.
var snapshotTables = []string{"users", "wallets", "transactions", "domains", "dns_records", "premium_domains",
	"extensions", "length_rules", "site_settings", "payment_intents", "payment_events", "password_resets",
	"mail_outbox", "audit_log", "domain_notices", "idempotent_requests", "idempotency_keys", "zone_version",
	"catalog_version", "tier_applications", "email_verifications",
	"mail_domains", "mail_rules", "mail_rule_destinations", "mail_destinations", "api_keys",
	"bulk_jobs", "bulk_job_rows", "dns_templates",
	"webhook_endpoints", "webhook_deliveries", "totp_secrets", "recovery_codes", "two_factor_challenges",
	"passkeys", "known_devices"}

// snapshotQueries read the tables that change by themselves without their
// columns that do: a key's last use is written once a minute, off the
// request that used it.
var snapshotQueries = map[string]string{
	"api_keys": "SELECT id, user_id, name, hash, sealed, scopes, allowed_cidrs, expires_at, created_at, revoked_at FROM api_keys",
	// A delivery's attempts are recorded by the workers, off the request.
	"webhook_deliveries": "SELECT id, endpoint_id, user_id, event_id, event_type, payload, created_at FROM webhook_deliveries",
}

func snapshot(t *testing.T, d *db.DB) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, table := range snapshotTables {
		var rows []map[string]any
		query, ok := snapshotQueries[table]
		if !ok {
			query = "SELECT * FROM " + table
		}
		require.NoError(t, d.Bun.NewRaw(query).Scan(context.Background(), &rows), table)
		for _, row := range rows {
			keys := make([]string, 0, len(row))
			for k := range row {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			var sb strings.Builder
			for _, k := range keys {
				v := row[k]
				if b, ok := v.([]byte); ok {
					v = string(b)
				}
				if tm, ok := v.(time.Time); ok {
					v = tm.UTC().Format(time.RFC3339Nano)
				}
				fmt.Fprintf(&sb, "%s=%v ", k, v)
			}
			out[table] = append(out[table], sb.String())
		}
		sort.Strings(out[table])
	}
	return out
}

// settle waits until the background jobs due now have run: they write
// (mails, for one) after the request that enqueued them has answered.
func settle(t *testing.T, d *db.DB) {
	t.Helper()
	require.Eventually(t, func() bool {
		var n int
		err := d.Bun.NewRaw("SELECT count(*) FROM river_job WHERE state IN ('available', 'running', 'retryable') AND scheduled_at <= ?",
			time.Now().UTC()).Scan(context.Background(), &n)
		return err == nil && n == 0
	}, 30*time.Second, 20*time.Millisecond, "background jobs still running")
}

// badInputBundle holds the callers and the fixture of every operation.
type badInputBundle struct {
	browsers map[string]*browser
	key      string
	ops      map[string]badInputFixture
}

func (fx *badInputBundle) call(t *testing.T, caller, method, path string, body any, headers ...string) reply {
	t.Helper()
	b := fx.browsers[caller]
	if caller == "registrar" {
		headers = append(headers, "X-API-Key", fx.key)
	}
	return b.doTimeout(method, path, body, headers...)
}

// doTimeout is do with a deadline: a request that hangs fails the test.
func (b *browser) doTimeout(method, path string, body any, headers ...string) reply {
	b.t.Helper()
	var rd io.Reader
	switch v := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(v)
	default:
		buf, err := json.Marshal(v)
		require.NoError(b.t, err)
		rd = strings.NewReader(string(buf))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, b.base+path, rd)
	require.NoError(b.t, err)
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := b.client.Do(req)
	require.NoError(b.t, err, "%s %s", method, path)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(b.t, err)
	r := reply{status: resp.StatusCode, header: resp.Header, raw: string(raw)}
	_ = json.Unmarshal(raw, &r.body)
	return r
}

func setupBadInput(t *testing.T, ts *testServer) *badInputBundle {
	t.Helper()
	admin := loginAdmin(t, ts)
	created := func(r reply) string {
		t.Helper()
		require.Equal(t, http.StatusCreated, r.status, r.raw)
		return strconv.FormatInt(int64(data(t, r)["id"].(float64)), 10)
	}
	extID := created(admin.do("POST", "/api/domain-extensions", map[string]any{"extension": ".inf.nz", "description": "Information sites"}))
	premID := created(admin.do("POST", "/api/admin/premium-domains", map[string]any{"name": "cloud", "extension": ".inf.nz", "price": 30}))
	r := admin.do("POST", "/api/site-settings", map[string]any{"key": "site_name", "value": "Nameport", "category": "branding"})
	setID := created(r)

	alice := signedUp(t, ts, "alice", "user")
	r = alice.do("POST", "/api/wallet/deposit", map[string]any{"amount": 100, "paymentMethod": "credit_card"})
	require.Equal(t, true, r.body["success"], r.raw)
	depositID := strconv.FormatInt(int64(data(t, r)["transaction"].(map[string]any)["id"].(float64)), 10)
	r = alice.do("POST", "/api/domains", map[string]any{"name": "alice-site", "extension": ".inf.nz", "years": 1})
	require.True(t, r.status < 300, r.raw)
	domID := strconv.FormatInt(int64(data(t, r)["domain"].(map[string]any)["id"].(float64)), 10)
	recID := created(alice.do("POST", "/api/domains/"+domID+"/dns", map[string]any{"type": "A", "name": "www", "content": "192.0.2.1", "ttl": 3600}))
	aliceID := strconv.FormatInt(int64(userNamed(t, admin, "alice")["id"].(float64)), 10)

	resellerWeb, key := registrar(t, ts, "reseller")
	// Two pending tier applications: one to approve, one to decline.
	applications := map[string]string{}
	for _, name := range []string{"applicant1", "applicant2"} {
		in := signUp(name, "registrar")
		in["tier"] = "premium"
		r := newBrowser(t, ts).do("POST", "/api/auth/register", in)
		require.Equal(t, http.StatusCreated, r.status, r.raw)
	}
	r = admin.do("GET", "/api/admin/tier-applications", nil)
	require.Equal(t, http.StatusOK, r.status, r.raw)
	for _, a := range r.body["data"].([]any) {
		a := a.(map[string]any)
		applications[a["username"].(string)] = strconv.FormatInt(int64(a["id"].(float64)), 10)
	}
	require.Len(t, applications, 2)
	require.Equal(t, http.StatusCreated, v1(t, ts, key, "POST", "/v1/wallet/deposits", map[string]any{"amount": 100}).status)
	r = v1(t, ts, key, "POST", "/v1/domains/register", map[string]any{"domain": "resell.inf.nz"})
	require.True(t, r.status < 300, r.raw)
	r = v1(t, ts, key, "PUT", "/v1/domains/resell.inf.nz/records", map[string]any{"name": "www", "type": "A", "values": []string{"192.0.2.2"}, "ttl": 3600})
	require.True(t, r.status < 300, r.raw)
	// A forwarding rule each, to delete (their confirmation mails go out
	// before the sweep: see settle).
	ruleID := created(alice.do("POST", "/api/domains/"+domID+"/email-forwarding/rules",
		map[string]any{"alias": "sales", "destinations": []string{"alice.inbox@example.com"}}))
	r = v1(t, ts, key, "POST", "/v1/domains/resell.inf.nz/email-forwarding/rules",
		map[string]any{"alias": "sales", "destinations": []string{"ops@example.org"}})
	require.Equal(t, http.StatusCreated, r.status, r.raw)
	v1RuleID := strconv.FormatInt(int64(r.body["id"].(float64)), 10)

	// API keys to rotate and revoke, through /api and through /v1.
	keyIDs := map[string]string{}
	for _, name := range []string{"web-rotate", "web-revoke", "v1-rotate", "v1-revoke"} {
		r := resellerWeb.do("POST", "/api/registrar/keys", map[string]any{"name": name, "scopes": []string{"read"}})
		require.Equal(t, http.StatusCreated, r.status, r.raw)
		keyIDs[name] = strconv.FormatInt(int64(data(t, r)["key"].(map[string]any)["id"].(float64)), 10)
	}
	// Webhook endpoints to test and delete, through /api and through /v1
	// (subscribed to an event the sweep never causes).
	hookIDs := map[string]string{}
	for _, name := range []string{"web-test", "web-update", "web-delete", "v1-test", "v1-update", "v1-delete"} {
		r := resellerWeb.do("POST", "/api/registrar/webhooks", map[string]any{"url": "https://hooks.example.com/" + name,
			"events": []string{"domain.released"}})
		require.Equal(t, http.StatusCreated, r.status, r.raw)
		hookIDs[name] = strconv.FormatInt(int64(data(t, r)["endpoint"].(map[string]any)["id"].(float64)), 10)
	}
	newHook := map[string]any{"url": "https://hooks.example.com/sweep", "events": []string{"domain.released", "domain.expired"}}
	// DNS templates to change and delete, and the totals bulk
	// registrations must confirm.
	tplIDs := map[string]string{}
	tplBody := func(name string) map[string]any {
		return map[string]any{"name": name, "records": []map[string]any{{"name": "www", "type": "A", "values": []string{"192.0.2.3"}}}}
	}
	for _, name := range []string{"web-update", "web-delete", "v1-update", "v1-delete", "v1-apply"} {
		r := resellerWeb.do("POST", "/api/registrar/dns-templates", tplBody(name))
		require.Equal(t, http.StatusCreated, r.status, r.raw)
		tplIDs[name] = strconv.FormatInt(int64(data(t, r)["id"].(float64)), 10)
	}
	applyID, _ := strconv.ParseInt(tplIDs["v1-apply"], 10, 64)
	r = resellerWeb.do("POST", "/api/registrar/bulk/check", map[string]any{"names": []string{"bulkok.inf.nz"}})
	require.Equal(t, http.StatusOK, r.status, r.raw)
	bulkTotal := data(t, r)["total"]
	newKey := map[string]any{"name": "sweep", "scopes": []string{"read", "dns"}, "allowedAddresses": []string{"203.0.113.0/24", "2001:db8::/32"},
		"expiresAt": "2099-01-01T00:00:00Z"}

	// Contact requests to answer and to delete.
	contactIDs := map[string]string{}
	for _, company := range []string{"Reply Ltd", "Delete Ltd"} {
		r := newBrowser(t, ts).do("POST", "/api/contact", map[string]any{"company": company, "email": "ops@acme.example"})
		require.Equal(t, http.StatusCreated, r.status, r.raw)
	}
	r = admin.do("GET", "/api/admin/contact-messages", nil)
	require.Equal(t, http.StatusOK, r.status, r.raw)
	for _, m := range data(t, r)["messages"].([]any) {
		m := m.(map[string]any)
		contactIDs[m["name"].(string)] = strconv.FormatInt(int64(m["id"].(float64)), 10)
	}

	// Pages to change and delete.
	pageIDs := map[string]string{}
	for _, slug := range []string{"sweep-update", "sweep-delete"} {
		r := admin.do("POST", "/api/admin/pages", map[string]any{"slug": slug, "title": "Sweep", "content": "Text of the page."})
		require.Equal(t, http.StatusCreated, r.status, r.raw)
		pageIDs[slug] = strconv.FormatInt(int64(data(t, r)["id"].(float64)), 10)
	}

	record := map[string]any{"type": "A", "name": "api", "content": "192.0.2.7", "ttl": 3600}
	return &badInputBundle{
		browsers: map[string]*browser{"visitor": newBrowser(t, ts), "user": alice, "admin": admin, "registrar-web": resellerWeb,
			"registrar": {t: t, base: ts.url, client: http.DefaultClient}},
		key: key,
		ops: map[string]badInputFixture{
			"auth-register": {caller: "visitor", body: signUp("newbie", "user"), free: []string{"fullName"}, blankOK: []string{"userType"},
				ok: http.StatusCreated},
			// A wrong password: whatever the sweep does, nobody logs in.
			"auth-login":  {caller: "visitor", body: map[string]any{"username": "alice", "password": "not-the-password"}},
			"auth-logout": {caller: "user"},
			// Changing only one of the new passwords makes them differ.
			"auth-change-password": {caller: "user", body: map[string]any{"currentPassword": "secret1", "newPassword": "secret2",
				"confirmPassword": "secret2"}},
			"auth-forgot-password": {caller: "visitor", body: map[string]any{"email": "nobody@example.com"}, ok: http.StatusOK},
			"auth-reset-password": {caller: "visitor", body: map[string]any{"token": "not-a-token", "newPassword": "secret9",
				"confirmPassword": "secret9"}},
			"registrar-api-key-rotate": {caller: "user"},
			// Account security: a pending token that is none, and calls
			// that alice (without two-factor sign-in) cannot make.
			"auth-login-two-factor": {caller: "visitor", body: map[string]any{"pendingToken": "not-a-token", "method": "totp",
				"code": "123456"}, free: []string{"pendingToken"}},
			"account-totp-setup":          {caller: "user"},
			"account-totp-confirm":        {caller: "user", body: map[string]any{"code": "123456"}},
			"account-two-factor-disable":  {caller: "user", body: map[string]any{"password": "secret1"}, free: []string{"password", "code"}},
			"account-recovery-codes":      {caller: "user", body: map[string]any{"code": "123456"}},
			"account-session-end":         {caller: "user", params: map[string]string{"id": "0123456789abcdef0123456789abcdef"}},
			"account-sessions-end-others": {caller: "user"},
			// Passkeys: ceremony tokens that are none, a passkey that is
			// not alice's. Names are the owner's own text.
			"account-passkey-options": {caller: "user"},
			"account-passkey-add": {caller: "user", body: map[string]any{"ceremonyToken": "not-a-token", "name": "Key",
				"credential": map[string]any{"id": "AAAA"}}, free: []string{"ceremonyToken", "name"}},
			"account-passkey-rename": {caller: "user", params: map[string]string{"id": "999999"},
				body: map[string]any{"name": "Key"}, free: []string{"name"}},
			"account-passkey-delete": {caller: "user", params: map[string]string{"id": "999999"}},
			"auth-passkey-options":   {caller: "visitor"},
			"auth-passkey-login": {caller: "visitor", body: map[string]any{"ceremonyToken": "not-a-token",
				"credential": map[string]any{"id": "AAAA"}}, free: []string{"ceremonyToken"}},
			"auth-login-passkey-options": {caller: "visitor", body: map[string]any{"pendingToken": "not-a-token"},
				free: []string{"pendingToken"}},
			// A demo deposit, which no admin reviews: never ok, and the
			// sweep proves bad ids change nothing either.
			"admin-deposit-confirm":          {caller: "admin", params: map[string]string{"id": depositID}},
			"admin-deposit-reject":           {caller: "admin", params: map[string]string{"id": depositID}},
			"admin-users-update":             {caller: "admin", params: map[string]string{"id": aliceID}, body: map[string]any{"disabled": false}, ok: http.StatusOK},
			"auth-verify-email":              {caller: "visitor", body: map[string]any{"token": "not-a-token"}},
			"auth-email-verification-resend": {caller: "user"},
			"registrar-tier-application-create": {caller: "registrar-web", body: map[string]any{"tier": "enterprise"},
				ok: http.StatusCreated},
			"admin-tier-application-approve": {caller: "admin", params: map[string]string{"id": applications["applicant1"]},
				ok: http.StatusOK},
			"admin-tier-application-decline": {caller: "admin", params: map[string]string{"id": applications["applicant2"]},
				body: map[string]any{"reason": "Tell us about your volumes first."}, free: []string{"reason"}, ok: http.StatusOK},
			"extensions-create": {caller: "admin", body: map[string]any{"extension": ".orgn.uk", "description": "Organisations",
				"basePrice": 8}, free: []string{"description", "verificationInstructions", "dnsApiKey", "dnsApiSecret", "dnsZoneId", "verificationDocuments"},
				ok: http.StatusCreated},
			"extensions-update": {caller: "admin", params: map[string]string{"id": extID}, body: map[string]any{"description": "Information"},
				free: []string{"description", "verificationInstructions", "dnsApiKey", "dnsApiSecret", "dnsZoneId", "verificationDocuments"},
				ok:   http.StatusOK},
			"extensions-delete": {caller: "admin", params: map[string]string{"id": extID}},
			// Key rollover steps have no body: the bad ids only.
			"extension-dnssec-ksk-rollover": {caller: "admin", params: map[string]string{"id": extID}},
			"extension-dnssec-ds-confirmed": {caller: "admin", params: map[string]string{"id": extID}},
			"premium-create": {caller: "admin", body: map[string]any{"name": "gold", "extension": ".inf.nz", "price": 50},
				free: []string{"description", "keywords"}, ok: http.StatusCreated},
			"premium-update": {caller: "admin", params: map[string]string{"id": premID},
				body: map[string]any{"name": "cloud", "extension": ".inf.nz", "price": 30}, free: []string{"description", "keywords"}, ok: http.StatusOK},
			"premium-delete": {caller: "admin", params: map[string]string{"id": premID}},
			"premium-bulk":   {caller: "admin", body: map[string]any{"action": "feature", "ids": []any{json.Number(premID)}}, ok: http.StatusOK},
			"domains-register": {caller: "user", body: map[string]any{"name": "fresh", "extension": ".inf.nz", "years": 1},
				ok: http.StatusCreated},
			"domains-update": {caller: "user", params: map[string]string{"id": domID}, body: map[string]any{"autoRenew": false}, ok: http.StatusOK},
			"domains-renew":  {caller: "user", params: map[string]string{"id": domID}},
			"dns-create": {caller: "user", params: map[string]string{"id": domID},
				body: map[string]any{"type": "MX", "name": "@", "content": "mail.example.com", "ttl": 3600, "priority": 10}, ok: http.StatusCreated},
			"dns-update": {caller: "user", params: map[string]string{"id": domID, "recordId": recID}, body: record, ok: http.StatusOK},
			"dns-delete": {caller: "user", params: map[string]string{"id": domID, "recordId": recID}},
			// The domain is not delegated: a good DS is refused too (422).
			"ds-create": {caller: "user", params: map[string]string{"id": domID},
				body: map[string]any{"keyTag": 2371, "algorithm": 13, "digestType": 2, "digest": strings.Repeat("AB", 32)}},
			"ds-delete": {caller: "user", params: map[string]string{"id": domID, "dsId": "999999"}},
			"update-keys-create": {caller: "user", params: map[string]string{"id": domID},
				body: map[string]any{"name": "certbot", "algorithm": "hmac-sha256", "names": []string{"_acme-challenge"}, "types": []string{"TXT"}}, ok: http.StatusCreated},
			"update-keys-revoke": {caller: "user", params: map[string]string{"id": domID, "keyId": "999999"}},
			"zone-import-preview": {caller: "user", params: map[string]string{"id": domID},
				body: map[string]any{"zoneFile": "mail 3600 IN A 192.0.2.8\n"}, ok: http.StatusOK},
			"zone-import": {caller: "user", params: map[string]string{"id": domID},
				body: map[string]any{"zoneFile": "mail 3600 IN A 192.0.2.8\n"}, ok: http.StatusOK},
			// dns-create's MX is another mail service's: replaced.
			"email-forwarding-set": {caller: "user", params: map[string]string{"id": domID},
				body: map[string]any{"enabled": true, "replaceMailRecords": true}, ok: http.StatusOK},
			"email-forwarding-rule-create": {caller: "user", params: map[string]string{"id": domID},
				body: map[string]any{"alias": "info", "destinations": []string{"alice.inbox@example.com"}}, ok: http.StatusCreated},
			"email-forwarding-rule-update": {caller: "user", params: map[string]string{"id": domID, "ruleId": ruleID},
				body: map[string]any{"alias": "renamed", "destinations": []string{"alice.inbox@example.com"}}, ok: http.StatusOK},
			"email-forwarding-rule-delete": {caller: "user", params: map[string]string{"id": domID, "ruleId": ruleID}},
			// The link went out at setup: the well-formed call is a 429
			// within the minute, so it has no ok.
			"email-forwarding-destination-resend": {caller: "user", params: map[string]string{"id": domID},
				body: map[string]any{"address": "alice.inbox@example.com"}},
			"email-forwarding-confirm": {caller: "visitor", body: map[string]any{"token": "not-a-token"}},
			"domain-forward-set": {caller: "user", params: map[string]string{"id": domID, "host": "go"}, names: []string{"host"},
				body: map[string]any{"target": "https://example.com/shop", "status": 301, "keepPath": true}, ok: http.StatusOK},
			"domain-forward-delete": {caller: "user", params: map[string]string{"id": domID, "host": "gone"}, names: []string{"host"}},
			"admin-job-retry":       {caller: "admin", params: map[string]string{"id": "1"}},
			"admin-job-cancel":      {caller: "admin", params: map[string]string{"id": "1"}},
			"create-payment-intent": {caller: "user", body: map[string]any{"amount": 10, "productName": "Demo"},
				free: []string{"productName"}, ok: http.StatusOK},
			"payments-confirm-test": {caller: "user", body: map[string]any{"paymentIntentId": "pi_demo_unknown", "cardNumber": "4242424242424242"}},
			"stripe-webhook":        {caller: "visitor"},
			"site-settings-create": {caller: "admin", body: map[string]any{"key": "support_email", "value": "help@example.com",
				"category": "contact"}, free: []string{"value", "description"}, blankOK: []string{"category"}, ok: http.StatusCreated},
			"site-settings-update": {caller: "admin", params: map[string]string{"id": setID}, body: map[string]any{"value": "Nameport!"},
				free: []string{"value", "description"}, ok: http.StatusOK},
			"site-settings-delete": {caller: "admin", params: map[string]string{"id": setID}},
			"admin-two-factor-policy-set": {caller: "admin", body: map[string]any{"requireAdmins": false,
				"requireRegistrars": false}, ok: http.StatusOK},
			// The contact form: a company, a subject, a message are the sender's own words.
			"contact-submit": {caller: "visitor", body: map[string]any{"company": "Acme Ltd", "email": "ops@acme.example",
				"interest": "api"}, free: []string{"company", "message"}, blankOK: []string{"interest"}, ok: http.StatusCreated},
			"admin-contact-message-reply": {caller: "admin", params: map[string]string{"id": contactIDs["Reply Ltd"]},
				body: map[string]any{"message": "Thanks for writing."}, free: []string{"message"}, ok: http.StatusOK},
			"admin-contact-message-delete": {caller: "admin", params: map[string]string{"id": contactIDs["Delete Ltd"]}},
			// A page's title, text and metadata are the admin's own words.
			"admin-pages-create": {caller: "admin", body: map[string]any{"slug": "sweep-new", "title": "Sweep", "content": "Text of the page.",
				"metaTitle": "Sweep", "metaDescription": "About the sweep", "pageType": "page", "featuredImage": "/logo.svg"},
				free: []string{"title", "content", "metaTitle", "metaDescription"}, blankOK: []string{"pageType", "metaTitle", "metaDescription", "featuredImage"},
				ok: http.StatusCreated},
			"admin-pages-update": {caller: "admin", params: map[string]string{"id": pageIDs["sweep-update"]},
				body: map[string]any{"title": "Changed", "content": "New text."}, free: []string{"title", "content", "metaTitle", "metaDescription"},
				blankOK: []string{"pageType", "metaTitle", "metaDescription", "featuredImage"}, ok: http.StatusOK},
			"admin-pages-delete": {caller: "admin", params: map[string]string{"id": pageIDs["sweep-delete"]}},
			"wallet-deposit": {caller: "user", body: map[string]any{"amount": 25, "paymentMethod": "credit_card"}, blankOK: []string{"paymentMethod"},
				ok: http.StatusCreated},
			"v1-domains-check": {caller: "registrar", body: map[string]any{"domain": "fresh2.inf.nz"}, ok: http.StatusOK},
			"v1-domains-register": {caller: "registrar", body: map[string]any{"domain": "fresh3.inf.nz", "years": 1},
				ok: http.StatusCreated},
			"v1-records-upsert": {caller: "registrar", params: map[string]string{"domain": "resell.inf.nz"},
				body: map[string]any{"name": "api", "type": "A", "values": []string{"192.0.2.9"}, "ttl": 3600}, ok: http.StatusOK},
			"v1-records-delete": {caller: "registrar", params: map[string]string{"domain": "resell.inf.nz", "type": "A", "name": "www"}},
			"v1-ds-create": {caller: "registrar", params: map[string]string{"domain": "resell.inf.nz"},
				body: map[string]any{"keyTag": 2371, "algorithm": 13, "digestType": 2, "digest": strings.Repeat("AB", 32)}},
			"v1-ds-delete": {caller: "registrar", params: map[string]string{"domain": "resell.inf.nz", "dsId": "999999"}},
			"v1-update-keys-create": {caller: "registrar", params: map[string]string{"domain": "resell.inf.nz"},
				body: map[string]any{"name": "certbot", "names": []string{"_acme-challenge"}, "types": []string{"TXT"}}, ok: http.StatusCreated},
			"v1-update-keys-revoke": {caller: "registrar", params: map[string]string{"domain": "resell.inf.nz", "keyId": "999999"}},
			"v1-wallet-deposit":     {caller: "registrar", body: map[string]any{"amount": 25}, ok: http.StatusCreated},
			"v1-email-forwarding-set": {caller: "registrar", params: map[string]string{"domain": "resell.inf.nz"},
				body: map[string]any{"enabled": true, "replaceMailRecords": true}, ok: http.StatusOK},
			"v1-email-forwarding-rule-create": {caller: "registrar", params: map[string]string{"domain": "resell.inf.nz"},
				body: map[string]any{"alias": "info", "destinations": []string{"ops@example.org"}}, ok: http.StatusCreated},
			"v1-email-forwarding-rule-update": {caller: "registrar", params: map[string]string{"domain": "resell.inf.nz", "ruleId": v1RuleID},
				body: map[string]any{"alias": "renamed", "destinations": []string{"ops@example.org"}}, ok: http.StatusOK},
			"v1-domain-forward-set": {caller: "registrar", params: map[string]string{"domain": "resell.inf.nz", "host": "go"},
				names: []string{"host"}, body: map[string]any{"target": "https://example.com/shop", "status": 308}, ok: http.StatusOK},
			"v1-domain-forward-delete": {caller: "registrar", params: map[string]string{"domain": "resell.inf.nz", "host": "gone"},
				names: []string{"host"}},
			"v1-email-forwarding-rule-delete": {caller: "registrar",
				params: map[string]string{"domain": "resell.inf.nz", "ruleId": v1RuleID}},
			// A key's name is its owner's text; its addresses and expiry are not.
			"registrar-keys-create":     {caller: "registrar-web", body: newKey, free: []string{"name"}, ok: http.StatusCreated},
			"registrar-keys-rotate":     {caller: "registrar-web", params: map[string]string{"id": keyIDs["web-rotate"]}, ok: http.StatusOK},
			"registrar-keys-revoke":     {caller: "registrar-web", params: map[string]string{"id": keyIDs["web-revoke"]}, ok: http.StatusOK},
			"v1-keys-create":            {caller: "registrar", body: newKey, free: []string{"name"}, ok: http.StatusCreated},
			"v1-keys-rotate":            {caller: "registrar", params: map[string]string{"id": keyIDs["v1-rotate"]}, ok: http.StatusOK},
			"v1-keys-revoke":            {caller: "registrar", params: map[string]string{"id": keyIDs["v1-revoke"]}, ok: http.StatusNoContent},
			"registrar-webhooks-create": {caller: "registrar-web", body: newHook, ok: http.StatusCreated},
			"registrar-webhooks-test":   {caller: "registrar-web", params: map[string]string{"id": hookIDs["web-test"]}, ok: http.StatusOK},
			"registrar-webhooks-delete": {caller: "registrar-web", params: map[string]string{"id": hookIDs["web-delete"]}, ok: http.StatusOK},
			"v1-webhooks-create":        {caller: "registrar", body: newHook, ok: http.StatusCreated},
			"v1-webhooks-test":          {caller: "registrar", params: map[string]string{"id": hookIDs["v1-test"]}, ok: http.StatusOK},
			"v1-webhooks-delete":        {caller: "registrar", params: map[string]string{"id": hookIDs["v1-delete"]}, ok: http.StatusNoContent},
			"registrar-webhooks-update": {caller: "registrar-web", params: map[string]string{"id": hookIDs["web-update"]},
				body: map[string]any{"events": []string{"domain.released"}, "enabled": false}, ok: http.StatusOK},
			"v1-webhooks-update": {caller: "registrar", params: map[string]string{"id": hookIDs["v1-update"]},
				body: map[string]any{"events": []string{"domain.released"}, "enabled": false}, ok: http.StatusOK},
			// Bulk operations. A check answers a bad name in its row, so
			// names are data there (NUL aside); a job refuses them whole.
			"bulk-check": {caller: "registrar-web", body: map[string]any{"names": []string{"fine.inf.nz"}}, free: []string{"names"},
				ok: http.StatusOK},
			"bulk-jobs-create": {caller: "registrar-web", body: map[string]any{"kind": "register", "names": []string{"bulkok.inf.nz"},
				"years": 1, "total": bulkTotal}},
			"dns-templates-create": {caller: "registrar-web", body: tplBody("sweep"), free: []string{"name"}, ok: http.StatusCreated},
			"dns-templates-update": {caller: "registrar-web", params: map[string]string{"id": tplIDs["web-update"]},
				body: tplBody("sweep updated"), free: []string{"name"}, ok: http.StatusOK},
			"dns-templates-delete": {caller: "registrar-web", params: map[string]string{"id": tplIDs["web-delete"]}, ok: http.StatusOK},
			"v1-bulk-check": {caller: "registrar", body: map[string]any{"names": []string{"fine.inf.nz"}}, free: []string{"names"},
				ok: http.StatusOK},
			"v1-bulk-register": {caller: "registrar", body: map[string]any{"names": []string{"bulkok.inf.nz"}, "years": 1, "total": bulkTotal},
				ok: http.StatusAccepted},
			"v1-bulk-renew":      {caller: "registrar", body: map[string]any{"names": []string{"resell.inf.nz"}, "total": 1000}},
			"v1-bulk-auto-renew": {caller: "registrar", body: map[string]any{"names": []string{"resell.inf.nz"}, "autoRenew": true}},
			"v1-bulk-dns-template": {caller: "registrar", body: map[string]any{"names": []string{"resell.inf.nz"}, "templateId": applyID},
				ok: http.StatusAccepted},
			"v1-dns-templates-create": {caller: "registrar", body: tplBody("sweep v1"), free: []string{"name"}, ok: http.StatusCreated},
			"v1-dns-templates-update": {caller: "registrar", params: map[string]string{"id": tplIDs["v1-update"]},
				body: tplBody("sweep v1 updated"), free: []string{"name"}, ok: http.StatusOK},
			"v1-dns-templates-delete": {caller: "registrar", params: map[string]string{"id": tplIDs["v1-delete"]}, ok: http.StatusNoContent},
		},
	}
}

// TestBadInputStripeWebhook sends bad bodies to the Stripe webhook when
// Stripe is configured (the sweep's server runs in demo mode, where the
// webhook answers 404 before it looks at the body).
func TestBadInputStripeWebhook(t *testing.T) {
	t.Parallel()
	ts := startWith(t, db.SQLite, func(c *config.Config) {
		c.StripeSecretKey, c.StripePublishableKey = "sk_test_badinput", "pk_test_badinput"
		c.StripeWebhookSecret, c.StripeAPIURL = testWebhookSecret, "http://127.0.0.1:1"
	})
	b := newBrowser(t, ts)
	before := countRows(t, ts.dbURL, "SELECT count(*) FROM payment_events")
	op := writeOp{id: "stripe-webhook", path: "/api/webhooks/stripe"}
	for name, body := range map[string]string{"truncated": `{"id":`, "plain text": "hello", "null": "null", "empty": "",
		"nul": `{"id":"evt_\u0000"}`, "unsigned event": string(paymentEvent(t, "evt_x", "payment_intent.succeeded", "pi_x"))} {
		r := b.doTimeout("POST", "/api/webhooks/stripe", body, "Stripe-Signature", "t=1,v1=00")
		requireRefused(t, op, name, r)
		assert.Equal(t, http.StatusBadRequest, r.status, "%s: %s", name, r.raw)
	}
	big := `{"id":"` + strings.Repeat("a", 1<<20+10) + `"}`
	r := b.doTimeout("POST", "/api/webhooks/stripe", big, "Stripe-Signature", stripeSign([]byte(big), testWebhookSecret))
	requireRefused(t, op, "over 1 MiB", r)
	require.Equal(t, http.StatusRequestEntityTooLarge, r.status, r.raw)
	require.Equal(t, "The request body is larger than 1 MiB", r.body["error"])
	require.Equal(t, before, countRows(t, ts.dbURL, "SELECT count(*) FROM payment_events"))
}
