package billing_test

import (
	"context"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/billing"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/notify"
)

// bankTransferOn is an admin who has enabled the bank transfer gateway.
func bankTransferOn(context.Context) (bool, error) { return true, nil }

// TestDepositsNeedAProvider: without demo payments, Stripe or an enabled
// bank transfer, no deposit is recorded, let alone credited (finding 7: a
// fresh production server credited $10,000 at once).
func TestDepositsNeedAProvider(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		alice := user(t, d, "alice")
		none := billing.NewService(d, billing.Options{})
		o, err := none.DepositOptions(ctx)
		require.NoError(t, err)
		require.Equal(t, billing.DepositOptions{Mode: billing.DepositModeNone, Methods: []string{}, Instant: []string{},
			ConfiguredBy: "No payment method is configured: set --stripe-secret-key on the server, " +
				"or enable the Bank Transfer payment gateway."}, o)
		require.Equal(t, billing.ModeNone, none.PaymentMode())
		for _, m := range billing.PaymentMethods {
			_, _, err := none.DepositOnce(ctx, alice, 1_000_000, m, "key-"+m)
			require.Equal(t, apperr.Unavailable, apperr.Code(err), m)
			require.Equal(t, "Deposits are unavailable: no payment method is configured on this server. "+
				"Nothing was charged; please contact support.", apperr.Message(err))
		}
		_, err = none.CreatePaymentIntent(ctx, alice, 1000, "x", nil)
		require.Equal(t, apperr.Unavailable, apperr.Code(err), "no simulated card payments outside demo mode")
		require.Zero(t, dbtest.Count(t, d, "SELECT count(*) FROM transactions"), "a refused deposit records nothing")
		require.Zero(t, dbtest.Count(t, d, "SELECT count(*) FROM idempotency_keys"))
		w, err := none.Wallet(ctx, alice)
		require.NoError(t, err)
		require.Zero(t, w.BalanceCents)

		// An enabled bank transfer: only that method, and it waits.
		manual := billing.NewService(d, billing.Options{BankTransfer: bankTransferOn})
		o, err = manual.DepositOptions(ctx)
		require.NoError(t, err)
		require.Equal(t, billing.DepositOptions{Mode: billing.DepositModeManual, Methods: []string{"bank_transfer"},
			Instant: []string{}, ConfiguredBy: "Bank transfers are enabled by the Bank Transfer payment gateway."}, o)
		_, _, err = manual.Deposit(ctx, alice, 5000, "")
		require.Equal(t, apperr.Invalid, apperr.Code(err))
		require.Equal(t, "Deposits by credit card are not available. Please choose bank transfer.", apperr.Message(err))
		tx, w, err := manual.Deposit(ctx, alice, 5000, "bank_transfer")
		require.NoError(t, err)
		require.Equal(t, billing.StatusPending, tx.Status)
		require.Zero(t, w.BalanceCents)

		// Demo payments pay cards at once; an enabled bank transfer still
		// waits for an admin; PayPal and UPI, with no provider, are refused.
		demo := billing.NewService(d, billing.Options{DemoPayments: true, BankTransfer: bankTransferOn})
		o, err = demo.DepositOptions(ctx)
		require.NoError(t, err)
		require.Equal(t, billing.DepositModeDemo, o.Mode)
		require.Equal(t, "Demo payments are server configuration: --demo-payments (or --demo). "+
			"Bank transfers are enabled by the Bank Transfer payment gateway.", o.ConfiguredBy)
		require.Equal(t, []string{"credit_card", "bank_transfer"}, o.Methods)
		require.Equal(t, []string{"credit_card"}, o.Instant)
		for _, m := range []string{"paypal", "upi"} {
			_, _, err = demo.DepositOnce(ctx, alice, 100, m, "demo-"+m)
			require.Equal(t, apperr.Invalid, apperr.Code(err), m)
		}
		_, _, err = demo.Deposit(ctx, alice, 100, "paypal")
		require.Equal(t, "Deposits by PayPal are not available. Please choose credit card or bank transfer.", apperr.Message(err))
		tx, _, err = demo.Deposit(ctx, alice, 100, "bank_transfer")
		require.NoError(t, err)
		require.Equal(t, billing.StatusPending, tx.Status, "an enabled bank transfer waits for an admin even in demo mode")
		audit(t, none)

		// Stripe's keys come from the server's flags, whatever the gateways hold.
		card := billing.NewService(d, billing.Options{Stripe: billing.NewStripe(billing.StripeConfig{SecretKey: "sk_test_flags"})})
		o, err = card.DepositOptions(ctx)
		require.NoError(t, err)
		require.Equal(t, billing.DepositModeStripe, o.Mode)
		require.Contains(t, o.ConfiguredBy, "--stripe-secret-key")
		require.NotContains(t, o.ConfiguredBy, "Bank Transfer", "bank transfers are not enabled")
	})
}

