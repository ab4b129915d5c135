package api

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/nameport/nameport/internal/audit"
	"github.com/nameport/nameport/internal/settings"
)

// The admins' two-factor policy: which accounts are held from the tools of
// their role until they set up a second factor. The settings service owns
// the settings; account's NeedsTwoFactorSetup applies them.

type twoFactorPolicyBody struct {
	RequireAdmins     bool `json:"requireAdmins" doc:"Every admin account is held from admin tools until it sets up two-factor sign-in (setting require_two_factor_admins). Off: only admins created after two-factor sign-in came are held; the others are asked"`
	RequireRegistrars bool `json:"requireRegistrars" doc:"Registrar accounts are held from registrar tools (not /v1) until they set up two-factor sign-in (setting require_two_factor_registrars)"`
}

// TwoFactorPolicyOutput is the site's two-factor policy.
type TwoFactorPolicyOutput struct {
	Body envelope[twoFactorPolicyBody]
}

// TwoFactorPolicyInput is a new two-factor policy.
type TwoFactorPolicyInput struct {
	Body twoFactorPolicyBody
}

type twoFactorPolicyHandlers struct {
	settings *settings.Service
}

func addTwoFactorPolicyRoutes(a huma.API, svc *settings.Service) {
	h := twoFactorPolicyHandlers{svc}
	tags := []string{"Site settings"}
	register(a, accessAdmin, huma.Operation{
		OperationID: "admin-two-factor-policy", Method: http.MethodGet, Path: "/api/admin/two-factor-policy", Tags: tags,
		Summary: "Read the two-factor policy", Description: "Admins only. Which accounts are held until they set up two-factor sign-in.",
	}, h.get)
	register(a, accessAdmin, huma.Operation{
		OperationID: "admin-two-factor-policy-set", Method: http.MethodPut, Path: "/api/admin/two-factor-policy", Tags: tags,
		Summary:     "Change the two-factor policy",
		Description: "Admins only. Each setting that changes is written to the audit log. An admin without a second factor who requires it of admins is held too, until it sets one up in Account Settings.",
		Errors:      []int{http.StatusConflict},
	}, h.set)
}

func policyBody(p settings.TwoFactorPolicy) twoFactorPolicyBody {
	return twoFactorPolicyBody{RequireAdmins: p.Admins, RequireRegistrars: p.Registrars}
}

func (h twoFactorPolicyHandlers) get(ctx context.Context, _ *struct{}) (*TwoFactorPolicyOutput, error) {
	p, err := h.settings.TwoFactorPolicy(ctx)
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &TwoFactorPolicyOutput{Body: ok(policyBody(p))}, nil
}

func (h twoFactorPolicyHandlers) set(ctx context.Context, in *TwoFactorPolicyInput) (*TwoFactorPolicyOutput, error) {
	admin := sessionUser(ctx)
	p, err := h.settings.SetTwoFactorPolicy(ctx,
		settings.TwoFactorPolicy{Admins: in.Body.RequireAdmins, Registrars: in.Body.RequireRegistrars},
		func(action string) audit.Describe[*settings.Setting] { return describeSetting(admin, action) })
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &TwoFactorPolicyOutput{Body: ok(policyBody(p))}, nil
}
