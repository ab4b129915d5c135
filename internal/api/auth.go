package api

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/nameport/nameport/internal/account"
	"github.com/nameport/nameport/internal/apperr"
)

// envelope is the /api success shape: {"success":true,"data":…}.
type envelope[T any] struct {
	Success bool `json:"success"`
	Data    T    `json:"data"`
}

func ok[T any](data T) envelope[T] { return envelope[T]{Success: true, Data: data} }

// userBody is the current-user payload (spec section 3 "Session / current
// user").
type userBody struct {
	ID       int64  `json:"id"`
	Username string `json:"username"`
	Email    string `json:"email"`
	FullName string `json:"fullName"`
	UserType string `json:"userType" enum:"user,registrar,admin"`
	Tier     string `json:"tier,omitempty" enum:"basic,premium,enterprise" doc:"Registrars only"`
	APIKey   string `json:"apiKey,omitempty" doc:"Sign-up of a registrar only: the new account's API key, shown once here; afterwards GET /api/registrar/api-key"`
}

// toUserBody is the account as the web app sees it. The API key is not
// part of it: a secret in every login and every /me answer ends up in
// caches, logs and crash reports. The sign-up answer shows a registrar its
// new key once (withKey); later the dashboard asks GET
// /api/registrar/api-key when it shows it.
func toUserBody(ctx context.Context, accounts *account.Service, u *account.User, withKey bool) (userBody, error) {
	b := userBody{ID: u.ID, Username: u.Username, Email: u.Email, FullName: u.FullName,
		UserType: u.UserType, Tier: u.Tier}
	if withKey {
		key, err := accounts.APIKey(ctx, u)
		if err != nil {
			return userBody{}, err
		}
		b.APIKey = key
	}
	return b, nil
}

type RegisterInput struct {
	Body struct {
		Username        string `json:"username" required:"false"`
		Email           string `json:"email" required:"false"`
		Password        string `json:"password" required:"false"`
		ConfirmPassword string `json:"confirmPassword" required:"false"`
		FullName        string `json:"fullName" required:"false"`
		UserType        string `json:"userType,omitempty" doc:"user (default) or registrar"`
		Tier            string `json:"tier,omitempty" doc:"Registrars: basic (default), premium or enterprise"`
	}
}

type LoginInput struct {
	Body struct {
		Username string `json:"username" required:"false"`
		Password string `json:"password" required:"false"`
	}
}

// SessionOutput answers a sign-up or login: the account, and the cookie of
// its new session.
type SessionOutput struct {
	// SetCookie is the session's cookie, and the browser's device cookie
	// when it had none (see deviceCookie).
	SetCookie []http.Cookie `header:"Set-Cookie"`
	Body      envelope[userBody]
}

type LogoutOutput struct {
	SetCookie http.Cookie `header:"Set-Cookie"`
	Body      struct {
		Success bool `json:"success"`
	}
}

type MeOutput struct {
	Body envelope[userBody]
}

// authHandlers are the handlers of the Auth operations: sign-up, sessions,
// passwords and registrars' API keys (here), password resets (notify.go)
// and email verification (verify.go).
type authHandlers struct {
	accounts *account.Service
}

func addAuthRoutes(a huma.API, accounts *account.Service) {
	h := authHandlers{accounts}
	register(a, accessPublic, huma.Operation{
		OperationID: "auth-register", Method: http.MethodPost, Path: "/api/auth/register", Tags: []string{"Auth"},
		Summary:       "Create an account",
		Description:   "Creates an end-user or registrar account and logs it in. A registrar gets the basic tier and an API key, shown once in this answer; asking for premium or enterprise files a tier application that an admin approves. Sign-ups are throttled per client network.",
		DefaultStatus: http.StatusCreated,
		Errors:        []int{http.StatusConflict, http.StatusUnprocessableEntity, http.StatusTooManyRequests, http.StatusServiceUnavailable},
	}, h.signUp)

	register(a, accessPublic, huma.Operation{
		OperationID: "auth-login", Method: http.MethodPost, Path: "/api/auth/login", Tags: []string{"Auth"},
		Summary:     "Log in",
		Description: "Checks a username and password and starts a new session. An account with two-factor sign-in gets no session yet but 401 with code two_factor_required, a pendingToken and the methods it takes: POST /api/auth/login/two-factor finishes the login. Failures slow further attempts down per account and client network, per client network, and per account for networks that have failed.",
		Errors:      []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusUnprocessableEntity, http.StatusTooManyRequests, http.StatusServiceUnavailable},
	}, h.logIn)

	register(a, accessPublic, huma.Operation{
		OperationID: "auth-logout", Method: http.MethodPost, Path: "/api/auth/logout", Tags: []string{"Auth"},
		Summary: "Log out", Description: "Ends the current session. Logging out without a session is not an error.",
	}, h.logOut)

	register(a, accessAccount, huma.Operation{
		OperationID: "auth-me", Method: http.MethodGet, Path: "/api/auth/me", Tags: []string{"Auth"},
		Summary: "The logged-in account", Errors: []int{http.StatusUnauthorized},
	}, h.me)
	register(a, accessAccount, huma.Operation{
		OperationID: "me", Method: http.MethodGet, Path: "/api/me", Tags: []string{"Auth"},
		Summary: "The logged-in account (role check)", Errors: []int{http.StatusUnauthorized},
	}, h.me)
}

