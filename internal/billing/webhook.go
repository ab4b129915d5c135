package billing

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/riverqueue/river"
	"github.com/stripe/stripe-go/v85"
	"github.com/stripe/stripe-go/v85/webhook"
	"github.com/uptrace/bun"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/db"
)

// ErrBadSignature is returned for a webhook whose Stripe-Signature is
// missing, malformed, wrong or too old.
var ErrBadSignature = errors.New("billing: webhook signature is missing or invalid")

// PaymentEvent is a webhook event as received, stored once by its id.
type PaymentEvent struct {
	bun.BaseModel `bun:"table:payment_events"`

	ID          int64      `bun:"id,pk,autoincrement"`
	EventID     string     `bun:"event_id"`
	Type        string     `bun:"type"`
	Payload     string     `bun:"payload"`
	ReceivedAt  time.Time  `bun:"received_at"`
	ProcessedAt *time.Time `bun:"processed_at"`
}

// ReceiveStripeWebhook verifies a webhook's signature, stores its event once
// and queues its processing in the same database transaction. A replayed
// event (an id seen before) changes nothing; duplicate reports it. Returns
// ErrBadSignature when the signature does not verify (nothing is stored),
// and not_found when no webhook secret is configured.
func (s *Service) ReceiveStripeWebhook(ctx context.Context, payload []byte, signature string) (duplicate bool, err error) {
	if s.stripe == nil || s.stripe.cfg.WebhookSecret == "" {
		return false, apperr.New(apperr.NotFound, "Stripe webhooks are not configured")
	}
	ev, err := webhook.ConstructEventWithOptions(payload, signature, s.stripe.cfg.WebhookSecret,
		webhook.ConstructEventOptions{
			// The endpoint's API version is set in Stripe's dashboard and may
			// differ from the library's; we read only fields that every
			// version has (the intent's id, amount and error message).
			IgnoreAPIVersionMismatch: true,
		})
	if err != nil {
		if errors.Is(err, webhook.ErrNotSigned) || errors.Is(err, webhook.ErrInvalidHeader) ||
			errors.Is(err, webhook.ErrNoValidSignature) || errors.Is(err, webhook.ErrTooOld) {
			return false, ErrBadSignature
		}
		return false, apperr.New(apperr.Invalid, "The webhook body is not a Stripe event")
	}
	if ev.ID == "" || ev.Type == "" {
		return false, apperr.New(apperr.Invalid, "The webhook event has no id or type")
	}
	err = s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		pe := &PaymentEvent{EventID: ev.ID, Type: string(ev.Type), Payload: string(payload), ReceivedAt: s.clock()}
		res, err := tx.NewInsert().Model(pe).On("CONFLICT (event_id) DO NOTHING").Exec(ctx)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			duplicate = true
			return nil
		}
		return tx.Enqueue(ctx, StripeEventArgs{EventID: ev.ID}, nil)
	})
	if err != nil {
		return false, fmt.Errorf("billing: store stripe event %s: %w", ev.ID, err)
	}
	return duplicate, nil
}

// ProcessStripeEvent acts on a stored event once: payment_intent.succeeded
// completes the deposit the intent pays, payment_intent.payment_failed marks
// it failed; other types are kept and ignored. The event is marked processed
// in the same transaction as its effect, so a retried job does nothing more.
func (s *Service) ProcessStripeEvent(ctx context.Context, eventID string) error {
	err := s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		pe := new(PaymentEvent)
		if err := tx.NewSelect().Model(pe).Where("event_id = ?", eventID).Scan(ctx); err != nil {
			if errors.Is(err, sql.ErrNoRows) {
				return apperr.New(apperr.NotFound, "Payment event not found")
			}
			return err
		}
		// Claim the event: of two runs, the second finds it processed.
		res, err := tx.NewUpdate().Model(pe).Set("processed_at = ?", s.clock()).
			Where("id = ?", pe.ID).Where("processed_at IS NULL").Exec(ctx)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil
		}
		var ev stripe.Event
		if err := json.Unmarshal([]byte(pe.Payload), &ev); err != nil {
			return fmt.Errorf("parse event: %w", err)
		}
		switch ev.Type {
		case stripe.EventTypePaymentIntentSucceeded, stripe.EventTypePaymentIntentPaymentFailed:
		default:
			return nil
		}
		var pi stripe.PaymentIntent
		if ev.Data == nil || json.Unmarshal(ev.Data.Raw, &pi) != nil || pi.ID == "" {
			return fmt.Errorf("event %s carries no payment intent", eventID)
		}
		if ev.Type == stripe.EventTypePaymentIntentSucceeded {
			return s.settleIntent(ctx, tx, pi.ID, true, "")
		}
		msg := "The payment failed."
		if pi.LastPaymentError != nil && pi.LastPaymentError.Msg != "" {
			msg = pi.LastPaymentError.Msg
		}
		return s.settleIntent(ctx, tx, pi.ID, false, msg)
	})
	if err != nil {
		return fmt.Errorf("billing: process stripe event %s: %w", eventID, err)
	}
	return nil
}

// StripeEventArgs is the job that processes one stored webhook event.
type StripeEventArgs struct {
	EventID string `json:"event_id"`
}

// Kind names the job.
func (StripeEventArgs) Kind() string { return "billing.stripe_event" }

// StripeEventWorker runs ProcessStripeEvent.
type StripeEventWorker struct {
	river.WorkerDefaults[StripeEventArgs]
	Wallets *Service
}

// Work processes the event; River retries it with backoff when it fails.
func (w *StripeEventWorker) Work(ctx context.Context, job *river.Job[StripeEventArgs]) error {
	err := w.Wallets.ProcessStripeEvent(ctx, job.Args.EventID)
	if apperr.Code(err) == apperr.NotFound {
		return river.JobCancel(err)
	}
	return err
}

// AddWorkers registers the billing workers.
func (s *Service) AddWorkers(workers *river.Workers) []*river.PeriodicJob {
	river.AddWorker(workers, &StripeEventWorker{Wallets: s})
	return nil
}
