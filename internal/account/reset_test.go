package account_test

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/account"
	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/notify"
)

const invalidLink = "This reset link is invalid or has expired. Ask for a new one."

func setupReset(t *testing.T, d *db.DB) bundle {
	t.Helper()
	require.NoError(t, d.SetupJobs(db.JobsConfig{})) // insert-only: the mail jobs stay queued for the test to read
	clock := &fakeClock{now: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)}
	svc, err := account.NewService(d, account.Options{Secret: []byte(strings.Repeat("s", 32)), SessionTTL: 24 * time.Hour,
		Now: clock.Now, PublicURL: "https://nameport.example/"})
	require.NoError(t, err)
	return bundle{svc: svc, db: d, clock: clock}
}

// resetMails returns the queued password_reset messages, oldest first.
func resetMails(t *testing.T, d *db.DB) []notify.SendArgs {
	t.Helper()
	return queuedMails(t, d, notify.KindPasswordReset)
}

// queuedMails returns the queued messages of kind, oldest first.
func queuedMails(t *testing.T, d *db.DB, kind string) []notify.SendArgs {
	t.Helper()
	args := "args::text"
	if d.Engine == db.SQLite {
		args = "json(args)" // riversqlite keeps args as binary JSON
	}
	var raw []string
	require.NoError(t, d.Bun.NewSelect().Table("river_job").ColumnExpr(args).
		Where("kind = ?", notify.SendArgs{}.Kind()).Order("id").Scan(context.Background(), &raw))
	var out []notify.SendArgs
	for _, r := range raw {
		var m notify.SendArgs
		require.NoError(t, json.Unmarshal([]byte(r), &m))
		if m.Template == kind {
			out = append(out, m)
		}
	}
	return out
}

// tokenOf reads the token out of the reset link of m, made as the mail
// worker makes it when sending.
func tokenOf(t *testing.T, b bundle, m notify.SendArgs) string {
	t.Helper()
	require.NotContains(t, m.Data, "link", "no link in the job")
	secrets, err := b.svc.MailSecrets()[m.Template](context.Background(), m.UserID, m.Data)
	require.NoError(t, err)
	link := secrets["link"]
	require.True(t, strings.HasPrefix(link, "https://nameport.example/reset-password?token="), link)
	u, err := url.Parse(link)
	require.NoError(t, err)
	return u.Query().Get("token")
}

func requireInvalid(t *testing.T, err error, message string) {
	t.Helper()
	require.Equal(t, apperr.Invalid, apperr.Code(err), "%v", err)
	require.Equal(t, message, apperr.Message(err))
}

func TestPasswordReset(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		b := setupReset(t, d)
		ann, err := b.svc.Register(ctx, signUp("ann", account.TypeUser))
		require.NoError(t, err)
		_, phone, err := b.svc.Login(ctx, "ann", "secret1", "", client)
		require.NoError(t, err)
		_, laptop, err := b.svc.Login(ctx, "ann", "secret1", "", client)
		require.NoError(t, err)

		require.NoError(t, b.svc.RequestPasswordReset(ctx, "  ANN@example.com ", client))
		mails := resetMails(t, d)
		require.Len(t, mails, 1)
		require.Equal(t, ann.ID, mails[0].UserID)
		token := tokenOf(t, b, mails[0])
		require.Len(t, token, 43)

		// Bad new passwords keep the link usable.
		requireInvalid(t, b.svc.ResetPassword(ctx, token, "short", "short"), "Password must be at least 6 characters")
		requireInvalid(t, b.svc.ResetPassword(ctx, token, "n3w-secret", "other"), "Passwords do not match")

		require.NoError(t, b.svc.ResetPassword(ctx, token, "n3w-secret", "n3w-secret"))
		for _, s := range []string{phone, laptop} {
			_, err := b.svc.Authenticate(ctx, s)
			require.Equal(t, apperr.Unauthenticated, apperr.Code(err), "every session ended")
		}
		_, _, err = b.svc.Login(ctx, "ann", "secret1", "", client)
		require.Equal(t, apperr.Unauthenticated, apperr.Code(err))
		_, _, err = b.svc.Login(ctx, "ann", "n3w-secret", "", client)
		require.NoError(t, err)

		// Single use.
		requireInvalid(t, b.svc.ResetPassword(ctx, token, "again-secret", "again-secret"), invalidLink)
		requireInvalid(t, b.svc.ResetPassword(ctx, "not-a-token", "again-secret", "again-secret"), invalidLink)
		requireInvalid(t, b.svc.ResetPassword(ctx, "", "again-secret", "again-secret"), invalidLink)
	})
}

func TestPasswordResetLinkExpiresAfterAnHour(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		b := setupReset(t, d)
		_, err := b.svc.Register(ctx, signUp("bob", account.TypeUser))
		require.NoError(t, err)
		require.NoError(t, b.svc.RequestPasswordReset(ctx, "bob@example.com", client))
		b.clock.Advance(59 * time.Minute)
		require.NoError(t, b.svc.RequestPasswordReset(ctx, "bob@example.com", client))
		mails := resetMails(t, d)
		require.Len(t, mails, 2)

		b.clock.Advance(time.Minute)
		requireInvalid(t, b.svc.ResetPassword(ctx, tokenOf(t, b, mails[0]), "n3w-secret", "n3w-secret"), invalidLink)
		require.NoError(t, b.svc.ResetPassword(ctx, tokenOf(t, b, mails[1]), "n3w-secret", "n3w-secret"))
	})
}

