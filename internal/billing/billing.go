// Package billing owns money: each account's prepaid wallet and the ledger of
// its transactions, in integer cents. A wallet's balance always equals the
// sum of its completed transactions. Deposits and debits arrive with the
// registration issue; this package already answers the reads the dashboards
// and the wallet page make.
package billing

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/nameport/nameport/internal/db"
)

// Currency of every wallet.
const Currency = "USD"

// Wallet is an account's prepaid balance.
type Wallet struct {
	bun.BaseModel `bun:"table:wallets"`

	UserID       int64     `bun:"user_id,pk"`
	BalanceCents int64     `bun:"balance_cents"`
	Currency     string    `bun:"currency"`
	UpdatedAt    time.Time `bun:"updated_at"`
}

// Transaction is one entry of the ledger; debits are negative.
type Transaction struct {
	bun.BaseModel `bun:"table:transactions"`

	ID            int64     `bun:"id,pk,autoincrement"`
	UserID        int64     `bun:"user_id"`
	Type          string    `bun:"type"`
	AmountCents   int64     `bun:"amount_cents"`
	Status        string    `bun:"status"`
	PaymentMethod string    `bun:"payment_method"`
	Description   string    `bun:"description"`
	DomainID      int64     `bun:"domain_id,nullzero"`
	CreatedAt     time.Time `bun:"created_at"`
}

// Service answers questions about wallets.
type Service struct{ db *db.DB }

// NewService returns a billing service over d.
func NewService(d *db.DB) *Service { return &Service{db: d} }

// Wallet returns the wallet of userID; an account that never had money has an
// empty one.
func (s *Service) Wallet(ctx context.Context, userID int64) (Wallet, error) {
	w := Wallet{UserID: userID, Currency: Currency}
	err := s.db.Bun.NewSelect().Model(&w).Where("user_id = ?", userID).Scan(ctx)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return Wallet{}, fmt.Errorf("billing: wallet of %d: %w", userID, err)
	}
	return w, nil
}

// Transactions returns the ledger of userID, newest first.
func (s *Service) Transactions(ctx context.Context, userID int64) ([]Transaction, error) {
	txs := []Transaction{}
	if err := s.db.Bun.NewSelect().Model(&txs).Where("user_id = ?", userID).
		Order("created_at DESC", "id DESC").Scan(ctx); err != nil {
		return nil, fmt.Errorf("billing: transactions of %d: %w", userID, err)
	}
	return txs, nil
}
