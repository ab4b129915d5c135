package api

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/nameport/nameport/internal/account"
	"github.com/nameport/nameport/internal/registration"
	"github.com/nameport/nameport/sdk"
)

// A registrar's monthly allowance of new registrations (its tier's: basic
// 100, premium 500, enterprise unlimited), for the registrar dashboard and
// for programs. The registration service counts and enforces it; /api and
// /v1 answer the same wire type.

type AllowanceOutput struct {
	Body envelope[sdk.Allowance]
}

type V1AllowanceOutput struct {
	Body sdk.Allowance
}

const allowanceDescription = "New registrations this calendar month (UTC) against the tier's monthly allowance " +
	"(basic 100, premium 500, enterprise unlimited), and when it resets. Renewals do not count; a domain released " +
	"later still counts in the month it was registered. A registration beyond the allowance is refused (403, code " +
	"allowance_exhausted)."

// allowanceHandlers answer a registrar's monthly allowance.
type allowanceHandlers struct {
	domains *registration.Service
}

func addAllowanceRoutes(a huma.API, domains *registration.Service) {
	h := allowanceHandlers{domains}
	register(a, accessRegistrar("Only registrar accounts have a registration allowance"), huma.Operation{
		OperationID: "registrar-allowance-get", Method: http.MethodGet, Path: "/api/registrar/allowance",
		Tags: []string{"Auth"}, Summary: "My registrations this month", Description: allowanceDescription,
	}, h.myAllowance)
}

func addV1AllowanceRoutes(v *v1, domains *registration.Service) {
	h := allowanceHandlers{domains}
	registerV1(v, account.ScopeRead, huma.Operation{
		OperationID: "v1-allowance-get", Method: http.MethodGet, Path: "/v1/account/allowance",
		Tags: []string{"Registrar API"}, Summary: "Your registrations this month", Description: allowanceDescription,
	}, nil, h.keyAllowance)
}

// myAllowance returns the signed-in registrar's registrations this month against its allowance.
func (h allowanceHandlers) myAllowance(ctx context.Context, _ *struct{}) (*AllowanceOutput, error) {
	a, err := h.allowanceOf(ctx, sessionUser(ctx))
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &AllowanceOutput{Body: ok(a)}, nil
}

// keyAllowance returns the key's registrar's registrations this month against its allowance.
func (h allowanceHandlers) keyAllowance(ctx context.Context, _ *struct{}) (*V1AllowanceOutput, error) {
	a, err := h.allowanceOf(ctx, keyUser(ctx))
	if err != nil {
		return nil, problem(ctx, err)
	}
	return &V1AllowanceOutput{Body: a}, nil
}

func (h allowanceHandlers) allowanceOf(ctx context.Context, u *account.User) (sdk.Allowance, error) {
	a, err := h.domains.Allowance(ctx, u.ID, buyerOf(u))
	if err != nil {
		return sdk.Allowance{}, err
	}
	return toV1Allowance(a), nil
}

// toV1Allowance is a as /api and /v1 show it (also inside reports).
func toV1Allowance(a registration.Allowance) sdk.Allowance {
	out := sdk.Allowance{Tier: a.Tier, Used: a.Used, PeriodStart: a.PeriodStart, ResetsAt: a.ResetsAt}
	if !a.Unlimited() {
		limit, remaining := a.Limit, a.Remaining()
		out.Limit, out.Remaining = &limit, &remaining
	}
	return out
}
