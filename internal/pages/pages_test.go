package pages_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/audit"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/pages"
)

func ptr[T any](v T) *T { return &v }

// TestSeededLegalPages: a fresh database has the three legal pages the
// footer links to, published, with Markdown content; the cookie policy
// names the cookies the server sets.
func TestSeededLegalPages(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		svc := pages.NewService(d, pages.Options{})
		for slug, title := range map[string]string{"terms": "Terms of Service", "privacy": "Privacy Policy", "cookies": "Cookie Policy"} {
			p, err := svc.BySlug(ctx, slug, false)
			require.NoError(t, err, slug)
			require.Equal(t, title, p.Title)
			require.Equal(t, title, p.MetaTitle)
			require.NotEmpty(t, p.MetaDescription)
			require.True(t, p.Published)
			require.Equal(t, "page", p.PageType)
			require.Contains(t, p.Content, "\n## ")
			require.False(t, p.CreatedAt.IsZero())
		}
		cookies, err := svc.BySlug(ctx, "cookies", false)
		require.NoError(t, err)
		require.Contains(t, cookies.Content, "`nameport_session`")
		require.Contains(t, cookies.Content, "`nameport_device`")
		list, err := svc.List(ctx)
		require.NoError(t, err)
		require.Len(t, list, 3)
	})
}

// TestPublishedOnly: a page that is not published is not found by slug,
// except in an admin's preview.
func TestPublishedOnly(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		svc := pages.NewService(d, pages.Options{})
		p, err := svc.Create(ctx, 0, pages.Input{Slug: ptr("about-us"), Title: ptr("About Us"), Content: ptr("We sell names.")}, nil)
		require.NoError(t, err)
		require.False(t, p.Published, "spec: published defaults to false")
		require.Equal(t, "page", p.PageType)

		_, err = svc.BySlug(ctx, "about-us", false)
		require.Equal(t, apperr.NotFound, apperr.Code(err))
		preview, err := svc.BySlug(ctx, "about-us", true)
		require.NoError(t, err)
		require.Equal(t, "We sell names.", preview.Content)

		_, err = svc.Update(ctx, p.ID, pages.Input{Published: ptr(true)}, nil)
		require.NoError(t, err)
		got, err := svc.BySlug(ctx, "about-us", false)
		require.NoError(t, err)
		require.Equal(t, "About Us", got.Title)

		_, err = svc.BySlug(ctx, "nothing-here", true)
		require.Equal(t, apperr.NotFound, apperr.Code(err))
	})
}

