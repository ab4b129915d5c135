package api

import (
	"context"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/nameport/nameport/internal/account"
	"github.com/nameport/nameport/internal/audit"
	"github.com/nameport/nameport/internal/pages"
)

// pageBody is a page (spec section 3 "Page (admin)").
type pageBody struct {
	ID              int64     `json:"id"`
	Slug            string    `json:"slug" doc:"The page's address: /pages/{slug}"`
	Title           string    `json:"title"`
	Content         string    `json:"content" doc:"Markdown; shown without raw HTML"`
	MetaTitle       string    `json:"metaTitle" doc:"The browser and search title; empty: the title"`
	HeadTitle       string    `json:"headTitle" doc:"The title the page shows in the browser tab and search results: metaTitle, else title"`
	MetaDescription string    `json:"metaDescription"`
	Published       bool      `json:"published"`
	AuthorID        *int64    `json:"authorId" doc:"The admin who created the page; null for the starting pages or when the account is gone"`
	FeaturedImage   string    `json:"featuredImage" doc:"A path on this site or an https:// address; empty: none"`
	PageType        string    `json:"pageType" enum:"page,blog,career,about,press,contact,api"`
	CreatedAt       time.Time `json:"createdAt"`
	UpdatedAt       time.Time `json:"updatedAt"`
}

func toPageBody(p *pages.Page) pageBody {
	return pageBody{ID: p.ID, Slug: p.Slug, Title: p.Title, Content: p.Content, MetaTitle: p.MetaTitle,
		HeadTitle: p.HeadTitle(), MetaDescription: p.MetaDescription, Published: p.Published, AuthorID: p.AuthorID,
		FeaturedImage: p.FeaturedImage, PageType: p.PageType, CreatedAt: p.CreatedAt, UpdatedAt: p.UpdatedAt}
}

// pageFields are the fields of a new page or a change; absent fields are
// left as they are (on create: empty, type page, not published).
type pageFields struct {
	Slug            *string `json:"slug,omitempty" required:"false" doc:"Required on create: lowercase letters, digits and hyphens only, at most 100 characters"`
	Title           *string `json:"title,omitempty" required:"false" doc:"Required on create, at most 200 characters"`
	Content         *string `json:"content,omitempty" required:"false" doc:"Markdown; required on create, at most 200,000 characters"`
	MetaTitle       *string `json:"metaTitle,omitempty" required:"false" doc:"At most 200 characters"`
	MetaDescription *string `json:"metaDescription,omitempty" required:"false" doc:"At most 500 characters"`
	Published       *bool   `json:"published,omitempty" required:"false" doc:"Shown to everyone (default false)"`
	FeaturedImage   *string `json:"featuredImage,omitempty" required:"false" doc:"A path on this site or an https:// address"`
	PageType        *string `json:"pageType,omitempty" required:"false" doc:"page (default), blog, career, about, press, contact or api"`
}

func (f pageFields) input() pages.Input {
	return pages.Input{Slug: f.Slug, Title: f.Title, Content: f.Content, MetaTitle: f.MetaTitle,
		MetaDescription: f.MetaDescription, Published: f.Published, FeaturedImage: f.FeaturedImage, PageType: f.PageType}
}

type PageGetInput struct {
	Slug string `path:"slug" maxLength:"100"`
}

type PageCreateInput struct {
	Body pageFields
}

type PageUpdateInput struct {
	ID   int64 `path:"id"`
	Body pageFields
}

type PageOutput struct {
	Body envelope[pageBody]
}

type PageListOutput struct {
	Body envelope[[]pageBody]
}

// describePage builds the audit entry of admin's change to a page.
func describePage(admin *account.User, action string) audit.Describe[*pages.Page] {
	return func(before, after *pages.Page) audit.Entry {
		e := audit.Entry{ActorID: admin.ID, Action: action, TargetType: "page"}
		if before != nil {
			e.TargetID, e.Before = audit.ID(before.ID), toPageBody(before)
		}
		if after != nil {
			e.TargetID, e.After = audit.ID(after.ID), toPageBody(after)
		}
		return e
	}
}

