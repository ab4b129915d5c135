package account_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/account"
	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/audit"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/notify"
)

// auditCount is how many audit entries of action there are.
func auditCount(t *testing.T, d *db.DB, action string) int {
	t.Helper()
	var n int
	require.NoError(t, d.Bun.NewRaw("SELECT count(*) FROM audit_log WHERE action = ?", action).Scan(context.Background(), &n))
	return n
}

// codeAt is what an authenticator app shows for secret at t.
func codeAt(t *testing.T, secret string, at time.Time) string {
	t.Helper()
	code, err := totp.GenerateCodeCustom(secret, at, totp.ValidateOpts{Period: 30, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
	require.NoError(t, err)
	return code
}

// twoFactorAccount is an account with two-factor sign-in on: its secret,
// recovery codes and the session that turned it on.
type twoFactorAccount struct {
	user     *account.User
	secret   string
	recovery []string
	session  string
}

func enableTOTP(t *testing.T, b bundle, username string) twoFactorAccount {
	t.Helper()
	ctx := context.Background()
	u, err := b.svc.Register(ctx, signUp(username, account.TypeUser))
	require.NoError(t, err)
	session, err := b.svc.StartSession(ctx, u, client)
	require.NoError(t, err)
	setup, err := b.svc.BeginTOTP(ctx, u)
	require.NoError(t, err)
	require.Contains(t, setup.URL, "otpauth://totp/Nameport:"+username)
	require.Equal(t, "\x89PNG", string(setup.QRCode[:4]))
	codes, err := b.svc.ConfirmTOTP(ctx, u, codeAt(t, setup.Secret, b.clock.Now()), session, client)
	require.NoError(t, err)
	require.Len(t, codes, 10)
	return twoFactorAccount{user: u, secret: setup.Secret, recovery: codes, session: session}
}

// challenge logs in with the right password and returns the two-factor
// challenge Login answers with.
func challenge(t *testing.T, b bundle, username string) *account.TwoFactorRequired {
	t.Helper()
	_, token, err := b.svc.Login(context.Background(), username, "secret1", "", client)
	require.Empty(t, token, "no session before the second factor")
	var tfr *account.TwoFactorRequired
	require.True(t, errors.As(err, &tfr), "err = %v", err)
	require.Equal(t, apperr.Unauthenticated, apperr.Code(err))
	require.Equal(t, []string{account.MethodTOTP, account.MethodRecovery}, tfr.Methods)
	return tfr
}

func TestTOTPSetupEndsOtherSessionsAndMails(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		u, err := b.svc.Register(ctx, signUp("alice", account.TypeUser))
		require.NoError(t, err)
		here, err := b.svc.StartSession(ctx, u, client)
		require.NoError(t, err)
		elsewhere, err := b.svc.StartSession(ctx, u, client)
		require.NoError(t, err)

		_, err = b.svc.ConfirmTOTP(ctx, u, "123456", here, client)
		require.Equal(t, apperr.Invalid, apperr.Code(err), "nothing to confirm yet")
		setup, err := b.svc.BeginTOTP(ctx, u)
		require.NoError(t, err)
		wrong := "000000"
		if codeAt(t, setup.Secret, b.clock.Now()) == wrong {
			wrong = "111111"
		}
		_, err = b.svc.ConfirmTOTP(ctx, u, wrong, here, client)
		require.Equal(t, apperr.Invalid, apperr.Code(err))
		require.Equal(t, "Invalid code", apperr.Message(err))
		st, err := b.svc.TwoFactor(ctx, u)
		require.NoError(t, err)
		require.False(t, st.TOTPEnabled, "a wrong first code confirms nothing")

		codes, err := b.svc.ConfirmTOTP(ctx, u, codeAt(t, setup.Secret, b.clock.Now()), here, client)
		require.NoError(t, err)
		require.Len(t, codes, 10)
		for _, c := range codes {
			require.Regexp(t, `^[a-z2-9]{5}-[a-z2-9]{5}$`, c)
		}
		st, err = b.svc.TwoFactor(ctx, u)
		require.NoError(t, err)
		require.True(t, st.TOTPEnabled)
		require.Equal(t, 10, st.RecoveryCodesLeft)

		_, err = b.svc.Authenticate(ctx, here)
		require.NoError(t, err)
		_, err = b.svc.Authenticate(ctx, elsewhere)
		require.Equal(t, apperr.Unauthenticated, apperr.Code(err), "turning 2FA on ends the other sessions")
		require.Len(t, queuedMails(t, d, notify.KindTwoFactorEnabled), 1)
		require.Equal(t, 1, auditCount(t, d, audit.ActionTwoFactorEnable))

		_, err = b.svc.BeginTOTP(ctx, u)
		require.Equal(t, apperr.Conflict, apperr.Code(err), "on already")

		// The secret is sealed at rest.
		var sealed string
		require.NoError(t, d.Bun.NewRaw("SELECT secret_sealed FROM totp_secrets WHERE user_id = ?", u.ID).Scan(ctx, &sealed))
		require.NotContains(t, sealed, setup.Secret)
	})
}

