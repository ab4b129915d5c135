package bulk

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/zone"
)

// MaxTemplateSets bounds the record sets of a DNS template.
const MaxTemplateSets = 50

// Template is a registrar's saved set of DNS records: record sets as /v1
// sets them, applied to many domains by a dns_template job.
type Template struct {
	bun.BaseModel `bun:"table:dns_templates"`

	ID        int64      `bun:"id,pk,autoincrement"`
	UserID    int64      `bun:"user_id"`
	Name      string     `bun:"name"`
	Records   string     `bun:"records"` // the sets, as JSON
	Sets      []zone.Set `bun:"-"`
	CreatedAt time.Time  `bun:"created_at"`
	UpdatedAt time.Time  `bun:"updated_at"`
}

// storedSet is a record set as a template stores it.
type storedSet struct {
	Name     string   `json:"name"`
	Type     string   `json:"type"`
	Values   []string `json:"values"`
	TTL      *int     `json:"ttl,omitempty"`
	Priority *int     `json:"priority,omitempty"`
}

func (t *Template) decode() error {
	var stored []storedSet
	if err := json.Unmarshal([]byte(t.Records), &stored); err != nil {
		return fmt.Errorf("bulk: template %d: %w", t.ID, err)
	}
	t.Sets = make([]zone.Set, len(stored))
	for i, s := range stored {
		t.Sets[i] = zone.Set{Name: s.Name, Type: s.Type, Values: s.Values, TTL: s.TTL, Priority: s.Priority}
	}
	return nil
}

// TemplateInput is a template's name and record sets.
type TemplateInput struct {
	Name string
	Sets []zone.Set
}

// templateSample is the domain a template's sets are checked against when
// it is saved: names relative to any domain are valid or not alike.
var templateSample = zone.Domain{Name: "example", Extension: ".inf.nz"}

func (in TemplateInput) check() (string, string, error) {
	name := strings.TrimSpace(in.Name)
	if name == "" || len([]rune(name)) > 100 {
		return "", "", apperr.New(apperr.Invalid, "A template needs a name of 1 to 100 characters")
	}
	if len(in.Sets) == 0 {
		return "", "", apperr.New(apperr.Invalid, "A template needs at least one record set")
	}
	if len(in.Sets) > MaxTemplateSets {
		return "", "", apperr.New(apperr.Invalid, "A template can have at most %d record sets", MaxTemplateSets)
	}
	if err := zone.ValidateSets(templateSample, in.Sets); err != nil {
		return "", "", err
	}
	stored := make([]storedSet, len(in.Sets))
	for i, s := range in.Sets {
		stored[i] = storedSet{Name: strings.TrimSpace(s.Name), Type: strings.ToUpper(strings.TrimSpace(s.Type)),
			Values: s.Values, TTL: s.TTL, Priority: s.Priority}
	}
	raw, err := json.Marshal(stored)
	return name, string(raw), err
}

// Templates returns userID's DNS templates by name.
func (s *Service) Templates(ctx context.Context, userID int64) ([]Template, error) {
	list := []Template{}
	if err := s.db.Bun.NewSelect().Model(&list).Where("user_id = ?", userID).Order("name", "id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("bulk: list templates of %d: %w", userID, err)
	}
	for i := range list {
		if err := list[i].decode(); err != nil {
			return nil, err
		}
	}
	return list, nil
}

// Template returns template id of userID; not_found otherwise, also when it
// is another account's.
func (s *Service) Template(ctx context.Context, userID, id int64) (*Template, error) {
	t := new(Template)
	err := s.db.Bun.NewSelect().Model(t).Where("id = ?", id).Where("user_id = ?", userID).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "DNS template not found")
	}
	if err != nil {
		return nil, fmt.Errorf("bulk: get template %d: %w", id, err)
	}
	return t, t.decode()
}

// CreateTemplate saves a template for userID. Returns invalid for a bad
// name or set (the messages of a record set change), conflict when the
// account has a template of that name.
func (s *Service) CreateTemplate(ctx context.Context, userID int64, in TemplateInput) (*Template, error) {
	name, raw, err := in.check()
	if err != nil {
		return nil, err
	}
	now := s.clock()
	t := &Template{UserID: userID, Name: name, Records: raw, CreatedAt: now, UpdatedAt: now}
	if _, err := s.db.Bun.NewInsert().Model(t).Exec(ctx); err != nil {
		if _, dup := db.UniqueViolation(err); dup {
			return nil, apperr.New(apperr.Conflict, "You already have a template named %s", name)
		}
		return nil, fmt.Errorf("bulk: create template: %w", err)
	}
	return t, t.decode()
}

// UpdateTemplate replaces template id of userID. Returns not_found, invalid
// and conflict as Template and CreateTemplate.
func (s *Service) UpdateTemplate(ctx context.Context, userID, id int64, in TemplateInput) (*Template, error) {
	name, raw, err := in.check()
	if err != nil {
		return nil, err
	}
	res, err := s.db.Bun.NewUpdate().Model((*Template)(nil)).Set("name = ?", name).Set("records = ?", raw).
		Set("updated_at = ?", s.clock()).Where("id = ?", id).Where("user_id = ?", userID).Exec(ctx)
	if err != nil {
		if _, dup := db.UniqueViolation(err); dup {
			return nil, apperr.New(apperr.Conflict, "You already have a template named %s", name)
		}
		return nil, fmt.Errorf("bulk: update template %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil, apperr.New(apperr.NotFound, "DNS template not found")
	}
	return s.Template(ctx, userID, id)
}

// DeleteTemplate deletes template id of userID; not_found otherwise. A job
// applying it that has not finished fails its remaining rows.
func (s *Service) DeleteTemplate(ctx context.Context, userID, id int64) error {
	res, err := s.db.Bun.NewDelete().Model((*Template)(nil)).Where("id = ?", id).Where("user_id = ?", userID).Exec(ctx)
	if err != nil {
		return fmt.Errorf("bulk: delete template %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return apperr.New(apperr.NotFound, "DNS template not found")
	}
	return nil
}

func isNoRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }
