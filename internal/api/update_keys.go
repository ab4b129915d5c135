package api

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/nameport/nameport/internal/account"
	"github.com/nameport/nameport/internal/catalog"
	"github.com/nameport/nameport/internal/ratelimit"
	"github.com/nameport/nameport/internal/registration"
	"github.com/nameport/nameport/internal/updatekey"
	"github.com/nameport/nameport/internal/zone"
	"github.com/nameport/nameport/sdk"
)

// Update keys (#22): TSIG keys with which tools change a domain's records
// by RFC 2136 dynamic update, on /api (the domain page) and /v1 (keys with
// the dns scope to make and revoke, read to list). The rules are
// updatekey's.

type UpdateKeyListOutput struct {
	Body envelope[[]sdk.UpdateKey]
}

type UpdateKeyCreateInput struct {
	ID   int64 `path:"id" doc:"Domain id"`
	Body sdk.UpdateKeyInput
}

type NewUpdateKeyOutput struct {
	Body envelope[sdk.NewUpdateKey]
}

type UpdateKeyIDInput struct {
	ID    int64 `path:"id" doc:"Domain id"`
	KeyID int64 `path:"keyId"`
}

type V1UpdateKeyListOutput struct {
	Body sdk.UpdateKeyList
}

// V1UpdateKeyCreateInput takes no Idempotency-Key: the answer holds the
// key's secret, which must not be kept for a replay.
type V1UpdateKeyCreateInput struct {
	Domain string `path:"domain" example:"example.inf.nz"`
	Body   sdk.UpdateKeyInput
}

type V1NewUpdateKeyOutput struct {
	Body sdk.NewUpdateKey
}

type V1UpdateKeyDeleteInput struct {
	Domain string `path:"domain" example:"example.inf.nz"`
	KeyID  int64  `path:"keyId"`
}

func toSDKUpdateKey(k updatekey.Key) sdk.UpdateKey {
	return sdk.UpdateKey{ID: k.ID, Name: k.Label, KeyName: k.KeyName, Algorithm: k.Algorithm, Names: k.Names,
		Types: k.Types, CreatedAt: k.CreatedAt, LastUsedAt: k.LastUsedAt}
}

func toSDKUpdateKeys(keys []updatekey.Key) []sdk.UpdateKey {
	out := make([]sdk.UpdateKey, len(keys))
	for i, k := range keys {
		out[i] = toSDKUpdateKey(k)
	}
	return out
}

func toUpdateKeyInput(in sdk.UpdateKeyInput) updatekey.Input {
	return updatekey.Input{Name: in.Name, Algorithm: in.Algorithm, Names: in.Names, Types: in.Types}
}

const updateKeyDescription = "Update keys sign RFC 2136 dynamic updates (TSIG, RFC 8945) sent to Nameport's DNS " +
	"servers, so that certbot, lego, cert-manager, external-dns and nsupdate change the domain's records; " +
	"a key is limited to names and types, or has the whole domain (and may then also read it by AXFR over TCP, as external-dns does). " +
	"The secret is shown once, when the key is made."

