package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"net/http/cookiejar"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/account"
	"github.com/nameport/nameport/internal/api"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/servertest"
	"github.com/nameport/nameport/internal/zone"
)

// The document names every schema after a declared type and lists every
// field the server sends: huma leaves out the fields of an unexported
// embedded struct and names an anonymous struct after its Go source.
func TestOpenAPISchemasAreComplete(t *testing.T) {
	t.Parallel()
	schemas := api.New(chi.NewRouter(), api.Services{}).OpenAPI().Components.Schemas.Map()
	for name := range schemas {
		require.False(t, strings.ContainsAny(name, " {}\"`"), "schema %q is named after an anonymous struct", name)
	}
	fields := func(name string) []string {
		s, ok := schemas[name]
		require.True(t, ok, "no schema %s", name)
		var out []string
		for f := range s.Properties {
			out = append(out, f)
		}
		return out
	}
	// A pending deposit is a transaction plus its account.
	require.Subset(t, fields("PendingDepositBody"), []string{"id", "amount", "status", "paymentMethod", "createdAt", "userId", "username", "email"})
	// An application as admins see it is the application plus its applicant.
	require.Subset(t, fields("AdminTierApplicationBody"), []string{"id", "requestedTier", "status", "createdAt", "userId", "username", "currentTier"})
	require.Subset(t, fields("BulkResultBody"), []string{"changed"})
}

// The zone file limit the document states is the one import applies.
func TestZoneFileLimitIsTheSchemas(t *testing.T) {
	t.Parallel()
	found := 0
	for name, s := range api.New(chi.NewRouter(), api.Services{}).OpenAPI().Components.Schemas.Map() {
		if f, ok := s.Properties["zoneFile"]; ok && f.MaxLength != nil { // a request's, not an export's
			require.Equal(t, zone.MaxZoneFile, *f.MaxLength, name)
			found++
		}
	}
	require.NotZero(t, found, "no schema has a zoneFile")
}

// The document's operations are on the server that serves it: one relative
// server, so that a client resolves them against wherever it fetched the
// document.
func TestOpenAPIServerIsRelative(t *testing.T) {
	t.Parallel()
	servers := api.New(chi.NewRouter(), api.Services{}).OpenAPI().Servers
	require.Len(t, servers, 1)
	require.Equal(t, "/", servers[0].URL)
}

// openAPIDocument is what these tests read of the served document.
type openAPIDocument struct {
	Paths      map[string]map[string]openAPIOperation `json:"paths"`
	Components struct {
		Schemas         map[string]openAPISchema `json:"schemas"`
		SecuritySchemes map[string]any           `json:"securitySchemes"`
	} `json:"components"`
}

type openAPIOperation struct {
	OperationID string                 `json:"operationId"`
	Security    *[]map[string][]string `json:"security"`
	Parameters  []struct {
		Name string `json:"name"`
		In   string `json:"in"`
	} `json:"parameters"`
	RequestBody *struct {
		Content map[string]struct {
			Schema openAPISchema `json:"schema"`
		} `json:"content"`
	} `json:"requestBody"`
	Responses map[string]struct {
		Content map[string]struct {
			Schema openAPISchema `json:"schema"`
		} `json:"content"`
	} `json:"responses"`
}

type openAPISchema struct {
	Ref      string   `json:"$ref"`
	Type     string   `json:"type"`
	Format   string   `json:"format"`
	Required []string `json:"required"`
}

// needsCredentials tells whether op's security requires credentials: it
// names at least one requirement and none of them is empty (an empty one
// lets anonymous callers in).
func (op openAPIOperation) needsCredentials() bool {
	return op.Security != nil && len(*op.Security) > 0 &&
		!slices.ContainsFunc(*op.Security, func(r map[string][]string) bool { return len(r) == 0 })
}

// takesIdempotencyKey tells whether op declares the Idempotency-Key header.
func (op openAPIOperation) takesIdempotencyKey() bool {
	return slices.ContainsFunc(op.Parameters, func(p struct {
		Name string `json:"name"`
		In   string `json:"in"`
	}) bool {
		return p.In == "header" && p.Name == "Idempotency-Key"
	})
}

