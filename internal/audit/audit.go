// Package audit keeps the audit log: who among the admins changed what, with
// the object before and after the change.
package audit

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/uptrace/bun"

	"github.com/nameport/nameport/internal/db"
)

// Actions recorded by the admin tools.
const (
	ActionExtensionCreate = "extension.create"
	ActionExtensionUpdate = "extension.update"
	ActionExtensionDelete = "extension.delete"
	ActionPremiumCreate   = "premium.create"
	ActionPremiumUpdate   = "premium.update"
	ActionPremiumDelete   = "premium.delete"
	ActionPremiumBulk     = "premium.bulk"
	ActionUserTier        = "user.tier"
	ActionTierApprove     = "tier_application.approve"
	ActionTierDecline     = "tier_application.decline"
	ActionUserDisable     = "user.disable"
	ActionUserEnable      = "user.enable"
	ActionSettingCreate   = "setting.create"
	ActionSettingUpdate   = "setting.update"
	ActionSettingDelete   = "setting.delete"
	ActionDepositConfirm  = "deposit.confirm"
	ActionDepositReject   = "deposit.reject"
	ActionPageCreate      = "page.create"
	ActionPageUpdate      = "page.update"
	ActionPageDelete      = "page.delete"
	ActionContactReply    = "contact_message.reply"
	ActionContactDelete   = "contact_message.delete"
	ActionKSKRollover     = "dnssec.ksk_rollover"
	ActionKSKDSConfirmed  = "dnssec.ksk_ds_confirmed"

	// Changes an account makes to its own security (account package).
	ActionPasswordChange     = "account.password_change"
	ActionTwoFactorEnable    = "account.two_factor_enable"
	ActionTwoFactorDisable   = "account.two_factor_disable"
	ActionRecoveryCodesReset = "account.recovery_codes_reset"
	ActionSessionEnd         = "account.session_end"
	ActionSessionEndOthers   = "account.sessions_end_others"
	ActionPasskeyAdd         = "account.passkey_add"
	ActionPasskeyRemove      = "account.passkey_remove"
	ActionAPIKeyCreate       = "account.api_key_create"
	ActionAPIKeyRotate       = "account.api_key_rotate"
	ActionAPIKeyRevoke       = "account.api_key_revoke"
)

// Entry is one change to record. Before and After are marshalled to JSON;
// nil means there is no such side (nothing before a create, nothing after a
// delete).
type Entry struct {
	ActorID    int64
	Action     string
	TargetType string
	TargetID   string
	Before     any
	After      any
}

// ID formats a numeric target id.
func ID(id int64) string { return strconv.FormatInt(id, 10) }

// row is an audit_log row. Before and After are JSON text (JSONB on
// PostgreSQL), kept as strings so both engines read and write them alike.
type row struct {
	bun.BaseModel `bun:"table:audit_log"`

	ID         int64     `bun:"id,pk,autoincrement"`
	ActorID    int64     `bun:"actor_id,nullzero"`
	Action     string    `bun:"action"`
	TargetType string    `bun:"target_type"`
	TargetID   string    `bun:"target_id"`
	Before     *string   `bun:"before"`
	After      *string   `bun:"after"`
	CreatedAt  time.Time `bun:"created_at"`
}

func jsonOf(v any) (*string, error) {
	if v == nil {
		return nil, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	if string(b) == "null" {
		return nil, nil
	}
	s := string(b)
	return &s, nil
}

// Record writes e through q: pass the transaction of the change itself so
// the entry exists exactly when the change commits.
func Record(ctx context.Context, q bun.IDB, e Entry) error {
	r := &row{ActorID: e.ActorID, Action: e.Action, TargetType: e.TargetType, TargetID: e.TargetID,
		CreatedAt: time.Now().UTC().Truncate(time.Microsecond)}
	var err error
	if r.Before, err = jsonOf(e.Before); err != nil {
		return fmt.Errorf("audit: record %s: before: %w", e.Action, err)
	}
	if r.After, err = jsonOf(e.After); err != nil {
		return fmt.Errorf("audit: record %s: after: %w", e.Action, err)
	}
	if _, err := q.NewInsert().Model(r).Exec(ctx); err != nil {
		return fmt.Errorf("audit: record %s %s %s: %w", e.Action, e.TargetType, e.TargetID, err)
	}
	return nil
}

// Describe builds the audit entry of an admin change from the object before
// and after it (the zero T, nil, before a create and after a delete).
// Services that own their transactions (the catalog, the site settings) take
// one from the caller, who knows how admins see the object, and record the
// entry in the change's transaction. A nil Describe records nothing (seeding,
// benchmarks).
type Describe[T any] func(before, after T) Entry

// RecordChange records describe(before, after) through q, the change's
// transaction; nothing when describe is nil.
func RecordChange[T any](ctx context.Context, q bun.IDB, describe Describe[T], before, after T) error {
	if describe == nil {
		return nil
	}
	return Record(ctx, q, describe(before, after))
}

// Service reads the audit log.
type Service struct{ db *db.DB }

// NewService returns the audit log over d.
func NewService(d *db.DB) *Service { return &Service{db: d} }

// Item is a recorded change as admins read it.
type Item struct {
	ID         int64
	ActorID    int64
	ActorName  string // username; empty when the account is gone
	Action     string
	TargetType string
	TargetID   string
	Before     json.RawMessage // nil when absent
	After      json.RawMessage
	CreatedAt  time.Time
}

// MaxPageSize bounds one page of List.
const MaxPageSize = 100

// List returns up to limit entries older than the entry with id before
// (0: from the newest), newest first, and the id to pass for the next page
// (0 when there is none).
func (s *Service) List(ctx context.Context, before int64, limit int) ([]Item, int64, error) {
	if limit <= 0 || limit > MaxPageSize {
		limit = MaxPageSize
	}
	var rows []struct {
		ID         int64     `bun:"id"`
		ActorID    *int64    `bun:"actor_id"`
		ActorName  *string   `bun:"actor_name"`
		Action     string    `bun:"action"`
		TargetType string    `bun:"target_type"`
		TargetID   string    `bun:"target_id"`
		Before     *string   `bun:"before"`
		After      *string   `bun:"after"`
		CreatedAt  time.Time `bun:"created_at"`
	}
	q := s.db.Bun.NewSelect().TableExpr("audit_log AS a").
		ColumnExpr("a.id, a.actor_id, a.action, a.target_type, a.target_id, a.before, a.after, a.created_at").
		ColumnExpr("u.username AS actor_name").
		Join("LEFT JOIN users AS u ON u.id = a.actor_id").
		OrderExpr("a.id DESC").Limit(int64(limit + 1))
	if before > 0 {
		q = q.Where("a.id < ?", before)
	}
	if err := q.Scan(ctx, &rows); err != nil {
		return nil, 0, fmt.Errorf("audit: list: %w", err)
	}
	var next int64
	if len(rows) > limit {
		rows = rows[:limit]
		next = rows[limit-1].ID
	}
	items := make([]Item, len(rows))
	for i, r := range rows {
		items[i] = Item{ID: r.ID, Action: r.Action, TargetType: r.TargetType,
			TargetID: r.TargetID, CreatedAt: r.CreatedAt}
		if r.ActorID != nil {
			items[i].ActorID = *r.ActorID
		}
		if r.ActorName != nil {
			items[i].ActorName = *r.ActorName
		}
		if r.Before != nil {
			items[i].Before = json.RawMessage(*r.Before)
		}
		if r.After != nil {
			items[i].After = json.RawMessage(*r.After)
		}
	}
	return items, next, nil
}