func TestTOTPSignInTimeStepsAndReplay(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		a := enableTOTP(t, b, "bob")

		// The code that confirmed the setup was used: not again.
		tfr := challenge(t, b, "bob")
		_, _, err := b.svc.FinishTwoFactor(ctx, tfr.Token, account.MethodTOTP, codeAt(t, a.secret, b.clock.Now()), "", client)
		require.Equal(t, apperr.Unauthenticated, apperr.Code(err))
		require.Contains(t, apperr.Message(err), "used already")

		b.clock.Advance(30 * time.Second)
		code := codeAt(t, a.secret, b.clock.Now())
		u, session, err := b.svc.FinishTwoFactor(ctx, tfr.Token, account.MethodTOTP, code[:3]+" "+code[3:], "", client)
		require.NoError(t, err)
		require.Equal(t, a.user.ID, u.ID)
		got, err := b.svc.Authenticate(ctx, session)
		require.NoError(t, err)
		require.Equal(t, u.ID, got.ID)

		// The challenge is single use, and so is the code within its window.
		_, _, err = b.svc.FinishTwoFactor(ctx, tfr.Token, account.MethodTOTP, code, "", client)
		require.Equal(t, apperr.Unauthenticated, apperr.Code(err))
		tfr = challenge(t, b, "bob")
		_, _, err = b.svc.FinishTwoFactor(ctx, tfr.Token, account.MethodTOTP, code, "", client)
		require.Contains(t, apperr.Message(err), "used already")

		// One step of drift either side is accepted (a later step than any used).
		b.clock.Advance(60 * time.Second)
		_, _, err = b.svc.FinishTwoFactor(ctx, tfr.Token, account.MethodTOTP, codeAt(t, a.secret, b.clock.Now().Add(-30*time.Second)), "", client)
		require.NoError(t, err)
		// Two steps away is too far.
		tfr = challenge(t, b, "bob")
		b.clock.Advance(30 * time.Second)
		_, _, err = b.svc.FinishTwoFactor(ctx, tfr.Token, account.MethodTOTP, codeAt(t, a.secret, b.clock.Now().Add(90*time.Second)), "", client)
		require.Equal(t, apperr.Unauthenticated, apperr.Code(err))

		// Challenges expire.
		tfr = challenge(t, b, "bob")
		b.clock.Advance(6 * time.Minute)
		_, _, err = b.svc.FinishTwoFactor(ctx, tfr.Token, account.MethodTOTP, codeAt(t, a.secret, b.clock.Now()), "", client)
		require.Equal(t, apperr.Unauthenticated, apperr.Code(err))
		require.Contains(t, apperr.Message(err), "expired")
	})
}

func TestRecoveryCodesAreSingleUse(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		a := enableTOTP(t, b, "carol")

		tfr := challenge(t, b, "carol")
		_, session, err := b.svc.FinishTwoFactor(ctx, tfr.Token, account.MethodRecovery, strings.ToUpper(a.recovery[0]), "", client)
		require.NoError(t, err)
		require.NotEmpty(t, session)
		st, err := b.svc.TwoFactor(ctx, a.user)
		require.NoError(t, err)
		require.Equal(t, 9, st.RecoveryCodesLeft)

		tfr = challenge(t, b, "carol")
		_, _, err = b.svc.FinishTwoFactor(ctx, tfr.Token, account.MethodRecovery, a.recovery[0], "", client)
		require.Equal(t, apperr.Unauthenticated, apperr.Code(err))
		require.Contains(t, apperr.Message(err), "used")

		// New codes replace the old ones.
		b.clock.Advance(30 * time.Second)
		fresh, err := b.svc.RegenerateRecoveryCodes(ctx, a.user, codeAt(t, a.secret, b.clock.Now()), client)
		require.NoError(t, err)
		require.Len(t, fresh, 10)
		_, _, err = b.svc.FinishTwoFactor(ctx, tfr.Token, account.MethodRecovery, a.recovery[1], "", client)
		require.Equal(t, apperr.Unauthenticated, apperr.Code(err), "old codes are gone")
		_, _, err = b.svc.FinishTwoFactor(ctx, tfr.Token, account.MethodRecovery, fresh[1], "", client)
		require.NoError(t, err)
	})
}

