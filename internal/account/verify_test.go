package account_test

import (
	"context"
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

const invalidVerifyLink = "This verification link is invalid or has expired. Ask for a new one."

// verifyTokenOf reads the token of the verification mail m, made as the
// mail worker makes it.
func verifyTokenOf(t *testing.T, b bundle, m notify.SendArgs) string {
	t.Helper()
	require.NotContains(t, m.Data, "link", "no link in the job")
	secrets, err := b.svc.MailSecrets()[notify.KindVerifyEmail](context.Background(), m.UserID, m.Data)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(secrets["link"], "https://nameport.example/verify-email?token="), secrets["link"])
	u, err := url.Parse(secrets["link"])
	require.NoError(t, err)
	token := u.Query().Get("token")
	require.Len(t, token, 43)
	return token
}

func TestEmailVerification(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		b := setupReset(t, d)
		ann, err := b.svc.Register(ctx, signUp("ann", account.TypeUser))
		require.NoError(t, err)
		require.False(t, ann.EmailVerified())
		err = ann.MayTransact()
		require.Equal(t, apperr.Forbidden, apperr.Code(err))
		require.Equal(t, "Verify your email address before registering names or adding funds.", apperr.Message(err))

		mails := queuedMails(t, d, notify.KindVerifyEmail)
		require.Len(t, mails, 1, "sign-up mails the link")
		require.Equal(t, ann.ID, mails[0].UserID)
		token := verifyTokenOf(t, b, mails[0])
		for _, args := range queuedMails(t, d, notify.KindVerifyEmail) {
			require.NotContains(t, args.Data["verificationId"], token)
		}

		requireInvalid(t, b.svc.VerifyEmail(ctx, "not-a-token"), invalidVerifyLink)
		requireInvalid(t, b.svc.VerifyEmail(ctx, " "), invalidVerifyLink)
		require.NoError(t, b.svc.VerifyEmail(ctx, token))
		ann, err = b.svc.ByID(ctx, ann.ID)
		require.NoError(t, err)
		require.True(t, ann.EmailVerified())
		require.NoError(t, ann.MayTransact())
		requireInvalid(t, b.svc.VerifyEmail(ctx, token), invalidVerifyLink) // single use
		_, err = b.svc.MailSecrets()[notify.KindVerifyEmail](ctx, mails[0].UserID, mails[0].Data)
		require.ErrorIs(t, err, notify.ErrObsolete, "a used link is not mailed again")

		err = b.svc.ResendVerification(ctx, ann)
		require.Equal(t, apperr.Conflict, apperr.Code(err))

		// Operators' accounts are verified.
		root, err := b.svc.CreateAdmin(ctx, "root", "root@example.com", "secret1")
		require.NoError(t, err)
		require.NoError(t, root.MayTransact())
		require.Len(t, queuedMails(t, d, notify.KindVerifyEmail), 1, "no mail for an operator's account")
	})
}

func TestPasswordResetVerifiesTheAddress(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		b := setupReset(t, d)
		cy, err := b.svc.Register(ctx, signUp("cyd", account.TypeUser))
		require.NoError(t, err)
		require.NoError(t, b.svc.RequestPasswordReset(ctx, "cyd@example.com", client))
		require.NoError(t, b.svc.ResetPassword(ctx, tokenOf(t, b, resetMails(t, d)[0]), "n3w-secret", "n3w-secret"))
		cy, err = b.svc.ByID(ctx, cy.ID)
		require.NoError(t, err)
		require.NoError(t, cy.MayTransact(), "the reset link proved the mailbox")
	})
}

func TestEmailVerificationLinkExpiresAndResendIsThrottled(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		b := setupReset(t, d)
		bob, err := b.svc.Register(ctx, signUp("bob", account.TypeRegistrar))
		require.NoError(t, err)
		first := queuedMails(t, d, notify.KindVerifyEmail)[0]

		for range 3 {
			require.NoError(t, b.svc.ResendVerification(ctx, bob))
		}
		err = b.svc.ResendVerification(ctx, bob)
		require.Equal(t, apperr.TooManyRequests, apperr.Code(err))
		require.Equal(t, "Too many verification emails. Please try again in 15 minutes.", apperr.Message(err))
		mails := queuedMails(t, d, notify.KindVerifyEmail)
		require.Len(t, mails, 4)

		b.clock.Advance(48 * time.Hour)
		requireInvalid(t, b.svc.VerifyEmail(ctx, verifyTokenOf(t, b, first)), invalidVerifyLink)
		require.NoError(t, b.svc.ResendVerification(ctx, bob), "the window has passed")
		mails = queuedMails(t, d, notify.KindVerifyEmail)
		require.NoError(t, b.svc.VerifyEmail(ctx, verifyTokenOf(t, b, mails[len(mails)-1])))
		bob, err = b.svc.ByID(ctx, bob.ID)
		require.NoError(t, err)
		require.NoError(t, bob.MayTransact())
	})
}

// Migration 0013 verifies the accounts that exist when it runs: the rule is
// for accounts made after it.
func TestMigrationGrandfathersExistingAccounts(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		b := setupReset(t, d)
		// Back to the schema before 0013, with an account in it, and a
		// reset mailed the old way: its link in the job's arguments.
		_, err := b.svc.Register(ctx, signUp("old", account.TypeUser))
		require.NoError(t, err)
		require.NoError(t, b.svc.RequestPasswordReset(ctx, "old@example.com", client))
		for _, stmt := range []string{"DROP TABLE email_verifications", "DROP TABLE tier_applications",
			"ALTER TABLE users DROP COLUMN email_verified_at", "DELETE FROM schema_migrations WHERE version = '0013_account_lifecycle'"} {
			dbtest.MustExec(t, d, stmt)
		}
		var id int64
		require.NoError(t, d.Bun.NewSelect().Table("users").Column("id").Where("username = 'old'").Scan(ctx, &id))
		leaked := "https://nameport.example/reset-password?token=leaked-0123456789"
		require.NoError(t, d.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
			return tx.Enqueue(ctx, notify.SendArgs{UserID: id, Template: notify.KindPasswordReset,
				Data: map[string]string{"link": leaked}}, nil)
		}))
		require.NoError(t, d.Migrate(ctx))

		old, err := b.svc.ByID(ctx, id)
		require.NoError(t, err)
		require.NoError(t, old.MayTransact())
		for _, m := range queuedMails(t, d, notify.KindPasswordReset) {
			require.NotContains(t, m.Data, "link", "the old links are gone from the jobs")
		}
		requireInvalid(t, b.svc.ResetPassword(ctx, tokenOf(t, b, resetMails(t, d)[0]), "n3w-secret", "n3w-secret"), invalidLink)
		fresh, err := b.svc.Register(ctx, signUp("fresh", account.TypeUser))
		require.NoError(t, err)
		require.Error(t, fresh.MayTransact())
	})
}
