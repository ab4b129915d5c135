package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"
)

func TestSPAHandler(t *testing.T) {
	t.Parallel()
	dist := fstest.MapFS{
		"index.html":        {Data: []byte("<html>app</html>")},
		"assets/app-1a.js":  {Data: []byte("console.log(1)")},
		"favicon.svg":       {Data: []byte("<svg/>")},
		"assets/nested/x.c": {Data: []byte("x")},
	}
	h := notFound(spaHandler(dist, nil))
	get := func(path string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		h(rec, httptest.NewRequest(http.MethodGet, path, nil))
		return rec
	}
	for _, p := range []string{"/", "/dashboard", "/domain-management/42", "/no/such/page", "/index.html"} {
		rec := get(p)
		require.Equal(t, http.StatusOK, rec.Code, p)
		require.Equal(t, "<html>app</html>", rec.Body.String(), p)
		require.Equal(t, "no-cache", rec.Header().Get("Cache-Control"), p)
	}
	rec := get("/assets/app-1a.js")
	require.Equal(t, "console.log(1)", rec.Body.String())
	require.Contains(t, rec.Header().Get("Cache-Control"), "immutable")
	require.Contains(t, rec.Header().Get("Content-Type"), "javascript")
	require.Equal(t, http.StatusNotFound, get("/assets/gone-2b.js").Code, "a missing asset is not the app")
	require.Equal(t, http.StatusNotFound, get("/api/unknown").Code)
	require.Equal(t, "application/problem+json", get("/v1/unknown").Header().Get("Content-Type"), "/v1 speaks RFC 9457")
	require.Equal(t, http.StatusOK, get("/../../etc/passwd").Code, "paths are cleaned inside dist")
	require.Equal(t, "<html>app</html>", get("/../../etc/passwd").Body.String())

	rec = httptest.NewRecorder()
	h(rec, httptest.NewRequest(http.MethodPost, "/dashboard", nil))
	require.Equal(t, http.StatusMethodNotAllowed, rec.Code)

	// With the build's list of pages, a path no page has is the app (its
	// not-found page) answered 404.
	dist["routes.json"] = &fstest.MapFile{Data: []byte(`["/","/dashboard","/domain-management/$id","/domain-management/"]`)}
	h = notFound(spaHandler(dist, nil))
	for p, want := range map[string]int{"/": 200, "/dashboard": 200, "/dashboard/": 200, "/domain-management/42": 200,
		"/domain-management": 200, "/domain-management/42/x": 404, "/no/such/page": 404, "/dashboardx": 404, "/index.html": 200} {
		rec := get(p)
		require.Equal(t, want, rec.Code, p)
		require.Equal(t, "<html>app</html>", rec.Body.String(), p)
	}
	require.Equal(t, "console.log(1)", get("/assets/app-1a.js").Body.String())

	// A route matched by a parameter asks whether what it names exists.
	dist["routes.json"] = &fstest.MapFile{Data: []byte(`["/","/pages/$slug"]`)}
	h = notFound(spaHandler(dist, func(_ context.Context, path string) bool {
		return !strings.HasPrefix(path, "/pages/") || path == "/pages/terms"
	}))
	for p, want := range map[string]int{"/": 200, "/pages/terms": 200, "/pages/nothing": 404, "/pages/terms/x": 404} {
		require.Equal(t, want, get(p).Code, p)
	}

	rec = httptest.NewRecorder()
	notFound(spaHandler(fstest.MapFS{}, nil))(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	require.Equal(t, http.StatusServiceUnavailable, rec.Code)
	require.Contains(t, rec.Body.String(), "make build")
}
