// Package billing owns money: each account's prepaid wallet and the ledger of
// its transactions, in integer cents. A wallet's balance always equals the
// sum of its completed transactions and never goes below zero: every change
// to a balance is one conditional UPDATE committed together with the
// transaction row that explains it.
package billing

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/uptrace/bun"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/idempotency"
	"github.com/nameport/nameport/internal/notify"
	"github.com/nameport/nameport/internal/webhook"
	"github.com/nameport/nameport/pkg/money"
)

// Currency of every wallet.
const Currency = "USD"

// Transaction types.
const (
	TypeDeposit        = "deposit"
	TypeWithdrawal     = "withdrawal"
	TypeDomainPurchase = "domain_purchase"
	TypeDomainRenewal  = "domain_renewal"
)

// Transaction statuses.
const (
	StatusPending   = "pending"
	StatusCompleted = "completed"
	StatusFailed    = "failed"
)

// PaymentMethods for deposits (spec section 3); debits are paid from the
// wallet.
var PaymentMethods = []string{"credit_card", "paypal", "bank_transfer", "upi"}

// MethodWallet is the payment method of what the wallet pays for.
const MethodWallet = "wallet"

// Deposit limits.
const (
	MinDepositCents = 100
	MaxDepositCents = 1_000_000
)

// The messages that refuse an amount (GET /api/rules publishes them).
var (
	AmountNotPositive = "Amount must be greater than 0"
	AmountTooPrecise  = "Amount must have at most 2 decimals"
	DepositTooSmall   = "The minimum deposit is " + money.Format(MinDepositCents)
	DepositTooLarge   = "The maximum deposit is $10,000.00" // MaxDepositCents, with the spec's thousands separator
)

// AmountCents converts an amount in dollars, as a client sends it, to cents:
// invalid when it has more than two decimals (or is not a number).
func AmountCents(dollars float64) (int64, error) {
	cents, ok := money.FromDollars(dollars)
	if !ok {
		return 0, apperr.New(apperr.Invalid, "%s", AmountTooPrecise)
	}
	return cents, nil
}

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
	DomainID      int64     `bun:"domain_id,nullzero"` // what it paid for
	CreatedAt     time.Time `bun:"created_at"`
	// ProviderRef is the payment provider's id of a card deposit's payment
	// (a Stripe PaymentIntent).
	ProviderRef string `bun:"provider_ref,nullzero"`
	// ClientSecret lets the browser pay a pending card deposit; never stored.
	ClientSecret string `bun:"-"`
	// BalanceAfterCents is the wallet's balance right after a debit, set by
	// Debit once its transaction has committed; never stored.
	BalanceAfterCents int64 `bun:"-"`
}

// WalletAfter is the wallet right after debit t committed, as t left it.
func WalletAfter(t *Transaction) Wallet {
	return Wallet{UserID: t.UserID, BalanceCents: t.BalanceAfterCents, Currency: Currency, UpdatedAt: t.CreatedAt}
}

// Options configure a Service.
type Options struct {
	// DemoPayments makes deposits by methods that have no provider complete
	// at once, without any payment (--demo, --demo-payments). Never for a
	// server that takes real money: without it, a deposit needs Stripe (card)
	// or an admin-enabled bank transfer, and is refused otherwise.
	DemoPayments bool
	// Stripe is the card payment provider; nil means none. With it, card
	// deposits are paid through a PaymentIntent and stay pending until
	// Stripe confirms them.
	Stripe *Stripe
	// BankTransfer reports whether an admin has enabled manual bank-transfer
	// deposits (the bank_transfer payment gateway). Such deposits stay
	// pending until an admin confirms them (ReviewDeposit). nil: never.
	BankTransfer func(ctx context.Context) (bool, error)
	// Now is the clock; tests inject their own.
	Now func() time.Time
}

