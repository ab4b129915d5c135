package api

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/nameport/nameport/internal/account"
)

// The web app asks who is signed in on every page, visitors included. For
// them /api/auth/me is 401 by contract, and a browser logs every 401 as an
// error in the console of every guest page: the session check answers a
// visitor without an error.

type sessionStateBody struct {
	SignedIn bool      `json:"signedIn"`
	User     *userBody `json:"user,omitempty" doc:"The signed-in account; absent for a visitor"`
}

type SessionStateOutput struct {
	Body envelope[sessionStateBody]
}

func addSessionRoute(a huma.API, accounts *account.Service) {
	register(a, accessOptional, huma.Operation{
		OperationID: "auth-session", Method: http.MethodGet, Path: "/api/auth/session", Tags: []string{"Auth"},
		Summary:     "Who is signed in",
		Description: "The signed-in account, as GET /api/auth/me gives it, or signedIn false for a visitor (200, not 401: the web app asks on every page).",
	}, func(ctx context.Context, _ *struct{}) (*SessionStateOutput, error) {
		u := sessionUser(ctx)
		if u == nil {
			return &SessionStateOutput{Body: ok(sessionStateBody{})}, nil
		}
		body, err := toUserBody(ctx, accounts, u, false)
		if err != nil {
			return nil, fail(ctx, err)
		}
		return &SessionStateOutput{Body: ok(sessionStateBody{SignedIn: true, User: &body})}, nil
	})
}
