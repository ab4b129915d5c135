package registration

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/riverqueue/river"
	"github.com/uptrace/bun"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/billing"
	"github.com/nameport/nameport/internal/catalog"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/idempotency"
	"github.com/nameport/nameport/internal/notify"
	"github.com/nameport/nameport/internal/webhook"
	"github.com/nameport/nameport/internal/zone"
)

// Domain statuses.
const (
	StatusActive       = "active"
	StatusExpiringSoon = "expiring_soon" // expires within ExpiringSoon
	StatusExpired      = "expired"       // past expiry, inside the grace period
)

// ExpiringSoon is how close to its expiry a domain counts as expiring soon.
const ExpiringSoon = 30 * 24 * time.Hour

// MaxYearsAhead bounds how far ahead a domain can be paid for.
const MaxYearsAhead = 10

// Terms are a domain's standing at a moment and what renewing it costs.
type Terms struct {
	Status      string
	GraceEndsAt time.Time
	Renewal     catalog.Renewal
	// RenewedExpiresAt is the expiry one renewal now would give: the
	// current term extended by one period, also in the grace period.
	RenewedExpiresAt time.Time
}

// extended is expiry moved on by one renewal period of days. Whole years
// renew by the calendar (a year after 22 Nov is 22 Nov, leap day or not),
// other periods by days.
func extended(expiry time.Time, days int) time.Time {
	if days <= 0 {
		days = 365
	}
	if days%365 == 0 {
		return expiry.AddDate(days/365, 0, 0)
	}
	return expiry.AddDate(0, 0, days)
}

// TermsOf returns d's status at the service's clock, when its grace ends and
// what buyer pays to renew it.
func (s *Service) TermsOf(d *Domain, buyer catalog.Buyer) Terms {
	r := s.catalog.RenewalTerms(d.Name, d.Extension, buyer)
	t := Terms{GraceEndsAt: d.ExpiresAt.AddDate(0, 0, r.GraceDays), Renewal: r,
		RenewedExpiresAt: extended(d.ExpiresAt, r.PeriodDays)}
	now := s.clock()
	switch {
	case !now.Before(d.ExpiresAt):
		t.Status = StatusExpired
	case d.ExpiresAt.Sub(now) <= ExpiringSoon:
		t.Status = StatusExpiringSoon
	default:
		t.Status = StatusActive
	}
	return t
}

// Renewed is the outcome of a renewal.
type Renewed struct {
	Domain      *Domain
	Transaction *billing.Transaction
	// Wallet is the owner's wallet once the renewal is paid (read after it,
	// so a replay shows the wallet as it is now), as Registered.Wallet.
	Wallet billing.Wallet
}

const opRenew = "domain.renew"

// Renew extends domain id of userID by one renewal period of its extension
// and charges buyer's renewal price, in one transaction. It also brings an
// expired domain in its grace period back into DNS. With an idempotency key
// a retry returns the first renewal. Returns not_found unless userID holds
// the domain, insufficient_funds with the amount missing, invalid when the
// domain would be paid for more than MaxYearsAhead years ahead, conflict
// when its grace period is over.
func (s *Service) Renew(ctx context.Context, userID, id int64, buyer catalog.Buyer, key string) (*Renewed, error) {
	r, err := s.renewOrReplay(ctx, userID, id, buyer, key)
	if err != nil {
		return nil, err
	}
	if r.Wallet, err = s.billing.Wallet(ctx, userID); err != nil {
		return nil, err
	}
	return r, nil
}

func (s *Service) renewOrReplay(ctx context.Context, userID, id int64, buyer catalog.Buyer, key string) (*Renewed, error) {
	key = idempotency.Normalize(key)
	if err := idempotency.CheckKey(key); err != nil {
		return nil, err
	}
	d, err := s.Get(ctx, userID, id)
	if err != nil {
		return nil, err
	}
	hash := fmt.Sprintf("%d", id)
	if key != "" {
		if r, err := s.replayRenewal(ctx, userID, key, hash); r != nil || err != nil {
			return r, err
		}
	}
	r, err := s.renew(ctx, d, buyer, func(ctx context.Context, tx *db.Tx, charge *billing.Transaction) error {
		if key == "" {
			return nil
		}
		return idempotency.Claim(ctx, tx, &idempotency.Key{UserID: userID, Key: key, Operation: opRenew,
			RequestHash: hash, ResultID: charge.ID, CreatedAt: charge.CreatedAt})
	})
	if errors.Is(err, idempotency.ErrTaken) || (key != "" && errors.Is(err, errRenewedMeanwhile)) {
		if r, rerr := s.replayRenewal(ctx, userID, key, hash); r != nil || rerr != nil {
			return r, rerr
		}
	}
	if errors.Is(err, errRenewedMeanwhile) {
		return nil, apperr.New(apperr.Conflict, "%s was renewed a moment ago; check its new expiry date", d.Name+d.Extension)
	}
	return r, err
}

