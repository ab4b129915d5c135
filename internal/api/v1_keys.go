package api

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/nameport/nameport/internal/account"
	"github.com/nameport/nameport/sdk"
)

type V1KeyListOutput struct {
	Body sdk.APIKeyList
}

// V1KeyCreateInput takes no Idempotency-Key: the answer holds the key's
// secret, which must not be kept for a replay.
type V1KeyCreateInput struct {
	Body sdk.APIKeyRequest
}

type V1NewKeyOutput struct {
	Body sdk.NewAPIKey
}

type V1KeyInput struct {
	ID int64 `path:"id" doc:"The key's id"`
}

// toV1Key is k as /v1 and the dashboard show it.
func toV1Key(k *account.APIKey) sdk.APIKey {
	out := sdk.APIKey{ID: k.ID, Name: k.Name, Scopes: k.Scopes.Names(), AllowedAddresses: k.Allowed.Strings(),
		CreatedAt: k.CreatedAt, Primary: k.Primary()}
	if !k.ExpiresAt.IsZero() {
		out.ExpiresAt = new(k.ExpiresAt)
	}
	if !k.LastUsedAt.IsZero() {
		out.LastUsedAt = new(k.LastUsedAt)
	}
	return out
}

func toV1Keys(keys []account.APIKey) []sdk.APIKey {
	out := make([]sdk.APIKey, len(keys))
	for i := range keys {
		out[i] = toV1Key(&keys[i])
	}
	return out
}

// toNewKey reads a key request.
func toNewKey(req sdk.APIKeyRequest) account.NewKey {
	in := account.NewKey{Name: req.Name, Scopes: req.Scopes, Allowed: req.AllowedAddresses}
	if req.ExpiresAt != nil {
		in.ExpiresAt = *req.ExpiresAt
	}
	return in
}

func toV1NewKey(k *account.APIKey, secret string) sdk.NewAPIKey {
	return sdk.NewAPIKey{Key: toV1Key(k), Secret: secret}
}

// v1KeyHandlers manage the caller's API keys. Doing so takes a key with
// every scope: a key that may make keys may make itself any key.
type v1KeyHandlers struct{ accounts *account.Service }

func addV1KeyRoutes(v *v1, accounts *account.Service) {
	h := v1KeyHandlers{accounts}
	tags := []string{"Registrar API"}
	registerV1(v, account.AllScopes, huma.Operation{
		OperationID: "v1-keys-list", Method: http.MethodGet, Path: "/v1/keys", Tags: tags,
		Summary:     "List your API keys",
		Description: "Your keys that are not revoked, oldest first, with their scopes, allowed addresses, expiry and last use (to the minute). Secrets are never listed.",
	}, nil, h.list)
	registerV1(v, account.AllScopes, huma.Operation{
		OperationID: "v1-keys-create", Method: http.MethodPost, Path: "/v1/keys", Tags: tags,
		Summary: "Make an API key", DefaultStatus: http.StatusCreated,
		Description: "Makes a key with the scopes given, optionally limited to client addresses and prefixes and to a time. " +
			"The answer holds its secret, shown this once; it is not kept for a replay, so this call takes no Idempotency-Key.",
		Errors: []int{http.StatusConflict, http.StatusUnprocessableEntity},
	}, nil, h.create)
	registerV1(v, account.AllScopes, huma.Operation{
		OperationID: "v1-keys-rotate", Method: http.MethodPost, Path: "/v1/keys/{id}/rotate", Tags: tags,
		Summary: "Rotate an API key",
		Description: "Gives the key a new secret, shown this once; the old secret stops working at once. " +
			"Name, scopes, addresses and expiry stay.",
		Errors: []int{http.StatusNotFound, http.StatusUnprocessableEntity},
	}, nil, h.rotate)
	registerV1(v, account.AllScopes, huma.Operation{
		OperationID: "v1-keys-revoke", Method: http.MethodDelete, Path: "/v1/keys/{id}", Tags: tags,
		Summary: "Revoke an API key", DefaultStatus: http.StatusNoContent,
		Description: "Ends the key for good: it stops working at once. The first key (Default) can be rotated but not revoked (409).",
		Errors:      []int{http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
	}, nil, h.revoke)
}

func (h v1KeyHandlers) list(ctx context.Context, _ *struct{}) (*V1KeyListOutput, error) {
	keys, err := h.accounts.APIKeys(ctx, keyUser(ctx))
	if err != nil {
		return nil, problem(ctx, err)
	}
	return &V1KeyListOutput{Body: sdk.APIKeyList{Keys: toV1Keys(keys)}}, nil
}

func (h v1KeyHandlers) create(ctx context.Context, in *V1KeyCreateInput) (*V1NewKeyOutput, error) {
	k, secret, err := h.accounts.CreateAPIKey(ctx, keyUser(ctx), toNewKey(in.Body))
	if err != nil {
		return nil, problem(ctx, err)
	}
	return &V1NewKeyOutput{Body: toV1NewKey(k, secret)}, nil
}

func (h v1KeyHandlers) rotate(ctx context.Context, in *V1KeyInput) (*V1NewKeyOutput, error) {
	k, secret, err := h.accounts.RotateKey(ctx, keyUser(ctx), in.ID)
	if err != nil {
		return nil, problem(ctx, err)
	}
	return &V1NewKeyOutput{Body: toV1NewKey(k, secret)}, nil
}

func (h v1KeyHandlers) revoke(ctx context.Context, in *V1KeyInput) (*V1NoContentOutput, error) {
	if err := h.accounts.RevokeKey(ctx, keyUser(ctx), in.ID); err != nil {
		return nil, problem(ctx, err)
	}
	return &V1NoContentOutput{}, nil
}
