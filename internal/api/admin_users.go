package api

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/nameport/nameport/internal/account"
	"github.com/nameport/nameport/internal/audit"
	"github.com/nameport/nameport/pkg/money"
)

// adminUserBody is an account in the admin Users tab.
type adminUserBody struct {
	ID            int64      `json:"id"`
	Username      string     `json:"username"`
	Email         string     `json:"email"`
	FullName      string     `json:"fullName"`
	UserType      string     `json:"userType" enum:"user,registrar,admin"`
	Tier          string     `json:"tier,omitempty" enum:"basic,premium,enterprise" doc:"Registrars only"`
	DomainCount   int64      `json:"domainCount"`
	WalletBalance float64    `json:"walletBalance" doc:"Dollars"`
	Disabled      bool       `json:"disabled"`
	DisabledAt    *time.Time `json:"disabledAt"`
	CreatedAt     time.Time  `json:"createdAt"`
}

type AdminUserListInput struct {
	Search   string `query:"search" doc:"Part of a username, email or full name"`
	Type     string `query:"type" doc:"Only accounts of this type: user, registrar or admin"`
	Page     int    `query:"page" minimum:"0" doc:"From 1"`
	PageSize int    `query:"pageSize" minimum:"0" maximum:"100" doc:"Default 25"`
}

type adminUserPage struct {
	Users    []adminUserBody `json:"users"`
	Total    int             `json:"total" doc:"Accounts matching the search, on every page"`
	Page     int             `json:"page"`
	PageSize int             `json:"pageSize"`
}

type AdminUserListOutput struct {
	Body envelope[adminUserPage]
}

type AdminUserUpdateInput struct {
	ID   int64 `path:"id"`
	Body struct {
		Tier     *string `json:"tier,omitempty" enum:"basic,premium,enterprise" doc:"Registrars only"`
		Disabled *bool   `json:"disabled,omitempty" doc:"true disables the account: it cannot log in, its sessions end and its API key stops working"`
	}
}

type AdminUserOutput struct {
	Body envelope[adminUserBody]
}

type AuditLogInput struct {
	Before int64 `query:"before" minimum:"0" doc:"The nextCursor of the previous page"`
	Limit  int   `query:"limit" minimum:"1" maximum:"100" default:"25" doc:"Entries per page"`
}

type auditEntryBody struct {
	ID         int64           `json:"id"`
	ActorID    int64           `json:"actorId"`
	Actor      string          `json:"actor" doc:"The admin's username; empty once the account is deleted"`
	Action     string          `json:"action" example:"user.disable"`
	TargetType string          `json:"targetType" example:"user"`
	TargetID   string          `json:"targetId"`
	Before     json.RawMessage `json:"before" doc:"The object before the change; null for creations"`
	After      json.RawMessage `json:"after" doc:"The object after the change; null for deletions"`
	CreatedAt  time.Time       `json:"createdAt"`
}

type auditPage struct {
	Entries    []auditEntryBody `json:"entries"`
	NextCursor int64            `json:"nextCursor,omitempty" doc:"Pass as before for the next page; absent on the last"`
}

type AuditLogOutput struct {
	Body envelope[auditPage]
}

func toAdminUserBody(l account.Listing) adminUserBody {
	b := adminUserBody{ID: l.ID, Username: l.Username, Email: l.Email, FullName: l.FullName, UserType: l.UserType,
		DomainCount: l.DomainCount, WalletBalance: money.Dollars(l.BalanceCents), Disabled: !l.DisabledAt.IsZero(),
		DisabledAt: timeOrNil(l.DisabledAt), CreatedAt: l.CreatedAt}
	if l.Tier != nil {
		b.Tier = *l.Tier
	}
	return b
}

// adminUserHandlers are the handlers of the admin Users tab and the audit log.
type adminUserHandlers struct {
	accounts *account.Service
	log      *audit.Service
}

