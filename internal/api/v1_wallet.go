package api

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/nameport/nameport/internal/account"
	"github.com/nameport/nameport/internal/billing"
	"github.com/nameport/nameport/sdk"
)

type V1WalletOutput struct {
	Body sdk.Wallet
}

type V1DepositInput struct {
	IdempotencyKey string `header:"Idempotency-Key" maxLength:"255" doc:"Retrying with the same key and body returns the first answer without repeating the effect; kept 24 hours"`
	Body           sdk.DepositRequest
}

type V1DepositOutput struct {
	Body sdk.Deposit
}

type V1TransactionListInput struct {
	Limit  int    `query:"limit" minimum:"1" maximum:"100" default:"50" doc:"Transactions per page"`
	Cursor string `query:"cursor" doc:"nextCursor of the previous page"`
}

type V1TransactionListOutput struct {
	Body sdk.TransactionPage
}

// v1WalletHandlers are the handlers of /v1's wallet of the key's account.
type v1WalletHandlers struct {
	wallets *billing.Service
}

func addV1WalletRoutes(v *v1, wallets *billing.Service) {
	h := v1WalletHandlers{wallets}
	tags := []string{"Registrar API"}

	registerV1(v, account.ScopeRead, huma.Operation{
		OperationID: "v1-wallet-get", Method: http.MethodGet, Path: "/v1/wallet", Tags: tags,
		Summary: "Your wallet balance",
	}, nil, h.getWallet)

	registerV1(v, account.ScopeWallet, huma.Operation{
		OperationID: "v1-wallet-deposit", Method: http.MethodPost, Path: "/v1/wallet/deposits", Tags: tags,
		Summary:       "Add funds to your wallet",
		Description:   "The methods offered are those of GET /api/wallet/deposit-options (PayPal and UPI are refused: no provider yet). A card deposit with demo payments completes at once; with Stripe, or by bank transfer, it stays pending until the provider or an admin confirms it.",
		DefaultStatus: http.StatusCreated,
		Errors:        []int{http.StatusForbidden, http.StatusUnprocessableEntity},
	}, nil, h.deposit)

	registerV1(v, account.ScopeRead, huma.Operation{
		OperationID: "v1-transactions-list", Method: http.MethodGet, Path: "/v1/transactions", Tags: tags,
		Summary: "Your wallet transactions", Description: "Newest first, a page at a time: follow nextCursor until it is empty.",
		Errors: []int{http.StatusUnprocessableEntity},
	}, nil, h.listTransactions)
}

// getWallet returns the wallet balance of the key's account.
func (h v1WalletHandlers) getWallet(ctx context.Context, _ *struct{}) (*V1WalletOutput, error) {
	w, err := h.wallets.Wallet(ctx, keyUser(ctx).ID)
	if err != nil {
		return nil, problem(ctx, err)
	}
	return &V1WalletOutput{Body: toV1Wallet(w)}, nil
}

// deposit adds funds to the wallet of the key's account.
func (h v1WalletHandlers) deposit(ctx context.Context, in *V1DepositInput) (*V1DepositOutput, error) {
	u := keyUser(ctx)
	if err := u.MayTransact(); err != nil { // email verified
		return nil, problem(ctx, err)
	}
	cents, err := billing.AmountCents(in.Body.Amount)
	if err != nil {
		return nil, problem(ctx, err)
	}
	t, w, err := h.wallets.DepositOnce(ctx, u.ID, cents, in.Body.PaymentMethod, in.IdempotencyKey)
	if err != nil {
		return nil, problem(ctx, err)
	}
	return &V1DepositOutput{Body: sdk.Deposit{Transaction: toV1Transaction(t), Wallet: toV1Wallet(w),
		ClientSecret: t.ClientSecret, PaymentIntentID: paymentIntentOf(t)}}, nil
}

// listTransactions lists the wallet transactions of the key's account, newest first, a page at a time.
func (h v1WalletHandlers) listTransactions(ctx context.Context, in *V1TransactionListInput) (*V1TransactionListOutput, error) {
	txs, next, err := fetchPage(in.Cursor, in.Limit, func(t *billing.Transaction) int64 { return t.ID },
		func(before int64, n int) ([]billing.Transaction, error) {
			return h.wallets.TransactionsPage(ctx, keyUser(ctx).ID, before, n)
		})
	if err != nil {
		return nil, problem(ctx, err)
	}
	page := sdk.TransactionPage{Transactions: make([]sdk.Transaction, len(txs)), NextCursor: next}
	for i := range txs {
		page.Transactions[i] = toV1Transaction(&txs[i])
	}
	return &V1TransactionListOutput{Body: page}, nil
}
