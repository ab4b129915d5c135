package billing_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/stripe/stripe-go/v85"
	"github.com/stripe/stripe-go/v85/webhook"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/billing"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/stripemock"
)

const webhookSecret = "whsec_test_secret"

// stripeEvent is a webhook payload as Stripe sends it for a PaymentIntent.
func stripeEvent(t *testing.T, id, typ, intentID string, amountCents int64) []byte {
	t.Helper()
	pi := map[string]any{"id": intentID, "object": "payment_intent", "amount": amountCents, "currency": "usd",
		"status": "succeeded"}
	if typ == "payment_intent.payment_failed" {
		pi["status"] = "requires_payment_method"
		pi["last_payment_error"] = map[string]any{"type": "card_error", "code": "card_declined",
			"message": "Your card was declined."}
	}
	b, err := json.Marshal(map[string]any{"id": id, "object": "event", "api_version": stripe.APIVersion,
		"type": typ, "created": time.Now().Unix(), "livemode": false, "data": map[string]any{"object": pi}})
	require.NoError(t, err)
	return b
}

func signed(payload []byte, secret string) string {
	return webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: secret}).Header
}

// stripeSetup is a billing service on Stripe (stripe-mock) with webhooks,
// over a database whose jobs are queued but worked by the test.
func stripeSetup(t *testing.T, d *db.DB, mockURL string) *billing.Service {
	t.Helper()
	require.NoError(t, d.SetupJobs(db.JobsConfig{}))
	return billing.NewService(d, billing.Options{Stripe: billing.NewStripe(billing.StripeConfig{
		SecretKey: "sk_test_123", PublishableKey: "pk_test_123", WebhookSecret: webhookSecret, APIURL: mockURL})})
}

func TestDemoPayments(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s := billing.NewService(d, billing.Options{DemoPayments: true})
		ctx := context.Background()
		alice, bob := user(t, d, "alice"), user(t, d, "bob")
		require.Equal(t, billing.ModeDemo, s.PaymentMode())

		for cents, msg := range map[int64]string{0: "Amount must be greater than 0", 49: "The minimum payment is $0.50",
			1_000_001: "The maximum payment is $10,000.00"} {
			_, err := s.CreatePaymentIntent(ctx, alice, cents, "Demo", nil)
			require.Equal(t, apperr.Invalid, apperr.Code(err))
			require.Equal(t, msg, apperr.Message(err))
		}

		outcomes := map[string]string{
			"4242 4242 4242 4242": "",
			"4000000000000002":    "Your card was declined.",
			"4000000000009995":    "Your card has insufficient funds.",
			"4000000000000069":    "Your card has expired.",
			"4000000000000127":    "Your card's security code is incorrect.",
			"1234567812345678":    "Your card number is invalid.",
			"4111111111111111":    "Your card was declined. Your request was in test mode, but used a non test card. Use one of the listed test cards.",
		}
		for card, decline := range outcomes {
			in, err := s.CreatePaymentIntent(ctx, alice, 1000, "Demo", map[string]string{"source": "test"})
			require.NoError(t, err)
			require.Regexp(t, `^pi_demo_[0-9a-f]+_secret_[0-9a-f]+$`, in.ClientSecret)
			out, err := s.ConfirmTestPayment(ctx, alice, in.ClientSecret, card)
			require.NoError(t, err)
			require.Equal(t, decline == "", out.Succeeded, card)
			if decline != "" {
				require.Equal(t, decline, out.Message, card)
				// A declined payment may be tried again with another card.
				out, err = s.ConfirmTestPayment(ctx, alice, in.ID, "4242424242424242")
				require.NoError(t, err)
				require.True(t, out.Succeeded)
			}
			_, err = s.ConfirmTestPayment(ctx, alice, in.ID, "4242424242424242")
			require.Equal(t, apperr.Conflict, apperr.Code(err), "paid once")
		}

		in, err := s.CreatePaymentIntent(ctx, alice, 1000, "Demo", nil)
		require.NoError(t, err)
		_, err = s.ConfirmTestPayment(ctx, bob, in.ClientSecret, "4242424242424242")
		require.Equal(t, apperr.NotFound, apperr.Code(err), "another user's payment")

		// Demo deposits still complete at once, and webhooks are off.
		tx, w, err := s.Deposit(ctx, alice, 2000, "credit_card")
		require.NoError(t, err)
		require.Equal(t, billing.StatusCompleted, tx.Status)
		require.Empty(t, tx.ClientSecret)
		require.Equal(t, int64(2000), w.BalanceCents)
		_, err = s.ReceiveStripeWebhook(ctx, []byte(`{}`), "")
		require.Equal(t, apperr.NotFound, apperr.Code(err))
		audit(t, s)
	})
}

