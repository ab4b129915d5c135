// Package pages keeps the pages admins write and publish (spec section 3,
// "Page"): the Terms of Service, Privacy Policy and Cookie Policy the
// footer links to, and any other page an admin adds. A page's content is
// Markdown; the web app renders it without raw HTML. Everyone reads a
// published page by its slug; admins list, write, publish and delete them,
// each change recorded in the audit log in its own transaction.
package pages

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/audit"
	"github.com/nameport/nameport/internal/db"
)

// Types are the page types of the spec, DefaultType first.
var Types = []string{"page", "blog", "career", "about", "press", "contact", "api"}

// DefaultType is the type of a page created without one.
const DefaultType = "page"

// Limits of a page's fields, in characters: a slug is part of an address,
// a meta title and description are what search engines show (they cut
// them far shorter), and content is a long document that still fits the
// API's 1 MiB bodies.
const (
	MaxSlug            = 100
	MaxTitle           = 200
	MaxMetaTitle       = 200
	MaxMetaDescription = 500
	MaxFeaturedImage   = 2048
	MaxContent         = 200_000
)

// Page is a page.
type Page struct {
	bun.BaseModel `bun:"table:pages"`

	ID              int64     `bun:"id,pk,autoincrement"`
	Slug            string    `bun:"slug"`
	Title           string    `bun:"title"`
	Content         string    `bun:"content"`
	MetaTitle       string    `bun:"meta_title"`
	MetaDescription string    `bun:"meta_description"`
	Published       bool      `bun:"published"`
	AuthorID        *int64    `bun:"author_id"` // nil: seeded, or the author's account is gone
	FeaturedImage   string    `bun:"featured_image"`
	PageType        string    `bun:"page_type"`
	CreatedAt       time.Time `bun:"created_at"`
	UpdatedAt       time.Time `bun:"updated_at"`
}

// HeadTitle is the page's title in the browser tab and search results: its
// meta title, or its title when that is empty.
func (p *Page) HeadTitle() string {
	if p.MetaTitle != "" {
		return p.MetaTitle
	}
	return p.Title
}

// Input is a new page, or the changes to one: nil fields are left as they
// are (on create: empty, type page, not published).
type Input struct {
	Slug            *string
	Title           *string
	Content         *string
	MetaTitle       *string
	MetaDescription *string
	Published       *bool
	FeaturedImage   *string
	PageType        *string
}

// Options configure a Service.
type Options struct {
	// Now is the clock; tests inject their own.
	Now func() time.Time
}

// Service stores the pages.
type Service struct {
	db  *db.DB
	now func() time.Time
}

// NewService returns the pages over d.
func NewService(d *db.DB, opts Options) *Service {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Service{db: d, now: opts.Now}
}

func (s *Service) clock() time.Time { return s.now().UTC().Truncate(time.Microsecond) }

// BySlug returns the page at slug. Unless withUnpublished (an admin's
// preview), a page that is not published does not exist. Returns
// not_found.
func (s *Service) BySlug(ctx context.Context, slug string, withUnpublished bool) (*Page, error) {
	p := new(Page)
	q := s.db.Bun.NewSelect().Model(p).Where("slug = ?", slug)
	if !withUnpublished {
		q = q.Where("published = ?", true)
	}
	if err := q.Scan(ctx); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, apperr.New(apperr.NotFound, "Page not found")
		}
		return nil, fmt.Errorf("pages: read %q: %w", slug, err)
	}
	return p, nil
}

// List returns every page, published or not, by title.
func (s *Service) List(ctx context.Context) ([]Page, error) {
	var list []Page
	if err := s.db.Bun.NewSelect().Model(&list).Order("title", "id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("pages: list: %w", err)
	}
	return list, nil
}

// Create adds a page written by authorID and records describe's audit
// entry in the same transaction. Returns invalid for a field the spec's
// rules refuse, and conflict when the slug is taken.
func (s *Service) Create(ctx context.Context, authorID int64, in Input, describe audit.Describe[*Page]) (*Page, error) {
	now := s.clock()
	p := &Page{PageType: DefaultType, CreatedAt: now, UpdatedAt: now}
	if authorID != 0 {
		p.AuthorID = &authorID
	}
	apply(p, in)
	if err := validate(p); err != nil {
		return nil, err
	}
	err := s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		if _, err := tx.NewInsert().Model(p).Exec(ctx); err != nil {
			return conflictOr(err, p.Slug)
		}
		return audit.RecordChange(ctx, tx, describe, nil, p)
	})
	if err != nil {
		return nil, fmt.Errorf("pages: create %q: %w", p.Slug, err)
	}
	return p, nil
}