func TestPasswordResetUsesUpEveryOtherLinkOfTheAccount(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		b := setupReset(t, d)
		_, err := b.svc.Register(ctx, signUp("cat", account.TypeUser))
		require.NoError(t, err)
		require.NoError(t, b.svc.RequestPasswordReset(ctx, "cat@example.com", client))
		require.NoError(t, b.svc.RequestPasswordReset(ctx, "cat@example.com", client))
		mails := resetMails(t, d)
		require.Len(t, mails, 2)
		require.NotEqual(t, tokenOf(t, b, mails[0]), tokenOf(t, b, mails[1]))
		require.NoError(t, b.svc.ResetPassword(ctx, tokenOf(t, b, mails[1]), "n3w-secret", "n3w-secret"))
		requireInvalid(t, b.svc.ResetPassword(ctx, tokenOf(t, b, mails[0]), "other-secret", "other-secret"), invalidLink)
	})
}

func TestPasswordResetRevealsNoAccounts(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		b := setupReset(t, d)
		dan, err := b.svc.Register(ctx, signUp("dan", account.TypeUser))
		require.NoError(t, err)
		dbtest.MustExec(t, d, "UPDATE users SET disabled_at = ? WHERE id = ?", b.clock.Now(), dan.ID)

		require.NoError(t, b.svc.RequestPasswordReset(ctx, "nobody@example.com", client))
		require.NoError(t, b.svc.RequestPasswordReset(ctx, "dan@example.com", client), "a disabled account gets the same answer")
		require.Empty(t, resetMails(t, d))

		requireInvalid(t, b.svc.RequestPasswordReset(ctx, "not an email", client), "Invalid email address")
	})
}

func TestPasswordResetRequestsAreThrottled(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		b := setupReset(t, d)
		_, err := b.svc.Register(ctx, signUp("eve", account.TypeUser))
		require.NoError(t, err)

		// Per address: the answer stays the same, but no more than three mails
		// go out in fifteen minutes.
		for i := range 5 {
			c := account.Client{IP: "198.51.100." + string(rune('1'+i))}
			require.NoError(t, b.svc.RequestPasswordReset(ctx, "eve@example.com", c))
		}
		require.Len(t, resetMails(t, d), 3)

		// Per client: ten requests, then 429 until the window passes.
		for i := range 10 {
			require.NoError(t, b.svc.RequestPasswordReset(ctx, "someone"+string(rune('a'+i))+"@example.com", client))
		}
		err = b.svc.RequestPasswordReset(ctx, "more@example.com", client)
		require.Equal(t, apperr.TooManyRequests, apperr.Code(err))
		require.Equal(t, "Too many password reset requests. Please try again in 15 minutes.", apperr.Message(err))

		b.clock.Advance(15 * time.Minute)
		require.NoError(t, b.svc.RequestPasswordReset(ctx, "eve@example.com", client))
		require.Len(t, resetMails(t, d), 4)
	})
}

func TestPasswordResetTokenIsInNoJob(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		b := setupReset(t, d)
		fay, err := b.svc.Register(ctx, signUp("fay", account.TypeUser))
		require.NoError(t, err)
		require.NoError(t, b.svc.RequestPasswordReset(ctx, "fay@example.com", client))
		mails := resetMails(t, d)
		require.Len(t, mails, 1)
		token := tokenOf(t, b, mails[0])

		// Whatever the database holds (every job's arguments, the reset
		// table): not the token, so a reader of the database cannot make
		// the link; only the server secret can.
		args := "args::text"
		if d.Engine == db.SQLite {
			args = "json(args)"
		}
		var all []string
		require.NoError(t, d.Bun.NewSelect().Table("river_job").ColumnExpr(args).Scan(ctx, &all))
		var resets []string
		require.NoError(t, d.Bun.NewSelect().Table("password_resets").Column("token_hash").Scan(ctx, &resets))
		for _, s := range append(all, resets...) {
			require.NotContains(t, s, token)
		}
		other, err := account.NewService(d, account.Options{Secret: []byte(strings.Repeat("o", 32)), PublicURL: "https://nameport.example/"})
		require.NoError(t, err)
		_, err = other.MailSecrets()[notify.KindPasswordReset](ctx, fay.ID, mails[0].Data)
		require.ErrorIs(t, err, notify.ErrObsolete, "another secret makes another token, which matches no reset")

		// The link works; once used up and purged, its mail is obsolete.
		require.NoError(t, b.svc.ResetPassword(ctx, token, "n3w-secret", "n3w-secret"))
		dbtest.MustExec(t, d, "DELETE FROM password_resets")
		_, err = b.svc.MailSecrets()[notify.KindPasswordReset](ctx, fay.ID, mails[0].Data)
		require.ErrorIs(t, err, notify.ErrObsolete)
	})
}