// signUp creates an account and starts its session, ending the caller's old one.
func (h authHandlers) signUp(ctx context.Context, in *RegisterInput) (*SessionOutput, error) {
	b := in.Body
	req := requestOf(ctx)
	u, err := h.accounts.Register(ctx, account.SignUp{Username: b.Username, Email: b.Email, Password: b.Password,
		ConfirmPassword: b.ConfirmPassword, FullName: b.FullName, UserType: b.UserType, Tier: b.Tier,
		Client: req.client})
	if err != nil {
		return nil, fail(ctx, err)
	}
	if req.sessionToken != "" {
		if err := h.accounts.Logout(ctx, req.sessionToken); err != nil {
			return nil, fail(ctx, err)
		}
	}
	token, err := h.accounts.StartSession(ctx, u, req.client)
	if err != nil {
		return nil, fail(ctx, err)
	}
	return sessionOutput(ctx, h.accounts, u, token, true)
}

// logIn checks a username and password and starts a new session.
func (h authHandlers) logIn(ctx context.Context, in *LoginInput) (*SessionOutput, error) {
	req := requestOf(ctx)
	u, token, err := h.accounts.Login(ctx, in.Body.Username, in.Body.Password, req.sessionToken, req.client)
	if answer := twoFactorAnswer(err); answer != nil {
		return nil, answer
	}
	if err != nil {
		return nil, fail(ctx, err)
	}
	return sessionOutput(ctx, h.accounts, u, token, false)
}

// logOut ends the request's session, if any, and clears its cookie.
func (h authHandlers) logOut(ctx context.Context, _ *struct{}) (*LogoutOutput, error) {
	req := requestOf(ctx)
	if req.sessionToken != "" {
		if err := h.accounts.Logout(ctx, req.sessionToken); err != nil {
			return nil, fail(ctx, err)
		}
	}
	out := &LogoutOutput{SetCookie: http.Cookie{Name: SessionCookie, Value: "", Path: "/", MaxAge: -1,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: req.tls}}
	out.Body.Success = true
	return out, nil
}

// me returns the signed-in account.
func (h authHandlers) me(ctx context.Context, _ *struct{}) (*MeOutput, error) {
	u := sessionUser(ctx)
	body, err := toUserBody(ctx, h.accounts, u, false)
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &MeOutput{Body: ok(body)}, nil
}

func sessionOutput(ctx context.Context, accounts *account.Service, u *account.User, token string, withKey bool) (*SessionOutput, error) {
	body, err := toUserBody(ctx, accounts, u, withKey)
	if err != nil {
		return nil, fail(ctx, err)
	}
	req := requestOf(ctx)
	// No Max-Age: the server decides when a session ends (it slides with use).
	cookies := []http.Cookie{{Name: SessionCookie, Value: token, Path: "/", HttpOnly: true,
		SameSite: http.SameSiteLaxMode, Secure: req.tls}}
	if req.newDevice {
		cookies = append(cookies, deviceCookie(req))
	}
	return &SessionOutput{SetCookie: cookies, Body: ok(body)}, nil
}

// currentUser returns the account of the request's session; unauthenticated
// when there is none.
func currentUser(ctx context.Context, accounts *account.Service) (*account.User, error) {
	token := requestOf(ctx).sessionToken
	if token == "" {
		return nil, apperr.New(apperr.Unauthenticated, "Not authenticated")
	}
	return accounts.Authenticate(ctx, token)
}

type ChangePasswordInput struct {
	Body struct {
		CurrentPassword string `json:"currentPassword" required:"false"`
		NewPassword     string `json:"newPassword" required:"false"`
		ConfirmPassword string `json:"confirmPassword" required:"false"`
	}
}