// Service manages wallets.
type Service struct {
	db           *db.DB
	demo         bool
	now          func() time.Time
	stripe       *Stripe
	bankTransfer func(ctx context.Context) (bool, error)

	// Notify sends deposit receipts; nil sends none.
	Notify notify.Func
	// Events emits wallet.deposit_completed webhook events inside the
	// deposit's transaction; nil emits none.
	Events webhook.EmitFunc
}

// NewService returns a billing service over d.
func NewService(d *db.DB, opts Options) *Service {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Service{db: d, demo: opts.DemoPayments, now: opts.Now, stripe: opts.Stripe, bankTransfer: opts.BankTransfer}
}

func (s *Service) clock() time.Time { return s.now().UTC().Truncate(time.Microsecond) }

// Wallet returns the wallet of userID; an account that never had money has an
// empty one.
func (s *Service) Wallet(ctx context.Context, userID int64) (Wallet, error) {
	return s.wallet(ctx, s.db.Bun, userID)
}

func (s *Service) wallet(ctx context.Context, q bun.IDB, userID int64) (Wallet, error) {
	w := Wallet{UserID: userID, Currency: Currency}
	err := q.NewSelect().Model(&w).Where("user_id = ?", userID).Scan(ctx)
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

// MaxPage bounds a page of TransactionsPage.
const MaxPage = 1000

// TransactionsPage returns up to limit transactions of userID with ids below
// before (0: from the newest), newest first.
func (s *Service) TransactionsPage(ctx context.Context, userID, before int64, limit int) ([]Transaction, error) {
	if limit < 1 || limit > MaxPage {
		return nil, apperr.New(apperr.Invalid, "limit must be between 1 and %d", MaxPage)
	}
	txs := []Transaction{}
	q := s.db.Bun.NewSelect().Model(&txs).Where("user_id = ?", userID)
	if before > 0 {
		q = q.Where("id < ?", before)
	}
	if err := q.Order("id DESC").Limit(int64(limit)).Scan(ctx); err != nil {
		return nil, fmt.Errorf("billing: transactions of %d: %w", userID, err)
	}
	return txs, nil
}

// TransactionFor returns the purchase transaction of domainID.
func (s *Service) TransactionFor(ctx context.Context, userID, domainID int64) (*Transaction, error) {
	t := new(Transaction)
	err := s.db.Bun.NewSelect().Model(t).Where("user_id = ?", userID).Where("domain_id = ?", domainID).
		Where("type = ?", TypeDomainPurchase).Order("id").Limit(1).Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("billing: transaction of domain %d: %w", domainID, err)
	}
	return t, nil
}

// Deposit adds amountCents to the wallet of userID, paid by method. It
// completes at once in demo mode, or is pending until its payment is
// confirmed: by Stripe for a card, by an admin for a bank transfer. Returns
// invalid for bad amounts or methods, and unavailable when no payment
// method is configured.
func (s *Service) Deposit(ctx context.Context, userID, amountCents int64, method string) (*Transaction, Wallet, error) {
	return s.DepositOnce(ctx, userID, amountCents, method, "")
}

const opDeposit = "wallet.deposit"

