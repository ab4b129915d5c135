package billing

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/audit"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/pkg/money"
)

// Deposit modes: how this server takes money, as logged at start and shown
// on the wallet page.
const (
	DepositModeDemo   = "demo"   // --demo: deposits complete at once without payment
	DepositModeStripe = "stripe" // card deposits through Stripe (bank transfers too when enabled)
	DepositModeManual = "manual" // bank transfers only, confirmed by an admin
	DepositModeNone   = "none"   // no way to pay: deposits are refused
)

// MethodBankTransfer is the deposit method an admin confirms by hand.
const MethodBankTransfer = "bank_transfer"

// MethodCard is the deposit method paid by card: through Stripe, or by demo
// payments.
const MethodCard = "credit_card"

// depositRoute is how a deposit by one method is paid.
type depositRoute int

const (
	routeUnavailable depositRoute = iota
	routeInstant                  // demo payments: completes at once
	routeCard                     // Stripe: pending until Stripe reports the payment
	routeManual                   // bank transfer: pending until an admin confirms it
)

// route returns how a deposit by method is paid: this is the one rule of
// which methods a server offers. A card is paid through Stripe when the
// server has its keys, else instantly by demo payments; a bank transfer
// waits for an admin when the Bank Transfer gateway is enabled; PayPal and
// UPI have no provider yet, so they are offered nowhere, demo or not (a
// demo deposit "by PayPal" would pretend to a payment that cannot happen).
func (s *Service) route(method string, bankTransfer bool) depositRoute {
	switch method {
	case MethodCard:
		switch {
		case s.stripe != nil:
			return routeCard
		case s.demo:
			return routeInstant
		}
	case MethodBankTransfer:
		if bankTransfer {
			return routeManual
		}
	}
	return routeUnavailable
}

func (s *Service) bankTransferEnabled(ctx context.Context) (bool, error) {
	if s.bankTransfer == nil {
		return false, nil
	}
	on, err := s.bankTransfer(ctx)
	if err != nil {
		return false, fmt.Errorf("billing: bank transfer gateway: %w", err)
	}
	return on, nil
}

// DepositOptions say how deposits can be paid right now.
type DepositOptions struct {
	Mode    string   // DepositModeDemo, DepositModeStripe, DepositModeManual or DepositModeNone
	Methods []string // the deposit methods that work, in PaymentMethods order
	// Instant methods complete at once (demo payments); the others wait for
	// their provider or an admin.
	Instant []string
	// ConfiguredBy says, for admins, where the mode is set: Stripe and demo
	// payments by the server's flags, bank transfers by the Bank Transfer
	// payment gateway.
	ConfiguredBy string
}

// Where each deposit mode is configured: billing reads Stripe's keys and
// demo payments from the server configuration only, and bank transfers from
// the payment gateways the admins keep.
const (
	configuredByStripe = "Stripe keys are server configuration: --stripe-secret-key, --stripe-publishable-key " +
		"and --stripe-webhook-secret (NAMEPORT_STRIPE_SECRET_KEY, NAMEPORT_STRIPE_PUBLISHABLE_KEY, " +
		"NAMEPORT_STRIPE_WEBHOOK_SECRET or nameport.yaml)."
	configuredByDemo = "Demo payments are server configuration: --demo-payments (or --demo)."
	configuredByBank = "Bank transfers are enabled by the Bank Transfer payment gateway."
	configuredByNone = "No payment method is configured: set --stripe-secret-key on the server, " +
		"or enable the Bank Transfer payment gateway."
)

// DepositOptions returns the methods a deposit can be paid by now: demo
// payments, a Stripe key, and whether an admin has enabled bank transfers.
func (s *Service) DepositOptions(ctx context.Context) (DepositOptions, error) {
	bank, err := s.bankTransferEnabled(ctx)
	if err != nil {
		return DepositOptions{}, err
	}
	o := DepositOptions{Methods: []string{}, Instant: []string{}}
	for _, m := range PaymentMethods {
		switch s.route(m, bank) {
		case routeUnavailable:
			continue
		case routeInstant:
			o.Instant = append(o.Instant, m)
		}
		o.Methods = append(o.Methods, m)
	}
	switch {
	case s.stripe != nil:
		o.Mode, o.ConfiguredBy = DepositModeStripe, configuredByStripe
	case s.demo:
		o.Mode, o.ConfiguredBy = DepositModeDemo, configuredByDemo
	case bank:
		o.Mode, o.ConfiguredBy = DepositModeManual, configuredByBank
	default:
		o.Mode, o.ConfiguredBy = DepositModeNone, configuredByNone
	}
	if bank && o.Mode != DepositModeManual {
		o.ConfiguredBy += " " + configuredByBank
	}
	return o, nil
}