// rawBody tells whether op's handler reads its body as bytes rather than
// huma parsing it as JSON.
func (op openAPIOperation) rawBody() bool {
	for _, mt := range op.RequestBody.Content {
		if mt.Schema.Format == "binary" {
			return true
		}
	}
	return false
}

var pathParameter = regexp.MustCompile(`\{[^}]+\}`)

// openAPIClient calls a running server as a browser (with a cookie jar) or,
// with apiKey, as a program on /v1.
type openAPIClient struct {
	t      *testing.T
	base   string
	http   *http.Client
	apiKey string
}

func newOpenAPIClient(t *testing.T, base string) *openAPIClient {
	jar, err := cookiejar.New(nil)
	require.NoError(t, err)
	return &openAPIClient{t: t, base: base, http: &http.Client{Jar: jar}}
}

type openAPIReply struct {
	status      int
	contentType string
	body        map[string]any
	raw         string
}

func (c *openAPIClient) send(method, path, contentType string, body []byte, headers ...string) openAPIReply {
	c.t.Helper()
	var r io.Reader
	if body != nil {
		r = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, c.base+path, r)
	require.NoError(c.t, err)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if c.apiKey != "" {
		req.Header.Set("X-API-Key", c.apiKey)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := c.http.Do(req)
	require.NoError(c.t, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(c.t, err)
	out := openAPIReply{status: resp.StatusCode, raw: string(raw)}
	out.contentType, _, _ = mime.ParseMediaType(resp.Header.Get("Content-Type"))
	_ = json.Unmarshal(raw, &out.body)
	return out
}

func (c *openAPIClient) sendJSON(method, path string, body any) openAPIReply {
	c.t.Helper()
	b, err := json.Marshal(body)
	require.NoError(c.t, err)
	return c.send(method, path, "application/json", b)
}

// servedDocument is the document the running server serves.
func servedDocument(t *testing.T, base string) openAPIDocument {
	t.Helper()
	r := newOpenAPIClient(t, base).send(http.MethodGet, "/openapi.json", "", nil)
	require.Equal(t, http.StatusOK, r.status, r.raw)
	var doc openAPIDocument
	require.NoError(t, json.Unmarshal([]byte(r.raw), &doc))
	require.NotEmpty(t, doc.Paths)
	return doc
}

// The document's security is what the server enforces: every operation
// declares it (empty for public ones), and an anonymous request, even a
// malformed one, is refused with 401 by exactly the operations that
// require credentials (a session on /api, an API key on /v1).
func TestOpenAPISecurityIsWhatTheServerEnforces(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			s := servertest.Start(t, engine, nil)
			doc := servedDocument(t, s.URL)
			require.Subset(t, keysOf(doc.Components.SecuritySchemes), []string{"session", "apiKey", "bearer"})
			visitor := newOpenAPIClient(t, s.URL)
			protected, open := 0, 0
			for path, item := range doc.Paths {
				for method, op := range item {
					where := strings.ToUpper(method) + " " + path + " (" + op.OperationID + ")"
					require.NotNil(t, op.Security, "%s declares no security", where)
					var body []byte
					if op.RequestBody != nil {
						body = []byte(`{}`)
					}
					r := visitor.send(strings.ToUpper(method), pathParameter.ReplaceAllString(path, "1"), "application/json", body)
					if op.needsCredentials() {
						protected++
						require.Equal(t, http.StatusUnauthorized, r.status, "%s requires credentials: %s", where, r.raw)
						require.Contains(t, op.Responses, "401", where)
						for _, requirement := range *op.Security {
							for scheme := range requirement {
								require.Contains(t, doc.Components.SecuritySchemes, scheme, where)
							}
						}
					} else {
						open++
						require.NotEqual(t, http.StatusUnauthorized, r.status, "%s declares no credentials: %s", where, r.raw)
					}
				}
			}
			require.Greater(t, protected, 50)
			require.Greater(t, open, 10)
		})
	}
}

