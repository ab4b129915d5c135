package registration

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/riverqueue/river"

	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/notify"
	"github.com/nameport/nameport/internal/webhook"
	"github.com/nameport/nameport/internal/zone"
)

// ExpiryWarnings are the days before expiry at which owners are warned.
var ExpiryWarnings = []int{30, 7, 1}

// ScanReport says what one lifecycle scan did.
type ScanReport struct {
	RenewalsQueued int
	Warned         int
	Expired        int
	Released       int
}

func (r ScanReport) String() string {
	return fmt.Sprintf("%d renewals queued, %d expiry warnings, %d expired, %d released",
		r.RenewalsQueued, r.Warned, r.Expired, r.Released)
}

// Scan runs the domain lifecycle at the service's clock: it queues one
// renewal job per auto-renewing domain and term that expires within
// renewAhead, warns owners 30, 7 and 1 days before expiry, tells them when a
// domain expires (it leaves DNS then), and releases domains whose grace
// period is over, so the name can be registered again. Each notice goes out
// once per term, however often Scan runs.
func (s *Service) Scan(ctx context.Context, renewAhead time.Duration) (ScanReport, error) {
	var report ScanReport
	now := s.clock()

	var due []Domain
	if err := s.db.Bun.NewSelect().Model(&due).Where("auto_renew = ?", true).Where("expires_at > ?", now).
		Where("expires_at <= ?", now.Add(renewAhead)).Order("id").Scan(ctx); err != nil {
		return report, fmt.Errorf("registration: scan renewals: %w", err)
	}
	if len(due) > 0 {
		err := s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
			for _, d := range due {
				if err := tx.Enqueue(ctx, RenewArgs{DomainID: d.ID, ExpiresAt: d.ExpiresAt.UTC()}, nil); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return report, fmt.Errorf("registration: queue renewals: %w", err)
		}
		report.RenewalsQueued = len(due)
	}

	var soon []Domain
	if err := s.db.Bun.NewSelect().Model(&soon).Where("expires_at > ?", now).
		Where("expires_at <= ?", now.AddDate(0, 0, ExpiryWarnings[0])).Order("id").Scan(ctx); err != nil {
		return report, fmt.Errorf("registration: scan expiring: %w", err)
	}
	for i := range soon {
		sent, err := s.warn(ctx, &soon[i], now)
		if err != nil {
			return report, err
		}
		if sent {
			report.Warned++
		}
	}

	var expired []Domain
	if err := s.db.Bun.NewSelect().Model(&expired).Where("expires_at <= ?", now).Order("id").Scan(ctx); err != nil {
		return report, fmt.Errorf("registration: scan expired: %w", err)
	}
	for i := range expired {
		d := &expired[i]
		terms := s.TermsOf(d, s.retail())
		if !now.Before(terms.GraceEndsAt) {
			released, err := s.release(ctx, d, now)
			if err != nil {
				return report, err
			}
			if released {
				report.Released++
			}
			continue
		}
		sent := false
		err := s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
			first, err := noticeOnce(ctx, tx, d, "expired", now)
			if err != nil || !first {
				return err
			}
			sent = true
			if err := s.event(ctx, tx, d, webhook.DomainExpired, map[string]any{"graceEndsAt": terms.GraceEndsAt}); err != nil {
				return err
			}
			return s.notify(ctx, tx, d.UserID, notify.KindDomainExpired, map[string]string{"domain": d.Name + d.Extension,
				"expiresAt": notify.Time(d.ExpiresAt), "graceEndsAt": notify.Time(terms.GraceEndsAt)})
		})
		if err != nil {
			return report, fmt.Errorf("registration: expiry notice: %w", err)
		}
		if sent {
			report.Expired++
		}
	}
	if err := pruneNames(ctx, s.db.Bun, now); err != nil {
		return report, err
	}
	if err := zone.PruneJournal(ctx, s.db.Bun, now); err != nil {
		return report, err
	}
	return report, nil
}