// DepositOnce is Deposit guarded by an idempotency key: a retry with the
// same key returns the first deposit instead of adding funds again. Returns
// invalid when the key was used for a different request.
func (s *Service) DepositOnce(ctx context.Context, userID, amountCents int64, method, key string) (*Transaction, Wallet, error) {
	key = idempotency.Normalize(key)
	if err := idempotency.CheckKey(key); err != nil {
		return nil, Wallet{}, err
	}
	switch {
	case amountCents <= 0:
		return nil, Wallet{}, apperr.New(apperr.Invalid, "%s", AmountNotPositive)
	case amountCents < MinDepositCents:
		return nil, Wallet{}, apperr.New(apperr.Invalid, "%s", DepositTooSmall)
	case amountCents > MaxDepositCents:
		return nil, Wallet{}, apperr.New(apperr.Invalid, "%s", DepositTooLarge)
	}
	if method == "" {
		method = "credit_card"
	}
	if !slices.Contains(PaymentMethods, method) {
		return nil, Wallet{}, apperr.New(apperr.Invalid, "Payment method must be one of credit_card, paypal, bank_transfer, upi")
	}
	hash := fmt.Sprintf("%d|%s", amountCents, method)
	if key != "" {
		if t, w, err := s.replayDeposit(ctx, userID, key, hash); t != nil || err != nil {
			return t, w, err
		}
	}
	route, err := s.depositRoute(ctx, method)
	if err != nil {
		return nil, Wallet{}, err
	}
	t := &Transaction{UserID: userID, Type: TypeDeposit, AmountCents: amountCents, Status: StatusCompleted,
		PaymentMethod: method, Description: "Deposit by " + methodLabel(method), CreatedAt: s.clock()}
	if route != routeInstant {
		t.Status = StatusPending
	}
	var w Wallet
	err = s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		if err := s.ensureWallet(ctx, tx, userID); err != nil {
			return err
		}
		if _, err := tx.NewInsert().Model(t).Exec(ctx); err != nil {
			return err
		}
		if key != "" {
			k := &idempotency.Key{UserID: userID, Key: key, Operation: opDeposit, RequestHash: hash,
				ResultID: t.ID, CreatedAt: t.CreatedAt}
			if err := idempotency.Claim(ctx, tx, k); err != nil {
				return err
			}
		}
		if t.Status == StatusCompleted {
			if err := s.credit(ctx, tx, t); err != nil {
				return err
			}
		}
		var err error
		w, err = s.wallet(ctx, tx, userID)
		return err
	})
	if errors.Is(err, idempotency.ErrTaken) {
		// A concurrent retry with the same key committed first.
		if t, w, err := s.replayDeposit(ctx, userID, key, hash); t != nil || err != nil {
			return t, w, err
		}
	}
	if err != nil {
		return nil, Wallet{}, fmt.Errorf("billing: deposit %s for %d: %w", money.Format(amountCents), userID, err)
	}
	if route == routeCard {
		if err := s.startCardPayment(ctx, t); err != nil {
			return nil, Wallet{}, err
		}
	}
	return t, w, nil
}

// replayDeposit returns the deposit made earlier with key; nil when none.
func (s *Service) replayDeposit(ctx context.Context, userID int64, key, hash string) (*Transaction, Wallet, error) {
	k, err := idempotency.Find(ctx, s.db.Bun, userID, key, opDeposit, hash)
	if k == nil || err != nil {
		return nil, Wallet{}, err
	}
	t := new(Transaction)
	if err := s.db.Bun.NewSelect().Model(t).Where("id = ?", k.ResultID).Where("user_id = ?", userID).Scan(ctx); err != nil {
		return nil, Wallet{}, fmt.Errorf("billing: replay deposit: %w", err)
	}
	s.reattachClientSecret(ctx, t)
	w, err := s.Wallet(ctx, userID)
	return t, w, err
}

func methodLabel(method string) string {
	switch method {
	case "credit_card":
		return "credit card"
	case "paypal":
		return "PayPal"
	case "bank_transfer":
		return "bank transfer"
	case "upi":
		return "UPI"
	}
	return method
}

// CompleteDeposit confirms a pending deposit and credits the wallet, once:
// confirming it again changes nothing. Returns not_found for an unknown
// deposit and conflict for one that failed.
func (s *Service) CompleteDeposit(ctx context.Context, transactionID int64) error {
	err := s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		_, _, err := s.completeDeposit(ctx, tx, transactionID)
		return err
	})
	if err != nil {
		return fmt.Errorf("billing: complete deposit %d: %w", transactionID, err)
	}
	return nil
}