func (s *Service) replayRenewal(ctx context.Context, userID int64, key, hash string) (*Renewed, error) {
	k, err := idempotency.Find(ctx, s.db.Bun, userID, key, opRenew, hash)
	if k == nil || err != nil {
		return nil, err
	}
	t, err := s.billing.TransactionByID(ctx, userID, k.ResultID)
	if err != nil {
		return nil, err
	}
	d, err := s.Get(ctx, userID, t.DomainID)
	if err != nil {
		return nil, err
	}
	return &Renewed{Domain: d, Transaction: t}, nil
}

// errRenewedMeanwhile says the term being renewed was renewed by someone
// else (a retry, a worker, the owner) since it was read.
var errRenewedMeanwhile = errors.New("registration: renewed meanwhile")

// renew extends d by one period from its current expiry and charges for it.
// The update is conditional on the expiry read, so one term is paid once
// however many renewals race. also runs inside the transaction.
func (s *Service) renew(ctx context.Context, d *Domain, buyer catalog.Buyer,
	also func(ctx context.Context, tx *db.Tx, charge *billing.Transaction) error) (*Renewed, error) {
	terms := s.TermsOf(d, buyer)
	now := s.clock()
	full := d.Name + d.Extension
	if !now.Before(terms.GraceEndsAt) {
		return nil, apperr.New(apperr.Conflict, "The grace period of %s is over: it is being released", full)
	}
	old, next := d.ExpiresAt, terms.RenewedExpiresAt
	if next.After(now.AddDate(MaxYearsAhead, 0, 0)) {
		return nil, apperr.New(apperr.Invalid, "A domain can be paid for at most %d years ahead", MaxYearsAhead)
	}
	var charge *billing.Transaction
	err := s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		res, err := tx.NewUpdate().Model((*Domain)(nil)).Set("expires_at = ?", next).Set("updated_at = ?", now).
			Where("id = ?", d.ID).Where("expires_at = ?", old).Exec(ctx)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return errRenewedMeanwhile
		}
		charge, err = s.billing.Debit(ctx, tx, billing.Charge{UserID: d.UserID, AmountCents: terms.Renewal.PriceCents,
			Type: billing.TypeDomainRenewal, DomainID: d.ID, What: "renewing " + full,
			Description: fmt.Sprintf("Renewal of %s until %s", full, next.Format("2 Jan 2006"))})
		if err != nil {
			return err
		}
		if s.failAfterDebit != nil {
			if err := s.failAfterDebit(); err != nil {
				return err
			}
		}
		if resolvesAgain(old, now) {
			// Expired in its grace period (or about to, on some DNS
			// server's clock): it resolves again.
			zone.BumpVersionAtCommit(tx, now, zone.NameChange{Name: d.Name, Extension: d.Extension})
		}
		if err := s.notify(ctx, tx, d.UserID, notify.KindRenewalSucceeded, map[string]string{"domain": full,
			"amount": notify.Cents(terms.Renewal.PriceCents), "expiresAt": notify.Time(next)}); err != nil {
			return err
		}
		renewed := *d
		renewed.ExpiresAt = next
		if err := s.event(ctx, tx, &renewed, webhook.DomainRenewed, map[string]any{"previousExpiresAt": old,
			"amountCents": terms.Renewal.PriceCents, "transactionId": charge.ID}); err != nil {
			return err
		}
		if also != nil {
			return also(ctx, tx, charge)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("registration: renew %s: %w", full, err)
	}
	if resolvesAgain(old, now) {
		s.zoneChanged()
	}
	d.ExpiresAt, d.UpdatedAt = next, now
	return &Renewed{Domain: d, Transaction: charge}, nil
}

// expiryMargin covers a DNS server noting a domain's expiry (zone.NoteExpiry)
// while its renewal commits, or with a clock ahead of ours: a renewal this
// close to the old expiry tells DNS, so that no server keeps the domain out.
const expiryMargin = 5 * time.Minute

// resolvesAgain reports whether a renewal at now of a domain that expired
// (or expires) at old may bring it back to DNS.
func resolvesAgain(old, now time.Time) bool { return old.Before(now.Add(expiryMargin)) }

// event emits a webhook event about d, in tx; extra adds to the data every
// domain event has (its name, id and expiry).
func (s *Service) event(ctx context.Context, tx *db.Tx, d *Domain, eventType string, extra map[string]any) error {
	if s.Events == nil {
		return nil
	}
	data := map[string]any{"domain": d.Name + d.Extension, "domainId": d.ID, "expiresAt": d.ExpiresAt, "autoRenew": d.AutoRenew}
	for k, v := range extra {
		data[k] = v
	}
	return s.Events(ctx, tx, d.UserID, eventType, data)
}

func (s *Service) notify(ctx context.Context, tx *db.Tx, userID int64, kind string, data map[string]string) error {
	if s.Notify == nil {
		return nil
	}
	return s.Notify(ctx, tx, notify.Message{UserID: userID, Kind: kind, Data: data})
}