// TestValidation: the spec's rules and the limits refuse a page with a
// message that names the field, and change nothing.
func TestValidation(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		svc := pages.NewService(d, pages.Options{})
		valid := func() pages.Input {
			return pages.Input{Slug: ptr("help"), Title: ptr("Help"), Content: ptr("Ask us.")}
		}
		cases := []struct {
			name    string
			change  func(*pages.Input)
			code    string
			message string
		}{
			{"no slug", func(in *pages.Input) { in.Slug = ptr("  ") }, apperr.Invalid, "Slug is required"},
			{"upper case", func(in *pages.Input) { in.Slug = ptr("Help") }, apperr.Invalid, "Slug may contain only lowercase letters, digits and hyphens"},
			{"slash", func(in *pages.Input) { in.Slug = ptr("a/b") }, apperr.Invalid, "Slug may contain only lowercase letters, digits and hyphens"},
			{"space", func(in *pages.Input) { in.Slug = ptr("a b") }, apperr.Invalid, "Slug may contain only lowercase letters, digits and hyphens"},
			{"no title", func(in *pages.Input) { in.Title = nil }, apperr.Invalid, "Title is required"},
			{"no content", func(in *pages.Input) { in.Content = ptr("\n \n") }, apperr.Invalid, "Content is required"},
			{"bad type", func(in *pages.Input) { in.PageType = ptr("wiki") }, apperr.Invalid, "Type must be one of page, blog, career, about, press, contact, api"},
			{"script image", func(in *pages.Input) { in.FeaturedImage = ptr("javascript:alert(1)") }, apperr.Invalid, "Featured image must be"},
			{"long slug", func(in *pages.Input) { in.Slug = ptr(strings.Repeat("a", pages.MaxSlug+1)) }, apperr.Invalid, "Slug must be at most 100 characters"},
			{"long title", func(in *pages.Input) { in.Title = ptr(strings.Repeat("é", pages.MaxTitle+1)) }, apperr.Invalid, "Title must be at most 200 characters"},
			{"long meta", func(in *pages.Input) { in.MetaDescription = ptr(strings.Repeat("x", pages.MaxMetaDescription+1)) }, apperr.Invalid, "Meta description must be at most 500 characters"},
			{"taken slug", func(in *pages.Input) { in.Slug = ptr("terms") }, apperr.Conflict, "Slug terms is already used by another page"},
		}
		for _, c := range cases {
			in := valid()
			c.change(&in)
			_, err := svc.Create(ctx, 0, in, nil)
			require.Equal(t, c.code, apperr.Code(err), c.name)
			require.Contains(t, apperr.Message(err), c.message, c.name)
		}
		// Each names its field, for the admin form to show it there.
		_, err := svc.Create(ctx, 0, pages.Input{Slug: ptr("Bad Slug"), Title: ptr("T"), Content: ptr("C")}, nil)
		require.Equal(t, "slug", apperr.FieldOf(err))
		_, err = svc.Create(ctx, 0, pages.Input{Slug: ptr("ok"), Title: ptr("T"), Content: ptr("C"), MetaTitle: ptr(strings.Repeat("m", 201))}, nil)
		require.Equal(t, "metaTitle", apperr.FieldOf(err))
		list, err := svc.List(ctx)
		require.NoError(t, err)
		require.Len(t, list, 3, "nothing refused was stored")

		// The same rules on a change, which leaves the page as it was.
		terms, err := svc.BySlug(ctx, "terms", false)
		require.NoError(t, err)
		_, err = svc.Update(ctx, terms.ID, pages.Input{Slug: ptr("privacy")}, nil)
		require.Equal(t, apperr.Conflict, apperr.Code(err))
		_, err = svc.Update(ctx, terms.ID, pages.Input{Title: ptr("")}, nil)
		require.Equal(t, apperr.Invalid, apperr.Code(err))
		after, err := svc.BySlug(ctx, "terms", false)
		require.NoError(t, err)
		require.Equal(t, terms.Title, after.Title)
		require.Equal(t, terms.UpdatedAt, after.UpdatedAt)

		_, err = svc.Update(ctx, 999999, pages.Input{Title: ptr("x")}, nil)
		require.Equal(t, apperr.NotFound, apperr.Code(err))
		require.Equal(t, apperr.NotFound, apperr.Code(svc.Delete(ctx, 999999, nil)))
	})
}

// TestAuditedInTheChangesTransaction: every change records its audit
// entry, and a change whose entry cannot be recorded does not happen.
func TestAuditedInTheChangesTransaction(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		svc := pages.NewService(d, pages.Options{})
		var seen [][2]*pages.Page
		ok := func(before, after *pages.Page) audit.Entry {
			seen = append(seen, [2]*pages.Page{before, after})
			return audit.Entry{Action: "page", TargetType: "page"}
		}
		broken := func(_, _ *pages.Page) audit.Entry {
			return audit.Entry{Action: "page", TargetType: "page", After: func() {}}
		}
		entries := func() int { return dbtest.Count(t, d, "SELECT count(*) FROM audit_log WHERE action = 'page'") }
		in := pages.Input{Slug: ptr("press"), Title: ptr("Press"), Content: ptr("# Press kit"), PageType: ptr("press")}

		_, err := svc.Create(ctx, 0, in, broken)
		require.Error(t, err)
		_, err = svc.BySlug(ctx, "press", true)
		require.Equal(t, apperr.NotFound, apperr.Code(err))
		p, err := svc.Create(ctx, 0, in, ok)
		require.NoError(t, err)
		require.Equal(t, 1, entries())

		_, err = svc.Update(ctx, p.ID, pages.Input{Title: ptr("Press room")}, broken)
		require.Error(t, err)
		_, err = svc.Update(ctx, p.ID, pages.Input{Title: ptr("Press room")}, ok)
		require.NoError(t, err)
		require.Equal(t, 2, entries())
		require.Equal(t, "Press", seen[1][0].Title)
		require.Equal(t, "Press room", seen[1][1].Title)

		require.Error(t, svc.Delete(ctx, p.ID, broken))
		_, err = svc.BySlug(ctx, "press", true)
		require.NoError(t, err)
		require.NoError(t, svc.Delete(ctx, p.ID, ok))
		require.Equal(t, 3, entries())
		_, err = svc.BySlug(ctx, "press", true)
		require.Equal(t, apperr.NotFound, apperr.Code(err))
	})
}