func TestStripeDepositCompletesOnceByWebhook(t *testing.T) {
	t.Parallel()
	mock := stripemock.Start(t)
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s := stripeSetup(t, d, mock)
		ctx := context.Background()
		alice := user(t, d, "alice")
		require.Equal(t, billing.ModeStripe, s.PaymentMode())
		require.Equal(t, "pk_test_123", s.PublishableKey())

		tx, w, err := s.Deposit(ctx, alice, 2500, "credit_card")
		require.NoError(t, err)
		require.Equal(t, billing.StatusPending, tx.Status)
		require.Regexp(t, `^pi_`, tx.ProviderRef)
		require.Contains(t, tx.ClientSecret, "_secret_")
		require.Zero(t, w.BalanceCents, "nothing is credited before Stripe confirms")
		require.Equal(t, 1, dbtest.Count(t, d, "SELECT COUNT(*) FROM transactions WHERE provider_ref = ?", tx.ProviderRef))

		// A wrong signature, a missing one, or a stale one: 400, nothing stored.
		ok := stripeEvent(t, "evt_ok", "payment_intent.succeeded", tx.ProviderRef, 2500)
		for _, sig := range []string{"", "t=1,v1=deadbeef", signed(ok, "whsec_other"),
			webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: ok, Secret: webhookSecret,
				Timestamp: time.Now().Add(-time.Hour)}).Header} {
			_, err := s.ReceiveStripeWebhook(ctx, ok, sig)
			require.ErrorIs(t, err, billing.ErrBadSignature)
		}
		require.Zero(t, dbtest.Count(t, d, "SELECT COUNT(*) FROM payment_events"))

		// The event is stored once and its job queued in the same transaction.
		dup, err := s.ReceiveStripeWebhook(ctx, ok, signed(ok, webhookSecret))
		require.NoError(t, err)
		require.False(t, dup)
		dup, err = s.ReceiveStripeWebhook(ctx, ok, signed(ok, webhookSecret))
		require.NoError(t, err)
		require.True(t, dup, "a replayed event id does nothing")
		require.Equal(t, 1, dbtest.Count(t, d, "SELECT COUNT(*) FROM payment_events"))
		require.Equal(t, 1, dbtest.Count(t, d, "SELECT COUNT(*) FROM river_job WHERE kind = ?", billing.StripeEventArgs{}.Kind()))

		// Worked twice (a retry): credited once.
		require.NoError(t, s.ProcessStripeEvent(ctx, "evt_ok"))
		require.NoError(t, s.ProcessStripeEvent(ctx, "evt_ok"))
		w, err = s.Wallet(ctx, alice)
		require.NoError(t, err)
		require.Equal(t, int64(2500), w.BalanceCents)

		// Two distinct events for the same payment racing: credited once.
		tx2, _, err := s.Deposit(ctx, alice, 1000, "credit_card")
		require.NoError(t, err)
		var wg sync.WaitGroup
		for _, id := range []string{"evt_a", "evt_b", "evt_c"} {
			p := stripeEvent(t, id, "payment_intent.succeeded", tx2.ProviderRef, 1000)
			_, err := s.ReceiveStripeWebhook(ctx, p, signed(p, webhookSecret))
			require.NoError(t, err)
		}
		errs := make(chan error, 6)
		for _, id := range []string{"evt_a", "evt_b", "evt_c", "evt_a", "evt_b", "evt_c"} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs <- s.ProcessStripeEvent(ctx, id)
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			require.NoError(t, err)
		}
		w, err = s.Wallet(ctx, alice)
		require.NoError(t, err)
		require.Equal(t, int64(3500), w.BalanceCents)
		require.Equal(t, 0, dbtest.Count(t, d, "SELECT COUNT(*) FROM payment_events WHERE processed_at IS NULL"))
		audit(t, s)

		// Unknown types are stored and ignored.
		other := []byte(`{"id":"evt_other","object":"event","api_version":"` + stripe.APIVersion +
			`","type":"customer.created","data":{"object":{"id":"cus_1","object":"customer"}}}`)
		_, err = s.ReceiveStripeWebhook(ctx, other, signed(other, webhookSecret))
		require.NoError(t, err)
		require.NoError(t, s.ProcessStripeEvent(ctx, "evt_other"))
		audit(t, s)
	})
}

