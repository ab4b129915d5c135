package api

import (
	"context"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/nameport/nameport/internal/account"
	"github.com/nameport/nameport/internal/billing"
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
	PaymentMethod string    `json:"paymentMethod"`
	Description   string    `json:"description"`
	CreatedAt     time.Time `json:"createdAt"`
}

type WalletOutput struct {
	Body envelope[walletBody]
}

type TransactionListOutput struct {
	Body envelope[[]transactionBody]
}

func addWalletRoutes(a huma.API, accounts *account.Service, wallets *billing.Service) {
	huma.Register(a, huma.Operation{
		OperationID: "wallet-get", Method: http.MethodGet, Path: "/api/wallet", Tags: []string{"Wallet"},
		Summary: "My wallet balance", Errors: []int{http.StatusUnauthorized},
	}, func(ctx context.Context, _ *struct{}) (*WalletOutput, error) {
		u, err := currentUser(ctx, accounts)
		if err != nil {
			return nil, fail(ctx, err)
		}
		w, err := wallets.Wallet(ctx, u.ID)
		if err != nil {
			return nil, fail(ctx, err)
		}
		return &WalletOutput{Body: ok(walletBody{Balance: dollars(w.BalanceCents), Currency: w.Currency})}, nil
	})

	huma.Register(a, huma.Operation{
		OperationID: "transactions-list", Method: http.MethodGet, Path: "/api/transactions", Tags: []string{"Wallet"},
		Summary: "My wallet transactions, newest first", Errors: []int{http.StatusUnauthorized},
	}, func(ctx context.Context, _ *struct{}) (*TransactionListOutput, error) {
		u, err := currentUser(ctx, accounts)
		if err != nil {
			return nil, fail(ctx, err)
		}
		txs, err := wallets.Transactions(ctx, u.ID)
		if err != nil {
			return nil, fail(ctx, err)
		}
		out := make([]transactionBody, len(txs))
		for i, t := range txs {
			out[i] = transactionBody{ID: t.ID, Type: t.Type, Amount: dollars(t.AmountCents), Status: t.Status,
				PaymentMethod: t.PaymentMethod, Description: t.Description, CreatedAt: t.CreatedAt}
		}
		return &TransactionListOutput{Body: ok(out)}, nil
	})
}