// Every operation with a body documents what the server answers, before
// any handler, to a body it cannot take: not JSON (400), larger than
// 1 MiB (413), of another content type (415). Each is sent to every such
// operation by a caller allowed to call it, and the answer must have the
// documented status, media type and required fields (the envelope on /api,
// problem details on /v1).
func TestOpenAPIDocumentsBodyErrors(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			s := servertest.Start(t, engine, nil)
			doc := servedDocument(t, s.URL)

			visitor := newOpenAPIClient(t, s.URL)
			reseller := newOpenAPIClient(t, s.URL)
			r := reseller.sendJSON(http.MethodPost, "/api/auth/register", map[string]any{"username": "openapireseller",
				"email": "openapireseller@example.com", "password": "secret1", "confirmPassword": "secret1",
				"fullName": "Test Person", "userType": "registrar"})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			program := newOpenAPIClient(t, s.URL)
			program.apiKey = r.body["data"].(map[string]any)["apiKey"].(string)
			admin := newOpenAPIClient(t, s.URL)
			createAdmin(t, s.DatabaseURL, "openapiadmin", "hunter22")
			r = admin.sendJSON(http.MethodPost, "/api/auth/login", map[string]any{"username": "openapiadmin", "password": "hunter22"})
			require.Equal(t, http.StatusOK, r.status, r.raw)

			tooLarge := append([]byte(`{"a":"`), bytes.Repeat([]byte("x"), 1<<20)...)
			tooLarge = append(tooLarge, `"}`...)
			checked := 0
			for path, item := range doc.Paths {
				for method, op := range item {
					if op.RequestBody == nil {
						continue
					}
					method := strings.ToUpper(method)
					where := method + " " + path + " (" + op.OperationID + ")"
					target := pathParameter.ReplaceAllString(path, "1")
					// A caller the operation lets in: a visitor, the
					// registrar's key on /v1, else its session, or an
					// admin's where a registrar is refused.
					caller := visitor
					switch {
					case strings.HasPrefix(path, "/v1/"):
						caller = program
					case op.needsCredentials():
						caller = reseller
						if r := reseller.send(method, target, "application/json", []byte(`{"a":`)); r.status == http.StatusForbidden {
							caller = admin
						}
					}
					expect := func(status int, r openAPIReply, what string) {
						t.Helper()
						code := http.StatusText(status)
						require.Equal(t, status, r.status, "%s, %s: %s", where, what, r.raw)
						documented, ok := op.Responses[strconv.Itoa(status)]
						require.True(t, ok, "%s does not document %d %s", where, status, code)
						mt, ok := documented.Content[r.contentType]
						require.True(t, ok, "%s answers %d as %s, documented as %v", where, status, r.contentType, keysOf(documented.Content))
						schema := mt.Schema
						if schema.Ref != "" {
							schema = doc.Components.Schemas[strings.TrimPrefix(schema.Ref, "#/components/schemas/")]
						}
						require.NotEmpty(t, schema.Required, where)
						for _, field := range schema.Required {
							require.Contains(t, r.body, field, "%s: %d answer without %s: %s", where, status, field, r.raw)
						}
					}
					expect(http.StatusRequestEntityTooLarge, caller.send(method, target, "application/json", tooLarge), "a body over 1 MiB")
					if op.takesIdempotencyKey() { // read whole by the idempotency check first
						expect(http.StatusRequestEntityTooLarge, caller.send(method, target, "application/json", tooLarge,
							"Idempotency-Key", "openapi-too-large"), "a body over 1 MiB with an Idempotency-Key")
					}
					checked++
					if op.rawBody() {
						continue
					}
					expect(http.StatusBadRequest, caller.send(method, target, "application/json", []byte(`{"a":`)), "unreadable JSON")
					r := caller.send(method, target, "text/plain", []byte(`{}`))
					expect(http.StatusUnsupportedMediaType, r, "text/plain")
					message := r.body["error"]
					if strings.HasPrefix(path, "/v1/") {
						message = r.body["detail"]
					}
					require.Equal(t, "The request body must be JSON, sent with Content-Type: application/json", message, where)
				}
			}
			require.Greater(t, checked, 25)
		})
	}
}

func createAdmin(t *testing.T, databaseURL, username, password string) {
	t.Helper()
	d := dbtest.Connect(t, databaseURL)
	accounts, err := account.NewService(d, account.Options{Secret: []byte(strings.Repeat("x", 32))})
	require.NoError(t, err)
	_, err = accounts.CreateDemoAdmin(context.Background(), username, username+"@example.com", password)
	require.NoError(t, err)
}

func keysOf[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
