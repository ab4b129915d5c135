package billing

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/pkg/money"
)

// Payment modes.
const (
	ModeStripe = "stripe" // a Stripe secret key is configured
	ModeDemo   = "demo"   // demo payments: card payments are simulated
	ModeNone   = "none"   // no provider and no demo: card payments are refused
)

// Statuses of a payment intent (Stripe's words, plus failed for an intent
// whose last attempt was declined; it may still be paid).
const (
	IntentRequiresPayment = "requires_payment_method"
	IntentSucceeded       = "succeeded"
	IntentFailed          = "failed"
)

// Card payment limits: Stripe's minimum charge, and the deposit maximum.
const (
	MinPaymentCents = 50
	MaxPaymentCents = MaxDepositCents
)

// Intent is a card payment the app asked for: a Stripe PaymentIntent, or a
// simulated one in demo mode.
type Intent struct {
	bun.BaseModel `bun:"table:payment_intents"`

	ID            string    `bun:"id,pk"`
	UserID        int64     `bun:"user_id"`
	TransactionID int64     `bun:"transaction_id,nullzero"`
	AmountCents   int64     `bun:"amount_cents"`
	Currency      string    `bun:"currency"`
	Description   string    `bun:"description"`
	Mode          string    `bun:"mode"`
	Status        string    `bun:"status"`
	LastError     string    `bun:"last_error"`
	CreatedAt     time.Time `bun:"created_at"`
	UpdatedAt     time.Time `bun:"updated_at"`

	// ClientSecret lets the browser confirm the payment; never stored.
	ClientSecret string `bun:"-"`
}

// PaymentMode is how card payments run: ModeStripe, ModeDemo or ModeNone.
func (s *Service) PaymentMode() string {
	switch {
	case s.stripe != nil:
		return ModeStripe
	case s.demo:
		return ModeDemo
	}
	return ModeNone
}

// PublishableKey is Stripe's publishable key for the web app; empty in demo
// mode or when none is configured.
func (s *Service) PublishableKey() string {
	if s.stripe == nil {
		return ""
	}
	return s.stripe.PublishableKey()
}

// CreatePaymentIntent starts a card payment of amountCents by userID for
// description. metadata goes to the provider with user_id added. Returns
// invalid for amounts outside $0.50–$10,000.00 or oversized metadata, and
// unavailable without Stripe outside demo mode.
func (s *Service) CreatePaymentIntent(ctx context.Context, userID, amountCents int64, description string,
	metadata map[string]string) (*Intent, error) {
	switch {
	case s.PaymentMode() == ModeNone:
		return nil, apperr.New(apperr.Unavailable, "Card payments are not configured on this server")
	case amountCents <= 0:
		return nil, apperr.New(apperr.Invalid, "%s", AmountNotPositive)
	case amountCents < MinPaymentCents:
		return nil, apperr.New(apperr.Invalid, "The minimum payment is %s", money.Format(MinPaymentCents))
	case amountCents > MaxPaymentCents:
		return nil, apperr.New(apperr.Invalid, "The maximum payment is $10,000.00")
	case len(description) > 200:
		return nil, apperr.New(apperr.Invalid, "The product name must be at most 200 characters")
	case len(metadata) > 20:
		return nil, apperr.New(apperr.Invalid, "At most 20 metadata keys are allowed")
	}
	md := map[string]string{}
	for k, v := range metadata {
		if k == "" || len(k) > 40 || len(v) > 500 {
			return nil, apperr.New(apperr.Invalid, "Metadata keys must have 1 to 40 characters and values at most 500")
		}
		md[k] = v
	}
	md["user_id"] = strconv.FormatInt(userID, 10)
	return s.newIntent(ctx, userID, 0, amountCents, description, md, "")
}