// depositRoute returns how a deposit by method is paid, or why it cannot be.
// Returns unavailable when no method is configured and invalid when method
// is not one of those that are.
func (s *Service) depositRoute(ctx context.Context, method string) (depositRoute, error) {
	bank, err := s.bankTransferEnabled(ctx)
	if err != nil {
		return routeUnavailable, err
	}
	if r := s.route(method, bank); r != routeUnavailable {
		return r, nil
	}
	var labels []string
	for _, m := range PaymentMethods {
		if s.route(m, bank) != routeUnavailable {
			labels = append(labels, methodLabel(m))
		}
	}
	if len(labels) == 0 {
		return routeUnavailable, apperr.New(apperr.Unavailable, "Deposits are unavailable: no payment method "+
			"is configured on this server. Nothing was charged; please contact support.")
	}
	return routeUnavailable, apperr.New(apperr.Invalid, "Deposits by %s are not available. Please choose %s.",
		methodLabel(method), strings.Join(labels, " or "))
}

// PendingManualDeposits returns the bank-transfer deposits waiting for an
// admin, oldest first.
func (s *Service) PendingManualDeposits(ctx context.Context) ([]Transaction, error) {
	txs := []Transaction{}
	if err := s.db.Bun.NewSelect().Model(&txs).Where("type = ?", TypeDeposit).Where("status = ?", StatusPending).
		Where("payment_method = ?", MethodBankTransfer).Where("provider_ref IS NULL").
		Order("id").Limit(MaxPage).Scan(ctx); err != nil {
		return nil, fmt.Errorf("billing: pending manual deposits: %w", err)
	}
	return txs, nil
}

// ReviewDeposit confirms (approve) or rejects a pending bank-transfer
// deposit for admin adminID, once, with an audit entry in the same
// transaction. A confirmed deposit credits the wallet and mails the
// receipt; a rejected one leaves the wallet as it is. Repeating the same
// decision changes nothing. Returns not_found for an unknown deposit and
// conflict for one that is not a bank transfer or was decided otherwise.
func (s *Service) ReviewDeposit(ctx context.Context, adminID, transactionID int64, approve bool) (*Transaction, error) {
	var out *Transaction
	err := s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		t := new(Transaction)
		err := tx.NewSelect().Model(t).Where("id = ?", transactionID).Where("type = ?", TypeDeposit).Scan(ctx)
		if errors.Is(err, sql.ErrNoRows) {
			return apperr.New(apperr.NotFound, "Deposit not found")
		}
		if err != nil {
			return err
		}
		if t.PaymentMethod != MethodBankTransfer || t.ProviderRef != "" {
			return apperr.New(apperr.Conflict, "Only bank transfer deposits are confirmed by an admin")
		}
		before := depositState(t)
		action, changed := audit.ActionDepositConfirm, false
		if approve {
			if t, changed, err = s.completeDeposit(ctx, tx, t.ID); err != nil {
				if apperr.Code(err) == apperr.Conflict {
					return apperr.New(apperr.Conflict, "This deposit was rejected and cannot be confirmed")
				}
				return err
			}
		} else {
			action = audit.ActionDepositReject
			res, err := tx.NewUpdate().Model((*Transaction)(nil)).Set("status = ?", StatusFailed).
				Where("id = ?", t.ID).Where("status = ?", StatusPending).Exec(ctx)
			if err != nil {
				return err
			}
			if n, _ := res.RowsAffected(); n == 1 {
				t.Status, changed = StatusFailed, true
			} else if err := tx.NewSelect().Model(t).Where("id = ?", t.ID).Scan(ctx); err != nil {
				return err
			} else if t.Status == StatusCompleted {
				return apperr.New(apperr.Conflict, "This deposit was confirmed and cannot be rejected")
			}
		}
		out = t
		if !changed {
			return nil
		}
		return audit.Record(ctx, tx, audit.Entry{ActorID: adminID, Action: action, TargetType: "deposit",
			TargetID: audit.ID(t.ID), Before: before, After: depositState(t)})
	})
	if err != nil {
		return nil, fmt.Errorf("billing: review deposit %d: %w", transactionID, err)
	}
	return out, nil
}

// depositState is a deposit as the audit log records it.
func depositState(t *Transaction) map[string]any {
	return map[string]any{"userId": t.UserID, "amount": money.Format(t.AmountCents), "method": t.PaymentMethod,
		"status": t.Status}
}
