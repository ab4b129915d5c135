package account

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/audit"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/notify"
)

// Registrar tiers above basic are granted, not chosen: a registrar applies
// (at sign-up or later from its dashboard), the account works at basic
// meanwhile, and an admin approves (the tier is set) or declines. Each
// decision is audited and mailed to the applicant.

// Tier application statuses.
const (
	ApplicationPending  = "pending"
	ApplicationApproved = "approved"
	ApplicationDeclined = "declined"
)

const maxDeclineReason = 500

// TierApplication is one registrar's request for a higher tier.
type TierApplication struct {
	bun.BaseModel `bun:"table:tier_applications"`

	ID            int64     `bun:"id,pk,autoincrement"`
	UserID        int64     `bun:"user_id"`
	RequestedTier string    `bun:"requested_tier"`
	Status        string    `bun:"status"`
	Reason        string    `bun:"reason"`
	DecidedBy     int64     `bun:"decided_by,nullzero"`
	DecidedAt     time.Time `bun:"decided_at,nullzero"`
	CreatedAt     time.Time `bun:"created_at"`
}

// TierApplicationListing is an application as admins see it, with the
// applicant.
type TierApplicationListing struct {
	TierApplication `bun:",extend"`

	Username      string `bun:"username"`
	Email         string `bun:"email"`
	FullName      string `bun:"full_name"`
	CurrentTier   string `bun:"current_tier"`
	DecidedByName string `bun:"decided_by_name"`
}

var errNotRegistrar = apperr.New(apperr.Forbidden, "Only registrar accounts have a tier")

var errApplicationPending = apperr.New(apperr.Conflict, "You already have a tier application pending review")

// afterCreate runs in the transaction that creates u: an address not yet
// verified gets its verification mail, and a registrar that asked for a
// higher tier at sign-up gets its pending application.
func (s *Service) afterCreate(ctx context.Context, tx *db.Tx, u *User) error {
	if !u.EmailVerified() {
		if err := s.sendVerification(ctx, tx, u); err != nil {
			return err
		}
	}
	if u.IsRegistrar() && u.appliesFor != "" {
		app := &TierApplication{UserID: u.ID, RequestedTier: u.appliesFor, Status: ApplicationPending, CreatedAt: u.CreatedAt}
		if _, err := tx.NewInsert().Model(app).Exec(ctx); err != nil {
			return fmt.Errorf("tier application: %w", err)
		}
	}
	return nil
}

// tierRank orders the tiers; 0 for an unknown one.
func tierRank(tier string) int {
	switch tier {
	case TierBasic:
		return 1
	case TierPremium:
		return 2
	case TierEnterprise:
		return 3
	}
	return 0
}

// ApplyForTier files u's application for tier. Returns forbidden for an
// account that is not a registrar, invalid for an unknown tier or one not
// above u's own, and conflict while another application of u is pending.
func (s *Service) ApplyForTier(ctx context.Context, u *User, tier string) (*TierApplication, error) {
	if !u.IsRegistrar() {
		return nil, errNotRegistrar
	}
	if tier != TierPremium && tier != TierEnterprise {
		return nil, invalid("Tier must be premium or enterprise")
	}
	if tierRank(tier) <= tierRank(u.Tier) {
		return nil, invalid("Your account already has this tier or a higher one")
	}
	app := &TierApplication{UserID: u.ID, RequestedTier: tier, Status: ApplicationPending, CreatedAt: s.clock()}
	if _, err := s.db.Bun.NewInsert().Model(app).Exec(ctx); err != nil {
		if _, dup := db.UniqueViolation(err); dup {
			return nil, errApplicationPending
		}
		return nil, fmt.Errorf("account: apply for %s: %w", tier, err)
	}
	return app, nil
}

// LatestTierApplication returns the newest application of u, or nil when it
// has none. Returns forbidden for an account that is not a registrar.
func (s *Service) LatestTierApplication(ctx context.Context, u *User) (*TierApplication, error) {
	if !u.IsRegistrar() {
		return nil, errNotRegistrar
	}
	userID := u.ID
	app := new(TierApplication)
	err := s.db.Bun.NewSelect().Model(app).Where("user_id = ?", userID).OrderExpr("id DESC").Limit(1).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("account: tier application of %d: %w", userID, err)
	}
	return app, nil
}