func TestStripeDepositFailsByWebhook(t *testing.T) {
	t.Parallel()
	mock := stripemock.Start(t)
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s := stripeSetup(t, d, mock)
		ctx := context.Background()
		alice := user(t, d, "alice")
		tx, _, err := s.Deposit(ctx, alice, 4000, "credit_card")
		require.NoError(t, err)

		p := stripeEvent(t, "evt_fail", "payment_intent.payment_failed", tx.ProviderRef, 4000)
		_, err = s.ReceiveStripeWebhook(ctx, p, signed(p, webhookSecret))
		require.NoError(t, err)
		require.NoError(t, s.ProcessStripeEvent(ctx, "evt_fail"))
		txs, err := s.Transactions(ctx, alice)
		require.NoError(t, err)
		require.Equal(t, billing.StatusFailed, txs[0].Status)
		w, err := s.Wallet(ctx, alice)
		require.NoError(t, err)
		require.Zero(t, w.BalanceCents)
		audit(t, s)

		// The payer tries another card and it succeeds: the money was taken,
		// so the deposit completes.
		p = stripeEvent(t, "evt_retry", "payment_intent.succeeded", tx.ProviderRef, 4000)
		_, err = s.ReceiveStripeWebhook(ctx, p, signed(p, webhookSecret))
		require.NoError(t, err)
		require.NoError(t, s.ProcessStripeEvent(ctx, "evt_retry"))
		// A late failure report changes nothing.
		p = stripeEvent(t, "evt_late", "payment_intent.payment_failed", tx.ProviderRef, 4000)
		_, err = s.ReceiveStripeWebhook(ctx, p, signed(p, webhookSecret))
		require.NoError(t, err)
		require.NoError(t, s.ProcessStripeEvent(ctx, "evt_late"))
		w, err = s.Wallet(ctx, alice)
		require.NoError(t, err)
		require.Equal(t, int64(4000), w.BalanceCents)
		audit(t, s)

		// Only cards go through Stripe: PayPal has no provider here.
		_, _, err = s.Deposit(ctx, alice, 1000, "paypal")
		require.Equal(t, apperr.Invalid, apperr.Code(err))
		require.Equal(t, "Deposits by PayPal are not available. Please choose credit card.", apperr.Message(err))

		// FailDeposit on its own: pending → failed, completed → conflict.
		manual := billing.NewService(d, billing.Options{BankTransfer: bankTransferOn})
		tx3, _, err := manual.Deposit(ctx, alice, 1000, "bank_transfer")
		require.NoError(t, err)
		require.Equal(t, billing.StatusPending, tx3.Status)
		require.Empty(t, tx3.ProviderRef, "only card deposits go through Stripe")
		require.NoError(t, s.FailDeposit(ctx, tx3.ID))
		require.NoError(t, s.FailDeposit(ctx, tx3.ID))
		require.Equal(t, apperr.Conflict, apperr.Code(s.FailDeposit(ctx, tx.ID)))
		require.Equal(t, apperr.NotFound, apperr.Code(s.FailDeposit(ctx, 999999)))
	})
}

func TestStripeTestConfirmation(t *testing.T) {
	t.Parallel()
	mock := stripemock.Start(t)
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s := stripeSetup(t, d, mock)
		ctx := context.Background()
		alice := user(t, d, "alice")
		in, err := s.CreatePaymentIntent(ctx, alice, 1000, "Demo payment", map[string]string{"k": "v"})
		require.NoError(t, err)
		require.Equal(t, billing.ModeStripe, in.Mode)
		require.Regexp(t, `^pi_`, in.ID)

		// Confirmed through Stripe's API; stripe-mock answers with a fixture
		// (it does not simulate card outcomes), so only the path is checked.
		_, err = s.ConfirmTestPayment(ctx, alice, in.ID, "4000000000000002")
		require.NoError(t, err)
		// A number outside the test list never reaches Stripe.
		out, err := s.ConfirmTestPayment(ctx, alice, in.ID, "1234")
		require.NoError(t, err)
		require.False(t, out.Succeeded)
		require.Equal(t, "Your card number is invalid.", out.Message)

		live := billing.NewService(d, billing.Options{Stripe: billing.NewStripe(billing.StripeConfig{
			SecretKey: "sk_live_123", APIURL: mock})})
		_, err = live.ConfirmTestPayment(ctx, alice, in.ID, "4242424242424242")
		require.Equal(t, apperr.Forbidden, apperr.Code(err))
		require.False(t, live.TestPaymentsAllowed())
	})
}
