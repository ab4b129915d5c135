package api

import (
	"context"
	"net/http"
	"testing"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humachi"
	"github.com/go-chi/chi/v5"
	"github.com/stretchr/testify/require"
)

// An operation registered without an access would be open to anyone: the
// route table refuses to start with one.
func TestEveryOperationDeclaresAccess(t *testing.T) {
	t.Parallel()
	a := humachi.New(chi.NewRouter(), huma.DefaultConfig("test", "1"))
	useAuthorization(a, nil, nil)
	handler := func(context.Context, *struct{}) (*struct{}, error) { return nil, nil }
	register(a, accessPublic, huma.Operation{OperationID: "declared", Method: http.MethodGet, Path: "/api/declared"}, handler)
	register(a, accessAdmin, huma.Operation{OperationID: "admin", Method: http.MethodGet, Path: "/api/admin/x"}, handler)
	require.NotPanics(t, func() { mustDeclareAccess(a) })

	huma.Register(a, huma.Operation{OperationID: "forgotten", Method: http.MethodPost, Path: "/api/forgotten"}, handler)
	require.PanicsWithValue(t, "api: POST /api/forgotten (forgotten) declares no access: register it with register",
		func() { mustDeclareAccess(a) })
}

// The document says which operations need a session, which take one if
// sent and which need none, and that those needing one may answer 401 (and
// 403 when only some accounts may call them).
func TestRegisterDocumentsAccess(t *testing.T) {
	t.Parallel()
	a := humachi.New(chi.NewRouter(), huma.DefaultConfig("test", "1"))
	useAuthorization(a, nil, nil)
	handler := func(context.Context, *struct{}) (*struct{}, error) { return nil, nil }
	register(a, accessAccount, huma.Operation{OperationID: "mine", Method: http.MethodGet, Path: "/api/mine"}, handler)
	register(a, accessRegistrar("Registrars only"), huma.Operation{OperationID: "reg", Method: http.MethodGet, Path: "/api/reg"}, handler)
	register(a, accessOptional, huma.Operation{OperationID: "anyone", Method: http.MethodGet, Path: "/api/anyone"}, handler)
	register(a, accessPublic, huma.Operation{OperationID: "public", Method: http.MethodGet, Path: "/api/public"}, handler)

	mine := a.OpenAPI().Paths["/api/mine"].Get
	require.Equal(t, []map[string][]string{{sessionScheme: {}}}, mine.Security)
	require.Contains(t, mine.Responses, "401")
	require.NotContains(t, mine.Responses, "403")
	reg := a.OpenAPI().Paths["/api/reg"].Get
	require.Contains(t, reg.Responses, "401")
	require.Contains(t, reg.Responses, "403")
	anyone := a.OpenAPI().Paths["/api/anyone"].Get
	// The session is optional: no requirement or the session.
	require.Equal(t, []map[string][]string{{}, {sessionScheme: {}}}, anyone.Security)
	require.NotContains(t, anyone.Responses, "401")
	public := a.OpenAPI().Paths["/api/public"].Get
	require.NotNil(t, public.Security, "a public operation says so: security []")
	require.Empty(t, public.Security)
	require.NotContains(t, public.Responses, "401")
	require.Equal(t, "cookie", a.OpenAPI().Components.SecuritySchemes[sessionScheme].In)
}
