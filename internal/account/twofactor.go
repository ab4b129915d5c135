package account

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"database/sql"
	"encoding/base64"
	"errors"
	"fmt"
	"image/png"
	"strings"
	"time"

	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"
	"github.com/uptrace/bun"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/audit"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/notify"
)

// Two-factor sign-in. After a right password, an account with a second
// factor gets a challenge instead of a session: a short-lived token (only
// its hash stored) that FinishTwoFactor exchanges, with a code, for the
// session. The second step is open to more methods than the authenticator
// app (TwoFactorRequired.Methods), so passkeys can join it later.
//
// Authenticator apps follow RFC 6238 with the parameters every app knows
// (SHA-1, 6 digits, 30 seconds); a code is taken one step either side of
// now (clock drift), and never twice: the last accepted step is stored and
// only later steps pass, with one conditional update (race-free). Wrong
// codes are throttled by the password throttle's keys (reserveGuess), and
// a challenge dies after maxChallengeFailures wrong codes.
const (
	MethodTOTP     = "totp"
	MethodRecovery = "recovery"

	totpPeriod           = 30
	totpSkew             = 1
	challengeTTL         = 5 * time.Minute
	maxChallengeFailures = 5
	recoveryCodeCount    = 10
	recoveryCodeLength   = 10
	// recoveryAlphabet has 32 symbols without the look-alikes 0/o and 1/l.
	recoveryAlphabet = "abcdefghijkmnpqrstuvwxyz23456789"
	wrongCodeMessage = "Too many wrong codes."
)

var totpOpts = totp.ValidateOpts{Period: totpPeriod, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1}

type totpSecret struct {
	bun.BaseModel `bun:"table:totp_secrets"`

	UserID       int64     `bun:"user_id,pk"`
	SecretSealed string    `bun:"secret_sealed"`
	ConfirmedAt  time.Time `bun:"confirmed_at,nullzero"`
	LastStep     int64     `bun:"last_step"`
	CreatedAt    time.Time `bun:"created_at"`
}

type recoveryCode struct {
	bun.BaseModel `bun:"table:recovery_codes"`

	ID        int64     `bun:"id,pk,autoincrement"`
	UserID    int64     `bun:"user_id"`
	CodeHash  string    `bun:"code_hash"`
	UsedAt    time.Time `bun:"used_at,nullzero"`
	CreatedAt time.Time `bun:"created_at"`
}

type challenge struct {
	bun.BaseModel `bun:"table:two_factor_challenges"`

	TokenHash string    `bun:"token_hash,pk"`
	UserID    int64     `bun:"user_id"`
	Failures  int       `bun:"failures"`
	CreatedAt time.Time `bun:"created_at"`
	ExpiresAt time.Time `bun:"expires_at"`
}

// TwoFactorRequired is Login's answer for an account with a second factor:
// no session yet, but a token for FinishTwoFactor and the methods it takes.
// Its code is unauthenticated.
type TwoFactorRequired struct {
	Token     string
	Methods   []string
	ExpiresAt time.Time
}

var errTwoFactorRequired = apperr.New(apperr.Unauthenticated, "Two-factor authentication required")

func (e *TwoFactorRequired) Error() string { return errTwoFactorRequired.Error() }
func (e *TwoFactorRequired) Unwrap() error { return errTwoFactorRequired }