// warn sends the expiry warning due for d, if any: the smallest of
// ExpiryWarnings not below the days left, once per term. Domains that renew
// themselves get no 30-day warning (their renewal is queued then).
func (s *Service) warn(ctx context.Context, d *Domain, now time.Time) (bool, error) {
	left := d.ExpiresAt.Sub(now)
	due := 0
	for _, days := range ExpiryWarnings {
		if left <= time.Duration(days)*24*time.Hour {
			due = days
		}
	}
	if due == 0 || d.AutoRenew && due == ExpiryWarnings[0] {
		return false, nil
	}
	// Looked up before the transaction: SQLite has one connection.
	buyer, err := s.buyerOf(ctx, d.UserID)
	if err != nil {
		return false, err
	}
	sent := false
	err = s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		first, err := noticeOnce(ctx, tx, d, "expiry_warning:"+strconv.Itoa(due), now)
		if err != nil || !first {
			return err
		}
		sent = true
		if err := s.event(ctx, tx, d, webhook.DomainExpiring, map[string]any{"daysLeft": due,
			"renewalCents": s.TermsOf(d, buyer).Renewal.PriceCents}); err != nil {
			return err
		}
		return s.notify(ctx, tx, d.UserID, notify.KindExpiryWarning, map[string]string{"domain": d.Name + d.Extension,
			"days": strconv.Itoa(due), "expiresAt": notify.Time(d.ExpiresAt),
			"amount": notify.Cents(s.TermsOf(d, buyer).Renewal.PriceCents)})
	})
	if err != nil {
		return false, fmt.Errorf("registration: expiry warning: %w", err)
	}
	return sent, nil
}

// release deletes d after its grace period, unless it was renewed meanwhile:
// its records go with it, its ledger entries stay, a premium name goes back
// on sale, and the owner is told.
func (s *Service) release(ctx context.Context, d *Domain, now time.Time) (bool, error) {
	released := false
	err := s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		if err := s.notify(ctx, tx, d.UserID, notify.KindDomainReleased, map[string]string{"domain": d.Name + d.Extension}); err != nil {
			return err
		}
		if err := s.event(ctx, tx, d, webhook.DomainReleased, nil); err != nil {
			return err
		}
		if err := s.billing.ForgetDomain(ctx, tx, d.ID); err != nil {
			return err
		}
		res, err := tx.NewDelete().Model((*Domain)(nil)).Where("id = ?", d.ID).Where("expires_at = ?", d.ExpiresAt).Exec(ctx)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return errRenewedMeanwhile
		}
		if d.IsPremium {
			if err := s.catalog.ReleasePremium(ctx, tx, d.Name, d.Extension); err != nil {
				return err
			}
		}
		released = true
		zone.BumpVersionAtCommit(tx, now, zone.NameChange{Name: d.Name, Extension: d.Extension, Kind: zone.Released})
		return nil
	})
	if released {
		s.namesChanged(ctx)
	}
	if err == errRenewedMeanwhile {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("registration: release %s%s: %w", d.Name, d.Extension, err)
	}
	if released && d.IsPremium {
		if err := s.catalog.Load(ctx); err != nil {
			return true, err
		}
	}
	return released, nil
}

// ScanArgs asks for one lifecycle scan.
type ScanArgs struct{}

// Kind identifies the job.
func (ScanArgs) Kind() string { return "registration.scan" }

// ScanWorker runs the periodic lifecycle scan.
type ScanWorker struct {
	river.WorkerDefaults[ScanArgs]
	Domains    *Service
	RenewAhead time.Duration
}

// Work scans once.
func (w *ScanWorker) Work(ctx context.Context, _ *river.Job[ScanArgs]) error {
	_, err := w.Domains.Scan(ctx, w.RenewAhead)
	return err
}

// AddWorkers registers the lifecycle jobs and returns the scan's schedule:
// every interval, and once at start.
func (s *Service) AddWorkers(workers *river.Workers, interval, renewAhead time.Duration) []*river.PeriodicJob {
	if interval <= 0 {
		interval = time.Hour
	}
	if renewAhead <= 0 {
		renewAhead = 30 * 24 * time.Hour
	}
	river.AddWorker(workers, &RenewWorker{Domains: s})
	river.AddWorker(workers, &ScanWorker{Domains: s, RenewAhead: renewAhead})
	return []*river.PeriodicJob{river.NewPeriodicJob(river.PeriodicInterval(interval),
		func() (river.JobArgs, *river.InsertOpts) { return ScanArgs{}, nil },
		&river.PeriodicJobOpts{RunOnStart: true})}
}
