package api

import (
	"context"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/nameport/nameport/internal/account"
)

// Registrar tier applications: a registrar applies for premium or
// enterprise (at sign-up, or from its dashboard), an admin approves or
// declines in the Users tab.

// tierApplicationBody is an application as its registrar and admins see it.
type tierApplicationBody struct {
	ID            int64      `json:"id"`
	RequestedTier string     `json:"requestedTier" enum:"premium,enterprise"`
	Status        string     `json:"status" enum:"pending,approved,declined"`
	Reason        string     `json:"reason,omitempty" doc:"The admin's note with a decline"`
	CreatedAt     time.Time  `json:"createdAt"`
	DecidedAt     *time.Time `json:"decidedAt"`
}

// adminTierApplicationBody adds the applicant and the deciding admin.
// TierApplicationBody names tierApplicationBody for embedding: huma
// flattens only exported embedded structs into a schema.
type TierApplicationBody = tierApplicationBody

type adminTierApplicationBody struct {
	TierApplicationBody
	UserID      int64  `json:"userId"`
	Username    string `json:"username"`
	Email       string `json:"email"`
	FullName    string `json:"fullName"`
	CurrentTier string `json:"currentTier" doc:"The applicant's tier now"`
	DecidedBy   string `json:"decidedBy,omitempty" doc:"The deciding admin's username"`
}

func toTierApplicationBody(a *account.TierApplication) tierApplicationBody {
	return tierApplicationBody{ID: a.ID, RequestedTier: a.RequestedTier, Status: a.Status, Reason: a.Reason,
		CreatedAt: a.CreatedAt, DecidedAt: timeOrNil(a.DecidedAt)}
}

// myTierBody is a registrar's tier and its newest application.
type myTierBody struct {
	Tier        string               `json:"tier" enum:"basic,premium,enterprise"`
	Application *tierApplicationBody `json:"application" doc:"The newest application; null when there is none"`
}

type MyTierApplicationOutput struct {
	Body envelope[myTierBody]
}

type ApplyForTierInput struct {
	Body struct {
		Tier string `json:"tier" required:"false" doc:"premium or enterprise"`
	}
}

type TierApplicationOutput struct {
	Body envelope[tierApplicationBody]
}

type AdminTierApplicationsInput struct {
	Status string `query:"status" doc:"pending (default), approved, declined or all"`
}

type AdminTierApplicationsOutput struct {
	Body envelope[[]adminTierApplicationBody]
}

type ApproveTierApplicationInput struct {
	ID int64 `path:"id"`
}

type DeclineTierApplicationInput struct {
	ID   int64 `path:"id"`
	Body struct {
		Reason string `json:"reason" required:"false" doc:"Why, in one line: mailed to the applicant"`
	}
}

// tierApplicationHandlers are the handlers of registrars' tier applications
// and the admins' decisions on them.
type tierApplicationHandlers struct {
	accounts *account.Service
}

func addTierApplicationRoutes(a huma.API, accounts *account.Service) {
	h := tierApplicationHandlers{accounts}
	register(a, accessRegistrar("Only registrar accounts have a tier"), huma.Operation{
		OperationID: "registrar-tier-application-get", Method: http.MethodGet, Path: "/api/registrar/tier-application",
		Tags: []string{"Auth"}, Summary: "My tier and tier application",
		Description: "The registrar's tier and its newest tier application (pending, approved or declined), null when it has none.",
		Errors:      []int{http.StatusUnauthorized, http.StatusForbidden},
	}, h.myTierApplication)

	register(a, accessRegistrar("Only registrar accounts have a tier"), huma.Operation{
		OperationID: "registrar-tier-application-create", Method: http.MethodPost, Path: "/api/registrar/tier-application",
		Tags: []string{"Auth"}, Summary: "Apply for a higher tier",
		Description: "Files an application for the premium or enterprise tier. The account keeps its tier until an admin " +
			"approves; one application at a time.",
		DefaultStatus: http.StatusCreated,
		Errors:        []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusConflict, http.StatusUnprocessableEntity},
	}, h.applyForTier)

	register(a, accessAdmin, huma.Operation{
		OperationID: "admin-tier-applications-list", Method: http.MethodGet, Path: "/api/admin/tier-applications",
		Tags: []string{"Admin"}, Summary: "Tier applications",
		Description: "Registrars' applications for a higher tier, newest first (at most 100), with the applicant.",
		Errors:      []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusUnprocessableEntity},
	}, h.listTierApplications)

	decideErrors := []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound, http.StatusConflict,
		http.StatusUnprocessableEntity}
	register(a, accessAdmin, huma.Operation{
		OperationID: "admin-tier-application-approve", Method: http.MethodPost, Path: "/api/admin/tier-applications/{id}/approve",
		Tags: []string{"Admin"}, Summary: "Approve a tier application",
		Description: "Gives the registrar the tier it applied for, records the decision in the audit log and mails the applicant.",
		Errors:      decideErrors,
	}, h.approveTierApplication)
	register(a, accessAdmin, huma.Operation{
		OperationID: "admin-tier-application-decline", Method: http.MethodPost, Path: "/api/admin/tier-applications/{id}/decline",
		Tags: []string{"Admin"}, Summary: "Decline a tier application",
		Description: "Declines the application (the registrar keeps its tier), records the decision in the audit log and " +
			"mails the applicant the reason.",
		Errors: decideErrors,
	}, h.declineTierApplication)
}