var (
	errChallengeGone   = apperr.New(apperr.Unauthenticated, "This sign-in has expired. Please log in again.")
	errWrongCode       = apperr.New(apperr.Unauthenticated, "Invalid code")
	errCodeUsed        = apperr.New(apperr.Unauthenticated, "This code has been used already. Wait for the next code from your app.")
	errTOTPCodeFormat  = apperr.New(apperr.Invalid, "Enter the 6-digit code from your authenticator app")
	errRecoveryFormat  = apperr.New(apperr.Invalid, "A recovery code has 10 letters and digits, like abcde-23fgh")
	errUnknownMethod   = apperr.New(apperr.Invalid, "Unknown two-factor method: use totp, recovery or passkey")
	errTwoFactorIsOn   = apperr.New(apperr.Conflict, "Two-factor sign-in is already on")
	errTwoFactorIsOff  = apperr.New(apperr.Conflict, "Two-factor sign-in is not on")
	errNoPendingSetup  = apperr.New(apperr.Invalid, "Start the setup again: no authenticator app is waiting to be confirmed")
	errDisableNeedsOne = apperr.New(apperr.Invalid, "Enter your password or a code from your authenticator app")
)

// codeGuessKey is the account name under which the throttle counts u's
// code guesses: apart from its password guesses, so that a right password
// (which clears its streak) does not clear the codes' ("2fa:" cannot start
// a username).
func codeGuessKey(u *User) string { return "2fa:" + u.Username }

// normalizeTOTPCode returns code without spaces; invalid unless it is six
// digits.
func normalizeTOTPCode(code string) (string, error) {
	code = strings.ReplaceAll(strings.TrimSpace(code), " ", "")
	if len(code) != 6 || strings.Trim(code, "0123456789") != "" {
		return "", errTOTPCodeFormat
	}
	return code, nil
}

// normalizeRecoveryCode returns code as stored (lower case, no dashes or
// spaces); invalid unless it has the shape of one.
func normalizeRecoveryCode(code string) (string, error) {
	code = strings.ToLower(strings.NewReplacer("-", "", " ", "").Replace(strings.TrimSpace(code)))
	if len(code) != recoveryCodeLength || strings.Trim(code, recoveryAlphabet) != "" {
		return "", errRecoveryFormat
	}
	return code, nil
}

// TwoFactorStatus is what Account Settings shows of an account's second
// factors.
type TwoFactorStatus struct {
	TOTPEnabled bool
	// Passkeys is how many passkeys the account has: each is a second
	// factor too.
	Passkeys          int
	EnabledAt         time.Time
	RecoveryCodesLeft int
}

// On reports whether sign-in asks for a second factor: an authenticator
// app's code or a passkey.
func (st TwoFactorStatus) On() bool { return st.TOTPEnabled || st.Passkeys > 0 }

// TwoFactor returns u's second factors.
func (s *Service) TwoFactor(ctx context.Context, u *User) (TwoFactorStatus, error) {
	var st TwoFactorStatus
	n, err := s.db.Bun.NewSelect().Model((*passkey)(nil)).Where("user_id = ?", u.ID).Count(ctx)
	if err != nil {
		return st, fmt.Errorf("account: passkeys of %s: %w", u.Username, err)
	}
	st.Passkeys = int(n)
	sec, err := s.confirmedSecret(ctx, s.db.Bun, u.ID)
	if err != nil || sec == nil {
		return st, err
	}
	st.TOTPEnabled, st.EnabledAt = true, sec.ConfirmedAt
	n, err = s.db.Bun.NewSelect().Model((*recoveryCode)(nil)).Where("user_id = ?", u.ID).Where("used_at IS NULL").Count(ctx)
	if err != nil {
		return st, fmt.Errorf("account: recovery codes of %s: %w", u.Username, err)
	}
	st.RecoveryCodesLeft = int(n)
	return st, nil
}

// confirmedSecret returns u's confirmed authenticator secret, nil if none.
func (s *Service) confirmedSecret(ctx context.Context, idb bun.IDB, userID int64) (*totpSecret, error) {
	sec := new(totpSecret)
	err := idb.NewSelect().Model(sec).Where("user_id = ?", userID).Where("confirmed_at IS NOT NULL").Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("account: two-factor secret of %d: %w", userID, err)
	}
	return sec, nil
}

