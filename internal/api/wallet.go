package api

import (
	"context"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/nameport/nameport/internal/billing"
	"github.com/nameport/nameport/pkg/money"
)

type walletBody struct {
	Balance  float64 `json:"balance" doc:"Balance in dollars" example:"50"`
	Currency string  `json:"currency" example:"USD"`
}

type transactionBody struct {
	ID            int64     `json:"id"`
	Type          string    `json:"type" enum:"deposit,withdrawal,domain_purchase,domain_renewal"`
	Amount        float64   `json:"amount" doc:"Dollars; negative for debits"`
	Status        string    `json:"status" enum:"pending,completed,failed"`
	PaymentMethod string    `json:"paymentMethod" doc:"How it was paid: a deposit method, or wallet"`
	Description   string    `json:"description"`
	DomainID      *int64    `json:"domainId" doc:"The domain it paid for"`
	CreatedAt     time.Time `json:"createdAt"`
}

func toTransactionBody(t *billing.Transaction) transactionBody {
	b := transactionBody{ID: t.ID, Type: t.Type, Amount: money.Dollars(t.AmountCents), Status: t.Status,
		PaymentMethod: t.PaymentMethod, Description: t.Description, CreatedAt: t.CreatedAt}
	if t.DomainID != 0 {
		b.DomainID = &t.DomainID
	}
	return b
}

func toWalletBody(w billing.Wallet) walletBody {
	return walletBody{Balance: money.Dollars(w.BalanceCents), Currency: w.Currency}
}

type DepositInput struct {
	IdempotencyKey string `header:"Idempotency-Key" doc:"Retrying with the same key deposits once"`
	Body           struct {
		Amount        float64 `json:"amount" required:"false" doc:"Dollars, at least 1"`
		PaymentMethod string  `json:"paymentMethod,omitempty" doc:"credit_card (default), paypal, bank_transfer or upi"`
	}
}

type depositBody struct {
	Transaction transactionBody `json:"transaction"`
	Wallet      walletBody      `json:"wallet"`
	// ClientSecret is set for a card deposit paid through Stripe: the
	// browser confirms the payment with it; the deposit completes when
	// Stripe reports the payment.
	ClientSecret string `json:"clientSecret,omitempty"`
	// PaymentIntentID names that payment (Stripe's id).
	PaymentIntentID string `json:"paymentIntentId,omitempty"`
}

type DepositOutput struct {
	Body envelope[depositBody]
}

type WalletOutput struct {
	Body envelope[walletBody]
}

type TransactionListOutput struct {
	Body envelope[[]transactionBody]
}

// walletHandlers are the handlers of the signed-in account's wallet.
type walletHandlers struct {
	wallets *billing.Service
}

func addWalletRoutes(a huma.API, wallets *billing.Service) {
	h := walletHandlers{wallets}
	register(a, accessAccount, huma.Operation{
		OperationID: "wallet-get", Method: http.MethodGet, Path: "/api/wallet", Tags: []string{"Wallet"},
		Summary: "My wallet balance", Errors: []int{http.StatusUnauthorized},
	}, h.getWallet)

	register(a, accessAccount, huma.Operation{
		OperationID: "transactions-list", Method: http.MethodGet, Path: "/api/transactions", Tags: []string{"Wallet"},
		Summary: "My wallet transactions, newest first", Errors: []int{http.StatusUnauthorized},
	}, h.listTransactions)

	register(a, accessAccount, huma.Operation{
		OperationID: "wallet-deposit", Method: http.MethodPost, Path: "/api/wallet/deposit", Tags: []string{"Wallet"},
		Summary: "Add funds to my wallet",
		Description: "Only the methods GET /api/wallet/deposit-options offers are taken: a card (through Stripe, " +
			"or at once with demo payments) and a bank transfer once the admin enables it; PayPal and UPI are " +
			"refused with 422 (no provider yet). A card in demo mode completes at once; otherwise the deposit " +
			"stays pending until its payment is confirmed (by Stripe for a card, by an admin for a bank transfer). " +
			"Without any payment method configured it is refused with 503 and nothing is recorded.",
		DefaultStatus: http.StatusCreated,
		Errors:        []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusUnprocessableEntity, http.StatusServiceUnavailable},
	}, h.deposit)
}

// getWallet returns the signed-in account's wallet balance.
func (h walletHandlers) getWallet(ctx context.Context, _ *struct{}) (*WalletOutput, error) {
	u := sessionUser(ctx)
	w, err := h.wallets.Wallet(ctx, u.ID)
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &WalletOutput{Body: ok(toWalletBody(w))}, nil
}

// listTransactions lists the signed-in account's wallet transactions, newest first.
func (h walletHandlers) listTransactions(ctx context.Context, _ *struct{}) (*TransactionListOutput, error) {
	u := sessionUser(ctx)
	txs, err := h.wallets.Transactions(ctx, u.ID)
	if err != nil {
		return nil, fail(ctx, err)
	}
	out := make([]transactionBody, len(txs))
	for i := range txs {
		out[i] = toTransactionBody(&txs[i])
	}
	return &TransactionListOutput{Body: ok(out)}, nil
}

// deposit adds funds to the signed-in account's wallet.
func (h walletHandlers) deposit(ctx context.Context, in *DepositInput) (*DepositOutput, error) {
	u := sessionUser(ctx)
	if err := u.MayTransact(); err != nil { // email verified
		return nil, fail(ctx, err)
	}
	cents, err := billing.AmountCents(in.Body.Amount)
	if err != nil {
		return nil, fail(ctx, err)
	}
	t, w, err := h.wallets.DepositOnce(ctx, u.ID, cents, in.Body.PaymentMethod, in.IdempotencyKey)
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &DepositOutput{Body: envelope[depositBody]{Success: true,
		Data: depositBody{Transaction: toTransactionBody(t), Wallet: toWalletBody(w), ClientSecret: t.ClientSecret,
			PaymentIntentID: paymentIntentOf(t)}}}, nil
}

// paymentIntentOf is the PaymentIntent a card deposit waits for, if any.
func paymentIntentOf(t *billing.Transaction) string {
	if t.ClientSecret == "" {
		return ""
	}
	return t.ProviderRef
}
