package api

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/nameport/nameport/internal/account"
	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/ratelimit"
)

// Passkeys (WebAuthn): an account's passkeys in Account Settings, a sign-in
// with a passkey alone, and the passkey step of a two-factor sign-in. Each
// ceremony is two calls: options (for navigator.credentials.create or
// .get, with a ceremonyToken naming the server's copy of the challenge),
// then the browser's answer with that token. The account package checks
// everything; these handlers move JSON.

type passkeyBody struct {
	ID         int64      `json:"id"`
	Name       string     `json:"name" example:"MacBook Touch ID"`
	CreatedAt  time.Time  `json:"createdAt"`
	LastUsedAt *time.Time `json:"lastUsedAt,omitempty" doc:"The last sign-in with it; absent if never"`
}

func toPasskeyBody(p account.Passkey) passkeyBody {
	b := passkeyBody{ID: p.ID, Name: p.Name, CreatedAt: p.CreatedAt}
	if !p.LastUsedAt.IsZero() {
		b.LastUsedAt = &p.LastUsedAt
	}
	return b
}

type PasskeysOutput struct {
	Body envelope[[]passkeyBody]
}

type PasskeyOutput struct {
	Body envelope[passkeyBody]
}

type passkeyOptionsBody struct {
	CeremonyToken string         `json:"ceremonyToken" doc:"Send it back with the browser's answer; good once, for five minutes"`
	Options       map[string]any `json:"options" doc:"The WebAuthn options, {publicKey: …}, with binary members in base64url: for navigator.credentials.create (adding a passkey) or .get (signing in)"`
}

type PasskeyOptionsOutput struct {
	Body envelope[passkeyOptionsBody]
}

type AddPasskeyInput struct {
	Body struct {
		CeremonyToken string         `json:"ceremonyToken" required:"false" maxLength:"200" doc:"The ceremonyToken of POST /api/account/passkeys/options"`
		Name          string         `json:"name" required:"false" maxLength:"200" doc:"What to call it (default Passkey); at most 64 characters"`
		Credential    map[string]any `json:"credential" required:"false" doc:"The browser's answer: the PublicKeyCredential of navigator.credentials.create, as JSON (PublicKeyCredential.toJSON())"`
	}
}

type RenamePasskeyInput struct {
	ID   int64 `path:"id" doc:"The passkey's id"`
	Body struct {
		Name string `json:"name" required:"false" maxLength:"200" doc:"At most 64 characters"`
	}
}

type PasskeyIDInput struct {
	ID int64 `path:"id" doc:"The passkey's id"`
}

// PasskeyRemoveInput names a passkey to remove, with the password.
type PasskeyRemoveInput struct {
	ID   int64 `path:"id" doc:"The passkey's id"`
	Body struct {
		Password string `json:"password" required:"false" maxLength:"200" doc:"The account's password, asked again: a passkey may be its only second factor"`
	}
}

type PasskeyLoginInput struct {
	Body struct {
		CeremonyToken string         `json:"ceremonyToken" required:"false" maxLength:"200" doc:"The ceremonyToken of POST /api/auth/passkey/options"`
		Credential    map[string]any `json:"credential" required:"false" doc:"The browser's answer: the PublicKeyCredential of navigator.credentials.get, as JSON"`
	}
}

type PasskeySecondFactorOptionsInput struct {
	Body struct {
		PendingToken string `json:"pendingToken" required:"false" maxLength:"200" doc:"The pendingToken of the login's two_factor_required answer"`
	}
}

type passkeyHandlers struct {
	accounts *account.Service
}