// TOTPSetup is a new authenticator secret waiting for its first code.
type TOTPSetup struct {
	// Secret is the key in base32, for typing into an app.
	Secret string
	// URL is the otpauth:// URL the QR code holds.
	URL string
	// QRCode is a PNG of the QR code.
	QRCode []byte
}

// BeginTOTP makes a new authenticator secret for u, pending until
// ConfirmTOTP; a pending one from before is replaced. Returns conflict
// when two-factor sign-in is already on.
func (s *Service) BeginTOTP(ctx context.Context, u *User) (*TOTPSetup, error) {
	key, err := totp.Generate(totp.GenerateOpts{Issuer: "Nameport", AccountName: u.Username, Period: totpPeriod,
		Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1, SecretSize: 20})
	if err != nil {
		return nil, fmt.Errorf("account: totp key: %w", err)
	}
	sealed, err := s.twoFactor.Seal(key.Secret())
	if err != nil {
		return nil, err
	}
	img, err := key.Image(240, 240)
	if err != nil {
		return nil, fmt.Errorf("account: totp qr code: %w", err)
	}
	var qr bytes.Buffer
	if err := png.Encode(&qr, img); err != nil {
		return nil, fmt.Errorf("account: totp qr code: %w", err)
	}
	err = s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		sec, err := s.confirmedSecret(ctx, tx, u.ID)
		if err != nil {
			return err
		}
		if sec != nil {
			return errTwoFactorIsOn
		}
		if _, err := tx.NewDelete().Model((*totpSecret)(nil)).Where("user_id = ?", u.ID).Exec(ctx); err != nil {
			return err
		}
		_, err = tx.NewInsert().Model(&totpSecret{UserID: u.ID, SecretSealed: sealed, CreatedAt: s.clock()}).Exec(ctx)
		return err
	})
	if _, ok := db.UniqueViolation(err); ok {
		return nil, errTwoFactorIsOn // two setups raced; the other one won
	}
	if err != nil {
		if apperr.Code(err) != apperr.Internal {
			return nil, err
		}
		return nil, fmt.Errorf("account: begin totp for %s: %w", u.Username, err)
	}
	return &TOTPSetup{Secret: key.Secret(), URL: key.URL(), QRCode: qr.Bytes()}, nil
}

// ConfirmTOTP turns two-factor sign-in on with the first code of u's
// pending secret, ends u's other sessions (keepToken's stays) and returns
// ten recovery codes, shown this once. Returns invalid for a malformed code
// or no pending setup or a wrong code, conflict when it
// is on already, too_many_requests while throttled.
func (s *Service) ConfirmTOTP(ctx context.Context, u *User, code, keepToken string, c Client) ([]string, error) {
	code, err := normalizeTOTPCode(code)
	if err != nil {
		return nil, err
	}
	g, err := s.reserveGuess(ctx, codeGuessKey(u), c.IP, wrongCodeMessage)
	if err != nil {
		return nil, err
	}
	codes, hashes, err := s.newRecoveryCodes()
	if err != nil {
		return nil, s.giveBack(ctx, g, false, err)
	}
	err = s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		sec := new(totpSecret)
		err := tx.NewSelect().Model(sec).Where("user_id = ?", u.ID).Scan(ctx)
		if errors.Is(err, sql.ErrNoRows) {
			return errNoPendingSetup
		}
		if err != nil {
			return err
		}
		if !sec.ConfirmedAt.IsZero() {
			return errTwoFactorIsOn
		}
		if err := s.takeTOTPCode(ctx, tx, sec, code); err != nil {
			return err
		}
		if _, err := tx.NewUpdate().Model(sec).Set("confirmed_at = ?", s.clock()).Where("user_id = ?", u.ID).
			Where("confirmed_at IS NULL").Exec(ctx); err != nil {
			return err
		}
		if err := s.replaceRecoveryCodes(ctx, tx, u, hashes); err != nil {
			return err
		}
		return s.afterTwoFactorChange(ctx, tx, u, keepToken, audit.ActionTwoFactorEnable, notify.KindTwoFactorEnabled)
	})
	switch {
	case err == nil:
		return codes, s.giveBack(ctx, g, true, nil)
	case apperr.Code(err) == apperr.Unauthenticated:
		// A wrong code stays counted; signed in already, it is bad input,
		// not a lost session.
		return nil, invalid(apperr.Message(err))
	case apperr.Code(err) != apperr.Internal:
		return nil, s.giveBack(ctx, g, false, err)
	}
	return nil, s.giveBack(ctx, g, false, fmt.Errorf("account: confirm totp for %s: %w", u.Username, err))
}