// Update changes the fields given of page id and records describe's audit
// entry in the same transaction. Returns not_found, invalid or conflict.
func (s *Service) Update(ctx context.Context, id int64, in Input, describe audit.Describe[*Page]) (*Page, error) {
	var out *Page
	err := s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		p, err := read(ctx, tx, id)
		if err != nil {
			return err
		}
		before := *p
		apply(p, in)
		if err := validate(p); err != nil {
			return err
		}
		p.UpdatedAt = s.clock()
		if _, err := tx.NewUpdate().Model(p).WherePK().Exec(ctx); err != nil {
			return conflictOr(err, p.Slug)
		}
		out = p
		return audit.RecordChange(ctx, tx, describe, &before, p)
	})
	if err != nil {
		return nil, fmt.Errorf("pages: update %d: %w", id, err)
	}
	return out, nil
}

// Delete removes page id and records describe's audit entry in the same
// transaction. Returns not_found.
func (s *Service) Delete(ctx context.Context, id int64, describe audit.Describe[*Page]) error {
	err := s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		p, err := read(ctx, tx, id)
		if err != nil {
			return err
		}
		if _, err := tx.NewDelete().Model(p).WherePK().Exec(ctx); err != nil {
			return err
		}
		return audit.RecordChange(ctx, tx, describe, p, nil)
	})
	if err != nil {
		return fmt.Errorf("pages: delete %d: %w", id, err)
	}
	return nil
}

func read(ctx context.Context, tx *db.Tx, id int64) (*Page, error) {
	p := new(Page)
	if err := tx.NewSelect().Model(p).Where("id = ?", id).Scan(ctx); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, apperr.New(apperr.NotFound, "Page not found")
		}
		return nil, err
	}
	return p, nil
}

func conflictOr(err error, slug string) error {
	if _, dup := db.UniqueViolation(err); dup {
		return apperr.OnField(apperr.New(apperr.Conflict, "Slug %s is already used by another page", slug), "slug")
	}
	return err
}

func apply(p *Page, in Input) {
	trim := func(dst *string, src *string) {
		if src != nil {
			*dst = strings.TrimSpace(*src)
		}
	}
	trim(&p.Slug, in.Slug)
	trim(&p.Title, in.Title)
	trim(&p.MetaTitle, in.MetaTitle)
	trim(&p.MetaDescription, in.MetaDescription)
	trim(&p.FeaturedImage, in.FeaturedImage)
	if in.Content != nil {
		// Markdown: leading spaces can mean something (an indented code
		// block), so only the ends' blank lines go.
		p.Content = strings.Trim(*in.Content, "\r\n")
	}
	if in.PageType != nil && *in.PageType != "" {
		p.PageType = strings.TrimSpace(*in.PageType)
	}
	if in.Published != nil {
		p.Published = *in.Published
	}
}

// slugPattern is the spec's rule: lowercase letters, digits and hyphens only.
var slugPattern = regexp.MustCompile(`^[a-z0-9-]+$`)

// validate checks p against the spec's rules and the limits. Each error
// names the field it is about (its JSON name) and its message starts with
// the field's label, so the admin form can show it beside that field.
func validate(p *Page) error {
	invalid := func(field, format string, args ...any) error {
		return apperr.OnField(apperr.New(apperr.Invalid, format, args...), field)
	}
	for _, f := range []struct {
		field, label, value string
		max                 int
	}{
		{"slug", "Slug", p.Slug, MaxSlug},
		{"title", "Title", p.Title, MaxTitle},
		{"content", "Content", p.Content, MaxContent},
		{"metaTitle", "Meta title", p.MetaTitle, MaxMetaTitle},
		{"metaDescription", "Meta description", p.MetaDescription, MaxMetaDescription},
		{"featuredImage", "Featured image", p.FeaturedImage, MaxFeaturedImage},
	} {
		if utf8.RuneCountInString(f.value) > f.max {
			return invalid(f.field, "%s must be at most %d characters", f.label, f.max)
		}
	}
	switch {
	case p.Slug == "":
		return invalid("slug", "Slug is required")
	case !slugPattern.MatchString(p.Slug):
		return invalid("slug", "Slug may contain only lowercase letters, digits and hyphens")
	case p.Title == "":
		return invalid("title", "Title is required")
	case strings.TrimSpace(p.Content) == "":
		return invalid("content", "Content is required")
	case !slices.Contains(Types, p.PageType):
		return invalid("pageType", "Type must be one of %s", strings.Join(Types, ", "))
	case p.FeaturedImage != "" && !imageAddress(p.FeaturedImage):
		return invalid("featuredImage", "Featured image must be a path on this site (such as /images/cover.png) or an https:// address")
	}
	return nil
}

// imageAddress reports whether v is a path on this site or an https://
// address: what a page may show as its image without mixed content or a
// javascript: link.
func imageAddress(v string) bool {
	if strings.HasPrefix(v, "/") && !strings.HasPrefix(v, "//") && !strings.ContainsAny(v, "\\ \"'<>") {
		return true
	}
	u, err := url.Parse(v)
	return err == nil && u.Scheme == "https" && u.Host != ""
}