func TestTwoFactorBadInput(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		enableTOTP(t, b, "dave")
		tfr := challenge(t, b, "dave")
		for _, tc := range []struct{ method, code, token, want string }{
			{account.MethodTOTP, "12345", tfr.Token, "6-digit"},
			{account.MethodTOTP, "1234567", tfr.Token, "6-digit"},
			{account.MethodTOTP, "12a456", tfr.Token, "6-digit"},
			{account.MethodTOTP, "", tfr.Token, "6-digit"},
			{account.MethodRecovery, "abc", tfr.Token, "recovery code"},
			{account.MethodRecovery, "abcde-0fghi", tfr.Token, "recovery code"},
			{"sms", "123456", tfr.Token, "Unknown two-factor method"},
		} {
			_, _, err := b.svc.FinishTwoFactor(ctx, tc.token, tc.method, tc.code, "", client)
			require.Equal(t, apperr.Invalid, apperr.Code(err), "%+v", tc)
			require.Contains(t, apperr.Message(err), tc.want)
		}
		for _, token := range []string{"", "nope", strings.Repeat("x", 5000)} {
			_, _, err := b.svc.FinishTwoFactor(ctx, token, account.MethodTOTP, "123456", "", client)
			require.Equal(t, apperr.Unauthenticated, apperr.Code(err))
			require.Contains(t, apperr.Message(err), "log in again")
		}
	})
}

func TestTwoFactorCodesAreThrottled(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		a := enableTOTP(t, b, "erin")
		right := codeAt(t, a.secret, b.clock.Now().Add(30*time.Second))
		wrong := "000000"
		if right == wrong {
			wrong = "111111"
		}
		// A challenge dies after five wrong codes; the throttle outlives it
		// and the right password does not reset it.
		var err error
		for i := range 5 {
			tfr := challenge(t, b, "erin")
			_, _, err = b.svc.FinishTwoFactor(ctx, tfr.Token, account.MethodTOTP, wrong, "", client)
			require.Equal(t, apperr.Unauthenticated, apperr.Code(err), "attempt %d", i)
		}
		tfr := challenge(t, b, "erin")
		b.clock.Advance(30 * time.Second)
		_, _, err = b.svc.FinishTwoFactor(ctx, tfr.Token, account.MethodTOTP, right, "", client)
		require.Equal(t, apperr.TooManyRequests, apperr.Code(err), "even the right code waits")
		require.Contains(t, apperr.Message(err), "Too many wrong codes.")
		b.clock.Advance(time.Minute)
		_, session, err := b.svc.FinishTwoFactor(ctx, tfr.Token, account.MethodTOTP, codeAt(t, a.secret, b.clock.Now()), "", client)
		require.NoError(t, err, "after the wait")
		require.NotEmpty(t, session)

		// One challenge takes at most five wrong codes.
		b.clock.Advance(2 * time.Hour)
		tfr = challenge(t, b, "erin")
		for i := range 5 {
			_, _, err = b.svc.FinishTwoFactor(ctx, tfr.Token, account.MethodTOTP, wrong, "", client)
			require.Equal(t, apperr.Unauthenticated, apperr.Code(err), "attempt %d", i)
		}
		require.Contains(t, apperr.Message(err), "log in again")
	})
}

func TestDisableTOTP(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		a := enableTOTP(t, b, "frank")
		other, err := b.svc.StartSession(ctx, a.user, client)
		require.NoError(t, err)

		err = b.svc.DisableTOTP(ctx, a.user, "", "", a.session, client)
		require.Equal(t, apperr.Invalid, apperr.Code(err))
		err = b.svc.DisableTOTP(ctx, a.user, "wrong-password", "", a.session, client)
		require.Equal(t, apperr.Invalid, apperr.Code(err))
		require.Equal(t, "Password is incorrect", apperr.Message(err))
		err = b.svc.DisableTOTP(ctx, a.user, "", "12", a.session, client)
		require.Equal(t, apperr.Invalid, apperr.Code(err))

		require.NoError(t, b.svc.DisableTOTP(ctx, a.user, "secret1", "", a.session, client))
		_, err = b.svc.Authenticate(ctx, other)
		require.Equal(t, apperr.Unauthenticated, apperr.Code(err), "turning 2FA off ends the other sessions")
		_, err = b.svc.Authenticate(ctx, a.session)
		require.NoError(t, err)
		require.Len(t, queuedMails(t, d, notify.KindTwoFactorDisabled), 1)
		require.Equal(t, 1, auditCount(t, d, audit.ActionTwoFactorDisable))

		_, session, err := b.svc.Login(ctx, "frank", "secret1", "", client)
		require.NoError(t, err, "password alone again")
		require.NotEmpty(t, session)
		err = b.svc.DisableTOTP(ctx, a.user, "secret1", "", a.session, client)
		require.Equal(t, apperr.Conflict, apperr.Code(err))

		// Off with a recovery code.
		g := enableTOTP(t, b, "grace")
		require.NoError(t, b.svc.DisableTOTP(ctx, g.user, "", g.recovery[3], g.session, client))
	})
}