// pageHandlers are the handlers of the pages.
type pageHandlers struct {
	pages *pages.Service
}

func addPageRoutes(a huma.API, svc *pages.Service) {
	h := pageHandlers{svc}
	adminOnly := []int{http.StatusUnauthorized, http.StatusForbidden}

	register(a, accessOptional, huma.Operation{
		OperationID: "page-get", Method: http.MethodGet, Path: "/api/pages/{slug}", Tags: []string{"Pages"},
		Summary:     "Get a published page",
		Description: "Everyone gets a published page; a page that is not published is not found, except for admins, who preview it.",
		Errors:      []int{http.StatusNotFound},
	}, h.getPage)

	register(a, accessAdmin, huma.Operation{
		OperationID: "admin-pages-list", Method: http.MethodGet, Path: "/api/admin/pages", Tags: []string{"Pages"},
		Summary: "List pages", Description: "Admins only. Every page, published or not, by title.",
		Errors: adminOnly,
	}, h.listPages)

	register(a, accessAdmin, huma.Operation{
		OperationID: "admin-pages-create", Method: http.MethodPost, Path: "/api/admin/pages", Tags: []string{"Pages"},
		Summary: "Create a page", Description: "Admins only. The slug must be new.",
		DefaultStatus: http.StatusCreated,
		Errors:        append(adminOnly, http.StatusConflict, http.StatusUnprocessableEntity),
	}, h.createPage)

	register(a, accessAdmin, huma.Operation{
		OperationID: "admin-pages-update", Method: http.MethodPatch, Path: "/api/admin/pages/{id}", Tags: []string{"Pages"},
		Summary: "Change a page", Description: "Admins only. Changes the fields sent; send published alone to publish or unpublish.",
		Errors: append(adminOnly, http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity),
	}, h.updatePage)

	register(a, accessAdmin, huma.Operation{
		OperationID: "admin-pages-delete", Method: http.MethodDelete, Path: "/api/admin/pages/{id}", Tags: []string{"Pages"},
		Summary: "Delete a page", Description: "Admins only.",
		Errors: append(adminOnly, http.StatusNotFound),
	}, h.deletePage)
}

// getPage returns the published page at a slug, or any page to an admin.
func (h pageHandlers) getPage(ctx context.Context, in *PageGetInput) (*PageOutput, error) {
	u := sessionUser(ctx)
	p, err := h.pages.BySlug(ctx, in.Slug, u != nil && u.IsAdmin())
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &PageOutput{Body: ok(toPageBody(p))}, nil
}

// listPages lists every page for an admin.
func (h pageHandlers) listPages(ctx context.Context, _ *struct{}) (*PageListOutput, error) {
	list, err := h.pages.List(ctx)
	if err != nil {
		return nil, fail(ctx, err)
	}
	body := make([]pageBody, 0, len(list))
	for i := range list {
		body = append(body, toPageBody(&list[i]))
	}
	return &PageListOutput{Body: ok(body)}, nil
}

// createPage creates a page written by the signed-in admin.
func (h pageHandlers) createPage(ctx context.Context, in *PageCreateInput) (*PageOutput, error) {
	admin := sessionUser(ctx)
	p, err := h.pages.Create(ctx, admin.ID, in.Body.input(), describePage(admin, audit.ActionPageCreate))
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &PageOutput{Body: ok(toPageBody(p))}, nil
}

// updatePage changes the fields sent of a page as the signed-in admin.
func (h pageHandlers) updatePage(ctx context.Context, in *PageUpdateInput) (*PageOutput, error) {
	p, err := h.pages.Update(ctx, in.ID, in.Body.input(), describePage(sessionUser(ctx), audit.ActionPageUpdate))
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &PageOutput{Body: ok(toPageBody(p))}, nil
}

// deletePage deletes a page as the signed-in admin.
func (h pageHandlers) deletePage(ctx context.Context, in *IDInput) (*DoneOutput, error) {
	if err := h.pages.Delete(ctx, in.ID, describePage(sessionUser(ctx), audit.ActionPageDelete)); err != nil {
		return nil, fail(ctx, err)
	}
	return done(), nil
}
