package settings_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/audit"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/settings"
)

func noAudit(_, _ *settings.Setting) audit.Entry {
	return audit.Entry{Action: "setting", TargetType: "site_setting"}
}

// TestSiteIsThePublicSettingsOverTheirDefaults: a fresh server has a whole
// site (name, logo, favicon, colour, SEO texts); the public settings an
// admin saves replace the defaults; a private one does not show.
func TestSiteIsThePublicSettingsOverTheirDefaults(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		svc, err := settings.NewService(d, settings.Options{Secret: []byte(strings.Repeat("s", 32))})
		require.NoError(t, err)

		site, err := svc.Site(ctx)
		require.NoError(t, err)
		require.Equal(t, "Nameport", site.Name)
		require.Equal(t, "/logo.svg", site.LogoURL)
		require.Equal(t, "/favicon.ico", site.FaviconURL)
		require.Equal(t, "#4f46e5", site.PrimaryColor)
		require.Equal(t, "79 70 229", site.Palette["600"], "the primary colour is step 600")
		require.Len(t, site.Palette, 11)
		require.Equal(t, "Nameport · Domain registration and management", site.SEOTitle)
		require.NotEmpty(t, site.SEODescription)
		require.Empty(t, site.Social)

		set := func(key, value string, public bool) {
			t.Helper()
			_, err := svc.Create(ctx, settings.Input{Key: &key, Value: &value, IsPublic: &public}, noAudit)
			require.NoError(t, err)
		}
		set("site_name", "Acme Names", true)
		set("primary_color", "#E11", true)
		set("favicon_url", "/brand/icon.png", true)
		set("social_github", "https://github.com/acme", true)
		set("contact_email", "help@acme.test", true)
		set("contact_phone", "+64 9 000 0000", false)
		site, err = svc.Site(ctx)
		require.NoError(t, err)
		require.Equal(t, "Acme Names", site.Name)
		require.Equal(t, "#ee1111", site.PrimaryColor)
		require.Equal(t, "238 17 17", site.Palette["600"])
		require.Equal(t, "/brand/icon.png", site.FaviconURL)
		require.Equal(t, "Acme Names · Domain registration and management", site.SEOTitle, "the default title takes the name")
		require.Equal(t, []settings.SocialLink{{Platform: "github", URL: "https://github.com/acme"}}, site.Social)
		require.Equal(t, "help@acme.test", site.ContactEmail)
		require.Empty(t, site.ContactPhone, "a private setting is not public")
	})
}

// TestSiteSettingsRefuseValuesThatWouldNotWork: the settings the site shows
// are checked when saved, with a message that says what is expected, and
// nothing is stored.
func TestSiteSettingsRefuseValuesThatWouldNotWork(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		svc, err := settings.NewService(d, settings.Options{Secret: []byte(strings.Repeat("s", 32))})
		require.NoError(t, err)
		for _, c := range []struct{ key, value, message string }{
			{"primary_color", "blue", "Primary colour must be a hex colour such as #2563eb"},
			{"primary_color", "#12345", "Primary colour must be a hex colour such as #2563eb"},
			{"logo_url", "javascript:alert(1)", "logo_url must be a path on this site (such as /logo.svg) or an https:// address"},
			{"favicon_url", "//evil.test/x.ico", "favicon_url must be a path on this site (such as /logo.svg) or an https:// address"},
			{"social_x", "javascript:alert(1)", "social_x must be an http:// or https:// address"},
			{"contact_email", "not an address", "Contact email must be an email address"},
		} {
			_, err := svc.Create(ctx, settings.Input{Key: &c.key, Value: &c.value}, noAudit)
			require.Equal(t, apperr.Invalid, apperr.Code(err), c.key)
			require.Contains(t, err.Error(), c.message)
		}
		list, err := svc.List(ctx, false)
		require.NoError(t, err)
		require.Empty(t, list)

		// A change is checked as well.
		key, value := "primary_color", "#2563eb"
		s, err := svc.Create(ctx, settings.Input{Key: &key, Value: &value}, noAudit)
		require.NoError(t, err)
		bad := "red"
		_, err = svc.Update(ctx, s.ID, settings.Input{Value: &bad}, noAudit)
		require.Equal(t, apperr.Invalid, apperr.Code(err))
		site, err := svc.Site(ctx)
		require.NoError(t, err)
		require.Equal(t, "#2563eb", site.PrimaryColor)
	})
}
