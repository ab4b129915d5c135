package api

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/nameport/nameport/internal/account"
	"github.com/nameport/nameport/internal/audit"
	"github.com/nameport/nameport/internal/catalog"
	"github.com/nameport/nameport/internal/settings"
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

func addAdminUserRoutes(a huma.API, accounts *account.Service, log *audit.Service) {
	adminOnly := []int{http.StatusUnauthorized, http.StatusForbidden}
	register(a, accessAdmin, huma.Operation{
		OperationID: "admin-users-list", Method: http.MethodGet, Path: "/api/admin/users", Tags: []string{"Admin"},
		Summary:     "List accounts",
		Description: "Accounts newest first with their type, tier, domain count and wallet balance, page by page.",
		Errors:      append(adminOnly, http.StatusUnprocessableEntity),
	}, func(ctx context.Context, in *AdminUserListInput) (*AdminUserListOutput, error) {
		q := account.UserQuery{Search: in.Search, Type: in.Type, Page: in.Page, PageSize: in.PageSize}
		list, total, err := accounts.ListUsers(ctx, q)
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
	})

	register(a, accessAdmin, huma.Operation{
		OperationID: "admin-users-update", Method: http.MethodPatch, Path: "/api/admin/users/{id}", Tags: []string{"Admin"},
		Summary: "Change an account",
		Description: "Sets a registrar's tier, or disables or enables an account. A disabled account cannot log in, " +
			"its sessions end and its API key stops working at once. Admins cannot disable themselves. Every change is audited.",
		Errors: append(adminOnly, http.StatusNotFound, http.StatusUnprocessableEntity),
	}, func(ctx context.Context, in *AdminUserUpdateInput) (*AdminUserOutput, error) {
		admin := sessionUser(ctx)
		if in.Body.Tier != nil {
			if _, err := accounts.SetTier(ctx, admin, in.ID, *in.Body.Tier); err != nil {
				return nil, fail(ctx, err)
			}
		}
		if in.Body.Disabled != nil {
			if _, err := accounts.SetDisabled(ctx, admin, in.ID, *in.Body.Disabled); err != nil {
				return nil, fail(ctx, err)
			}
		}
		l, err := accounts.Listed(ctx, in.ID)
		if err != nil {
			return nil, fail(ctx, err)
		}
		return &AdminUserOutput{Body: ok(toAdminUserBody(*l))}, nil
	})

	register(a, accessAdmin, huma.Operation{
		OperationID: "admin-audit-log", Method: http.MethodGet, Path: "/api/admin/audit-log", Tags: []string{"Admin"},
		Summary:     "The audit log",
		Description: "Every change made by admins, newest first: who, what, the object before and after, and when.",
		Errors:      adminOnly,
	}, func(ctx context.Context, in *AuditLogInput) (*AuditLogOutput, error) {
		items, next, err := log.List(ctx, in.Before, in.Limit)
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
	})
}

func orNull(m json.RawMessage) json.RawMessage {
	if len(m) == 0 {
		return json.RawMessage("null")
	}
	return m
}

// audited records an admin change made by a service that commits on its
// own. The change has already happened, so a failure to record it is logged
// rather than reported to the admin as a failed change.
func audited(ctx context.Context, log *audit.Service, e audit.Entry) {
	if log == nil {
		return
	}
	if err := log.Log(ctx, e); err != nil {
		logger(ctx).Error("audit log", "action", e.Action, "err", err)
	}
}

// extensionBefore is an extension as admins saw it before a change, from the
// catalog in memory; nil when it is unknown.
func extensionBefore(cat *catalog.Service, id int64) *extensionBody {
	for _, e := range cat.Extensions(true) {
		if e.ID == id {
			b := toExtensionBody(cat, e, true)
			return &b
		}
	}
	return nil
}

// premiumBefore is a premium name before a change; nil when it is unknown.
func premiumBefore(cat *catalog.Service, id int64) *premiumBody {
	if list := premiumsBefore(cat, []int64{id}); len(list) == 1 {
		return &list[0]
	}
	return nil
}

// premiumsBefore are the premium names with the given ids, as admins see them.
func premiumsBefore(cat *catalog.Service, ids []int64) []premiumBody {
	want := make(map[int64]bool, len(ids))
	for _, id := range ids {
		want[id] = true
	}
	out := []premiumBody{}
	now := time.Now()
	for _, p := range cat.PremiumDomains(true) {
		if want[p.ID] {
			out = append(out, toPremiumBody(cat, p, catalog.Buyer{}, true, now))
		}
	}
	return out
}

// bulkAfter is what a bulk action left: the action and, unless it deleted
// them, the names as they are now.
func bulkAfter(cat *catalog.Service, action string, ids []int64, changed int) map[string]any {
	after := map[string]any{"action": action, "ids": ids, "changed": changed}
	if action != "delete" {
		after["domains"] = premiumsBefore(cat, ids)
	}
	return after
}

// settingBefore is a site setting before a change, as admins see it (gateway
// secrets masked); nil when it is unknown or cannot be read.
func settingBefore(ctx context.Context, svc *settings.Service, id int64) *settingBody {
	list, err := svc.List(ctx, false)
	if err != nil {
		return nil
	}
	for i := range list {
		if list[i].ID == id {
			b := toSettingBody(&list[i])
			return &b
		}
	}
	return nil
}