// myTierApplication returns the signed-in registrar's tier and its newest tier application.
func (h tierApplicationHandlers) myTierApplication(ctx context.Context, _ *struct{}) (*MyTierApplicationOutput, error) {
	u := sessionUser(ctx)
	app, err := h.accounts.LatestTierApplication(ctx, u)
	if err != nil {
		return nil, fail(ctx, err)
	}
	out := myTierBody{Tier: u.Tier}
	if app != nil {
		b := toTierApplicationBody(app)
		out.Application = &b
	}
	return &MyTierApplicationOutput{Body: ok(out)}, nil
}

// applyForTier files the signed-in registrar's application for a higher tier.
func (h tierApplicationHandlers) applyForTier(ctx context.Context, in *ApplyForTierInput) (*TierApplicationOutput, error) {
	u := sessionUser(ctx)
	app, err := h.accounts.ApplyForTier(ctx, u, in.Body.Tier)
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &TierApplicationOutput{Body: ok(toTierApplicationBody(app))}, nil
}

// listTierApplications lists the tier applications of a status (pending by default) with their applicants.
func (h tierApplicationHandlers) listTierApplications(ctx context.Context, in *AdminTierApplicationsInput) (*AdminTierApplicationsOutput, error) {
	status := in.Status
	switch status {
	case "":
		status = account.ApplicationPending
	case "all":
		status = ""
	}
	list, err := h.accounts.TierApplications(ctx, status)
	if err != nil {
		return nil, fail(ctx, err)
	}
	out := make([]adminTierApplicationBody, len(list))
	for i := range list {
		l := &list[i]
		out[i] = adminTierApplicationBody{TierApplicationBody: toTierApplicationBody(&l.TierApplication),
			UserID: l.UserID, Username: l.Username, Email: l.Email, FullName: l.FullName,
			CurrentTier: l.CurrentTier, DecidedBy: l.DecidedByName}
	}
	return &AdminTierApplicationsOutput{Body: ok(out)}, nil
}

// approveTierApplication gives a registrar the tier it applied for.
func (h tierApplicationHandlers) approveTierApplication(ctx context.Context, in *ApproveTierApplicationInput) (*TierApplicationOutput, error) {
	return h.decide(ctx, in.ID, true, "")
}

// declineTierApplication declines a tier application, giving the applicant the reason.
func (h tierApplicationHandlers) declineTierApplication(ctx context.Context, in *DeclineTierApplicationInput) (*TierApplicationOutput, error) {
	return h.decide(ctx, in.ID, false, in.Body.Reason)
}

// decide approves or declines (with reason) the tier application id as the signed-in admin.
func (h tierApplicationHandlers) decide(ctx context.Context, id int64, approve bool, reason string) (*TierApplicationOutput, error) {
	admin := sessionUser(ctx)
	app, err := h.accounts.DecideTierApplication(ctx, admin, id, approve, reason)
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &TierApplicationOutput{Body: ok(toTierApplicationBody(app))}, nil
}
