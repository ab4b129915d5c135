package api

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/billing"
)

type paymentConfigBody struct {
	Mode           string `json:"mode" enum:"stripe,demo,none" doc:"stripe when a Stripe key is configured; demo simulates card payments (demo payments); none: card payments are unavailable"`
	PublishableKey string `json:"publishableKey" doc:"Stripe's publishable key for Stripe.js; empty in demo mode"`
	TestMode       bool   `json:"testMode" doc:"Test payments through POST /api/payments/confirm-test are allowed"`
}

type PaymentConfigOutput struct {
	Body envelope[paymentConfigBody]
}

type CreatePaymentIntentInput struct {
	Body struct {
		Amount      float64        `json:"amount" doc:"Dollars, at least 0.50 and at most 10000"`
		ProductName string         `json:"productName,omitempty" maxLength:"200" doc:"What is paid for"`
		Metadata    map[string]any `json:"metadata,omitempty" doc:"Sent to the payment provider as text values"`
	}
}

type paymentIntentBody struct {
	ClientSecret    string `json:"clientSecret" doc:"Confirms the payment in the browser (Stripe.js) or through the test path"`
	PaymentIntentID string `json:"paymentIntentId"`
	Mode            string `json:"mode" enum:"stripe,demo"`
	PublishableKey  string `json:"publishableKey"`
}

type CreatePaymentIntentOutput struct {
	Body envelope[paymentIntentBody]
}

type ConfirmTestPaymentInput struct {
	Body struct {
		ClientSecret    string `json:"clientSecret,omitempty" doc:"The intent's client secret, or give paymentIntentId"`
		PaymentIntentID string `json:"paymentIntentId,omitempty"`
		CardNumber      string `json:"cardNumber" minLength:"1" maxLength:"30" doc:"A test card number, e.g. 4242424242424242"`
	}
}

type paymentOutcomeBody struct {
	Status  string `json:"status" enum:"succeeded,failed"`
	Message string `json:"message" doc:"The decline reason, or a thank-you"`
}

type ConfirmTestPaymentOutput struct {
	Body envelope[paymentOutcomeBody]
}

type StripeWebhookInput struct {
	Signature string `header:"Stripe-Signature" doc:"Stripe's signature of the body"`
	RawBody   []byte `contentType:"application/json"`
}

type webhookBody struct {
	Received  bool `json:"received"`
	Duplicate bool `json:"duplicate" doc:"The event was received before; nothing more happens"`
}

type StripeWebhookOutput struct {
	Body webhookBody
}

// paymentHandlers are the handlers of card payments and Stripe's webhook.
type paymentHandlers struct {
	wallets *billing.Service
}

func addPaymentRoutes(a huma.API, wallets *billing.Service) {
	h := paymentHandlers{wallets}
	register(a, accessPublic, huma.Operation{
		OperationID: "payments-config", Method: http.MethodGet, Path: "/api/payments/config", Tags: []string{"Payments"},
		Summary: "How card payments run: through Stripe or simulated (demo)",
	}, h.paymentConfig)

	register(a, accessAccount, huma.Operation{
		OperationID: "create-payment-intent", Method: http.MethodPost, Path: "/api/create-payment-intent",
		Tags: []string{"Payments"}, Summary: "Start a card payment",
		Description: "Creates a Stripe PaymentIntent (amount in cents, USD) whose client secret the browser " +
			"confirms. In demo mode the intent and its secret are simulated (pi_demo_...).",
		Errors: []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusUnprocessableEntity},
	}, h.createPaymentIntent)

	register(a, accessAccount, huma.Operation{
		OperationID: "payments-confirm-test", Method: http.MethodPost, Path: "/api/payments/confirm-test",
		Tags: []string{"Payments"}, Summary: "Pay with a test card, without Stripe.js",
		Description: "The server-side test path of the payment demo, for browsers that cannot load Stripe.js. " +
			"In demo mode the outcome follows Stripe's test card numbers; with a Stripe test key the intent is " +
			"confirmed through Stripe's API with the matching test payment method; with a live key it is refused.",
		Errors: []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound, http.StatusConflict,
			http.StatusUnprocessableEntity},
	}, h.confirmTestPayment)

	register(a, accessPublic, huma.Operation{
		OperationID: "stripe-webhook", Method: http.MethodPost, Path: "/api/webhooks/stripe",
		Tags: []string{"Payments"}, Summary: "Stripe webhook endpoint",
		Description: "Receives Stripe events signed with the webhook secret. Each event is stored once and " +
			"processed in the background: payment_intent.succeeded completes the deposit it pays, " +
			"payment_intent.payment_failed marks it failed. A replayed event changes nothing.",
		Errors: []int{http.StatusBadRequest, http.StatusNotFound},
		// The body is checked by its signature, byte for byte, not by a schema.
		SkipValidateBody: true,
		// huma limits only operations with a Body field by default; a raw
		// body would otherwise be read whole, however large.
		MaxBodyBytes: maxBodyBytes,
	}, h.stripeWebhook)
}

