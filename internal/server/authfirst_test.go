package server_test

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
)

// Authentication and authorization come before validation: a caller who
// may not call an operation is refused for who it is, whatever it sent, so
// that it learns nothing of what the operation accepts. Every /api
// operation that needs an account, taken from the OpenAPI document and
// classified by authzOps, gets malformed requests from a visitor (401) and,
// where only some accounts may call it, from accounts that may not (403).

// malformedRequest is one bad request to an operation.
type malformedRequest struct {
	name, method, path string
	body               any // a string is sent as it is
}

// malformedRequests are the bad requests of op: bad path parameters, bad
// query parameters, and for operations with a body, unreadable JSON, a
// body of the wrong type, missing fields, unknown fields and every field
// of the wrong type.
func malformedRequests(op authzDocOp, body *writeOp) []malformedRequest {
	path := pathParam.ReplaceAllString(op.template, "not-an-id")
	query := "?limit=not-a-number&status=%00&cursor=-1&notAParameter=1"
	reqs := []malformedRequest{
		{name: "bad path parameters", method: op.method, path: path},
		{name: "bad query parameters", method: op.method, path: pathParam.ReplaceAllString(op.template, "1") + query},
	}
	if body == nil || !body.hasBody {
		return reqs
	}
	ok := pathParam.ReplaceAllString(op.template, "1")
	reqs = append(reqs,
		malformedRequest{name: "unreadable JSON", method: op.method, path: ok, body: `{"a":`},
		malformedRequest{name: "not an object", method: op.method, path: ok, body: `[1,2,3]`},
		malformedRequest{name: "missing fields", method: op.method, path: ok, body: `{}`},
		malformedRequest{name: "unknown field", method: op.method, path: ok, body: map[string]any{"notAField": true}},
		malformedRequest{name: "bad JSON and bad path", method: op.method, path: path, body: `nul`},
	)
	wrong := map[string]any{}
	for _, name := range slices.Sorted(maps.Keys(body.props)) {
		switch body.props[name] {
		case "string":
			wrong[name] = 12345
		case "object", "array":
			wrong[name] = "text"
		default: // numbers, booleans
			wrong[name] = map[string]any{"nested": "text"}
		}
	}
	if len(wrong) > 0 {
		reqs = append(reqs, malformedRequest{name: "every field of the wrong type", method: op.method, path: ok, body: wrong})
	}
	return reqs
}

func TestAuthorizationComesBeforeValidation(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := start(t, engine)
			visitor := newBrowser(t, ts)
			user := signedUp(t, ts, "authfirstuser", "user")
			reseller, _ := registrar(t, ts, "authfirstreseller")

			bodies := map[string]*writeOp{}
			for _, w := range writeOps(t, visitor) {
				bodies[w.method+" "+w.path] = &w
			}
			codes := map[int]string{http.StatusUnauthorized: "unauthenticated", http.StatusForbidden: "forbidden"}
			refused := func(who string, op authzDocOp, req malformedRequest, b *browser, status int, message string) {
				t.Helper()
				r := b.do(req.method, req.path, req.body)
				where := fmt.Sprintf("%s (%s), %s, as %s: %s %s", op.key, op.id, req.name, who, req.method, req.path)
				require.Equal(t, status, r.status, "%s: %s", where, r.raw)
				require.Equal(t, map[string]any{"success": false, "error": message, "code": codes[status]}, r.body,
					"%s: %s", where, r.raw)
			}

			protected := 0
			for _, op := range documentOps(t, ts) {
				c, known := authzOps[op.key]
				require.True(t, known, "%s is not classified in authzOps", op.key)
				if !strings.HasPrefix(op.template, "/api/") || c.access == authzPublic {
					continue
				}
				protected++
				for _, req := range malformedRequests(op, bodies[op.key]) {
					refused("a visitor", op, req, visitor, http.StatusUnauthorized, "Not authenticated")
					switch c.access {
					case authzAdmin:
						refused("a user", op, req, user, http.StatusForbidden, "Admin access required")
						refused("a registrar", op, req, reseller, http.StatusForbidden, "Admin access required")
					case authzRegistrar:
						message := "Only registrar accounts have an API key"
						if strings.Contains(op.template, "tier-application") {
							message = "Only registrar accounts have a tier"
						}
						if strings.Contains(op.template, "/allowance") {
							message = "Only registrar accounts have a registration allowance"
						}
						if strings.Contains(op.template, "/bulk/") || strings.Contains(op.template, "/dns-templates") {
							message = "Bulk operations are for registrar accounts"
						}
						if strings.Contains(op.template, "/reports") {
							message = "Only registrar accounts have reports"
						}
						if strings.Contains(op.template, "/registrar/webhooks") {
							message = "Only registrar accounts have webhooks"
						}
						refused("a user", op, req, user, http.StatusForbidden, message)
					}
				}
			}
			require.Greater(t, protected, 40, "the document's protected /api operations")

			// A visitor whose session has ended is a visitor.
			ended := newBrowser(t, ts)
			r := ended.do("POST", "/api/admin/premium-domains", `{"name":`, "Cookie", "nameport_session=ended")
			require.Equal(t, http.StatusUnauthorized, r.status, r.raw)
			require.Equal(t, "Not authenticated", r.body["error"], r.raw)

			// Cross-site writes are refused before anyone is authenticated:
			// the cookie a foreign page makes a browser send counts for
			// nothing.
			r = visitor.do("POST", "/api/admin/premium-domains", `{"name":`, "Sec-Fetch-Site", "cross-site")
			require.Equal(t, http.StatusForbidden, r.status, r.raw)
			require.Equal(t, "Cross-site request refused", r.body["error"], r.raw)

			// Operations for visitors and accounts alike validate for
			// everyone, and an ended session makes no difference.
			for _, b := range []*browser{visitor, user} {
				r = b.do("GET", "/api/domains/check?name=x&extension=.inf.nz&notAParameter=1", nil)
				require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)
			}
			r = ended.do("GET", "/api/domains/check?name=x&extension=.inf.nz&notAParameter=1", nil, "Cookie", "nameport_session=ended")
			require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)
			want := visitor.do("GET", "/api/domain-extensions", nil)
			require.Equal(t, http.StatusOK, want.status, want.raw)
			r = ended.do("GET", "/api/domain-extensions", nil, "Cookie", "nameport_session=ended")
			require.Equal(t, want.raw, r.raw, "an ended session is a visitor")
		})
	}
}

// The check above must not pass because every answer is a 401: the same
// malformed requests from the accounts that may call the operations are
// refused for what they sent.
func TestMalformedRequestsFromAllowedCallersAreValidated(t *testing.T) {
	t.Parallel()
	ts := start(t, db.SQLite)
	user := signedUp(t, ts, "validateduser", "user")
	r := user.do("POST", "/api/domains", `{"name":`)
	require.Equal(t, http.StatusBadRequest, r.status, r.raw)
	r = user.do("POST", "/api/domains", map[string]any{"name": 5, "extension": ".inf.nz"})
	require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)
	r = user.do("GET", "/api/domains/not-an-id", nil)
	require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)
	admin := loginAdmin(t, ts)
	r = admin.do("POST", "/api/admin/premium-domains", `{"name":`)
	require.Equal(t, http.StatusBadRequest, r.status, r.raw)
	r = admin.do("POST", "/api/admin/premium-domains", map[string]any{"notAField": true})
	require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)
}
