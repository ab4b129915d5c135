package registration

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/billing"
	"github.com/nameport/nameport/internal/catalog"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/idempotency"
	"github.com/nameport/nameport/internal/notify"
	"github.com/nameport/nameport/internal/webhook"
	"github.com/nameport/nameport/internal/zone"
)

// Request is what a buyer asks to register.
type Request struct {
	Name      string
	Extension string
	// Years to pay for, MinYears to MaxYears; nil means 1. An explicit 0
	// is invalid, not the default.
	Years     *int
	AutoRenew *bool // nil means on
	// Nameservers, when given, become the domain's NS records: it is
	// delegated to them.
	Nameservers []string
	// IdempotencyKey makes a retried request return the first result
	// instead of registering and charging again.
	IdempotencyKey string
}

// Registered is the outcome of a registration.
type Registered struct {
	Domain      *Domain
	Transaction *billing.Transaction
	// Wallet is the buyer's wallet once the registration is paid (as the
	// debit left it; a replay shows the wallet as it is now).
	Wallet billing.Wallet
	// Nameservers are the hosts the domain is delegated to (none: ours).
	Nameservers []string
	// Replayed is true when an earlier request with the same idempotency key
	// did the work.
	Replayed bool
}

const opRegister = "domain.register"

// The registration period a buyer may ask for, in years.
const (
	MinYears = 1
	MaxYears = 10
)

// yearsOf returns the years req asks for: 1 when it does not say, invalid
// when it says a number outside MinYears to MaxYears (0 included).
func yearsOf(req Request) (int, error) {
	if req.Years == nil {
		return 1, nil
	}
	if y := *req.Years; y < MinYears || y > MaxYears {
		return 0, apperr.New(apperr.Invalid, "Years must be between %d and %d", MinYears, MaxYears)
	}
	return *req.Years, nil
}

// Register registers a name for userID, priced for buyer. Availability and
// price are decided here, never taken from the client. The domain, the debit
// of years × price, the ledger entry and (for a premium name) its removal
// from sale commit together or not at all. Returns invalid for a bad
// request, conflict when the name is not available (also when it was taken
// a moment ago), insufficient_funds with the amount missing, and
// allowance_exhausted when buyer's tier allows no more new registrations
// this month (see Allowance).
func (s *Service) Register(ctx context.Context, userID int64, buyer catalog.Buyer, req Request) (*Registered, error) {
	r, err := s.register(ctx, userID, buyer, req)
	if req.IdempotencyKey != "" && (apperr.Code(err) == apperr.Conflict || errors.Is(err, idempotency.ErrTaken)) {
		// A retry of a request that committed meanwhile finds its own name
		// taken: that is the first request's success, not a conflict.
		autoRenew := req.AutoRenew == nil || *req.AutoRenew
		if done, rerr := s.replay(ctx, userID, strings.TrimSpace(req.IdempotencyKey), requestHash(req, autoRenew)); done != nil || rerr != nil {
			r, err = done, rerr
		}
	}
	if err != nil {
		return nil, err
	}
	if !r.Replayed {
		r.Wallet = billing.WalletAfter(r.Transaction)
	} else if r.Wallet, err = s.billing.Wallet(ctx, userID); err != nil {
		return nil, err
	}
	return r, nil
}