// DisableTOTP turns two-factor sign-in off for u, proven by its password or
// a code (an authenticator's or a recovery code), and ends u's other
// sessions. Returns invalid for neither or a wrong password or code,
// conflict when it is not on, too_many_requests while throttled.
func (s *Service) DisableTOTP(ctx context.Context, u *User, password, code, keepToken string, c Client) error {
	password, code = strings.TrimSpace(password), strings.TrimSpace(code)
	if password == "" && code == "" {
		return errDisableNeedsOne
	}
	var totpCode, recovery string
	if password == "" {
		var err error
		if totpCode, err = normalizeTOTPCode(code); err != nil {
			if recovery, err = normalizeRecoveryCode(code); err != nil {
				return apperr.New(apperr.Invalid, "Enter the 6-digit code from your authenticator app or a recovery code")
			}
		}
	}
	sec, err := s.confirmedSecret(ctx, s.db.Bun, u.ID)
	if err != nil {
		return err
	}
	if sec == nil {
		return errTwoFactorIsOff
	}
	guessKey := codeGuessKey(u)
	if password != "" {
		guessKey = u.Username
	}
	g, err := s.reserveGuess(ctx, guessKey, c.IP, "Too many wrong passwords or codes.")
	if err != nil {
		return err
	}
	if password != "" {
		ok, err := s.verify(ctx, u.PasswordHash, password)
		if err != nil {
			return s.giveBack(ctx, g, false, err)
		}
		if !ok {
			return invalid("Password is incorrect")
		}
	}
	err = s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		switch {
		case totpCode != "":
			if err := s.takeTOTPCode(ctx, tx, sec, totpCode); err != nil {
				return err
			}
		case recovery != "":
			if err := s.takeRecoveryCode(ctx, tx, u.ID, recovery); err != nil {
				return err
			}
		}
		if _, err := tx.NewDelete().Model((*totpSecret)(nil)).Where("user_id = ?", u.ID).Exec(ctx); err != nil {
			return err
		}
		if _, err := tx.NewDelete().Model((*recoveryCode)(nil)).Where("user_id = ?", u.ID).Exec(ctx); err != nil {
			return err
		}
		return s.afterTwoFactorChange(ctx, tx, u, keepToken, audit.ActionTwoFactorDisable, notify.KindTwoFactorDisabled)
	})
	switch {
	case err == nil:
		return s.giveBack(ctx, g, true, nil)
	case apperr.Code(err) == apperr.Unauthenticated:
		// Signed in already: a wrong code here is bad input, not a lost session.
		return invalid(apperr.Message(err))
	case apperr.Code(err) != apperr.Internal:
		return s.giveBack(ctx, g, false, err)
	}
	return s.giveBack(ctx, g, false, fmt.Errorf("account: disable totp for %s: %w", u.Username, err))
}

