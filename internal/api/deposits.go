package api

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/nameport/nameport/internal/account"
	"github.com/nameport/nameport/internal/billing"
	"github.com/nameport/nameport/internal/settings"
)

type bankTransferBody struct {
	AccountName   string `json:"accountName"`
	AccountNumber string `json:"accountNumber"`
	BankName      string `json:"bankName"`
	RoutingNumber string `json:"routingNumber"`
	Instructions  string `json:"instructions"`
}

type depositOptionsBody struct {
	Mode              string   `json:"mode" enum:"demo,stripe,manual,none" doc:"demo: card deposits complete at once without payment; stripe: card deposits through Stripe; manual: bank transfers an admin confirms; none: deposits are unavailable"`
	Methods           []string `json:"methods" doc:"The payment methods a deposit can use now; empty when deposits are unavailable"`
	Instant           []string `json:"instant" doc:"Methods whose deposits complete at once (demo mode)"`
	ConfiguredBy      string   `json:"configuredBy" doc:"Where the mode is configured: Stripe and demo payments by the server's flags, bank transfers by the Bank Transfer payment gateway"`
	AvailableGateways []string `json:"availableGateways" nullable:"false" doc:"The payment gateway types an admin can enable (their payments work); the others are not available yet"`
	// BankTransfer is where to send a bank-transfer deposit, when enabled.
	BankTransfer *bankTransferBody `json:"bankTransfer" doc:"The account to pay a bank transfer to; null when bank transfers are not enabled"`
}

type DepositOptionsOutput struct {
	Body envelope[depositOptionsBody]
}

// TransactionBody names transactionBody for embedding: huma flattens only
// exported embedded structs into a schema (an unexported one is left out).
type TransactionBody = transactionBody

type pendingDepositBody struct {
	TransactionBody
	UserID   int64  `json:"userId"`
	Username string `json:"username" doc:"Empty when the account is gone"`
	Email    string `json:"email"`
}

type PendingDepositsOutput struct {
	Body envelope[[]pendingDepositBody]
}

type ReviewDepositInput struct {
	ID int64 `path:"id" doc:"The deposit's transaction id"`
}

type ReviewDepositOutput struct {
	Body envelope[transactionBody]
}

// depositHandlers are the handlers of deposit options and the admins' review
// of bank-transfer deposits.
type depositHandlers struct {
	accounts *account.Service
	wallets  *billing.Service
	site     *settings.Service
}

func addDepositRoutes(a huma.API, accounts *account.Service, wallets *billing.Service, site *settings.Service) {
	h := depositHandlers{accounts, wallets, site}
	register(a, accessAccount, huma.Operation{
		OperationID: "wallet-deposit-options", Method: http.MethodGet, Path: "/api/wallet/deposit-options",
		Tags: []string{"Wallet"}, Summary: "How I can pay a deposit",
		Description: "The payment methods that work on this server now, and the bank account for a bank transfer.",
		Errors:      []int{http.StatusUnauthorized},
	}, h.depositOptions)

	adminOnly := []int{http.StatusUnauthorized, http.StatusForbidden}
	register(a, accessAdmin, huma.Operation{
		OperationID: "admin-deposits-pending", Method: http.MethodGet, Path: "/api/admin/deposits",
		Tags: []string{"Admin"}, Summary: "Bank-transfer deposits waiting for an admin",
		Description: "Pending bank-transfer deposits, oldest first, with the account that made them.",
		Errors:      adminOnly,
	}, h.listPendingDeposits)

	register(a, accessAdmin, huma.Operation{
		OperationID: "admin-deposit-confirm", Method: http.MethodPost, Path: "/api/admin/deposits/{id}/confirm",
		Tags: []string{"Admin"}, Summary: "Confirm a bank-transfer deposit",
		Description: "Marks a pending bank-transfer deposit completed once the money has arrived: the wallet is " +
			"credited exactly once and the receipt mailed. Confirming it again changes nothing. Audited.",
		Errors: append(adminOnly, http.StatusNotFound, http.StatusConflict),
	}, h.confirmDeposit)
	register(a, accessAdmin, huma.Operation{
		OperationID: "admin-deposit-reject", Method: http.MethodPost, Path: "/api/admin/deposits/{id}/reject",
		Tags: []string{"Admin"}, Summary: "Reject a bank-transfer deposit",
		Description: "Marks a pending bank-transfer deposit failed (no money arrived); the wallet is unchanged. Audited.",
		Errors:      append(adminOnly, http.StatusNotFound, http.StatusConflict),
	}, h.rejectDeposit)
}

// depositOptions returns the payment methods a deposit can use now and the bank account for a transfer.
func (h depositHandlers) depositOptions(ctx context.Context, _ *struct{}) (*DepositOptionsOutput, error) {
	o, err := h.wallets.DepositOptions(ctx)
	if err != nil {
		return nil, fail(ctx, err)
	}
	body := depositOptionsBody{Mode: o.Mode, Methods: o.Methods, Instant: o.Instant, ConfiguredBy: o.ConfiguredBy,
		AvailableGateways: settings.AvailableGateways}
	bank, err := h.site.BankTransfer(ctx)
	if err != nil {
		return nil, fail(ctx, err)
	}
	if bank != nil {
		body.BankTransfer = &bankTransferBody{AccountName: bank.AccountName, AccountNumber: bank.AccountNumber,
			BankName: bank.BankName, RoutingNumber: bank.RoutingNumber, Instructions: bank.Instructions}
	}
	return &DepositOptionsOutput{Body: ok(body)}, nil
}

// listPendingDeposits lists the bank-transfer deposits waiting for an admin, with their accounts.
func (h depositHandlers) listPendingDeposits(ctx context.Context, _ *struct{}) (*PendingDepositsOutput, error) {
	txs, err := h.wallets.PendingManualDeposits(ctx)
	if err != nil {
		return nil, fail(ctx, err)
	}
	out := make([]pendingDepositBody, len(txs))
	for i := range txs {
		out[i] = pendingDepositBody{TransactionBody: toTransactionBody(&txs[i]), UserID: txs[i].UserID}
		if u, err := h.accounts.ByID(ctx, txs[i].UserID); err == nil {
			out[i].Username, out[i].Email = u.Username, u.Email
		}
	}
	return &PendingDepositsOutput{Body: ok(out)}, nil
}

// confirmDeposit completes a pending bank-transfer deposit, crediting its wallet.
func (h depositHandlers) confirmDeposit(ctx context.Context, in *ReviewDepositInput) (*ReviewDepositOutput, error) {
	return h.review(ctx, in.ID, true)
}

// rejectDeposit fails a pending bank-transfer deposit, leaving its wallet unchanged.
func (h depositHandlers) rejectDeposit(ctx context.Context, in *ReviewDepositInput) (*ReviewDepositOutput, error) {
	return h.review(ctx, in.ID, false)
}

// review confirms (approve) or rejects the pending bank-transfer deposit id as the signed-in admin.
func (h depositHandlers) review(ctx context.Context, id int64, approve bool) (*ReviewDepositOutput, error) {
	admin := sessionUser(ctx)
	t, err := h.wallets.ReviewDeposit(ctx, admin.ID, id, approve)
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &ReviewDepositOutput{Body: ok(toTransactionBody(t))}, nil
}
