package api

import (
	"context"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/nameport/nameport/internal/account"
	"github.com/nameport/nameport/internal/audit"
	"github.com/nameport/nameport/internal/settings"
)

// settingBody is a site setting (spec section 3 "Site setting").
type settingBody struct {
	ID          int64     `json:"id"`
	Key         string    `json:"key"`
	Value       string    `json:"value" doc:"For payment_gateways: the JSON list of gateways, secrets masked to their last 4 characters"`
	Category    string    `json:"category" enum:"branding,contact,social,seo,general,payment"`
	Description string    `json:"description"`
	IsPublic    bool      `json:"isPublic"`
	CreatedAt   time.Time `json:"createdAt"`
	UpdatedAt   time.Time `json:"updatedAt"`
}

func toSettingBody(s *settings.Setting) settingBody {
	return settingBody{ID: s.ID, Key: s.Key, Value: s.Value, Category: s.Category, Description: s.Description,
		IsPublic: s.IsPublic, CreatedAt: s.CreatedAt, UpdatedAt: s.UpdatedAt}
}

// settingFields are the fields of a create or change; absent fields are
// left as they are (on create: category branding, public).
type settingFields struct {
	Key         *string `json:"key,omitempty" required:"false"`
	Value       *string `json:"value,omitempty" required:"false" doc:"For payment_gateways: a JSON list; a secret sent as its mask keeps the stored secret"`
	Category    *string `json:"category,omitempty" required:"false" doc:"branding (default), contact, social, seo, general or payment"`
	Description *string `json:"description,omitempty" required:"false"`
	IsPublic    *bool   `json:"isPublic,omitempty" required:"false" doc:"Shown to everyone (default true); payment_gateways is never public"`
}

func (f settingFields) input() settings.Input {
	return settings.Input{Key: f.Key, Value: f.Value, Category: f.Category, Description: f.Description, IsPublic: f.IsPublic}
}

type SettingCreateInput struct {
	Body settingFields
}

type SettingUpdateInput struct {
	ID   int64 `path:"id"`
	Body settingFields
}

type SettingOutput struct {
	Body envelope[settingBody]
}

type SettingListOutput struct {
	Body envelope[[]settingBody]
}

// describeSetting builds the audit entry of admin's change to a site
// setting, with the setting as admins see it (gateway secrets masked).
func describeSetting(admin *account.User, action string) audit.Describe[*settings.Setting] {
	return func(before, after *settings.Setting) audit.Entry {
		e := audit.Entry{ActorID: admin.ID, Action: action, TargetType: "site_setting"}
		if before != nil {
			e.TargetID, e.Before = audit.ID(before.ID), toSettingBody(before)
		}
		if after != nil {
			e.TargetID, e.After = audit.ID(after.ID), toSettingBody(after)
		}
		return e
	}
}

// settingHandlers are the handlers of the site settings.
type settingHandlers struct {
	settings *settings.Service
}

func addSettingRoutes(a huma.API, svc *settings.Service) {
	h := settingHandlers{svc}
	addSiteRoute(a, svc)
	adminOnly := []int{http.StatusUnauthorized, http.StatusForbidden}

	register(a, accessOptional, huma.Operation{
		OperationID: "site-settings-list", Method: http.MethodGet, Path: "/api/site-settings", Tags: []string{"Site settings"},
		Summary:     "List site settings",
		Description: "Everyone gets the public settings; admins get every setting, including payment_gateways with its secrets masked.",
	}, h.listSettings)

	register(a, accessAdmin, huma.Operation{
		OperationID: "site-settings-create", Method: http.MethodPost, Path: "/api/site-settings", Tags: []string{"Site settings"},
		Summary: "Create a site setting", Description: "Admins only. The key must be new.",
		DefaultStatus: http.StatusCreated,
		Errors:        append(adminOnly, http.StatusConflict, http.StatusUnprocessableEntity),
	}, h.createSetting)

	register(a, accessAdmin, huma.Operation{
		OperationID: "site-settings-update", Method: http.MethodPatch, Path: "/api/site-settings/{id}", Tags: []string{"Site settings"},
		Summary: "Change a site setting", Description: "Admins only. Changes the fields sent.",
		Errors: append(adminOnly, http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity),
	}, h.updateSetting)

	register(a, accessAdmin, huma.Operation{
		OperationID: "site-settings-delete", Method: http.MethodDelete, Path: "/api/site-settings/{id}", Tags: []string{"Site settings"},
		Summary: "Delete a site setting", Description: "Admins only.",
		Errors: append(adminOnly, http.StatusNotFound),
	}, h.deleteSetting)
}

// listSettings lists the public site settings, or every setting for an admin.
func (h settingHandlers) listSettings(ctx context.Context, _ *struct{}) (*SettingListOutput, error) {
	u := sessionUser(ctx)
	list, err := h.settings.List(ctx, u == nil || !u.IsAdmin())
	if err != nil {
		return nil, fail(ctx, err)
	}
	body := make([]settingBody, 0, len(list))
	for i := range list {
		body = append(body, toSettingBody(&list[i]))
	}
	return &SettingListOutput{Body: ok(body)}, nil
}

// createSetting creates a site setting as the signed-in admin.
func (h settingHandlers) createSetting(ctx context.Context, in *SettingCreateInput) (*SettingOutput, error) {
	s, err := h.settings.Create(ctx, in.Body.input(), describeSetting(sessionUser(ctx), audit.ActionSettingCreate))
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &SettingOutput{Body: ok(toSettingBody(s))}, nil
}

// updateSetting changes the fields sent of a site setting as the signed-in admin.
func (h settingHandlers) updateSetting(ctx context.Context, in *SettingUpdateInput) (*SettingOutput, error) {
	s, err := h.settings.Update(ctx, in.ID, in.Body.input(), describeSetting(sessionUser(ctx), audit.ActionSettingUpdate))
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &SettingOutput{Body: ok(toSettingBody(s))}, nil
}

// deleteSetting deletes a site setting as the signed-in admin.
func (h settingHandlers) deleteSetting(ctx context.Context, in *IDInput) (*DoneOutput, error) {
	if err := h.settings.Delete(ctx, in.ID, describeSetting(sessionUser(ctx), audit.ActionSettingDelete)); err != nil {
		return nil, fail(ctx, err)
	}
	return done(), nil
}
