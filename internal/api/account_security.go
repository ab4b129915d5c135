package api

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/nameport/nameport/internal/account"
)

// Account security: the second step of a two-factor sign-in, the account's
// second factors, and its sessions.

// codeTwoFactorRequired is the envelope code of a login whose password was
// right but that needs a second factor: no session was made; the answer
// carries pendingToken and methods for POST /api/auth/login/two-factor.
const codeTwoFactorRequired = "two_factor_required"

// twoFactorRequired answers a login Login met with a challenge: 401 with
// what the second step needs.
func twoFactorRequired(tfr *account.TwoFactorRequired) error {
	pending := tfr.Token
	msg := "Enter the code from your authenticator app"
	if !slices.Contains(tfr.Methods, account.MethodTOTP) {
		msg = "Confirm the sign-in with your passkey"
	}
	return &envelopeError{status: http.StatusUnauthorized, Message: msg,
		Code: codeTwoFactorRequired, PendingToken: &pending, Methods: tfr.Methods}
}

type LoginTwoFactorInput struct {
	Body struct {
		PendingToken string `json:"pendingToken" required:"false" maxLength:"200" doc:"The pendingToken of the login's two_factor_required answer"`
		Method       string `json:"method" required:"false" maxLength:"20" doc:"One of the answer's methods: totp (a code from an authenticator app) or recovery (a recovery code)"`
		Code         string `json:"code" required:"false" maxLength:"64" doc:"The 6-digit code, or a recovery code like abcde-23fgh"`
		// Credential is the passkey method's answer, in place of a code.
		Credential map[string]any `json:"credential,omitempty" required:"false" doc:"Method passkey: the browser's answer to the options of POST /api/auth/login/two-factor/passkey-options (the PublicKeyCredential of navigator.credentials.get, as JSON)"`
	}
}

type TwoFactorStatusOutput struct {
	Body envelope[twoFactorStatusBody]
}

type twoFactorStatusBody struct {
	On                bool       `json:"on" doc:"Sign-in asks for a second factor after the password: an authenticator app's code or a passkey"`
	TOTPEnabled       bool       `json:"totpEnabled" doc:"Sign-in asks for a code from an authenticator app"`
	EnabledAt         *time.Time `json:"enabledAt,omitempty"`
	RecoveryCodesLeft int        `json:"recoveryCodesLeft" doc:"Recovery codes not used yet"`
	Passkeys          int        `json:"passkeys" doc:"How many passkeys the account has; each is a second factor too"`
	SetupRequired     bool       `json:"setupRequired" doc:"Two-factor sign-in is off but the site asks this account for it: always for admins, for registrars when the site setting require_two_factor_registrars is true"`
	SetupEnforced     bool       `json:"setupEnforced" doc:"The account is held until it sets up an authenticator app or a passkey: the operations of its role (admin or registrar tools; not /v1) answer 403 two_factor_setup_required. Admins made after two-factor sign-in came, every admin while the site setting require_two_factor_admins is true, and registrars while require_two_factor_registrars is (see PUT /api/admin/two-factor-policy)"`
}

type TOTPSetupOutput struct {
	Body envelope[totpSetupBody]
}

type totpSetupBody struct {
	Secret     string `json:"secret" doc:"The key in base32, to type into an authenticator app"`
	OTPAuthURL string `json:"otpauthUrl" doc:"The otpauth:// URL the QR code holds"`
	QRCode     string `json:"qrCode" doc:"The QR code as a data: URL of a PNG image"`
}

type TOTPCodeInput struct {
	Body struct {
		Code string `json:"code" required:"false" maxLength:"64" doc:"The 6-digit code the authenticator app shows now"`
	}
}

type RecoveryCodesOutput struct {
	Body envelope[recoveryCodesBody]
}

type recoveryCodesBody struct {
	RecoveryCodes []string `json:"recoveryCodes" doc:"Ten single-use recovery codes, shown this once"`
}

type TwoFactorDisableInput struct {
	Body struct {
		Password string `json:"password" required:"false" maxLength:"200" doc:"The account's password"`
		Code     string `json:"code" required:"false" maxLength:"64" doc:"Or a code from the authenticator app, or a recovery code"`
	}
}

type SessionsOutput struct {
	Body envelope[[]sessionBody]
}

type sessionBody struct {
	ID         string    `json:"id"`
	CreatedAt  time.Time `json:"createdAt"`
	LastSeenAt time.Time `json:"lastSeenAt"`
	IPAddress  string    `json:"ipAddress"`
	Browser    string    `json:"browser" doc:"The browser and system, from its User-Agent" example:"Chrome 131 on Linux"`
	UserAgent  string    `json:"userAgent"`
	Current    bool      `json:"current" doc:"The session of this request"`
}

type SessionInput struct {
	ID string `path:"id" maxLength:"64" doc:"The session's id"`
}

type EndOtherSessionsOutput struct {
	Body envelope[endedBody]
}

