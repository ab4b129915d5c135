package api

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/nameport/nameport/internal/account"
	"github.com/nameport/nameport/sdk"
)

// The registrar dashboard's API keys (API Access tab): the same keys and
// wire types as /v1/keys, in the /api envelope, for the registrar's
// session. The first key's secret stays at GET /api/registrar/api-key.

type RegistrarKeysOutput struct {
	Body envelope[[]sdk.APIKey]
}

type RegistrarKeyCreateInput struct {
	Body sdk.APIKeyRequest
}

type RegistrarNewKeyOutput struct {
	Body envelope[sdk.NewAPIKey]
}

type RegistrarKeyInput struct {
	ID int64 `path:"id" doc:"The key's id"`
}

type registrarKeyHandlers struct{ accounts *account.Service }

func addRegistrarKeyRoutes(a huma.API, accounts *account.Service) {
	h := registrarKeyHandlers{accounts}
	who := accessRegistrar("Only registrar accounts have an API key")
	tags := []string{"Auth"}
	register(a, who, huma.Operation{
		OperationID: "registrar-keys-list", Method: http.MethodGet, Path: "/api/registrar/keys", Tags: tags,
		Summary:     "My API keys",
		Description: "The registrar's keys that are not revoked, oldest first: name, scopes, allowed addresses, expiry, last use (to the minute). Secrets are never listed.",
	}, h.list)
	register(a, who, huma.Operation{
		OperationID: "registrar-keys-create", Method: http.MethodPost, Path: "/api/registrar/keys", Tags: tags,
		Summary: "Make an API key", DefaultStatus: http.StatusCreated,
		Description: "Makes a key with the scopes given (read, dns, register, wallet), optionally limited to client " +
			"addresses and prefixes and to a time. The answer holds its secret, shown this once.",
		Errors: []int{http.StatusConflict, http.StatusUnprocessableEntity},
	}, h.create)
	register(a, who, huma.Operation{
		OperationID: "registrar-keys-rotate", Method: http.MethodPost, Path: "/api/registrar/keys/{id}/rotate", Tags: tags,
		Summary:     "Rotate an API key",
		Description: "Gives the key a new secret, shown this once; the old one stops working at once.",
		Errors:      []int{http.StatusNotFound, http.StatusUnprocessableEntity},
	}, h.rotate)
	register(a, who, huma.Operation{
		OperationID: "registrar-keys-revoke", Method: http.MethodDelete, Path: "/api/registrar/keys/{id}", Tags: tags,
		Summary:     "Revoke an API key",
		Description: "Ends the key for good: it stops working at once. The first key (Default) can be rotated but not revoked (409).",
		Errors:      []int{http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
	}, h.revoke)
}

func (h registrarKeyHandlers) list(ctx context.Context, _ *struct{}) (*RegistrarKeysOutput, error) {
	keys, err := h.accounts.APIKeys(ctx, sessionUser(ctx))
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &RegistrarKeysOutput{Body: ok(toV1Keys(keys))}, nil
}

func (h registrarKeyHandlers) create(ctx context.Context, in *RegistrarKeyCreateInput) (*RegistrarNewKeyOutput, error) {
	k, secret, err := h.accounts.CreateAPIKey(ctx, sessionUser(ctx), toNewKey(in.Body))
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &RegistrarNewKeyOutput{Body: ok(toV1NewKey(k, secret))}, nil
}

func (h registrarKeyHandlers) rotate(ctx context.Context, in *RegistrarKeyInput) (*RegistrarNewKeyOutput, error) {
	k, secret, err := h.accounts.RotateKey(ctx, sessionUser(ctx), in.ID)
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &RegistrarNewKeyOutput{Body: ok(toV1NewKey(k, secret))}, nil
}

func (h registrarKeyHandlers) revoke(ctx context.Context, in *RegistrarKeyInput) (*DoneOutput, error) {
	if err := h.accounts.RevokeKey(ctx, sessionUser(ctx), in.ID); err != nil {
		return nil, fail(ctx, err)
	}
	return done(), nil
}
