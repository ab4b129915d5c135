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
	// A page that exists may bring its own head (title, description).
	dist["routes.json"] = &fstest.MapFile{Data: []byte(`["/","/pages/$slug"]`)}
	dist["index.html"] = &fstest.MapFile{Data: []byte(`<html><head><title>Site</title>` +
		`<meta name="description" content="The site" /><meta property="og:title" content="Site" />` +
		`<meta property="og:description" content="The site" /></head></html>`)}
	h = notFound(spaHandler(dist, func(_ context.Context, path string) (*pageHead, bool) {
		switch path {
		case "/pages/terms":
			return &pageHead{Title: "Terms & <Conditions> · Site", Description: `What "we" promise`}, true
		case "/pages/plain":
			return &pageHead{Title: "Plain · Site"}, true
		}
		return nil, !strings.HasPrefix(path, "/pages/")
	}))
	for p, want := range map[string]int{"/": 200, "/pages/terms": 200, "/pages/plain": 200, "/pages/nothing": 404, "/pages/terms/x": 404} {
		require.Equal(t, want, get(p).Code, p)
	}
	require.Equal(t, `<html><head><title>Terms &amp; &lt;Conditions&gt; · Site</title>`+
		`<meta name="description" content="What &#34;we&#34; promise" /><meta property="og:title" content="Terms &amp; &lt;Conditions&gt; · Site" />`+
		`<meta property="og:description" content="What &#34;we&#34; promise" /></head></html>`, get("/pages/terms").Body.String())
	require.Equal(t, `<html><head><title>Plain · Site</title>`+
		`<meta name="description" content="The site" /><meta property="og:title" content="Plain · Site" />`+
		`<meta property="og:description" content="The site" /></head></html>`, get("/pages/plain").Body.String())
	require.Contains(t, get("/").Body.String(), "<title>Site</title>")
	require.Equal(t, "no-cache", get("/pages/terms").Header().Get("Cache-Control"))

	rec = httptest.NewRecorder()
	notFound(spaHandler(fstest.MapFS{}, nil))(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	require.Equal(t, http.StatusServiceUnavailable, rec.Code)
	require.Contains(t, rec.Body.String(), "make build")
}