// RegenerateRecoveryCodes replaces u's recovery codes with ten new ones,
// proven by a code from the authenticator app. Returns invalid for a
// malformed or wrong code, conflict when two-factor sign-in is off.
func (s *Service) RegenerateRecoveryCodes(ctx context.Context, u *User, code string, c Client) ([]string, error) {
	code, err := normalizeTOTPCode(code)
	if err != nil {
		return nil, err
	}
	sec, err := s.confirmedSecret(ctx, s.db.Bun, u.ID)
	if err != nil {
		return nil, err
	}
	if sec == nil {
		return nil, errTwoFactorIsOff
	}
	g, err := s.reserveGuess(ctx, codeGuessKey(u), c.IP, wrongCodeMessage)
	if err != nil {
		return nil, err
	}
	codes, hashes, err := s.newRecoveryCodes()
	if err != nil {
		return nil, s.giveBack(ctx, g, false, err)
	}
	err = s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		if err := s.takeTOTPCode(ctx, tx, sec, code); err != nil {
			return err
		}
		if err := s.replaceRecoveryCodes(ctx, tx, u, hashes); err != nil {
			return err
		}
		return recordSecurity(ctx, tx, u, audit.ActionRecoveryCodesReset, nil, map[string]any{"recoveryCodes": recoveryCodeCount})
	})
	switch {
	case err == nil:
		return codes, s.giveBack(ctx, g, true, nil)
	case apperr.Code(err) == apperr.Unauthenticated:
		return nil, invalid(apperr.Message(err))
	case apperr.Code(err) != apperr.Internal:
		return nil, s.giveBack(ctx, g, false, err)
	}
	return nil, s.giveBack(ctx, g, false, fmt.Errorf("account: recovery codes for %s: %w", u.Username, err))
}

// afterTwoFactorChange ends u's other sessions, records the change and
// mails the security notice, all in the change's transaction.
func (s *Service) afterTwoFactorChange(ctx context.Context, tx *db.Tx, u *User, keepToken, action, mailKind string) error {
	ended, err := endOtherSessions(ctx, tx, u, keepToken)
	if err != nil {
		return err
	}
	on := action == audit.ActionTwoFactorEnable
	if err := recordSecurity(ctx, tx, u, action, map[string]any{"twoFactor": !on},
		map[string]any{"twoFactor": on, "method": MethodTOTP, "sessionsEnded": ended}); err != nil {
		return err
	}
	return notify.Enqueue(ctx, tx, notify.Message{UserID: u.ID, Kind: mailKind,
		Data: map[string]string{"method": "authenticator app"}})
}

