package account_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/account"
	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/audit"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
)

func TestSessionsListEndAndEndOthers(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		u, err := b.svc.Register(ctx, signUp("hana", account.TypeUser))
		require.NoError(t, err)
		v, err := b.svc.Register(ctx, signUp("ivan", account.TypeUser))
		require.NoError(t, err)
		firefox := account.Client{IP: "198.51.100.7", UserAgent: "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0"}
		here, err := b.svc.StartSession(ctx, u, client)
		require.NoError(t, err)
		b.clock.Advance(time.Minute)
		there, err := b.svc.StartSession(ctx, u, firefox)
		require.NoError(t, err)
		third, err := b.svc.StartSession(ctx, u, client)
		require.NoError(t, err)
		theirs, err := b.svc.StartSession(ctx, v, client)
		require.NoError(t, err)

		list, err := b.svc.Sessions(ctx, u, here)
		require.NoError(t, err)
		require.Len(t, list, 3, "only the account's own sessions")
		var current, fx account.SessionInfo
		for _, s := range list {
			if s.Current {
				current = s
			}
			if s.ClientIP == "198.51.100.7" {
				fx = s
			}
		}
		require.NotEmpty(t, current.ID)
		require.Equal(t, "Firefox 133 on Linux", fx.Browser)

		// Last seen moves with use, at most once a minute.
		b.clock.Advance(5 * time.Minute)
		_, err = b.svc.Authenticate(ctx, there)
		require.NoError(t, err)
		list, err = b.svc.Sessions(ctx, u, here)
		require.NoError(t, err)
		require.Equal(t, fx.ID, list[0].ID, "most recently seen first")
		require.Equal(t, b.clock.Now().UTC(), list[0].LastSeenAt.UTC())

		// Another account's session is not found, and stays.
		theirList, err := b.svc.Sessions(ctx, v, theirs)
		require.NoError(t, err)
		require.Len(t, theirList, 1)
		err = b.svc.EndSession(ctx, u, theirList[0].ID)
		require.Equal(t, apperr.NotFound, apperr.Code(err))
		for _, bad := range []string{"", "x", "../../etc", "ABCDEF0123456789ABCDEF0123456789"} {
			require.Equal(t, apperr.NotFound, apperr.Code(b.svc.EndSession(ctx, u, bad)))
		}
		_, err = b.svc.Authenticate(ctx, theirs)
		require.NoError(t, err)

		require.NoError(t, b.svc.EndSession(ctx, u, fx.ID))
		_, err = b.svc.Authenticate(ctx, there)
		require.Equal(t, apperr.Unauthenticated, apperr.Code(err))
		require.Equal(t, apperr.NotFound, apperr.Code(b.svc.EndSession(ctx, u, fx.ID)), "ended already")

		n, err := b.svc.EndOtherSessions(ctx, u, here)
		require.NoError(t, err)
		require.EqualValues(t, 1, n)
		_, err = b.svc.Authenticate(ctx, third)
		require.Equal(t, apperr.Unauthenticated, apperr.Code(err))
		_, err = b.svc.Authenticate(ctx, here)
		require.NoError(t, err)
		_, err = b.svc.Authenticate(ctx, theirs)
		require.NoError(t, err, "another account's sessions are untouched")
		require.Equal(t, 1, auditCount(t, d, audit.ActionSessionEnd))
		require.Equal(t, 1, auditCount(t, d, audit.ActionSessionEndOthers))
	})
}

func TestChangePasswordEndsOtherSessions(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		u, err := b.svc.Register(ctx, signUp("jack", account.TypeUser))
		require.NoError(t, err)
		here, err := b.svc.StartSession(ctx, u, client)
		require.NoError(t, err)
		other, err := b.svc.StartSession(ctx, u, client)
		require.NoError(t, err)
		require.NoError(t, b.svc.ChangePassword(ctx, u, "secret1", "secret2", "secret2", here, client))
		list, err := b.svc.Sessions(ctx, u, here)
		require.NoError(t, err)
		require.Len(t, list, 1)
		require.True(t, list[0].Current)
		_, err = b.svc.Authenticate(ctx, other)
		require.Equal(t, apperr.Unauthenticated, apperr.Code(err))
		require.Equal(t, 1, auditCount(t, d, audit.ActionPasswordChange))
	})
}

func TestBrowserOf(t *testing.T) {
	t.Parallel()
	for ua, want := range map[string]string{
		"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36":                                   "Chrome 131 on Linux",
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0":               "Edge 131 on Windows",
		"Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1": "Safari 17 on iOS",
		"Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15":                      "Safari 17 on macOS",
		"Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36":                            "Chrome 131 on Android",
		"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36":                           "Headless Chrome 131 on Linux",
		"curl/8.5.0":         "curl 8",
		"":                   "Unknown browser",
		"Go-http-client/1.1": "Unknown browser",
	} {
		require.Equal(t, want, account.BrowserOf(ua), ua)
	}
}
