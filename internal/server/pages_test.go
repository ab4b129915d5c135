package server_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/dbtest"
)

// TestPagesOverHTTP: the legal pages are public from the start; an admin's
// page is not until published (admins preview it); writes are admins'
// only, validated with the field named, and audited.
func TestPagesOverHTTP(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := start(t, engine)
			admin := loginAdmin(t, ts)
			user := signedUp(t, ts, "alice", "user")
			guest := newBrowser(t, ts)

			for _, slug := range []string{"terms", "privacy", "cookies"} {
				r := guest.do("GET", "/api/pages/"+slug, nil)
				require.Equal(t, http.StatusOK, r.status, r.raw)
				require.Equal(t, true, data(t, r)["published"])
			}
			require.Equal(t, "Cookie Policy", data(t, guest.do("GET", "/api/pages/cookies", nil))["title"])
			r := guest.do("GET", "/api/pages/nothing-here", nil)
			require.Equal(t, http.StatusNotFound, r.status, r.raw)
			require.Equal(t, "Page not found", r.body["error"])

			// Writes: admins only; a guest gets 401, an account 403, and
			// nothing changes.
			draft := map[string]any{"slug": "careers", "title": "Careers", "content": "## Open roles\n\nNone yet.",
				"pageType": "career"}
			for _, who := range []*browser{guest, user} {
				want := http.StatusForbidden
				if who == guest {
					want = http.StatusUnauthorized
				}
				require.Equal(t, want, who.do("POST", "/api/admin/pages", draft).status)
				require.Equal(t, want, who.do("GET", "/api/admin/pages", nil).status)
				require.Equal(t, want, who.do("PATCH", "/api/admin/pages/1", map[string]any{"published": false}).status)
				require.Equal(t, want, who.do("DELETE", "/api/admin/pages/1", nil).status)
			}
			require.Equal(t, http.StatusOK, guest.do("GET", "/api/pages/terms", nil).status)

			// A new page is a draft: 404 to everyone but admins.
			r = admin.do("POST", "/api/admin/pages", draft)
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			page := data(t, r)
			require.Equal(t, false, page["published"])
			require.Equal(t, "career", page["pageType"])
			require.Equal(t, "Careers", page["headTitle"], "no meta title: the title")
			r = admin.do("PATCH", "/api/admin/pages/"+idOf(t, page["id"]), map[string]any{"metaTitle": "Work at Nameport"})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Equal(t, "Work at Nameport", data(t, r)["headTitle"], "the server says which title the page shows")
			require.NotNil(t, page["authorId"])
			id := idOf(t, page["id"])
			require.Equal(t, http.StatusNotFound, guest.do("GET", "/api/pages/careers", nil).status)
			require.Equal(t, http.StatusNotFound, user.do("GET", "/api/pages/careers", nil).status)
			require.Equal(t, http.StatusOK, admin.do("GET", "/api/pages/careers", nil).status)
			require.Len(t, admin.do("GET", "/api/admin/pages", nil).body["data"], 4)

			// Publish, unpublish.
			r = admin.do("PATCH", "/api/admin/pages/"+id, map[string]any{"published": true})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Equal(t, "## Open roles\n\nNone yet.", data(t, guest.do("GET", "/api/pages/careers", nil))["content"])
			require.Equal(t, http.StatusOK, admin.do("PATCH", "/api/admin/pages/"+id, map[string]any{"published": false}).status)
			require.Equal(t, http.StatusNotFound, guest.do("GET", "/api/pages/careers", nil).status)

			// Bad input: 422 (409 for a taken slug) naming the field, and
			// the page unchanged.
			for _, tc := range []struct {
				body   map[string]any
				status int
				field  string
				want   string
			}{
				{map[string]any{"slug": "Careers!"}, http.StatusUnprocessableEntity, "slug", "Slug may contain only lowercase letters, digits and hyphens"},
				{map[string]any{"slug": ""}, http.StatusUnprocessableEntity, "slug", "Slug is required"},
				{map[string]any{"title": " "}, http.StatusUnprocessableEntity, "title", "Title is required"},
				{map[string]any{"content": ""}, http.StatusUnprocessableEntity, "content", "Content is required"},
				{map[string]any{"pageType": "wiki"}, http.StatusUnprocessableEntity, "pageType", "Type must be one of"},
				{map[string]any{"metaDescription": strings.Repeat("d", 501)}, http.StatusUnprocessableEntity, "metaDescription", "Meta description must be at most 500 characters"},
				{map[string]any{"featuredImage": "javascript:alert(1)"}, http.StatusUnprocessableEntity, "featuredImage", "Featured image must be"},
				{map[string]any{"slug": "terms"}, http.StatusConflict, "slug", "Slug terms is already used by another page"},
			} {
				r := admin.do("PATCH", "/api/admin/pages/"+id, tc.body)
				require.Equal(t, tc.status, r.status, r.raw)
				require.Equal(t, tc.field, r.body["field"], r.raw)
				require.Contains(t, r.body["error"], tc.want)
			}
			r = admin.do("POST", "/api/admin/pages", map[string]any{"slug": "x"})
			require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)
			require.Equal(t, "Title is required", r.body["error"])
			require.Equal(t, "Careers", data(t, admin.do("GET", "/api/pages/careers", nil))["title"])
			require.Equal(t, http.StatusNotFound, admin.do("PATCH", "/api/admin/pages/999999", map[string]any{"title": "x"}).status)

			// Delete; every change is in the audit log.
			require.Equal(t, http.StatusOK, admin.do("DELETE", "/api/admin/pages/"+id, nil).status)
			require.Equal(t, http.StatusNotFound, admin.do("GET", "/api/pages/careers", nil).status)
			require.Equal(t, http.StatusNotFound, admin.do("DELETE", "/api/admin/pages/"+id, nil).status)
			var actions []string
			for _, e := range auditEntries(t, admin, "") {
				if e["targetType"] == "page" {
					require.Equal(t, id, e["targetId"])
					actions = append(actions, e["action"].(string))
				}
			}
			require.Equal(t, []string{"page.delete", "page.update", "page.update", "page.update", "page.create"}, actions)
		})
	}
}