func addUpdateKeyRoutes(a huma.API, domains *registration.Service, cat *catalog.Service, records *zone.Service, keys *updatekey.Service) {
	h := dnsHandlers{domains, cat, records}
	errs := []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound}
	tags := []string{"DNS"}

	register(a, accessAccount, huma.Operation{
		OperationID: "update-keys-list", Method: http.MethodGet, Path: "/api/domains/{id}/update-keys", Tags: tags,
		Summary: "List my domain's update keys", Description: updateKeyDescription, Errors: errs,
	}, func(ctx context.Context, in *DomainIDInput) (*UpdateKeyListOutput, error) {
		d, err := h.owned(ctx, in.ID)
		if err != nil {
			return nil, fail(ctx, err)
		}
		list, err := keys.List(ctx, d)
		if err != nil {
			return nil, fail(ctx, err)
		}
		return &UpdateKeyListOutput{Body: ok(toSDKUpdateKeys(list))}, nil
	})

	register(a, accessAccount, huma.Operation{
		OperationID: "update-keys-create", Method: http.MethodPost, Path: "/api/domains/{id}/update-keys", Tags: tags,
		Summary: "Make an update key", Description: updateKeyDescription, DefaultStatus: http.StatusCreated,
		Errors: append(errs, http.StatusConflict, http.StatusUnprocessableEntity),
	}, func(ctx context.Context, in *UpdateKeyCreateInput) (*NewUpdateKeyOutput, error) {
		d, err := h.editable(ctx, in.ID)
		if err != nil {
			return nil, fail(ctx, err)
		}
		k, secret, err := keys.Create(ctx, d, toUpdateKeyInput(in.Body))
		if err != nil {
			return nil, fail(ctx, err)
		}
		return &NewUpdateKeyOutput{Body: ok(sdk.NewUpdateKey{Key: toSDKUpdateKey(k), Secret: secret})}, nil
	})

	register(a, accessAccount, huma.Operation{
		OperationID: "update-keys-revoke", Method: http.MethodDelete, Path: "/api/domains/{id}/update-keys/{keyId}", Tags: tags,
		Summary: "Revoke an update key", Description: "Updates signed with the key are refused at once.", Errors: errs,
	}, func(ctx context.Context, in *UpdateKeyIDInput) (*DoneOutput, error) {
		d, err := h.owned(ctx, in.ID)
		if err != nil {
			return nil, fail(ctx, err)
		}
		if err := keys.Revoke(ctx, d, in.KeyID); err != nil {
			return nil, fail(ctx, err)
		}
		return done(), nil
	})
}

func addV1UpdateKeyRoutes(v *v1, domains *registration.Service, cat *catalog.Service, records *zone.Service, keys *updatekey.Service) {
	h := v1DNSHandlers{domains, cat, records}
	tags := []string{"Registrar API"}

	registerV1(v, account.ScopeRead, huma.Operation{
		OperationID: "v1-update-keys-list", Method: http.MethodGet, Path: "/v1/domains/{domain}/update-keys", Tags: tags,
		Summary: "List a domain's update keys", Description: updateKeyDescription, Errors: []int{http.StatusNotFound},
	}, &ratelimit.DNSChanges, func(ctx context.Context, in *V1DomainInput) (*V1UpdateKeyListOutput, error) {
		d, err := h.owned(ctx, in.Domain)
		if err != nil {
			return nil, problem(ctx, err)
		}
		list, err := keys.List(ctx, d)
		if err != nil {
			return nil, problem(ctx, err)
		}
		return &V1UpdateKeyListOutput{Body: sdk.UpdateKeyList{Keys: toSDKUpdateKeys(list)}}, nil
	})

	registerV1(v, account.ScopeDNS, huma.Operation{
		OperationID: "v1-update-keys-create", Method: http.MethodPost, Path: "/v1/domains/{domain}/update-keys", Tags: tags,
		Summary: "Make an update key", Description: updateKeyDescription, DefaultStatus: http.StatusCreated,
		Errors: []int{http.StatusForbidden, http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
	}, &ratelimit.DNSChanges, func(ctx context.Context, in *V1UpdateKeyCreateInput) (*V1NewUpdateKeyOutput, error) {
		d, err := h.editable(ctx, in.Domain)
		if err != nil {
			return nil, problem(ctx, err)
		}
		k, secret, err := keys.Create(ctx, d, toUpdateKeyInput(in.Body))
		if err != nil {
			return nil, problem(ctx, err)
		}
		return &V1NewUpdateKeyOutput{Body: sdk.NewUpdateKey{Key: toSDKUpdateKey(k), Secret: secret}}, nil
	})

	registerV1(v, account.ScopeDNS, huma.Operation{
		OperationID: "v1-update-keys-revoke", Method: http.MethodDelete, Path: "/v1/domains/{domain}/update-keys/{keyId}", Tags: tags,
		Summary: "Revoke an update key", Description: "Updates signed with the key are refused at once.",
		DefaultStatus: http.StatusNoContent, Errors: []int{http.StatusForbidden, http.StatusNotFound},
	}, &ratelimit.DNSChanges, func(ctx context.Context, in *V1UpdateKeyDeleteInput) (*V1NoContentOutput, error) {
		d, err := h.owned(ctx, in.Domain)
		if err != nil {
			return nil, problem(ctx, err)
		}
		if err := keys.Revoke(ctx, d, in.KeyID); err != nil {
			return nil, problem(ctx, err)
		}
		return &V1NoContentOutput{}, nil
	})
}