func addAdminUserRoutes(a huma.API, accounts *account.Service, log *audit.Service) {
	h := adminUserHandlers{accounts, log}
	adminOnly := []int{http.StatusUnauthorized, http.StatusForbidden}
	register(a, accessAdmin, huma.Operation{
		OperationID: "admin-users-list", Method: http.MethodGet, Path: "/api/admin/users", Tags: []string{"Admin"},
		Summary:     "List accounts",
		Description: "Accounts newest first with their type, tier, domain count and wallet balance, page by page.",
		Errors:      append(adminOnly, http.StatusUnprocessableEntity),
	}, h.listUsers)

	register(a, accessAdmin, huma.Operation{
		OperationID: "admin-users-update", Method: http.MethodPatch, Path: "/api/admin/users/{id}", Tags: []string{"Admin"},
		Summary: "Change an account",
		Description: "Sets a registrar's tier, or disables or enables an account. A disabled account cannot log in, " +
			"its sessions end and its API key stops working at once (within a second on other API nodes). Admins cannot disable themselves. Every change is audited.",
		Errors: append(adminOnly, http.StatusNotFound, http.StatusUnprocessableEntity),
	}, h.updateUser)

	register(a, accessAdmin, huma.Operation{
		OperationID: "admin-audit-log", Method: http.MethodGet, Path: "/api/admin/audit-log", Tags: []string{"Admin"},
		Summary:     "The audit log",
		Description: "Every change made by admins, newest first: who, what, the object before and after, and when.",
		Errors:      adminOnly,
	}, h.listAuditLog)
}

// listUsers lists the accounts matching a search, newest first, a page at a time.
func (h adminUserHandlers) listUsers(ctx context.Context, in *AdminUserListInput) (*AdminUserListOutput, error) {
	q := account.UserQuery{Search: in.Search, Type: in.Type, Page: in.Page, PageSize: in.PageSize}
	list, total, err := h.accounts.ListUsers(ctx, q)
	if err != nil {
		return nil, fail(ctx, err)
	}
	page := adminUserPage{Users: make([]adminUserBody, len(list)), Total: total, Page: max(in.Page, 1), PageSize: in.PageSize}
	if page.PageSize < 1 {
		page.PageSize = 25
	}
	for i, l := range list {
		page.Users[i] = toAdminUserBody(l)
	}
	return &AdminUserListOutput{Body: ok(page)}, nil
}

// updateUser sets an account's tier or disables or enables it, as the signed-in admin.
func (h adminUserHandlers) updateUser(ctx context.Context, in *AdminUserUpdateInput) (*AdminUserOutput, error) {
	admin := sessionUser(ctx)
	if in.Body.Tier != nil {
		if _, err := h.accounts.SetTier(ctx, admin, in.ID, *in.Body.Tier); err != nil {
			return nil, fail(ctx, err)
		}
	}
	if in.Body.Disabled != nil {
		if _, err := h.accounts.SetDisabled(ctx, admin, in.ID, *in.Body.Disabled); err != nil {
			return nil, fail(ctx, err)
		}
	}
	l, err := h.accounts.Listed(ctx, in.ID)
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &AdminUserOutput{Body: ok(toAdminUserBody(*l))}, nil
}

// listAuditLog lists the admins' changes, newest first, a page at a time.
func (h adminUserHandlers) listAuditLog(ctx context.Context, in *AuditLogInput) (*AuditLogOutput, error) {
	items, next, err := h.log.List(ctx, in.Before, in.Limit)
	if err != nil {
		return nil, fail(ctx, err)
	}
	page := auditPage{Entries: make([]auditEntryBody, len(items)), NextCursor: next}
	for i, it := range items {
		page.Entries[i] = auditEntryBody{ID: it.ID, ActorID: it.ActorID, Actor: it.ActorName, Action: it.Action,
			TargetType: it.TargetType, TargetID: it.TargetID, Before: orNull(it.Before), After: orNull(it.After),
			CreatedAt: it.CreatedAt}
	}
	return &AuditLogOutput{Body: ok(page)}, nil
}

func orNull(m json.RawMessage) json.RawMessage {
	if len(m) == 0 {
		return json.RawMessage("null")
	}
	return m
}
