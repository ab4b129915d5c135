package account_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/account"
	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/audit"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/notify"
	"github.com/nameport/nameport/internal/passkeytest"
)

const passkeyOrigin = "https://nameport.test"

// passkeySetup is setup with a public address passkeys can use.
func passkeySetup(t *testing.T, d *db.DB) bundle {
	t.Helper()
	require.NoError(t, d.SetupJobs(db.JobsConfig{}))
	clock := &fakeClock{now: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)}
	svc, err := account.NewService(d, account.Options{Secret: []byte(strings.Repeat("s", 32)), SessionTTL: 24 * time.Hour,
		Now: clock.Now, PublicURL: passkeyOrigin + "/"})
	require.NoError(t, err)
	return bundle{svc: svc, db: d, clock: clock}
}

func options(t *testing.T, c *account.PasskeyCeremony) map[string]any {
	t.Helper()
	var out map[string]any
	require.NoError(t, json.Unmarshal(c.Options, &out))
	return out
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	raw, err := json.Marshal(v)
	require.NoError(t, err)
	return raw
}

// addPasskey registers a passkey of a for u, named name.
func addPasskey(t *testing.T, b bundle, a *passkeytest.Authenticator, u *account.User, name, keep string) *account.Passkey {
	t.Helper()
	ctx := context.Background()
	c, err := b.svc.BeginPasskeyRegistration(ctx, u)
	require.NoError(t, err)
	answer, err := a.Create(options(t, c))
	require.NoError(t, err)
	pk, err := b.svc.FinishPasskeyRegistration(ctx, u, c.Token, name, mustJSON(t, answer), keep)
	require.NoError(t, err)
	return pk
}

func TestPasskeyRegisterSignInRenameRemove(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := passkeySetup(t, d)
		ctx := context.Background()
		u, err := b.svc.Register(ctx, signUp("keyholder", account.TypeUser))
		require.NoError(t, err)
		keep, err := b.svc.StartSession(ctx, u, client)
		require.NoError(t, err)
		other, err := b.svc.StartSession(ctx, u, client)
		require.NoError(t, err)

		auth := passkeytest.New(passkeyOrigin)
		pk := addPasskey(t, b, auth, u, "  Laptop   chip ", keep)
		require.Equal(t, "Laptop chip", pk.Name)
		// Adding one ends the other sessions, as turning the app on does.
		_, err = b.svc.Authenticate(ctx, other)
		require.Equal(t, apperr.Unauthenticated, apperr.Code(err))
		_, err = b.svc.Authenticate(ctx, keep)
		require.NoError(t, err)
		require.Equal(t, 1, auditCount(t, d, audit.ActionPasskeyAdd))
		require.Len(t, queuedMails(t, d, notify.KindPasskeyAdded), 1)
		second := addPasskey(t, b, auth, u, "", keep)
		require.Equal(t, "Passkey", second.Name)

		// Sign in with the passkey alone.
		c, err := b.svc.BeginPasskeyLogin(ctx)
		require.NoError(t, err)
		answer, err := auth.Get(options(t, c), auth.Credentials()[0])
		require.NoError(t, err)
		b.clock.Advance(time.Minute)
		got, token, err := b.svc.FinishPasskeyLogin(ctx, c.Token, mustJSON(t, answer), "", client)
		require.NoError(t, err)
		require.Equal(t, u.ID, got.ID)
		require.NotEmpty(t, token)
		// The same answer again: the challenge was taken.
		_, _, err = b.svc.FinishPasskeyLogin(ctx, c.Token, mustJSON(t, answer), "", client)
		require.Equal(t, apperr.Invalid, apperr.Code(err), "%v", err)

		list, err := b.svc.Passkeys(ctx, u)
		require.NoError(t, err)
		require.Len(t, list, 2)
		require.Equal(t, b.clock.Now().UTC().Truncate(time.Microsecond), list[0].LastUsedAt.UTC())
		require.True(t, list[1].LastUsedAt.IsZero())

		renamed, err := b.svc.RenamePasskey(ctx, u, pk.ID, "Phone")
		require.NoError(t, err)
		require.Equal(t, "Phone", renamed.Name)
		_, err = b.svc.RenamePasskey(ctx, u, pk.ID, strings.Repeat("x", 65))
		require.Equal(t, apperr.Invalid, apperr.Code(err))

		// Another account sees none of them.
		stranger, err := b.svc.Register(ctx, signUp("stranger", account.TypeUser))
		require.NoError(t, err)
		_, err = b.svc.RenamePasskey(ctx, stranger, pk.ID, "Mine")
		require.Equal(t, apperr.NotFound, apperr.Code(err))
		require.Equal(t, apperr.NotFound, apperr.Code(b.svc.DeletePasskey(ctx, stranger, pk.ID, "secret1", "", client)))
		theirs, err := b.svc.Passkeys(ctx, stranger)
		require.NoError(t, err)
		require.Empty(t, theirs)

		// The password is asked again.
		err = b.svc.DeletePasskey(ctx, u, pk.ID, "", keep, client)
		require.Equal(t, "Enter your password", apperr.Message(err))
		err = b.svc.DeletePasskey(ctx, u, pk.ID, "wrong1", keep, client)
		require.Equal(t, "Password is incorrect", apperr.Message(err))
		list, err = b.svc.Passkeys(ctx, u)
		require.NoError(t, err)
		require.Len(t, list, 2, "nothing removed")
		require.NoError(t, b.svc.DeletePasskey(ctx, u, pk.ID, "secret1", keep, client))
		require.Equal(t, 1, auditCount(t, d, audit.ActionPasskeyRemove))
		require.Len(t, queuedMails(t, d, notify.KindPasskeyRemoved), 1)
		// A removed passkey signs in no more.
		c, err = b.svc.BeginPasskeyLogin(ctx)
		require.NoError(t, err)
		answer, err = auth.Get(options(t, c), auth.Credentials()[0])
		require.NoError(t, err)
		_, _, err = b.svc.FinishPasskeyLogin(ctx, c.Token, mustJSON(t, answer), "", client)
		require.Equal(t, apperr.Unauthenticated, apperr.Code(err), "%v", err)
	})
}

