package billing_test

import (
	"context"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/billing"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
)

func user(t *testing.T, d *db.DB, name string) int64 {
	t.Helper()
	return dbtest.User(t, d, name, "user")
}

func audit(t *testing.T, s *billing.Service) {
	t.Helper()
	bad, err := s.Reconcile(context.Background())
	require.NoError(t, err)
	require.Empty(t, bad)
}

func TestDepositRules(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s := billing.NewService(d, billing.Options{DemoPayments: true})
		ctx := context.Background()
		alice := user(t, d, "alice")
		refused := []struct {
			cents  int64
			method string
			msg    string
		}{
			{0, "credit_card", "Amount must be greater than 0"},
			{-500, "credit_card", "Amount must be greater than 0"},
			{99, "credit_card", "The minimum deposit is $1.00"},
			{1_000_001, "credit_card", "The maximum deposit is $10,000.00"},
			{5000, "bitcoin", "Payment method must be one of credit_card, paypal, bank_transfer, upi"},
		}
		for _, tt := range refused {
			_, _, err := s.Deposit(ctx, alice, tt.cents, tt.method)
			require.Equal(t, apperr.Invalid, apperr.Code(err))
			require.Equal(t, tt.msg, apperr.Message(err))
		}
		txs, err := s.Transactions(ctx, alice)
		require.NoError(t, err)
		require.Empty(t, txs, "a refused deposit records nothing")

		tx, w, err := s.Deposit(ctx, alice, 5000, "")
		require.NoError(t, err)
		require.Equal(t, billing.StatusCompleted, tx.Status, "demo payments: completes at once")
		require.Equal(t, "credit_card", tx.PaymentMethod)
		require.Equal(t, "Deposit by credit card", tx.Description)
		require.EqualValues(t, 5000, w.BalanceCents)
		_, w, err = s.Deposit(ctx, alice, 1_000_000, "credit_card")
		require.NoError(t, err)
		require.EqualValues(t, 1_005_000, w.BalanceCents)
		audit(t, s)
	})
}

func TestPendingDepositsCompleteOnce(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s := billing.NewService(d, billing.Options{BankTransfer: bankTransferOn})
		ctx := context.Background()
		alice := user(t, d, "alice")
		tx, w, err := s.Deposit(ctx, alice, 2000, "bank_transfer")
		require.NoError(t, err)
		require.Equal(t, billing.StatusPending, tx.Status)
		require.Zero(t, w.BalanceCents, "pending money is not spendable")
		audit(t, s)

		// Providers retry their confirmations; the wallet is credited once.
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() { require.NoError(t, s.CompleteDeposit(context.Background(), tx.ID)) })
		}
		wg.Wait()
		got, err := s.Wallet(ctx, alice)
		require.NoError(t, err)
		require.EqualValues(t, 2000, got.BalanceCents)
		require.Equal(t, apperr.NotFound, apperr.Code(s.CompleteDeposit(ctx, 99999)))
		audit(t, s)
	})
}

func TestDebitNeverOverdraws(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s := billing.NewService(d, billing.Options{DemoPayments: true})
		ctx := context.Background()
		alice := user(t, d, "alice")
		_, _, err := s.Deposit(ctx, alice, 1000, "credit_card")
		require.NoError(t, err)
		charge := func(cents int64) error {
			return d.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
				_, err := s.Debit(ctx, tx, billing.Charge{UserID: alice, AmountCents: cents, Type: billing.TypeDomainRenewal,
					Description: "Renewal", What: "this renewal"})
				return err
			})
		}
		err = charge(1001)
		require.Equal(t, apperr.InsufficientFunds, apperr.Code(err))
		require.Equal(t, "Insufficient funds: this renewal costs $10.01 and your balance is $10.00. Add $0.01 to continue.", apperr.Message(err))
		require.Equal(t, &apperr.Shortfall{NeededCents: 1, BalanceCents: 1000}, apperr.ShortfallOf(err), "the numbers of the message")
		require.NoError(t, charge(1000))
		w, err := s.Wallet(ctx, alice)
		require.NoError(t, err)
		require.Zero(t, w.BalanceCents)
		// A wallet that never existed cannot be charged either.
		bob := user(t, d, "bob")
		err = d.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
			_, err := s.Debit(ctx, tx, billing.Charge{UserID: bob, AmountCents: 1, Type: billing.TypeDomainPurchase, What: "this"})
			return err
		})
		require.Equal(t, apperr.InsufficientFunds, apperr.Code(err))
		require.Equal(t, &apperr.Shortfall{NeededCents: 1, BalanceCents: 0}, apperr.ShortfallOf(err))
		// A refused debit leaves its transaction as it was, even one that
		// goes on to commit: no ledger entry without its debit.
		require.NoError(t, d.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
			_, err := s.Debit(ctx, tx, billing.Charge{UserID: alice, AmountCents: 1, Type: billing.TypeDomainRenewal, What: "this"})
			require.Equal(t, apperr.InsufficientFunds, apperr.Code(err))
			return nil
		}))
		audit(t, s)
	})
}