// takeTOTPCode accepts code for sec's secret if it is right now (one step
// either side) and its step is later than any accepted before; it records
// the step. Returns unauthenticated for a wrong or used code.
func (s *Service) takeTOTPCode(ctx context.Context, idb bun.IDB, sec *totpSecret, code string) error {
	secret, err := s.twoFactor.Open(sec.SecretSealed)
	if err != nil {
		return fmt.Errorf("account: open totp secret: %w", err)
	}
	now := s.clock().Unix() / totpPeriod
	var step int64 = -1
	for d := int64(-totpSkew); d <= totpSkew; d++ {
		want, err := totp.GenerateCodeCustom(secret, time.Unix((now+d)*totpPeriod, 0), totpOpts)
		if err != nil {
			return fmt.Errorf("account: totp code: %w", err)
		}
		if subtle.ConstantTimeCompare([]byte(want), []byte(code)) == 1 {
			step = now + d
			break
		}
	}
	if step < 0 {
		return errWrongCode
	}
	res, err := idb.NewUpdate().Model((*totpSecret)(nil)).Set("last_step = ?", step).
		Where("user_id = ?", sec.UserID).Where("last_step < ?", step).Exec(ctx)
	if err != nil {
		return fmt.Errorf("account: take totp code: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errCodeUsed
	}
	return nil
}

// takeRecoveryCode uses up one of userID's recovery codes; unauthenticated
// when it is not one or was used.
func (s *Service) takeRecoveryCode(ctx context.Context, idb bun.IDB, userID int64, code string) error {
	res, err := idb.NewUpdate().Model((*recoveryCode)(nil)).Set("used_at = ?", s.clock()).
		Where("user_id = ?", userID).Where("code_hash = ?", s.twoFactor.Hash(code)).Where("used_at IS NULL").Exec(ctx)
	if err != nil {
		return fmt.Errorf("account: take recovery code: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return apperr.New(apperr.Unauthenticated, "Invalid or used recovery code")
	}
	return nil
}

// newRecoveryCodes returns ten codes as shown ("abcde-23fgh") and their
// hashes as stored.
func (s *Service) newRecoveryCodes() (codes, hashes []string, err error) {
	for range recoveryCodeCount {
		raw := make([]byte, recoveryCodeLength)
		if _, err := rand.Read(raw); err != nil {
			return nil, nil, fmt.Errorf("account: recovery code: %w", err)
		}
		for i, b := range raw {
			raw[i] = recoveryAlphabet[int(b)%len(recoveryAlphabet)] // 256 is a multiple of 32: no bias
		}
		code := string(raw)
		codes = append(codes, code[:5]+"-"+code[5:])
		hashes = append(hashes, s.twoFactor.Hash(code))
	}
	return codes, hashes, nil
}

func (s *Service) replaceRecoveryCodes(ctx context.Context, idb bun.IDB, u *User, hashes []string) error {
	if _, err := idb.NewDelete().Model((*recoveryCode)(nil)).Where("user_id = ?", u.ID).Exec(ctx); err != nil {
		return err
	}
	now := s.clock()
	rows := make([]recoveryCode, len(hashes))
	for i, h := range hashes {
		rows[i] = recoveryCode{UserID: u.ID, CodeHash: h, CreatedAt: now}
	}
	_, err := idb.NewInsert().Model(&rows).Exec(ctx)
	return err
}

// challengeIfTwoFactor returns a *TwoFactorRequired with a new challenge
// when u has a second factor, nil when it has none.
func (s *Service) challengeIfTwoFactor(ctx context.Context, u *User) error {
	sec, err := s.confirmedSecret(ctx, s.db.Bun, u.ID)
	if err != nil {
		return err
	}
	passkeys, err := hasPasskey(ctx, s.db.Bun, u.ID)
	if err != nil {
		return err
	}
	var methods []string
	if sec != nil {
		methods = append(methods, MethodTOTP, MethodRecovery)
	}
	if passkeys {
		methods = append(methods, MethodPasskey)
	}
	if methods == nil {
		return nil
	}
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return fmt.Errorf("account: challenge token: %w", err)
	}
	token := base64.RawURLEncoding.EncodeToString(raw)
	now := s.clock()
	ch := &challenge{TokenHash: hashToken(token), UserID: u.ID, CreatedAt: now, ExpiresAt: now.Add(challengeTTL)}
	if _, err := s.db.Bun.NewInsert().Model(ch).Exec(ctx); err != nil {
		return fmt.Errorf("account: challenge for %s: %w", u.Username, err)
	}
	return &TwoFactorRequired{Token: token, Methods: methods, ExpiresAt: ch.ExpiresAt}
}

// FinishTwoFactor ends a sign-in that Login answered with
// TwoFactorRequired: with a right code of method for the challenge of
// token, it opens the session (ending oldToken's) and returns its token.
// For MethodPasskey, code is the browser's answer (the JSON of a
// PublicKeyCredential) to BeginPasskeySecondFactor's options.
// Returns invalid for an unknown method or a malformed code,
// unauthenticated for an unknown or expired token (log in again) or a
// wrong or used code, forbidden for a disabled account and
// too_many_requests while throttled.
func (s *Service) FinishTwoFactor(ctx context.Context, token, method, code, oldToken string, c Client) (*User, string, error) {
	var err error
	switch method {
	case MethodTOTP:
		code, err = normalizeTOTPCode(code)
	case MethodRecovery:
		code, err = normalizeRecoveryCode(code)
	case MethodPasskey:
		if strings.TrimSpace(code) == "" {
			err = apperr.New(apperr.Invalid, "Send the passkey's answer (credential)")
		}
	default:
		err = errUnknownMethod
	}
	if err != nil {
		return nil, "", err
	}
	ch, u, err := s.liveChallenge(ctx, token)
	if err != nil {
		return nil, "", err
	}
	g, err := s.reserveGuess(ctx, codeGuessKey(u), c.IP, wrongCodeMessage)
	if err != nil {
		return nil, "", err
	}
	switch method {
	case MethodTOTP:
		var sec *totpSecret
		if sec, err = s.confirmedSecret(ctx, s.db.Bun, u.ID); err == nil && sec == nil {
			err = errChallengeGone // turned off meanwhile
		} else if err == nil {
			err = s.takeTOTPCode(ctx, s.db.Bun, sec, code)
		}
	case MethodPasskey:
		err = s.checkPasskeySecondFactor(ctx, ch, u, []byte(code))
	default:
		err = s.takeRecoveryCode(ctx, s.db.Bun, u.ID, code)
	}
	if err != nil {
		if apperr.Code(err) == apperr.Internal {
			return nil, "", s.giveBack(ctx, g, false, err)
		}
		return nil, "", s.challengeFailed(ctx, ch, err)
	}
	if err := s.giveBack(ctx, g, true, nil); err != nil {
		return nil, "", err
	}
	// The challenge is single-use: of two right answers racing, one wins.
	res, err := s.db.Bun.NewDelete().Model((*challenge)(nil)).Where("token_hash = ?", ch.TokenHash).Exec(ctx)
	if err != nil {
		return nil, "", fmt.Errorf("account: end challenge: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil, "", errChallengeGone
	}
	if oldToken != "" {
		if err := s.Logout(ctx, oldToken); err != nil {
			return nil, "", err
		}
	}
	session, err := s.StartSession(ctx, u, c)
	if err != nil {
		return nil, "", err
	}
	return u, session, nil
}

// liveChallenge returns the pending sign-in of token and its account.
// Returns unauthenticated for an unknown or expired one (log in again),
// forbidden for a disabled account.
func (s *Service) liveChallenge(ctx context.Context, token string) (*challenge, *User, error) {
	token = strings.TrimSpace(token)
	if token == "" || len(token) > 100 {
		return nil, nil, errChallengeGone
	}
	ch := new(challenge)
	err := s.db.Bun.NewSelect().Model(ch).Where("token_hash = ?", hashToken(token)).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) || err == nil && !s.clock().Before(ch.ExpiresAt) {
		return nil, nil, errChallengeGone
	}
	if err != nil {
		return nil, nil, fmt.Errorf("account: two-factor challenge: %w", err)
	}
	u, err := s.ByID(ctx, ch.UserID)
	if apperr.Code(err) == apperr.NotFound {
		return nil, nil, errChallengeGone
	}
	if err != nil {
		return nil, nil, err
	}
	if !u.DisabledAt.IsZero() {
		return nil, nil, apperr.New(apperr.Forbidden, "This account is disabled")
	}
	return ch, u, nil
}

// challengeFailed counts a wrong code against ch, ends ch after the last
// one allowed, and returns cause.
func (s *Service) challengeFailed(ctx context.Context, ch *challenge, cause error) error {
	if ch.Failures+1 >= maxChallengeFailures {
		if _, err := s.db.Bun.NewDelete().Model((*challenge)(nil)).Where("token_hash = ?", ch.TokenHash).Exec(ctx); err != nil {
			return fmt.Errorf("account: end challenge: %w", err)
		}
		return apperr.New(apperr.Unauthenticated, "%s Too many wrong codes: please log in again.", apperr.Message(cause))
	}
	if _, err := s.db.Bun.NewUpdate().Model((*challenge)(nil)).Set("failures = failures + 1").
		Where("token_hash = ?", ch.TokenHash).Exec(ctx); err != nil {
		return fmt.Errorf("account: count challenge failure: %w", err)
	}
	return cause
}