func addPasswordRoutes(a huma.API, accounts *account.Service) {
	h := authHandlers{accounts}
	register(a, accessAccount, huma.Operation{
		OperationID: "auth-change-password", Method: http.MethodPost, Path: "/api/auth/change-password", Tags: []string{"Auth"},
		Summary:     "Change my password",
		Description: "Checks the current password, sets the new one and logs out every other session of the account. Wrong current passwords are throttled like failed logins.",
		Errors:      []int{http.StatusUnauthorized, http.StatusUnprocessableEntity, http.StatusTooManyRequests, http.StatusServiceUnavailable},
	}, h.changePassword)
}

// changePassword sets the signed-in account's new password and ends its other sessions.
func (h authHandlers) changePassword(ctx context.Context, in *ChangePasswordInput) (*DoneOutput, error) {
	u := sessionUser(ctx)
	b := in.Body
	if err := h.accounts.ChangePassword(ctx, u, b.CurrentPassword, b.NewPassword, b.ConfirmPassword,
		requestOf(ctx).sessionToken, requestOf(ctx).client); err != nil {
		return nil, fail(ctx, err)
	}
	return done(), nil
}

type APIKeyOutput struct {
	Body envelope[apiKeyBody]
}

type apiKeyBody struct {
	APIKey string `json:"apiKey" doc:"The new key; the old one no longer works"`
}

type APIKeyReadOutput struct {
	Body envelope[apiKeyReadBody]
}

type apiKeyReadBody struct {
	APIKey string `json:"apiKey" doc:"The registrar's API key"`
}

func addRegistrarRoutes(a huma.API, accounts *account.Service) {
	h := authHandlers{accounts}
	register(a, accessRegistrar("Only registrar accounts have an API key"), huma.Operation{
		OperationID: "registrar-api-key", Method: http.MethodGet, Path: "/api/registrar/api-key", Tags: []string{"Auth"},
		Summary: "My API key",
		Description: "The logged-in registrar's first API key (named Default, with every scope), for the dashboard's API tab. " +
			"It is in no login or session answer. Keys made later are shown once, when made or rotated (/api/registrar/keys).",
		Errors: []int{http.StatusUnauthorized, http.StatusForbidden},
	}, h.apiKey)
	register(a, accessRegistrar("Only registrar accounts have an API key"), huma.Operation{
		OperationID: "registrar-api-key-rotate", Method: http.MethodPost, Path: "/api/registrar/api-key", Tags: []string{"Auth"},
		Summary:     "Generate a new API key",
		Description: "Gives the registrar's first API key (the one GET /api/registrar/api-key shows) a new secret. The old one stops working at once.",
		Errors:      []int{http.StatusUnauthorized, http.StatusForbidden},
	}, h.rotateAPIKey)
}

// apiKey returns the signed-in registrar's API key.
func (h authHandlers) apiKey(ctx context.Context, _ *struct{}) (*APIKeyReadOutput, error) {
	u := sessionUser(ctx)
	key, err := h.accounts.RegistrarAPIKey(ctx, u)
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &APIKeyReadOutput{Body: ok(apiKeyReadBody{APIKey: key})}, nil
}

// rotateAPIKey replaces the signed-in registrar's API key with a new one.
func (h authHandlers) rotateAPIKey(ctx context.Context, _ *struct{}) (*APIKeyOutput, error) {
	u := sessionUser(ctx)
	key, err := h.accounts.RotateAPIKey(ctx, u)
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &APIKeyOutput{Body: ok(apiKeyBody{APIKey: key})}, nil
}

// RequireAdminPage guards pages the server renders itself (River's UI):
// visitors get 401 and other accounts 403, in plain text.
func RequireAdminPage(accounts *account.Service) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			u, err := currentUser(r.Context(), accounts)
			if err == nil {
				err = accessAdmin.refuse(u)
			}
			switch {
			case err == nil:
				next.ServeHTTP(w, r)
			case apperr.Code(err) == apperr.Unauthenticated:
				http.Error(w, "Log in to Nameport as an admin, then open this page again.", http.StatusUnauthorized)
			case apperr.Code(err) == apperr.Forbidden:
				http.Error(w, "Admin access required", http.StatusForbidden)
			default:
				logger(r.Context()).Error("admin page", "err", err)
				http.Error(w, "An unexpected error occurred", http.StatusInternalServerError)
			}
		})
	}
}
