package billing

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/stripe/stripe-go/v85"
)

// StripeConfig configures the card payment provider.
type StripeConfig struct {
	SecretKey      string // sk_test_... or sk_live_...; empty: demo mode
	PublishableKey string // pk_..., handed to the web app for Stripe.js
	WebhookSecret  string // whsec_..., verifies webhook signatures
	// APIURL overrides Stripe's API address (stripe-mock in tests and CI).
	APIURL string
	// HTTPClient is optional.
	HTTPClient *http.Client
}

// Stripe talks to Stripe's API. A nil *Stripe means demo mode: no provider.
type Stripe struct {
	cfg    StripeConfig
	client *stripe.Client
}

// NewStripe returns the provider, or nil when cfg has no secret key.
func NewStripe(cfg StripeConfig) *Stripe {
	if cfg.SecretKey == "" {
		return nil
	}
	httpClient := cfg.HTTPClient
	if httpClient == nil {
		httpClient = &http.Client{Timeout: 30 * time.Second}
	}
	bc := &stripe.BackendConfig{
		HTTPClient: httpClient,
		// Errors reach our own log through the returned error; the library's
		// logger would print them a second time on stderr.
		LeveledLogger: &stripe.LeveledLogger{Level: stripe.LevelNull},
	}
	if cfg.APIURL != "" {
		bc.URL = stripe.String(strings.TrimRight(cfg.APIURL, "/"))
	}
	backends := &stripe.Backends{
		API:         stripe.GetBackendWithConfig(stripe.APIBackend, bc),
		Connect:     stripe.GetBackendWithConfig(stripe.ConnectBackend, bc),
		Uploads:     stripe.GetBackendWithConfig(stripe.UploadsBackend, bc),
		MeterEvents: stripe.GetBackendWithConfig(stripe.MeterEventsBackend, bc),
	}
	return &Stripe{cfg: cfg, client: stripe.NewClient(cfg.SecretKey, stripe.WithBackends(backends))}
}

// TestMode reports whether the secret key is a test key, which allows the
// server-side test confirmation.
func (s *Stripe) TestMode() bool { return strings.HasPrefix(s.cfg.SecretKey, "sk_test_") }

// PublishableKey is the key the web app gives Stripe.js.
func (s *Stripe) PublishableKey() string { return s.cfg.PublishableKey }

// createIntent creates a card PaymentIntent of amountCents US cents.
// idempotencyKey makes a retry return the same intent.
func (s *Stripe) createIntent(ctx context.Context, amountCents int64, description string,
	metadata map[string]string, idempotencyKey string) (*stripe.PaymentIntent, error) {
	p := &stripe.PaymentIntentCreateParams{
		Amount:   stripe.Int64(amountCents),
		Currency: stripe.String(string(stripe.CurrencyUSD)),
		// Cards only: they confirm without a redirect, so the server-side
		// test path needs no return address.
		PaymentMethodTypes: []*string{stripe.String("card")},
		Metadata:           metadata,
	}
	if description != "" {
		p.Description = stripe.String(description)
	}
	if idempotencyKey != "" {
		p.SetIdempotencyKey(idempotencyKey)
	}
	pi, err := s.client.V1PaymentIntents.Create(ctx, p)
	if err != nil {
		return nil, fmt.Errorf("stripe: create payment intent: %w", err)
	}
	return pi, nil
}

func (s *Stripe) retrieveIntent(ctx context.Context, id string) (*stripe.PaymentIntent, error) {
	pi, err := s.client.V1PaymentIntents.Retrieve(ctx, id, nil)
	if err != nil {
		return nil, fmt.Errorf("stripe: retrieve payment intent %s: %w", id, err)
	}
	return pi, nil
}

// confirmIntent confirms intent id with one of Stripe's test payment methods
// (pm_card_visa, ...). A declined card is an outcome, not an error: it
// returns succeeded false and the decline message.
func (s *Stripe) confirmIntent(ctx context.Context, id, paymentMethod string) (succeeded bool, message string, err error) {
	pi, err := s.client.V1PaymentIntents.Confirm(ctx, id, &stripe.PaymentIntentConfirmParams{
		PaymentMethod: stripe.String(paymentMethod),
	})
	var se *stripe.Error
	if errors.As(err, &se) && se.Type == stripe.ErrorTypeCard {
		return false, se.Msg, nil
	}
	if err != nil {
		return false, "", fmt.Errorf("stripe: confirm payment intent %s: %w", id, err)
	}
	switch pi.Status {
	case stripe.PaymentIntentStatusSucceeded, stripe.PaymentIntentStatusProcessing:
		return true, "", nil
	case stripe.PaymentIntentStatusRequiresAction:
		return false, "This card requires authentication, which the server's test path cannot complete.", nil
	}
	if pi.LastPaymentError != nil && pi.LastPaymentError.Msg != "" {
		return false, pi.LastPaymentError.Msg, nil
	}
	return false, fmt.Sprintf("The payment was not completed (status %s).", pi.Status), nil
}

// TestCard is one of Stripe's test card numbers and what paying with it does.
type TestCard struct {
	Number        string
	Brand         string
	PaymentMethod string // Stripe's test payment method for the same card
	Decline       string // empty when the payment succeeds
}

// TestCards are the cards the payment demo lists; their outcomes follow
// Stripe's test mode (https://docs.stripe.com/testing).
var TestCards = []TestCard{
	{"4242424242424242", "Visa", "pm_card_visa", ""},
	{"5555555555554444", "Mastercard", "pm_card_mastercard", ""},
	{"378282246310005", "American Express", "pm_card_amex", ""},
	{"4000000000000002", "Visa", "pm_card_chargeDeclined", "Your card was declined."},
	{"4000000000009995", "Visa", "pm_card_chargeDeclinedInsufficientFunds", "Your card has insufficient funds."},
	{"4000000000009987", "Visa", "pm_card_chargeDeclinedLostCard", "Your card was declined."},
	{"4000000000000069", "Visa", "pm_card_chargeDeclinedExpiredCard", "Your card has expired."},
	{"4000000000000127", "Visa", "pm_card_chargeDeclinedIncorrectCvc", "Your card's security code is incorrect."},
	{"4000000000000119", "Visa", "pm_card_chargeDeclinedProcessingError",
		"An error occurred while processing your card. Try again in a little bit."},
}

// Messages for cards outside the list, as Stripe's test mode words them.
const (
	msgInvalidNumber = "Your card number is invalid."
	msgLiveCard      = "Your card was declined. Your request was in test mode, but used a non test card. Use one of the listed test cards."
)

// testCardOutcome returns the test card of number (spaces and dashes
// ignored), or the decline a test-mode payment with another number gets.
func testCardOutcome(number string) (card TestCard, known bool, decline string) {
	digits := strings.NewReplacer(" ", "", "-", "").Replace(number)
	for _, c := range TestCards {
		if c.Number == digits {
			return c, true, c.Decline
		}
	}
	if !luhnValid(digits) {
		return TestCard{}, false, msgInvalidNumber
	}
	return TestCard{}, false, msgLiveCard
}

func luhnValid(digits string) bool {
	if len(digits) < 12 || len(digits) > 19 {
		return false
	}
	sum := 0
	for i := range len(digits) {
		c := digits[len(digits)-1-i]
		if c < '0' || c > '9' {
			return false
		}
		d := int(c - '0')
		if i%2 == 1 {
			if d *= 2; d > 9 {
				d -= 9
			}
		}
		sum += d
	}
	return sum%10 == 0
}
