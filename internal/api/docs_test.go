package api_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/api"
)

// get serves one GET from a router with every operation registered.
func get(t *testing.T, path string) *httptest.ResponseRecorder {
	t.Helper()
	r := chi.NewRouter()
	api.New(r, api.Services{})
	rec := httptest.NewRecorder()
	r.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
	return rec
}

// wholeDocument is /openapi.json as a client reads it.
func wholeDocument(t *testing.T) map[string]any {
	t.Helper()
	raw, err := json.Marshal(api.New(chi.NewRouter(), api.Services{}).OpenAPI())
	require.NoError(t, err)
	var d map[string]any
	require.NoError(t, json.Unmarshal(raw, &d))
	return d
}

// operationsOf lists "METHOD path" of a document's operations, with their
// tags and the security schemes they name.
func operationsOf(d map[string]any) (ops []string, tags, schemes map[string]bool) {
	tags, schemes = map[string]bool{}, map[string]bool{}
	for path, item := range d["paths"].(map[string]any) {
		for method, op := range item.(map[string]any) {
			op, ok := op.(map[string]any)
			if !ok {
				continue
			}
			ops = append(ops, strings.ToUpper(method)+" "+path)
			for _, t := range op["tags"].([]any) {
				tags[t.(string)] = true
			}
			security, _ := op["security"].([]any)
			for _, req := range security {
				for name := range req.(map[string]any) {
					schemes[name] = true
				}
			}
		}
	}
	slices.Sort(ops)
	return ops, tags, schemes
}

// allRefs lists every $ref under v.
func allRefs(v any) []string {
	var out []string
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if s, ok := x.(string); ok && k == "$ref" {
				out = append(out, s)
			}
			out = append(out, allRefs(x)...)
		}
	case []any:
		for _, x := range v {
			out = append(out, allRefs(x)...)
		}
	}
	return out
}

// The registrar API's own document (/v1/openapi.json) has every /v1
// operation of the whole document and nothing else, and stands on its own:
// every $ref resolves in it, every security scheme and tag its operations
// name is declared, and no schema only /api uses comes along. (`npm run
// lint:openapi` lints it with Redocly's rules, as it does /openapi.json.)
func TestV1DocumentIsTheRegistrarAPIAlone(t *testing.T) {
	t.Parallel()
	rec := get(t, api.V1DocumentPath)
	require.Equal(t, http.StatusOK, rec.Code)
	require.Equal(t, "application/openapi+json", rec.Header().Get("Content-Type"))
	var v1 map[string]any
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &v1))

	whole := wholeDocument(t)
	all, _, _ := operationsOf(whole)
	var wantOps []string
	for _, op := range all {
		if strings.Contains(op, " /v1/") {
			wantOps = append(wantOps, op)
		}
	}
	ops, tags, schemes := operationsOf(v1)
	require.Greater(t, len(wantOps), 30)
	require.Equal(t, wantOps, ops, "the /v1 operations, all of them and only them")
	require.Equal(t, whole["openapi"], v1["openapi"])
	require.Equal(t, "Nameport Registrar API", v1["info"].(map[string]any)["title"])
	require.Equal(t, whole["servers"], v1["servers"])

	components := v1["components"].(map[string]any)
	for _, ref := range allRefs(v1) {
		section, name, ok := strings.Cut(strings.TrimPrefix(ref, "#/components/"), "/")
		require.True(t, ok && strings.HasPrefix(ref, "#/components/"), "ref %s", ref)
		require.Contains(t, components[section], name, "ref %s resolves", ref)
	}
	schemas := components["schemas"].(map[string]any)
	require.Contains(t, keysOf(schemas), "Problem", "/v1's problem details")
	require.NotContains(t, keysOf(schemas), "AdminTierApplicationBody", "a schema of /api alone")
	require.Less(t, len(schemas), len(whole["components"].(map[string]any)["schemas"].(map[string]any)))
	// Each schema kept is referenced from something else in the document.
	referenced := map[string]bool{}
	for _, ref := range allRefs(v1) {
		referenced[ref] = true
	}
	for name := range schemas {
		require.True(t, referenced["#/components/schemas/"+name], "schema %s is used", name)
	}
	require.Equal(t, map[string]bool{"apiKey": true, "bearer": true}, schemes)
	require.ElementsMatch(t, []string{"apiKey", "bearer"}, keysOf(components["securitySchemes"].(map[string]any)))
	var declared []string
	for _, tag := range v1["tags"].([]any) {
		declared = append(declared, tag.(map[string]any)["name"].(string))
	}
	require.Equal(t, keysOf(tags), declared)
	require.NotContains(t, v1, "x-tagGroups")

	// `nameport openapi --v1` prints the same document.
	made, err := api.V1Document(api.New(chi.NewRouter(), api.Services{}).OpenAPI())
	require.NoError(t, err)
	require.JSONEq(t, rec.Body.String(), string(made))
}

// The whole document lists the registrar API first: its tag is the first
// declared and its group (x-tagGroups, the sidebar's sections) the first,
// and every tag an operation uses is declared, described and in exactly one
// group (Redoc leaves a tag in no group out of the sidebar).
func TestDocumentListsTheRegistrarAPIFirst(t *testing.T) {
	t.Parallel()
	d := wholeDocument(t)
	_, used, _ := operationsOf(d)
	var declared []string
	for _, tag := range d["tags"].([]any) {
		tag := tag.(map[string]any)
		declared = append(declared, tag["name"].(string))
		require.NotEmpty(t, tag["description"], "tag %s is described", tag["name"])
	}
	require.Equal(t, "Registrar API", declared[0])
	require.ElementsMatch(t, keysOf(used), declared)

	groups := d["x-tagGroups"].([]any)
	require.Len(t, groups, 2)
	require.Equal(t, "Registrar API (/v1)", groups[0].(map[string]any)["name"])
	require.Equal(t, []any{"Registrar API"}, groups[0].(map[string]any)["tags"])
	require.Equal(t, "Web app API (/api)", groups[1].(map[string]any)["name"])
	var grouped []string
	for _, g := range groups {
		for _, tag := range g.(map[string]any)["tags"].([]any) {
			grouped = append(grouped, tag.(string))
		}
	}
	require.ElementsMatch(t, declared, grouped)
	require.Contains(t, d["info"].(map[string]any)["description"], "**Registrar API (`/v1`)**")
	require.Contains(t, d["info"].(map[string]any)["description"], "**Web app API (`/api`)**")
}

// /docs and /docs/v1 are Redoc's shell around their documents, from this
// origin only; without script they link the document.
func TestDocsPages(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ path, title, spec string }{
		{"/docs", "API Reference · Nameport", "/openapi.json"},
		{"/docs/v1", "Registrar API Reference · Nameport", "/v1/openapi.json"},
	} {
		rec := get(t, c.path)
		require.Equal(t, http.StatusOK, rec.Code, c.path)
		require.Equal(t, "text/html; charset=utf-8", rec.Header().Get("Content-Type"))
		page := rec.Body.String()
		require.Contains(t, page, "<title>"+c.title+"</title>")
		require.Contains(t, page, `data-spec-url="`+c.spec+`"`)
		require.Contains(t, page, `<noscript>`)
		require.Contains(t, page, `<a href="`+c.spec+`">`)
		require.Contains(t, page, `<script src="/docs/redoc.standalone.js"></script>`)
		require.Contains(t, page, `<script src="/docs/docs.js"></script>`)
		require.NotContains(t, page, "://", "%s loads nothing from elsewhere", c.path)
		require.Equal(t, 2, strings.Count(page, "<script"), "%s: no inline script", c.path)
	}
}
