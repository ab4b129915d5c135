package sdk

import (
	"context"
	"iter"
	"net/http"
)

// WalletService reads and funds the prepaid wallet that pays for
// registrations and renewals. Reach it as Client.Wallet.
type WalletService struct{ c *Client }

// Get returns the wallet's balance.
func (s *WalletService) Get(ctx context.Context) (*Wallet, error) {
	var out Wallet
	if err := s.c.do(ctx, http.MethodGet, "/v1/wallet", nil, nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Deposit adds funds to the wallet. The deposit's transaction is completed
// at once, or pending until the payment provider confirms it.
//
// The call carries an Idempotency-Key, so retrying it never charges twice;
// see WithIdempotencyKey to choose the key.
//
// Errors: CodeInvalid for an amount under $1.00 or with more than two
// decimals, or an unknown payment method.
func (s *WalletService) Deposit(ctx context.Context, in DepositRequest) (*Deposit, error) {
	var out Deposit
	if err := s.c.effect(ctx, http.MethodPost, "/v1/wallet/deposits", in, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// TransactionsPage returns one page of the wallet's ledger, newest first.
func (s *WalletService) TransactionsPage(ctx context.Context, opts ListOptions) (*TransactionPage, error) {
	var out TransactionPage
	if err := s.c.do(ctx, http.MethodGet, "/v1/transactions", opts.query(), nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Transactions iterates over the wallet's whole ledger, newest first,
// fetching pages of opts.Limit as it goes. An error ends the iteration.
func (s *WalletService) Transactions(ctx context.Context, opts ListOptions) iter.Seq2[Transaction, error] {
	return all(ctx, opts, func(ctx context.Context, o ListOptions) ([]Transaction, string, error) {
		p, err := s.TransactionsPage(ctx, o)
		if err != nil {
			return nil, "", err
		}
		return p.Transactions, p.NextCursor, nil
	})
}
