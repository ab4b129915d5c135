package api

import (
	"context"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

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

func addSettingRoutes(a huma.API, svc *settings.Service, log *audit.Service) {
	adminOnly := []int{http.StatusUnauthorized, http.StatusForbidden}

	register(a, accessOptional, huma.Operation{
		OperationID: "site-settings-list", Method: http.MethodGet, Path: "/api/site-settings", Tags: []string{"Site settings"},
		Summary:     "List site settings",
		Description: "Everyone gets the public settings; admins get every setting, including payment_gateways with its secrets masked.",
	}, func(ctx context.Context, _ *struct{}) (*SettingListOutput, error) {
		u := sessionUser(ctx)
		list, err := svc.List(ctx, u == nil || !u.IsAdmin())
		if err != nil {
			return nil, fail(ctx, err)
		}
		body := make([]settingBody, 0, len(list))
		for i := range list {
			body = append(body, toSettingBody(&list[i]))
		}
		return &SettingListOutput{Body: ok(body)}, nil
	})

	register(a, accessAdmin, huma.Operation{
		OperationID: "site-settings-create", Method: http.MethodPost, Path: "/api/site-settings", Tags: []string{"Site settings"},
		Summary: "Create a site setting", Description: "Admins only. The key must be new.",
		DefaultStatus: http.StatusCreated,
		Errors:        append(adminOnly, http.StatusConflict, http.StatusUnprocessableEntity),
	}, func(ctx context.Context, in *SettingCreateInput) (*SettingOutput, error) {
		admin := sessionUser(ctx)
		s, err := svc.Create(ctx, in.Body.input())
		if err != nil {
			return nil, fail(ctx, err)
		}
		body := toSettingBody(s)
		audited(ctx, log, audit.Entry{ActorID: admin.ID, Action: audit.ActionSettingCreate, TargetType: "site_setting",
			TargetID: audit.ID(s.ID), After: body})
		return &SettingOutput{Body: ok(body)}, nil
	})

	register(a, accessAdmin, huma.Operation{
		OperationID: "site-settings-update", Method: http.MethodPatch, Path: "/api/site-settings/{id}", Tags: []string{"Site settings"},
		Summary: "Change a site setting", Description: "Admins only. Changes the fields sent.",
		Errors: append(adminOnly, http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity),
	}, func(ctx context.Context, in *SettingUpdateInput) (*SettingOutput, error) {
		admin := sessionUser(ctx)
		before := settingBefore(ctx, svc, in.ID)
		s, err := svc.Update(ctx, in.ID, in.Body.input())
		if err != nil {
			return nil, fail(ctx, err)
		}
		body := toSettingBody(s)
		audited(ctx, log, audit.Entry{ActorID: admin.ID, Action: audit.ActionSettingUpdate, TargetType: "site_setting",
			TargetID: audit.ID(s.ID), Before: before, After: body})
		return &SettingOutput{Body: ok(body)}, nil
	})

	register(a, accessAdmin, huma.Operation{
		OperationID: "site-settings-delete", Method: http.MethodDelete, Path: "/api/site-settings/{id}", Tags: []string{"Site settings"},
		Summary: "Delete a site setting", Description: "Admins only.",
		Errors: append(adminOnly, http.StatusNotFound),
	}, func(ctx context.Context, in *IDInput) (*DoneOutput, error) {
		admin := sessionUser(ctx)
		before := settingBefore(ctx, svc, in.ID)
		if err := svc.Delete(ctx, in.ID); err != nil {
			return nil, fail(ctx, err)
		}
		audited(ctx, log, audit.Entry{ActorID: admin.ID, Action: audit.ActionSettingDelete, TargetType: "site_setting",
			TargetID: audit.ID(in.ID), Before: before})
		return done(), nil
	})
}