type endedBody struct {
	Ended int64 `json:"ended" doc:"How many sessions were signed out"`
}

type securityHandlers struct {
	accounts *account.Service
}

func addAccountSecurityRoutes(a huma.API, accounts *account.Service) {
	h := securityHandlers{accounts: accounts}
	tags := []string{"Account security"}
	register(a, accessPublic, huma.Operation{
		OperationID: "auth-login-two-factor", Method: http.MethodPost, Path: "/api/auth/login/two-factor", Tags: []string{"Auth"},
		Summary: "Finish a two-factor login",
		Description: "The second step of a login that answered 401 two_factor_required: the pending token with a code of one of its methods starts the session. " +
			"Codes are taken once; wrong ones are throttled like passwords, and a pending token dies after five or five minutes.",
		Errors: []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusUnprocessableEntity, http.StatusTooManyRequests},
	}, h.finishLogin)
	register(a, accessAccount, huma.Operation{
		OperationID: "account-two-factor", Method: http.MethodGet, Path: "/api/account/two-factor", Tags: tags,
		Summary: "My two-factor sign-in",
	}, h.status)
	register(a, accessAccount, huma.Operation{
		OperationID: "account-totp-setup", Method: http.MethodPost, Path: "/api/account/two-factor/totp", Tags: tags,
		Summary:     "Set up an authenticator app",
		Description: "Makes a new secret, pending until confirmed by its first code. 409 when two-factor sign-in is on already.",
		Errors:      []int{http.StatusConflict},
	}, h.setUp)
	register(a, accessAccount, huma.Operation{
		OperationID: "account-totp-confirm", Method: http.MethodPost, Path: "/api/account/two-factor/totp/confirm", Tags: tags,
		Summary:     "Turn on two-factor sign-in",
		Description: "Confirms the pending secret with its first code, signs out every other session and returns ten recovery codes, shown this once.",
		Errors:      []int{http.StatusConflict, http.StatusUnprocessableEntity, http.StatusTooManyRequests},
	}, h.confirm)
	register(a, accessAccount, huma.Operation{
		OperationID: "account-two-factor-disable", Method: http.MethodPost, Path: "/api/account/two-factor/disable", Tags: tags,
		Summary:     "Turn off two-factor sign-in",
		Description: "Needs the password or a code (authenticator or recovery); signs out every other session.",
		Errors:      []int{http.StatusConflict, http.StatusUnprocessableEntity, http.StatusTooManyRequests},
	}, h.disable)
	register(a, accessAccount, huma.Operation{
		OperationID: "account-recovery-codes", Method: http.MethodPost, Path: "/api/account/two-factor/recovery-codes", Tags: tags,
		Summary:     "New recovery codes",
		Description: "Replaces the recovery codes with ten new ones (shown this once), proven by a code from the authenticator app.",
		Errors:      []int{http.StatusConflict, http.StatusUnprocessableEntity, http.StatusTooManyRequests},
	}, h.recoveryCodes)
	register(a, accessAccount, huma.Operation{
		OperationID: "account-sessions", Method: http.MethodGet, Path: "/api/account/sessions", Tags: tags,
		Summary: "My active sessions", Description: "The most recently seen first; current marks this one.",
	}, h.sessions)
	register(a, accessAccount, huma.Operation{
		OperationID: "account-session-end", Method: http.MethodDelete, Path: "/api/account/sessions/{id}", Tags: tags,
		Summary: "Sign a session out", Errors: []int{http.StatusNotFound, http.StatusUnprocessableEntity},
	}, h.endSession)
	register(a, accessAccount, huma.Operation{
		OperationID: "account-sessions-end-others", Method: http.MethodPost, Path: "/api/account/sessions/end-others", Tags: tags,
		Summary: "Sign out everywhere else",
	}, h.endOthers)
}

func (h securityHandlers) finishLogin(ctx context.Context, in *LoginTwoFactorInput) (*SessionOutput, error) {
	req := requestOf(ctx)
	b := in.Body
	code := b.Code
	if b.Method == account.MethodPasskey && len(b.Credential) > 0 {
		cred, err := json.Marshal(b.Credential)
		if err != nil {
			return nil, fail(ctx, err)
		}
		code = string(cred)
	}
	u, token, err := h.accounts.FinishTwoFactor(ctx, b.PendingToken, b.Method, code, req.sessionToken, req.client)
	if err != nil {
		return nil, fail(ctx, err)
	}
	return sessionOutput(ctx, h.accounts, u, token, false)
}