// completeDeposit completes pending deposit transactionID inside tx and
// credits its wallet; completed reports whether this call did it (false:
// it had completed before).
func (s *Service) completeDeposit(ctx context.Context, tx *db.Tx, transactionID int64) (t *Transaction, completed bool, err error) {
	t = new(Transaction)
	if err := tx.NewSelect().Model(t).Where("id = ?", transactionID).Where("type = ?", TypeDeposit).Scan(ctx); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, false, apperr.New(apperr.NotFound, "Deposit not found")
		}
		return nil, false, err
	}
	// The status guard makes a second confirmation a no-op, even when two
	// arrive at once.
	res, err := tx.NewUpdate().Model((*Transaction)(nil)).Set("status = ?", StatusCompleted).
		Where("id = ?", t.ID).Where("status = ?", StatusPending).Exec(ctx)
	if err != nil {
		return nil, false, err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		// Decided meanwhile, perhaps by a concurrent call: read what it is.
		if err := tx.NewSelect().Model(t).Where("id = ?", t.ID).Scan(ctx); err != nil {
			return nil, false, err
		}
		if t.Status == StatusFailed {
			return nil, false, apperr.New(apperr.Conflict, "This deposit failed and cannot be completed")
		}
		return t, false, nil
	}
	t.Status = StatusCompleted
	return t, true, s.credit(ctx, tx, t)
}