// newIntent creates the intent at the provider (or simulates it) and records
// it.
func (s *Service) newIntent(ctx context.Context, userID, transactionID, amountCents int64, description string,
	metadata map[string]string, idempotencyKey string) (*Intent, error) {
	now := s.clock()
	in := &Intent{UserID: userID, TransactionID: transactionID, AmountCents: amountCents, Currency: Currency,
		Description: description, Mode: s.PaymentMode(), Status: IntentRequiresPayment, CreatedAt: now, UpdatedAt: now}
	if s.stripe != nil {
		pi, err := s.stripe.createIntent(ctx, amountCents, description, metadata, idempotencyKey)
		if err != nil {
			return nil, fmt.Errorf("billing: payment intent for %d: %w", userID, err)
		}
		in.ID, in.ClientSecret = pi.ID, pi.ClientSecret
	} else {
		in.ID = "pi_demo_" + randomHex(12)
		in.ClientSecret = in.ID + "_secret_" + randomHex(12)
	}
	if _, err := s.db.Bun.NewInsert().Model(in).Exec(ctx); err != nil {
		return nil, fmt.Errorf("billing: record payment intent: %w", err)
	}
	return in, nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// IntentID returns the intent id within a client secret ("pi_X_secret_Y"),
// or ref itself when it is an id.
func IntentID(ref string) string {
	if i := strings.Index(ref, "_secret_"); i > 0 {
		return ref[:i]
	}
	return ref
}

// startCardPayment creates the PaymentIntent that pays the pending card
// deposit t and records its id on t. If the provider cannot be reached the
// deposit fails.
func (s *Service) startCardPayment(ctx context.Context, t *Transaction) error {
	md := map[string]string{"user_id": strconv.FormatInt(t.UserID, 10), "transaction_id": strconv.FormatInt(t.ID, 10)}
	// The idempotency key makes a retried call return the same intent.
	in, err := s.newIntent(ctx, t.UserID, t.ID, t.AmountCents, "Wallet deposit", md,
		"nameport-deposit-"+strconv.FormatInt(t.ID, 10))
	if err == nil {
		_, err = s.db.Bun.NewUpdate().Model((*Transaction)(nil)).Set("provider_ref = ?", in.ID).
			Where("id = ?", t.ID).Exec(ctx)
	}
	if err != nil {
		if ferr := s.FailDeposit(context.WithoutCancel(ctx), t.ID); ferr != nil {
			err = errors.Join(err, ferr)
		}
		t.Status = StatusFailed
		return errors.Join(apperr.New(apperr.Unavailable, "Card payments are unavailable right now and nothing "+
			"was charged. Please try again later or choose another payment method."),
			fmt.Errorf("billing: start card payment of deposit %d: %w", t.ID, err))
	}
	t.ProviderRef, t.ClientSecret = in.ID, in.ClientSecret
	return nil
}

// reattachClientSecret fills in the client secret of a pending card deposit
// returned again (an idempotent retry).
func (s *Service) reattachClientSecret(ctx context.Context, t *Transaction) {
	if s.stripe == nil || t.ProviderRef == "" || t.Status != StatusPending {
		return
	}
	if pi, err := s.stripe.retrieveIntent(ctx, t.ProviderRef); err == nil {
		t.ClientSecret = pi.ClientSecret
	}
}

// FailDeposit marks a pending deposit failed; the wallet is unchanged.
// Failing it again changes nothing. Returns not_found for an unknown deposit
// and conflict for a completed one.
func (s *Service) FailDeposit(ctx context.Context, transactionID int64) error {
	err := s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		return s.failDeposit(ctx, tx, transactionID)
	})
	if err != nil {
		return fmt.Errorf("billing: fail deposit %d: %w", transactionID, err)
	}
	return nil
}

func (s *Service) failDeposit(ctx context.Context, tx *db.Tx, transactionID int64) error {
	t := new(Transaction)
	if err := tx.NewSelect().Model(t).Where("id = ?", transactionID).Where("type = ?", TypeDeposit).Scan(ctx); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return apperr.New(apperr.NotFound, "Deposit not found")
		}
		return err
	}
	res, err := tx.NewUpdate().Model(t).Set("status = ?", StatusFailed).
		Where("id = ?", t.ID).Where("status = ?", StatusPending).Exec(ctx)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 && t.Status == StatusCompleted {
		return apperr.New(apperr.Conflict, "This deposit has completed and cannot fail")
	}
	return nil
}