func (s *Service) register(ctx context.Context, userID int64, buyer catalog.Buyer, req Request) (*Registered, error) {
	years, err := yearsOf(req)
	if err != nil {
		return nil, err
	}
	autoRenew := req.AutoRenew == nil || *req.AutoRenew
	key := strings.TrimSpace(req.IdempotencyKey)
	if err := idempotency.CheckKey(key); err != nil {
		return nil, err
	}
	hash := requestHash(req, autoRenew)
	if key != "" {
		if done, err := s.replay(ctx, userID, key, hash); done != nil || err != nil {
			return done, err
		}
	}

	// Validation, reserved names and the price come from the catalog's
	// snapshot; whether someone holds the name, from the unique index when
	// the domain is inserted below (no query first: the insert has to ask
	// anyway, since the name may be taken between the two).
	av, err := s.catalog.Offer(req.Name, req.Extension, buyer)
	if err != nil {
		return nil, err
	}
	full := av.Name + av.Extension
	if !av.Available {
		return nil, apperr.New(apperr.Conflict, "%s is not available", full)
	}
	nameservers, err := zone.Nameservers(zone.Domain{Name: av.Name, Extension: av.Extension}, req.Nameservers)
	if err != nil {
		return nil, err
	}
	total := av.Quote.PriceCents * int64(years)
	now := s.clock()
	d := &Domain{UserID: userID, Name: av.Name, Extension: av.Extension, IsPremium: av.Quote.IsPremium,
		PriceCents: av.Quote.PriceCents, AutoRenew: autoRenew, RegisteredAt: now,
		ExpiresAt: now.AddDate(years, 0, 0), CreatedAt: now, UpdatedAt: now}
	var charge *billing.Transaction

	err = s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		if key != "" {
			k := &idempotency.Key{UserID: userID, Key: key, Operation: opRegister, RequestHash: hash, CreatedAt: now}
			if err := idempotency.Claim(ctx, tx, k); err != nil {
				return err
			}
		}
		if _, err := tx.NewInsert().Model(d).Exec(ctx); err != nil {
			if _, dup := db.UniqueViolation(err); dup {
				return apperr.New(apperr.Conflict, "%s is no longer available", full)
			}
			return err
		}
		if err := zone.InsertRecords(ctx, tx, zone.Domain{ID: d.ID, Name: d.Name, Extension: d.Extension}, nameservers, now); err != nil {
			return err
		}
		if d.IsPremium {
			if err := s.catalog.ClaimPremium(ctx, tx, d.Name, d.Extension); err != nil {
				return err
			}
		}
		period := "1 year"
		if years > 1 {
			period = fmt.Sprintf("%d years", years)
		}
		if key != "" {
			if err := idempotency.SetResult(ctx, tx, userID, key, d.ID); err != nil {
				return err
			}
		}
		if err := s.notify(ctx, tx, userID, notify.KindRegistrationReceipt, map[string]string{"domain": full,
			"amount": notify.Cents(total), "expiresAt": notify.Time(d.ExpiresAt), "years": strconv.Itoa(years)}); err != nil {
			return err
		}
		if err := s.event(ctx, tx, d, webhook.DomainRegistered, map[string]any{"years": years,
			"amountCents": total, "isPremium": d.IsPremium}); err != nil {
			return err
		}
		// A registrar's tier limits its new registrations a month; this
		// locks the wallet for a limited one, so it comes with the rows
		// below.
		if err := s.checkAllowance(ctx, tx, userID, buyer, now); err != nil {
			return err
		}
		// The rows every registration updates come last, with the commit
		// (db.Tx.Finally), so their locks are held only while it commits:
		// the wallet (each debit of an account waits for the one before) and
		// then the zone version (every change waits), in that order
		// everywhere.
		var err error
		charge, err = s.billing.Debit(ctx, tx, billing.Charge{UserID: userID, AmountCents: total,
			Type: billing.TypeDomainPurchase, Description: fmt.Sprintf("Registration of %s for %s", full, period),
			DomainID: d.ID, What: "this registration"})
		if err != nil {
			return err
		}
		// The new domain resolves once it has records (NXDOMAIN until then,
		// as on a secondary): DNS servers reload when they see the version move.
		zone.BumpVersionAtCommit(tx, now, zone.NameChange{Name: d.Name, Extension: d.Extension, Kind: zone.Registered})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("registration: register %s: %w", full, err)
	}
	s.namesChanged(ctx)
	if d.IsPremium {
		if err := s.catalog.Load(ctx); err != nil {
			return nil, err
		}
	}
	hosts := make([]string, len(nameservers))
	for i, r := range nameservers {
		hosts[i] = r.Content
	}
	return &Registered{Domain: d, Transaction: charge, Nameservers: hosts}, nil
}

// replay returns the result of an earlier request with key, nil when there is
// none. Returns invalid when the key was used for a different request.
func (s *Service) replay(ctx context.Context, userID int64, key, hash string) (*Registered, error) {
	k, err := idempotency.Find(ctx, s.db.Bun, userID, key, opRegister, hash)
	if k == nil || err != nil {
		return nil, err
	}
	d, err := s.Get(ctx, userID, k.ResultID)
	if err != nil {
		return nil, err
	}
	t, err := s.billing.TransactionFor(ctx, userID, d.ID)
	if err != nil {
		return nil, err
	}
	ns, err := zone.NameserversOf(ctx, s.db.Bun, []int64{d.ID})
	if err != nil {
		return nil, err
	}
	return &Registered{Domain: d, Transaction: t, Nameservers: ns[d.ID], Replayed: true}, nil
}

// requestHash identifies a request by what it asks for, in normal form.
func requestHash(req Request, autoRenew bool) string {
	years := 1
	if req.Years != nil {
		years = *req.Years
	}
	ns := make([]string, len(req.Nameservers))
	for i, h := range req.Nameservers {
		ns[i] = strings.ToLower(strings.TrimSuffix(strings.TrimSpace(h), "."))
	}
	sum := sha256.Sum256([]byte(fmt.Sprintf("%s|%s|%d|%t|%s", strings.ToLower(strings.TrimSpace(req.Name)),
		catalog.NormalizeExtension(req.Extension), years, autoRenew, strings.Join(ns, ","))))
	return hex.EncodeToString(sum[:])
}

// SetAutoRenew turns automatic renewal of domain id on or off. Returns
// not_found unless userID holds it.
func (s *Service) SetAutoRenew(ctx context.Context, userID, id int64, on bool) (*Domain, error) {
	res, err := s.db.Bun.NewUpdate().Model((*Domain)(nil)).Set("auto_renew = ?", on).Set("updated_at = ?", s.clock()).
		Where("id = ?", id).Where("user_id = ?", userID).Exec(ctx)
	if err != nil {
		return nil, fmt.Errorf("registration: auto-renew %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil, apperr.New(apperr.NotFound, "Domain not found")
	}
	return s.Get(ctx, userID, id)
}