func (s *Service) ensureWallet(ctx context.Context, tx *db.Tx, userID int64) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO wallets (user_id, balance_cents, currency, updated_at)
		VALUES (?, 0, ?, ?) ON CONFLICT (user_id) DO NOTHING`, userID, Currency, s.clock())
	return err
}

// credit adds completed deposit t to its wallet, and sends the receipt and
// the wallet.deposit_completed event, in the deposit's transaction.
func (s *Service) credit(ctx context.Context, tx *db.Tx, t *Transaction) error {
	userID, cents := t.UserID, t.AmountCents
	var balance int64
	err := tx.NewUpdate().Model((*Wallet)(nil)).Set("balance_cents = balance_cents + ?", cents).
		Set("updated_at = ?", s.clock()).Where("user_id = ?", userID).Returning("balance_cents").Scan(ctx, &balance)
	if err != nil {
		return err
	}
	if s.Events != nil {
		if err := s.Events(ctx, tx, userID, webhook.WalletDepositCompleted, map[string]any{"transactionId": t.ID,
			"amountCents": cents, "balanceCents": balance, "currency": Currency, "paymentMethod": t.PaymentMethod}); err != nil {
			return err
		}
	}
	if s.Notify == nil {
		return nil
	}
	return s.Notify(ctx, tx, notify.Message{UserID: userID, Kind: notify.KindDepositReceipt,
		Data: map[string]string{"amount": notify.Cents(cents), "balance": notify.Cents(balance)}})
}

// Charge is a debit from a wallet for something bought.
type Charge struct {
	UserID      int64
	AmountCents int64
	Type        string // TypeDomainPurchase or TypeDomainRenewal
	Description string
	DomainID    int64
	// What names the purchase in the insufficient-funds message
	// ("this registration").
	What string
}

// Debit takes c.AmountCents from the wallet inside tx and records the
// completed transaction. Returns insufficient_funds, saying how much more is
// needed, when the balance does not cover it.
//
// The wallet row is updated last, with the commit (tx.Finally): every debit
// of the account waits for that row's lock, which is so held only while the
// database commits. The balance is read first to refuse at once what it
// does not cover; a debit that a concurrent one overtook is refused at
// commit by the wallets table's CHECK (balance_cents >= 0), and the whole
// transaction rolls back with insufficient_funds.
func (s *Service) Debit(ctx context.Context, tx *db.Tx, c Charge) (*Transaction, error) {
	if c.AmountCents <= 0 {
		return nil, fmt.Errorf("billing: debit of %d cents", c.AmountCents)
	}
	w, err := s.wallet(ctx, tx, c.UserID)
	if err != nil {
		return nil, err
	}
	if w.BalanceCents < c.AmountCents {
		return nil, insufficient(c, w.BalanceCents)
	}
	t := &Transaction{UserID: c.UserID, Type: c.Type, AmountCents: -c.AmountCents, Status: StatusCompleted,
		PaymentMethod: MethodWallet, Description: c.Description, DomainID: c.DomainID, CreatedAt: s.clock()}
	if _, err := tx.NewInsert().Model(t).Exec(ctx); err != nil {
		return nil, fmt.Errorf("billing: record debit: %w", err)
	}
	tx.FinallyReturning(&t.BalanceAfterCents, func(err error) error {
		if !db.CheckViolation(err, "wallets_balance_cents_check", "balance_cents >= 0") {
			return fmt.Errorf("billing: debit %d: %w", c.UserID, err)
		}
		w, rerr := s.Wallet(context.WithoutCancel(ctx), c.UserID)
		if rerr != nil {
			return rerr
		}
		if w.BalanceCents >= c.AmountCents { // a deposit came in meanwhile
			return apperr.New(apperr.Conflict, "Your balance changed while %s was being paid: please try again", c.What)
		}
		return insufficient(c, w.BalanceCents)
	}, "UPDATE wallets SET balance_cents = balance_cents - ?, updated_at = ? WHERE user_id = ? RETURNING balance_cents",
		c.AmountCents, t.CreatedAt, c.UserID)
	return t, nil
}

// insufficient is the refusal of charge c from a wallet holding balance.
func insufficient(c Charge, balance int64) error {
	needed := c.AmountCents - balance
	return &apperr.Error{Code: apperr.InsufficientFunds, Message: fmt.Sprintf(
		"Insufficient funds: %s costs %s and your balance is %s. Add %s to continue.",
		c.What, money.Format(c.AmountCents), money.Format(balance), money.Format(needed)),
		Shortfall: &apperr.Shortfall{NeededCents: needed, BalanceCents: balance}}
}

// Discrepancy is a wallet whose balance differs from its ledger.
type Discrepancy struct {
	UserID       int64 `bun:"user_id"`
	BalanceCents int64 `bun:"balance_cents"`
	LedgerCents  int64 `bun:"ledger_cents"`
}

// Reconcile returns every wallet whose balance is not the sum of its
// completed transactions (or is negative). It should always return none.
// (Not the audit log of admin changes: that is package audit.)
func (s *Service) Reconcile(ctx context.Context) ([]Discrepancy, error) {
	var out []Discrepancy
	err := s.db.Bun.NewRaw(`SELECT w.user_id, w.balance_cents, COALESCE(SUM(t.amount_cents), 0) AS ledger_cents
		FROM wallets w LEFT JOIN transactions t ON t.user_id = w.user_id AND t.status = 'completed'
		GROUP BY w.user_id, w.balance_cents
		HAVING w.balance_cents <> COALESCE(SUM(t.amount_cents), 0) OR w.balance_cents < 0`).Scan(ctx, &out)
	if err != nil {
		return nil, fmt.Errorf("billing: audit: %w", err)
	}
	return out, nil
}

// TransactionByID returns transaction id of userID; not_found otherwise.
func (s *Service) TransactionByID(ctx context.Context, userID, id int64) (*Transaction, error) {
	t := new(Transaction)
	err := s.db.Bun.NewSelect().Model(t).Where("id = ?", id).Where("user_id = ?", userID).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "Transaction not found")
	}
	if err != nil {
		return nil, fmt.Errorf("billing: transaction %d: %w", id, err)
	}
	return t, nil
}

// ForgetDomain detaches the ledger from a domain that is being deleted
// (released after its grace period), inside that transaction. The entries
// and their descriptions stay.
func (s *Service) ForgetDomain(ctx context.Context, tx bun.IDB, domainID int64) error {
	if _, err := tx.NewUpdate().Model((*Transaction)(nil)).Set("domain_id = NULL").Where("domain_id = ?", domainID).Exec(ctx); err != nil {
		return fmt.Errorf("billing: forget domain %d: %w", domainID, err)
	}
	return nil
}