// TestReviewDeposit: an admin confirms a bank transfer once, however many
// confirmations race; the receipt goes out once and the audit log has one
// entry. Rejections credit nothing, and decisions do not flip.
func TestReviewDeposit(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s := billing.NewService(d, billing.Options{BankTransfer: bankTransferOn})
		var receipts atomic.Int32
		s.Notify = func(_ context.Context, _ *db.Tx, m notify.Message) error {
			require.Equal(t, notify.KindDepositReceipt, m.Kind)
			receipts.Add(1)
			return nil
		}
		alice, admin := user(t, d, "alice"), user(t, d, "root")
		tx, _, err := s.Deposit(ctx, alice, 2500, "bank_transfer")
		require.NoError(t, err)
		other, _, err := s.Deposit(ctx, alice, 700, "bank_transfer")
		require.NoError(t, err)
		pending, err := s.PendingManualDeposits(ctx)
		require.NoError(t, err)
		require.Len(t, pending, 2)
		require.Equal(t, tx.ID, pending[0].ID)

		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() {
				got, err := s.ReviewDeposit(context.Background(), admin, tx.ID, true)
				require.NoError(t, err)
				require.Equal(t, billing.StatusCompleted, got.Status)
			})
		}
		wg.Wait()
		w, err := s.Wallet(ctx, alice)
		require.NoError(t, err)
		require.EqualValues(t, 2500, w.BalanceCents, "credited once")
		require.EqualValues(t, 1, receipts.Load(), "one receipt")
		require.Equal(t, 1, dbtest.Count(t, d, "SELECT count(*) FROM audit_log WHERE action = 'deposit.confirm' AND target_id = ?",
			strconv.FormatInt(tx.ID, 10)))

		_, err = s.ReviewDeposit(ctx, admin, tx.ID, false)
		require.Equal(t, apperr.Conflict, apperr.Code(err))
		require.Equal(t, "This deposit was confirmed and cannot be rejected", apperr.Message(err))

		got, err := s.ReviewDeposit(ctx, admin, other.ID, false)
		require.NoError(t, err)
		require.Equal(t, billing.StatusFailed, got.Status)
		_, err = s.ReviewDeposit(ctx, admin, other.ID, true)
		require.Equal(t, apperr.Conflict, apperr.Code(err))
		require.Equal(t, "This deposit was rejected and cannot be confirmed", apperr.Message(err))
		_, err = s.ReviewDeposit(ctx, admin, 999999, true)
		require.Equal(t, apperr.NotFound, apperr.Code(err))

		demo := billing.NewService(d, billing.Options{DemoPayments: true})
		card, _, err := demo.Deposit(ctx, alice, 100, "credit_card")
		require.NoError(t, err)
		_, err = s.ReviewDeposit(ctx, admin, card.ID, true)
		require.Equal(t, apperr.Conflict, apperr.Code(err), "only bank transfers are an admin's to confirm")

		pending, err = s.PendingManualDeposits(ctx)
		require.NoError(t, err)
		require.Empty(t, pending)
		w, err = s.Wallet(ctx, alice)
		require.NoError(t, err)
		require.EqualValues(t, 2600, w.BalanceCents)
		require.Equal(t, 2, dbtest.Count(t, d, "SELECT count(*) FROM audit_log WHERE action LIKE 'deposit.%'"))
		audit(t, s)
	})
}
