package server_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/dbtest"
)

// TestPublicSiteOverHTTP: GET /api/site answers everyone with the site's
// public settings over their defaults; an admin's change shows at once; a
// value that would not work is refused with a clear message.
func TestPublicSiteOverHTTP(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := start(t, engine)
			admin := loginAdmin(t, ts)
			guest := newBrowser(t, ts)

			site := data(t, guest.do("GET", "/api/site", nil))
			require.Equal(t, "Nameport", site["name"])
			require.Equal(t, "/logo.svg", site["logoUrl"])
			require.Equal(t, "/favicon.ico", site["faviconUrl"])
			require.Equal(t, "#4f46e5", site["primaryColor"])
			require.Equal(t, []any{}, site["social"])

			r := admin.do("POST", "/api/site-settings", map[string]any{"key": "primary_color", "value": "teal"})
			require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)
			require.Equal(t, "Primary colour must be a hex colour such as #2563eb", r.body["error"])

			for k, v := range map[string]string{"site_name": "Acme Names", "primary_color": "#0d9488",
				"social_x": "https://x.com/acme", "seo_description": "Names for Acme"} {
				r := admin.do("POST", "/api/site-settings", map[string]any{"key": k, "value": v})
				require.Equal(t, http.StatusCreated, r.status, r.raw)
			}
			site = data(t, guest.do("GET", "/api/site", nil))
			require.Equal(t, "Acme Names", site["name"])
			require.Equal(t, "#0d9488", site["primaryColor"])
			require.Equal(t, "13 148 136", site["palette"].(map[string]any)["600"])
			require.Equal(t, "Names for Acme", site["seoDescription"])
			require.Equal(t, []any{map[string]any{"platform": "x", "url": "https://x.com/acme"}}, site["social"])
		})
	}
}