func TestPasskeyBadAnswersAreClearErrors(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := passkeySetup(t, d)
		ctx := context.Background()
		u, err := b.svc.Register(ctx, signUp("careful", account.TypeUser))
		require.NoError(t, err)
		mallory, err := b.svc.Register(ctx, signUp("mallory", account.TypeUser))
		require.NoError(t, err)
		auth := passkeytest.New(passkeyOrigin)

		// Malformed answers.
		c, err := b.svc.BeginPasskeyRegistration(ctx, u)
		require.NoError(t, err)
		for _, bad := range []string{`{}`, `{"id":"x","type":"public-key"}`, `not json`, `{"id":"AAAA","rawId":"AAAA","type":"public-key","response":{"clientDataJSON":"e30","attestationObject":"oA"}}`} {
			_, err := b.svc.FinishPasskeyRegistration(ctx, u, c.Token, "x", []byte(bad), "")
			require.Equal(t, apperr.Invalid, apperr.Code(err), "%s: %v", bad, err)
		}
		// Another account's ceremony: refused, and it is used up.
		c, err = b.svc.BeginPasskeyRegistration(ctx, u)
		require.NoError(t, err)
		answer, err := auth.Create(options(t, c))
		require.NoError(t, err)
		_, err = b.svc.FinishPasskeyRegistration(ctx, mallory, c.Token, "x", mustJSON(t, answer), "")
		require.Equal(t, apperr.Invalid, apperr.Code(err), "%v", err)
		_, err = b.svc.FinishPasskeyRegistration(ctx, u, c.Token, "x", mustJSON(t, answer), "")
		require.Equal(t, apperr.Invalid, apperr.Code(err), "a ceremony is good once: %v", err)
		// From another site.
		c, err = b.svc.BeginPasskeyRegistration(ctx, u)
		require.NoError(t, err)
		evil := passkeytest.New("https://evil.test")
		answer, err = evil.Create(options(t, c))
		require.NoError(t, err)
		_, err = b.svc.FinishPasskeyRegistration(ctx, u, c.Token, "x", mustJSON(t, answer), "")
		require.Equal(t, apperr.Invalid, apperr.Code(err), "%v", err)
		// Expired.
		c, err = b.svc.BeginPasskeyRegistration(ctx, u)
		require.NoError(t, err)
		answer, err = auth.Create(options(t, c))
		require.NoError(t, err)
		b.clock.Advance(6 * time.Minute)
		_, err = b.svc.FinishPasskeyRegistration(ctx, u, c.Token, "x", mustJSON(t, answer), "")
		require.Equal(t, apperr.Invalid, apperr.Code(err), "%v", err)
		_, err = b.svc.FinishPasskeyRegistration(ctx, u, "no-such-token", "x", mustJSON(t, answer), "")
		require.Equal(t, apperr.Invalid, apperr.Code(err), "%v", err)

		// Mallory's passkey is no second factor of u's.
		addPasskey(t, b, auth, u, "Mine", "")
		mine := auth.Credentials()[len(auth.Credentials())-1] // those before were refused
		malloryAuth := passkeytest.New(passkeyOrigin)
		addPasskey(t, b, malloryAuth, mallory, "Theirs", "")

		_, _, err = b.svc.Login(ctx, "careful", "secret1", "", client)
		var tfr *account.TwoFactorRequired
		require.True(t, errors.As(err, &tfr), "%v", err)
		require.Equal(t, []string{account.MethodPasskey}, tfr.Methods)
		c, err = b.svc.BeginPasskeySecondFactor(ctx, tfr.Token)
		require.NoError(t, err)
		foreign, err := malloryAuth.Get(options(t, c), malloryAuth.Credentials()[0])
		require.NoError(t, err)
		_, _, err = b.svc.FinishTwoFactor(ctx, tfr.Token, account.MethodPasskey, string(mustJSON(t, foreign)), "", client)
		require.Equal(t, apperr.Unauthenticated, apperr.Code(err), "%v", err)
		// A malformed answer is invalid input.
		_, err = b.svc.BeginPasskeySecondFactor(ctx, tfr.Token)
		require.NoError(t, err)
		_, _, err = b.svc.FinishTwoFactor(ctx, tfr.Token, account.MethodPasskey, `{"id":1}`, "", client)
		require.Equal(t, apperr.Invalid, apperr.Code(err), "%v", err)

		// Its own passkey finishes the sign-in, once.
		c, err = b.svc.BeginPasskeySecondFactor(ctx, tfr.Token)
		require.NoError(t, err)
		right, err := auth.Get(options(t, c), mine)
		require.NoError(t, err)
		got, token, err := b.svc.FinishTwoFactor(ctx, tfr.Token, account.MethodPasskey, string(mustJSON(t, right)), "", client)
		require.NoError(t, err)
		require.Equal(t, u.ID, got.ID)
		require.NotEmpty(t, token)
		_, _, err = b.svc.FinishTwoFactor(ctx, tfr.Token, account.MethodPasskey, string(mustJSON(t, right)), "", client)
		require.Equal(t, apperr.Unauthenticated, apperr.Code(err), "%v", err)
		// A passkey login answered with a second factor's answer: no.
		_, _, err = b.svc.FinishPasskeyLogin(ctx, "", mustJSON(t, right), "", client)
		require.Equal(t, apperr.Invalid, apperr.Code(err), "%v", err)
	})
}