func addPasskeyRoutes(a huma.API, accounts *account.Service) {
	h := passkeyHandlers{accounts: accounts}
	tags := []string{"Account security"}
	notFound := []int{http.StatusNotFound, http.StatusUnprocessableEntity}
	register(a, accessAccount, huma.Operation{
		OperationID: "account-passkeys", Method: http.MethodGet, Path: "/api/account/passkeys", Tags: tags,
		Summary: "My passkeys", Description: "Oldest first, with when each was added and last used.",
	}, h.list)
	register(a, accessAccount, huma.Operation{
		OperationID: "account-passkey-options", Method: http.MethodPost, Path: "/api/account/passkeys/options", Tags: tags,
		Summary:     "Start adding a passkey",
		Description: "Options for navigator.credentials.create: a discoverable credential (it can sign in alone), excluding the account's passkeys. 409 when passkeys are off on this site (its public address is no domain name) or the account has 20.",
		Errors:      []int{http.StatusConflict},
	}, h.options)
	register(a, accessAccount, huma.Operation{
		OperationID: "account-passkey-add", Method: http.MethodPost, Path: "/api/account/passkeys", Tags: tags,
		Summary:       "Add a passkey",
		Description:   "Checks the browser's answer to the options of ceremonyToken (taken once) and adds the passkey; signs out every other session, as turning two-factor sign-in on does, and mails a notice.",
		DefaultStatus: http.StatusCreated,
		Errors:        []int{http.StatusConflict, http.StatusUnprocessableEntity},
	}, h.add)
	register(a, accessAccount, huma.Operation{
		OperationID: "account-passkey-rename", Method: http.MethodPatch, Path: "/api/account/passkeys/{id}", Tags: tags,
		Summary: "Rename a passkey", Errors: notFound,
	}, h.rename)
	register(a, accessAccount, huma.Operation{
		OperationID: "account-passkey-delete", Method: http.MethodDelete, Path: "/api/account/passkeys/{id}", Tags: tags,
		Summary:     "Remove a passkey",
		Description: "With the account's password (422 when missing or wrong; wrong ones are throttled like logins, 429). It cannot sign in any more; signs out every other session and mails a notice.",
		Errors:      append(slices.Clone(notFound), http.StatusTooManyRequests),
	}, h.remove)

	// Each start stores a ceremony: visitors' steps count per network.
	signIn := accessPublic.visitorsCountedAs(ratelimit.PasskeySignIns)
	register(a, signIn, huma.Operation{
		OperationID: "auth-passkey-options", Method: http.MethodPost, Path: "/api/auth/passkey/options", Tags: []string{"Auth"},
		Summary:     "Start a sign-in with a passkey",
		Description: "Options for navigator.credentials.get naming no account: the browser offers this site's passkeys, and the one chosen names its account.",
		Errors:      []int{http.StatusConflict},
	}, h.loginOptions)
	register(a, signIn, huma.Operation{
		OperationID: "auth-passkey-login", Method: http.MethodPost, Path: "/api/auth/passkey", Tags: []string{"Auth"},
		Summary:     "Sign in with a passkey",
		Description: "Checks the browser's answer to the options of ceremonyToken (taken once) and starts a session for the passkey's account. 401 for a passkey this site does not know or a wrong signature, 422 for an expired or used ceremony or a malformed answer.",
		Errors:      []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusConflict, http.StatusUnprocessableEntity},
	}, h.login)
	register(a, signIn, huma.Operation{
		OperationID: "auth-login-passkey-options", Method: http.MethodPost, Path: "/api/auth/login/two-factor/passkey-options", Tags: []string{"Auth"},
		Summary:     "Start the passkey step of a two-factor login",
		Description: "For a login that answered two_factor_required with the method passkey: options for navigator.credentials.get listing the account's passkeys. The answer goes to POST /api/auth/login/two-factor with method passkey and credential.",
		Errors:      []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusConflict, http.StatusUnprocessableEntity},
	}, h.secondFactorOptions)
}