// paymentConfig says how card payments run: through Stripe, simulated, or not at all.
func (h paymentHandlers) paymentConfig(ctx context.Context, _ *struct{}) (*PaymentConfigOutput, error) {
	mode := h.wallets.PaymentMode()
	return &PaymentConfigOutput{Body: ok(paymentConfigBody{Mode: mode, PublishableKey: h.wallets.PublishableKey(),
		TestMode: h.wallets.TestPaymentsAllowed()})}, nil
}

// createPaymentIntent starts a card payment for the signed-in account.
func (h paymentHandlers) createPaymentIntent(ctx context.Context, in *CreatePaymentIntentInput) (*CreatePaymentIntentOutput, error) {
	u := sessionUser(ctx)
	if err := u.MayTransact(); err != nil { // email verified
		return nil, fail(ctx, err)
	}
	cents, err := billing.AmountCents(in.Body.Amount)
	if err != nil {
		return nil, fail(ctx, err)
	}
	md := make(map[string]string, len(in.Body.Metadata))
	for k, v := range in.Body.Metadata {
		if s, isString := v.(string); isString {
			md[k] = s
		} else if b, err := json.Marshal(v); err == nil {
			md[k] = string(b)
		}
	}
	intent, err := h.wallets.CreatePaymentIntent(ctx, u.ID, cents, in.Body.ProductName, md)
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &CreatePaymentIntentOutput{Body: ok(paymentIntentBody{ClientSecret: intent.ClientSecret,
		PaymentIntentID: intent.ID, Mode: intent.Mode, PublishableKey: h.wallets.PublishableKey()})}, nil
}

// confirmTestPayment pays one of the signed-in account's payment intents with a test card.
func (h paymentHandlers) confirmTestPayment(ctx context.Context, in *ConfirmTestPaymentInput) (*ConfirmTestPaymentOutput, error) {
	u := sessionUser(ctx)
	ref := in.Body.PaymentIntentID
	if ref == "" {
		ref = in.Body.ClientSecret
	}
	if ref == "" {
		return nil, fail(ctx, apperr.New(apperr.Invalid, "Give clientSecret or paymentIntentId"))
	}
	out, err := h.wallets.ConfirmTestPayment(ctx, u.ID, ref, in.Body.CardNumber)
	if err != nil {
		return nil, fail(ctx, err)
	}
	body := paymentOutcomeBody{Status: "succeeded", Message: out.Message}
	if !out.Succeeded {
		body.Status = "failed"
	}
	return &ConfirmTestPaymentOutput{Body: ok(body)}, nil
}

// stripeWebhook receives a signed Stripe event and stores it once for processing.
func (h paymentHandlers) stripeWebhook(ctx context.Context, in *StripeWebhookInput) (*StripeWebhookOutput, error) {
	dup, err := h.wallets.ReceiveStripeWebhook(ctx, in.RawBody, in.Signature)
	if errors.Is(err, billing.ErrBadSignature) {
		return nil, &envelopeError{status: http.StatusBadRequest, Message: "Invalid Stripe signature"}
	}
	if apperr.Code(err) == apperr.Invalid {
		return nil, &envelopeError{status: http.StatusBadRequest, Message: apperr.Message(err)}
	}
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &StripeWebhookOutput{Body: webhookBody{Received: true, Duplicate: dup}}, nil
}