func TestPasskeysOffWithoutADomainName(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		svc, err := account.NewService(d, account.Options{Secret: []byte(strings.Repeat("s", 32)), PublicURL: "http://127.0.0.1:8080"})
		require.NoError(t, err)
		_, err = svc.BeginPasskeyLogin(context.Background())
		require.Equal(t, apperr.Conflict, apperr.Code(err))
		require.Contains(t, apperr.Message(err), "IP address")
	})
}

func TestNewAdminsMustSetUpTwoFactor(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := passkeySetup(t, d)
		ctx := context.Background()
		admin, err := b.svc.CreateAdmin(ctx, "newadmin", "newadmin@example.com", "secret1")
		require.NoError(t, err)
		err = b.svc.CheckTwoFactorSetup(ctx, admin)
		require.Equal(t, apperr.TwoFactorSetupRequired, apperr.Code(err))
		demo, err := b.svc.CreateDemoAdmin(ctx, "demoadmin", "demoadmin@example.com", "secret1")
		require.NoError(t, err)
		require.NoError(t, b.svc.CheckTwoFactorSetup(ctx, demo), "admins from before are asked, not held")
		user, err := b.svc.Register(ctx, signUp("plain", account.TypeUser))
		require.NoError(t, err)
		require.NoError(t, b.svc.CheckTwoFactorSetup(ctx, user))

		// A passkey is enough.
		admin, err = b.svc.ByID(ctx, admin.ID)
		require.NoError(t, err)
		addPasskey(t, b, passkeytest.New(passkeyOrigin), admin, "Key", "")
		require.NoError(t, b.svc.CheckTwoFactorSetup(ctx, admin))
	})
}