// optionsOutput is the answer of a ceremony's first call.
func optionsOutput(ctx context.Context, c *account.PasskeyCeremony) (*PasskeyOptionsOutput, error) {
	var opts map[string]any
	if err := json.Unmarshal(c.Options, &opts); err != nil {
		return nil, fail(ctx, err)
	}
	return &PasskeyOptionsOutput{Body: ok(passkeyOptionsBody{CeremonyToken: c.Token, Options: opts})}, nil
}

// credentialJSON returns the browser's answer as the JSON the WebAuthn
// library reads; invalid when there is none.
func credentialJSON(cred map[string]any) ([]byte, error) {
	if len(cred) == 0 {
		return nil, apperr.New(apperr.Invalid, "Send the browser's answer (credential)")
	}
	return json.Marshal(cred)
}

func (h passkeyHandlers) list(ctx context.Context, _ *struct{}) (*PasskeysOutput, error) {
	list, err := h.accounts.Passkeys(ctx, sessionUser(ctx))
	if err != nil {
		return nil, fail(ctx, err)
	}
	out := make([]passkeyBody, len(list))
	for i, p := range list {
		out[i] = toPasskeyBody(p)
	}
	return &PasskeysOutput{Body: ok(out)}, nil
}

func (h passkeyHandlers) options(ctx context.Context, _ *struct{}) (*PasskeyOptionsOutput, error) {
	c, err := h.accounts.BeginPasskeyRegistration(ctx, sessionUser(ctx))
	if err != nil {
		return nil, fail(ctx, err)
	}
	return optionsOutput(ctx, c)
}

func (h passkeyHandlers) add(ctx context.Context, in *AddPasskeyInput) (*PasskeyOutput, error) {
	cred, err := credentialJSON(in.Body.Credential)
	if err != nil {
		return nil, fail(ctx, err)
	}
	p, err := h.accounts.FinishPasskeyRegistration(ctx, sessionUser(ctx), in.Body.CeremonyToken, in.Body.Name, cred,
		requestOf(ctx).sessionToken)
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &PasskeyOutput{Body: ok(toPasskeyBody(*p))}, nil
}

func (h passkeyHandlers) rename(ctx context.Context, in *RenamePasskeyInput) (*PasskeyOutput, error) {
	p, err := h.accounts.RenamePasskey(ctx, sessionUser(ctx), in.ID, in.Body.Name)
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &PasskeyOutput{Body: ok(toPasskeyBody(*p))}, nil
}

func (h passkeyHandlers) remove(ctx context.Context, in *PasskeyRemoveInput) (*DoneOutput, error) {
	req := requestOf(ctx)
	if err := h.accounts.DeletePasskey(ctx, sessionUser(ctx), in.ID, in.Body.Password, req.sessionToken, req.client); err != nil {
		return nil, fail(ctx, err)
	}
	return done(), nil
}

func (h passkeyHandlers) loginOptions(ctx context.Context, _ *struct{}) (*PasskeyOptionsOutput, error) {
	c, err := h.accounts.BeginPasskeyLogin(ctx)
	if err != nil {
		return nil, fail(ctx, err)
	}
	return optionsOutput(ctx, c)
}

func (h passkeyHandlers) login(ctx context.Context, in *PasskeyLoginInput) (*SessionOutput, error) {
	cred, err := credentialJSON(in.Body.Credential)
	if err != nil {
		return nil, fail(ctx, err)
	}
	req := requestOf(ctx)
	u, token, err := h.accounts.FinishPasskeyLogin(ctx, in.Body.CeremonyToken, cred, req.sessionToken, req.client)
	if err != nil {
		return nil, fail(ctx, err)
	}
	return sessionOutput(ctx, h.accounts, u, token, false)
}

func (h passkeyHandlers) secondFactorOptions(ctx context.Context, in *PasskeySecondFactorOptionsInput) (*PasskeyOptionsOutput, error) {
	c, err := h.accounts.BeginPasskeySecondFactor(ctx, in.Body.PendingToken)
	if err != nil {
		return nil, fail(ctx, err)
	}
	return optionsOutput(ctx, c)
}