func (h securityHandlers) status(ctx context.Context, _ *struct{}) (*TwoFactorStatusOutput, error) {
	u := sessionUser(ctx)
	st, err := h.accounts.TwoFactor(ctx, u)
	if err != nil {
		return nil, fail(ctx, err)
	}
	body := twoFactorStatusBody{On: st.On(), TOTPEnabled: st.TOTPEnabled, RecoveryCodesLeft: st.RecoveryCodesLeft, Passkeys: st.Passkeys}
	if !st.EnabledAt.IsZero() {
		body.EnabledAt = &st.EnabledAt
	}
	if body.SetupRequired, err = h.accounts.TwoFactorAsked(ctx, u); err != nil {
		return nil, fail(ctx, err)
	}
	if body.SetupEnforced, err = h.accounts.NeedsTwoFactorSetup(ctx, u); err != nil {
		return nil, fail(ctx, err)
	}
	return &TwoFactorStatusOutput{Body: ok(body)}, nil
}

func (h securityHandlers) setUp(ctx context.Context, _ *struct{}) (*TOTPSetupOutput, error) {
	setup, err := h.accounts.BeginTOTP(ctx, sessionUser(ctx))
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &TOTPSetupOutput{Body: ok(totpSetupBody{Secret: setup.Secret, OTPAuthURL: setup.URL,
		QRCode: "data:image/png;base64," + base64.StdEncoding.EncodeToString(setup.QRCode)})}, nil
}

func (h securityHandlers) confirm(ctx context.Context, in *TOTPCodeInput) (*RecoveryCodesOutput, error) {
	req := requestOf(ctx)
	codes, err := h.accounts.ConfirmTOTP(ctx, sessionUser(ctx), in.Body.Code, req.sessionToken, req.client)
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &RecoveryCodesOutput{Body: ok(recoveryCodesBody{RecoveryCodes: codes})}, nil
}

func (h securityHandlers) disable(ctx context.Context, in *TwoFactorDisableInput) (*DoneOutput, error) {
	req := requestOf(ctx)
	if err := h.accounts.DisableTOTP(ctx, sessionUser(ctx), in.Body.Password, in.Body.Code, req.sessionToken, req.client); err != nil {
		return nil, fail(ctx, err)
	}
	return done(), nil
}

func (h securityHandlers) recoveryCodes(ctx context.Context, in *TOTPCodeInput) (*RecoveryCodesOutput, error) {
	codes, err := h.accounts.RegenerateRecoveryCodes(ctx, sessionUser(ctx), in.Body.Code, requestOf(ctx).client)
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &RecoveryCodesOutput{Body: ok(recoveryCodesBody{RecoveryCodes: codes})}, nil
}

func (h securityHandlers) sessions(ctx context.Context, _ *struct{}) (*SessionsOutput, error) {
	list, err := h.accounts.Sessions(ctx, sessionUser(ctx), requestOf(ctx).sessionToken)
	if err != nil {
		return nil, fail(ctx, err)
	}
	out := make([]sessionBody, len(list))
	for i, s := range list {
		out[i] = sessionBody{ID: s.ID, CreatedAt: s.CreatedAt, LastSeenAt: s.LastSeenAt, IPAddress: s.ClientIP,
			Browser: s.Browser, UserAgent: s.UserAgent, Current: s.Current}
	}
	return &SessionsOutput{Body: ok(out)}, nil
}

func (h securityHandlers) endSession(ctx context.Context, in *SessionInput) (*DoneOutput, error) {
	if err := h.accounts.EndSession(ctx, sessionUser(ctx), in.ID); err != nil {
		return nil, fail(ctx, err)
	}
	return done(), nil
}

func (h securityHandlers) endOthers(ctx context.Context, _ *struct{}) (*EndOtherSessionsOutput, error) {
	n, err := h.accounts.EndOtherSessions(ctx, sessionUser(ctx), requestOf(ctx).sessionToken)
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &EndOtherSessionsOutput{Body: ok(endedBody{Ended: n})}, nil
}

// twoFactorAnswer returns the login's two_factor_required answer when err
// is Login's challenge, nil otherwise.
func twoFactorAnswer(err error) error {
	var tfr *account.TwoFactorRequired
	if errors.As(err, &tfr) {
		return twoFactorRequired(tfr)
	}
	return nil
}

// DeviceCookie names the browser: a long-lived random id whose keyed hash
// each account it signs in to keeps, so that a sign-in from a browser an
// account has not used mails a notice (account.noteDevice).
const DeviceCookie = "nameport_device"

// deviceOf returns r's device id, or a new one (fresh) when r has none
// that could be ours.
func deviceOf(r *http.Request) (id string, fresh bool) {
	if c, err := r.Cookie(DeviceCookie); err == nil && len(c.Value) >= 20 && len(c.Value) <= 64 &&
		strings.Trim(c.Value, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") == "" {
		return c.Value, false
	}
	raw := make([]byte, 24)
	_, _ = rand.Read(raw)
	return base64.RawURLEncoding.EncodeToString(raw), true
}

// deviceCookie is the cookie that keeps req's new device id, for 400
// days (the most browsers keep a cookie).
func deviceCookie(req *request) http.Cookie {
	return http.Cookie{Name: DeviceCookie, Value: req.client.Device, Path: "/", MaxAge: 400 * 24 * 60 * 60,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: req.tls}
}