func TestSignInFromANewBrowserMails(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		u, err := b.svc.Register(ctx, signUp("traveller", account.TypeUser))
		require.NoError(t, err)
		laptop := account.Client{IP: "192.0.2.1", UserAgent: "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 Safari/537.36", Device: strings.Repeat("a", 32)}
		phone := account.Client{IP: "198.51.100.7", UserAgent: "Mozilla/5.0 (iPhone) Version/17.1 Mobile/15E148 Safari/604.1", Device: strings.Repeat("b", 32)}
		// The first browser is not news (sign-up), nor is it again.
		_, err = b.svc.StartSession(ctx, u, laptop)
		require.NoError(t, err)
		_, _, err = b.svc.Login(ctx, "traveller", "secret1", "", laptop)
		require.NoError(t, err)
		require.Empty(t, queuedMails(t, d, notify.KindNewSignIn))
		// Another one is, once.
		_, _, err = b.svc.Login(ctx, "traveller", "secret1", "", phone)
		require.NoError(t, err)
		_, _, err = b.svc.Login(ctx, "traveller", "secret1", "", phone)
		require.NoError(t, err)
		mails := queuedMails(t, d, notify.KindNewSignIn)
		require.Len(t, mails, 1)
		require.Equal(t, "198.51.100.7", mails[0].Data["address"])
		require.Equal(t, "Safari 17 on iOS", mails[0].Data["browser"])
		// A client without a device (an API call) is not noted.
		_, _, err = b.svc.Login(ctx, "traveller", "secret1", "", client)
		require.NoError(t, err)
		require.Len(t, queuedMails(t, d, notify.KindNewSignIn), 1)

		// A browser unused for more than a year is forgotten: it is news
		// again. The account's most recent browser is kept however old, so
		// a sign-in after a long absence from another one still mails.
		devices := func() int {
			var n int
			require.NoError(t, d.Bun.NewSelect().TableExpr("known_devices").ColumnExpr("count(*)").Scan(ctx, &n))
			return n
		}
		b.clock.Advance(200 * 24 * time.Hour)
		_, _, err = b.svc.Login(ctx, "traveller", "secret1", "", laptop)
		require.NoError(t, err)
		b.clock.Advance(300 * 24 * time.Hour)
		_, err = b.svc.PurgeExpired(ctx)
		require.NoError(t, err)
		require.Equal(t, 1, devices(), "the phone, unused for 500 days, is forgotten")
		b.clock.Advance(1000 * 24 * time.Hour)
		_, err = b.svc.PurgeExpired(ctx)
		require.NoError(t, err)
		require.Equal(t, 1, devices(), "the laptop, the latest, is kept")
		_, _, err = b.svc.Login(ctx, "traveller", "secret1", "", phone)
		require.NoError(t, err)
		require.Len(t, queuedMails(t, d, notify.KindNewSignIn), 2)
	})
}