// TierApplications lists up to 100 applications with status ("" for every
// status), newest first. Returns invalid for an unknown status.
func (s *Service) TierApplications(ctx context.Context, status string) ([]TierApplicationListing, error) {
	switch status {
	case "", ApplicationPending, ApplicationApproved, ApplicationDeclined:
	default:
		return nil, invalid("Status must be pending, approved or declined")
	}
	out := []TierApplicationListing{}
	q := s.db.Bun.NewSelect().TableExpr("tier_applications AS ta").
		ColumnExpr("ta.id, ta.user_id, ta.requested_tier, ta.status, ta.reason, ta.decided_by, ta.decided_at, ta.created_at").
		ColumnExpr("u.username, u.email, u.full_name, COALESCE(u.tier, '') AS current_tier").
		ColumnExpr("COALESCE(a.username, '') AS decided_by_name").
		Join("JOIN users AS u ON u.id = ta.user_id").
		Join("LEFT JOIN users AS a ON a.id = ta.decided_by").
		OrderExpr("ta.id DESC").Limit(100)
	if status != "" {
		q = q.Where("ta.status = ?", status)
	}
	if err := q.Scan(ctx, &out); err != nil {
		return nil, fmt.Errorf("account: list tier applications: %w", err)
	}
	return out, nil
}

// DecideTierApplication approves or declines application id on behalf of
// admin: approving sets the applicant's tier. The decision, its audit entry
// and the mail to the applicant commit together. A decline needs reason,
// one line mailed to the applicant. Returns not_found for an unknown
// application, conflict for one already decided, and invalid for a missing
// reason, or one that is too long or has control characters.
func (s *Service) DecideTierApplication(ctx context.Context, admin *User, id int64, approve bool, reason string) (*TierApplication, error) {
	defer s.apiKeys.forget() // the account may change
	reason = strings.TrimSpace(reason)
	if utf8.RuneCountInString(reason) > maxDeclineReason {
		return nil, invalid(fmt.Sprintf("Reason must be at most %d characters", maxDeclineReason))
	}
	if strings.ContainsFunc(reason, unicode.IsControl) {
		return nil, invalid("Reason must be a single line of text")
	}
	status, action := ApplicationDeclined, audit.ActionTierDecline
	if approve {
		status, action, reason = ApplicationApproved, audit.ActionTierApprove, ""
	} else if reason == "" {
		return nil, invalid("Give a reason: it is mailed to the applicant")
	}
	app := new(TierApplication)
	err := s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		if err := tx.NewSelect().Model(app).Where("id = ?", id).Scan(ctx); err != nil {
			if errors.Is(err, sql.ErrNoRows) {
				return apperr.New(apperr.NotFound, "Tier application not found")
			}
			return err
		}
		before := *app
		now := s.clock()
		// One conditional update decides: two admins racing cannot both.
		res, err := tx.NewUpdate().Model((*TierApplication)(nil)).
			Set("status = ?", status).Set("reason = ?", reason).Set("decided_by = ?", admin.ID).Set("decided_at = ?", now).
			Where("id = ?", id).Where("status = ?", ApplicationPending).Exec(ctx)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return apperr.New(apperr.Conflict, "This application has already been decided")
		}
		app.Status, app.Reason, app.DecidedBy, app.DecidedAt = status, reason, admin.ID, now
		u, err := s.lockedUser(ctx, tx, app.UserID)
		if err != nil {
			return err
		}
		mail := notify.Message{UserID: u.ID, Kind: notify.KindTierDeclined,
			Data: map[string]string{"tier": app.RequestedTier, "currentTier": u.Tier, "reason": reason}}
		if approve {
			u.Tier, u.UpdatedAt = app.RequestedTier, now
			if _, err := tx.NewUpdate().Model(u).Column("tier", "updated_at").WherePK().Exec(ctx); err != nil {
				return err
			}
			mail = notify.Message{UserID: u.ID, Kind: notify.KindTierApproved, Data: map[string]string{"tier": u.Tier}}
		}
		if err := audit.Record(ctx, tx, audit.Entry{ActorID: admin.ID, Action: action, TargetType: "tier_application",
			TargetID: audit.ID(app.ID), Before: applicationView(&before, u.Username), After: applicationView(app, u.Username)}); err != nil {
			return err
		}
		return notify.Enqueue(ctx, tx, mail)
	})
	if err != nil {
		if apperr.Code(err) == apperr.Internal {
			return nil, fmt.Errorf("account: decide tier application %d: %w", id, err)
		}
		return nil, err
	}
	return app, nil
}

// applicationView is what the audit log keeps of an application.
func applicationView(a *TierApplication, username string) map[string]any {
	v := map[string]any{"username": username, "requestedTier": a.RequestedTier, "status": a.Status}
	if a.Reason != "" {
		v["reason"] = a.Reason
	}
	return v
}
