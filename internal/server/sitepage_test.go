package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/settings"
)

// builtIndex is the head of web/index.html as vite writes it.
const builtIndex = `<!doctype html><html lang="en"><head><meta charset="UTF-8" />
<link rel="icon" type="image/svg+xml" href="/favicon.svg" />
<meta name="description" content="Nameport: built." />
<meta name="theme-color" content="#4f46e5" />
<title>Nameport · Built</title>
</head><body><div id="root"></div></body></html>`

// TestServedPageCarriesTheSite: index.html, on every app path, carries the
// site's title, description, favicon and colours for crawlers and the first
// paint, every value escaped; other files are served as built.
func TestServedPageCarriesTheSite(t *testing.T) {
	t.Parallel()
	site := settings.Site{Name: `Acme "Names" & Co`, SEOTitle: `</title><script>alert(1)</script>`,
		SEODescription: `Say "hi" <b>`, FaviconURL: `/icon.png?a=1&b=2`, PrimaryColor: "#ee1111",
		Palette: settings.PaletteOf("#ee1111"), Social: []settings.SocialLink{}}
	dist := fstest.MapFS{"index.html": {Data: []byte(builtIndex)}, "logo.svg": {Data: []byte("<svg/>")}}
	h := spaHandler(sitePages{dist, func(context.Context) (settings.Site, error) { return site, nil }}, nil)
	for _, path := range []string{"/", "/wallet", "/index.html"} {
		rec := httptest.NewRecorder()
		h(rec, httptest.NewRequest(http.MethodGet, path, nil))
		require.Equal(t, http.StatusOK, rec.Code, path)
		page := rec.Body.String()
		require.Equal(t, len(page), int(rec.Result().ContentLength), "Content-Length is the rendered page's")
		require.Contains(t, page, `<title>&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;</title>`)
		require.NotContains(t, page, "<script>alert")
		require.Contains(t, page, `<meta name="description" content="Say &#34;hi&#34; &lt;b&gt;" />`)
		require.Contains(t, page, `<link rel="icon" href="/icon.png?a=1&amp;b=2" />`)
		require.Contains(t, page, `<meta name="theme-color" content="#ee1111" />`)
		require.Contains(t, page, `<meta property="og:site_name" content="Acme &#34;Names&#34; &amp; Co" />`)
		require.Contains(t, page, "--brand-600:238 17 17;")
		require.Contains(t, page, `<script type="application/json" id="site-data">{"name":"Acme \"Names\" \u0026 Co",`)
		require.Contains(t, page, `"seoTitle":"\u003c/title\u003e\u003cscript\u003ealert(1)\u003c/script\u003e"`)
		require.Equal(t, 1, strings.Count(page, "</head>"))
		require.NotContains(t, page, "Nameport")
	}
	rec := httptest.NewRecorder()
	h(rec, httptest.NewRequest(http.MethodGet, "/logo.svg", nil))
	require.Equal(t, "<svg/>", rec.Body.String())
}