// noticeOnce records that notice went out for d's current term; false when
// it had already.
func noticeOnce(ctx context.Context, tx bun.IDB, d *Domain, notice string, now time.Time) (bool, error) {
	n := &domainNotice{DomainID: d.ID, ExpiresAt: d.ExpiresAt, Notice: notice, CreatedAt: now}
	res, err := tx.NewInsert().Model(n).On("CONFLICT DO NOTHING").Exec(ctx)
	if err != nil {
		return false, err
	}
	rows, _ := res.RowsAffected()
	return rows == 1, nil
}

// domainNotice is a notice sent for a domain's term.
type domainNotice struct {
	bun.BaseModel `bun:"table:domain_notices"`

	DomainID  int64     `bun:"domain_id,pk"`
	ExpiresAt time.Time `bun:"expires_at,pk"`
	Notice    string    `bun:"notice,pk"`
	CreatedAt time.Time `bun:"created_at"`
}

// RenewArgs asks for one term of a domain to be renewed automatically. The
// term is named by the expiry it ends at: River keeps one job per domain and
// term, and a term renewed meanwhile is not renewed again.
type RenewArgs struct {
	DomainID  int64     `json:"domain_id"`
	ExpiresAt time.Time `json:"expires_at"`
}

// Kind identifies the job.
func (RenewArgs) Kind() string { return "registration.renew" }

// InsertOpts make renewal jobs unique per domain and term, and retry them
// daily.
func (RenewArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: river.QueueDefault, MaxAttempts: 400,
		UniqueOpts: river.UniqueOpts{ByArgs: true}}
}

// RenewWorker renews domains whose owners chose automatic renewal.
type RenewWorker struct {
	river.WorkerDefaults[RenewArgs]
	Domains *Service
}

// RetryAfter is how long an automatic renewal that could not be paid waits
// before it tries again.
const RetryAfter = 24 * time.Hour

// Work renews the term, or snoozes a day when the wallet is short (telling
// the owner once a day), until the domain expires.
func (w *RenewWorker) Work(ctx context.Context, job *river.Job[RenewArgs]) error {
	return w.Domains.autoRenew(ctx, job.Args)
}

// autoRenew is the renewal job's work; tests call it with an injected clock.
func (s *Service) autoRenew(ctx context.Context, args RenewArgs) error {
	d := new(Domain)
	err := s.db.Bun.NewSelect().Model(d).Where("id = ?", args.DomainID).Scan(ctx)
	if err != nil {
		if isNoRows(err) {
			return river.JobCancel(fmt.Errorf("domain %d is gone", args.DomainID))
		}
		return err
	}
	now := s.clock()
	switch {
	case !d.ExpiresAt.Equal(args.ExpiresAt.UTC()):
		return nil // this term was renewed already
	case !d.AutoRenew:
		return nil // the owner turned automatic renewal off
	case !now.Before(d.ExpiresAt):
		return river.JobCancel(fmt.Errorf("%s%s expired before it could be paid", d.Name, d.Extension))
	}
	buyer, err := s.buyerOf(ctx, d.UserID)
	if err != nil {
		return err
	}
	_, err = s.renew(ctx, d, buyer, nil)
	switch {
	case err == nil, errors.Is(err, errRenewedMeanwhile):
		return nil
	case apperr.Code(err) == apperr.InsufficientFunds:
		msg := apperr.Message(err)
		nerr := s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
			first, err := noticeOnce(ctx, tx, d, "renewal_failed:"+now.Format("2006-01-02"), now)
			if err != nil || !first {
				return err
			}
			terms := s.TermsOf(d, buyer)
			return s.notify(ctx, tx, d.UserID, notify.KindRenewalFailed, map[string]string{"domain": d.Name + d.Extension,
				"reason": msg, "amount": notify.Cents(terms.Renewal.PriceCents), "expiresAt": notify.Time(d.ExpiresAt),
				"graceEndsAt": notify.Time(terms.GraceEndsAt)})
		})
		if nerr != nil {
			return nerr
		}
		if wait := d.ExpiresAt.Sub(now); wait < RetryAfter {
			return river.JobSnooze(wait)
		}
		return river.JobSnooze(RetryAfter)
	case apperr.Code(err) == apperr.Invalid || apperr.Code(err) == apperr.Conflict:
		return river.JobCancel(err)
	default:
		return err
	}
}

// buyerOf returns who the owner of a domain is as a buyer (registrars pay
// their tier's price), through the Buyers lookup the server provides.
func (s *Service) buyerOf(ctx context.Context, userID int64) (catalog.Buyer, error) {
	if s.Buyers == nil {
		return catalog.Buyer{}, nil
	}
	return s.Buyers(ctx, userID)
}

// retail is the buyer whose terms decide grace periods (the same for all).
func (s *Service) retail() catalog.Buyer { return catalog.Buyer{} }