// settleIntent records the outcome of an attempt to pay intent id inside tx
// and settles the deposit it pays, if any. A success credits the deposit
// exactly once: the status guard turns repeats, and events racing each
// other, into no-ops. A success after a declined attempt (the payer tried
// another card) still completes the deposit, since the money was taken.
func (s *Service) settleIntent(ctx context.Context, tx *db.Tx, id string, succeeded bool, message string) error {
	now := s.clock()
	q := tx.NewUpdate().Model((*Intent)(nil)).Set("updated_at = ?", now).Where("id = ?", id).
		Where("status <> ?", IntentSucceeded)
	if succeeded {
		q = q.Set("status = ?", IntentSucceeded).Set("last_error = ''")
	} else {
		q = q.Set("status = ?", IntentFailed).Set("last_error = ?", message)
	}
	if _, err := q.Exec(ctx); err != nil {
		return err
	}
	t := new(Transaction)
	err := tx.NewSelect().Model(t).Where("provider_ref = ?", id).Where("type = ?", TypeDeposit).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil // a payment that is not a deposit (the payment demo)
	}
	if err != nil {
		return err
	}
	if !succeeded {
		// A decline reported after the success (events arrive in any
		// order) is stale.
		if err := s.failDeposit(ctx, tx, t.ID); apperr.Code(err) != apperr.Conflict {
			return err
		}
		return nil
	}
	res, err := tx.NewUpdate().Model((*Transaction)(nil)).Set("status = ?", StatusCompleted).
		Where("id = ?", t.ID).Where("status IN (?)", bun.In([]string{StatusPending, StatusFailed})).Exec(ctx)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil // completed before
	}
	return s.credit(ctx, tx, t)
}

// PaymentOutcome is the result of a payment attempt.
type PaymentOutcome struct {
	Succeeded bool
	Message   string
}

// ConfirmTestPayment pays intent ref (its id or client secret) of userID
// with a test card number, without Stripe.js: simulated in demo mode, and
// through Stripe's API with the matching test payment method under a test
// key. Returns forbidden with a live key, not_found for another user's or
// an unknown intent, and conflict for an intent already paid.
func (s *Service) ConfirmTestPayment(ctx context.Context, userID int64, ref, cardNumber string) (PaymentOutcome, error) {
	if s.stripe != nil && !s.stripe.TestMode() {
		return PaymentOutcome{}, apperr.New(apperr.Forbidden, "Test payments are not available with a live Stripe key")
	}
	if s.PaymentMode() == ModeNone {
		return PaymentOutcome{}, apperr.New(apperr.Unavailable, "Card payments are not configured on this server")
	}
	in := new(Intent)
	err := s.db.Bun.NewSelect().Model(in).Where("id = ?", IntentID(strings.TrimSpace(ref))).Where("user_id = ?", userID).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return PaymentOutcome{}, apperr.New(apperr.NotFound, "Payment not found")
	}
	if err != nil {
		return PaymentOutcome{}, fmt.Errorf("billing: find payment intent: %w", err)
	}
	if in.Status == IntentSucceeded {
		return PaymentOutcome{}, apperr.New(apperr.Conflict, "This payment has already succeeded")
	}
	card, known, decline := testCardOutcome(cardNumber)
	out := PaymentOutcome{Succeeded: decline == "", Message: decline}
	if s.stripe != nil && known {
		// Stripe decides, with the test payment method of the same card.
		if out.Succeeded, out.Message, err = s.stripe.confirmIntent(ctx, in.ID, card.PaymentMethod); err != nil {
			return PaymentOutcome{}, fmt.Errorf("billing: confirm test payment: %w", err)
		}
	}
	if err := s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		return s.settleIntent(ctx, tx, in.ID, out.Succeeded, out.Message)
	}); err != nil {
		return PaymentOutcome{}, fmt.Errorf("billing: settle payment %s: %w", in.ID, err)
	}
	if out.Succeeded {
		out.Message = "Thank you for your payment!"
	}
	return out, nil
}

// TestPaymentsAllowed reports whether ConfirmTestPayment may run: in demo
// mode, and with a Stripe test key.
func (s *Service) TestPaymentsAllowed() bool {
	if s.stripe == nil {
		return s.demo
	}
	return s.stripe.TestMode()
}
