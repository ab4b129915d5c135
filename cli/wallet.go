package cli

import (
	"context"
	"math"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nameport/nameport/sdk"
)

// NewCmdWallet returns `wallet` and its subcommands.
func NewCmdWallet(opts *Options) *cobra.Command {
	cmd := groupCmd(&cobra.Command{
		Use:   "wallet",
		Short: "Show and fund the wallet that pays for your domains",
		Example: `  nameportctl wallet balance
  nameportctl wallet deposit 50`,
	})
	cmd.AddCommand(
		NewCmdWalletBalance(opts, nil),
		NewCmdWalletDeposit(opts, nil),
		NewCmdWalletTransactions(opts, nil),
	)
	return cmd
}

// WalletBalanceOptions are the inputs of `wallet balance`.
type WalletBalanceOptions struct {
	*Options
}

// NewCmdWalletBalance returns `wallet balance`.
func NewCmdWalletBalance(opts *Options, runF func(context.Context, *WalletBalanceOptions) error) *cobra.Command {
	o := &WalletBalanceOptions{Options: opts}
	return &cobra.Command{
		Use:   "balance",
		Short: "Show the wallet's balance",
		Example: `  nameportctl wallet balance
  nameportctl wallet balance --output json`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return run(cmd, o, runF, walletBalanceRun) },
	}
}

func walletBalanceRun(ctx context.Context, o *WalletBalanceOptions) error {
	client, err := o.client()
	if err != nil {
		return err
	}
	w, err := client.Wallet.Get(ctx)
	if err != nil {
		return err
	}
	return display(o.Options, walletDisplay{w})
}

// WalletDepositOptions are the inputs of `wallet deposit`.
type WalletDepositOptions struct {
	*Options
	Amount float64
	Method string
}

// NewCmdWalletDeposit returns `wallet deposit AMOUNT`.
func NewCmdWalletDeposit(opts *Options, runF func(context.Context, *WalletDepositOptions) error) *cobra.Command {
	o := &WalletDepositOptions{Options: opts}
	cmd := &cobra.Command{
		Use:   "deposit AMOUNT",
		Short: "Add funds to the wallet",
		Long:  "Add AMOUNT US dollars (at least 1, at most two decimals) to the wallet.",
		Example: `  nameportctl wallet deposit 50
  nameportctl wallet deposit 12.50 --method bank_transfer`,
		Args: exactArgs(1, "AMOUNT"),
		RunE: func(cmd *cobra.Command, args []string) error {
			amount, err := strconv.ParseFloat(strings.TrimPrefix(args[0], "$"), 64)
			if err != nil || math.IsNaN(amount) || math.IsInf(amount, 0) {
				return usageErrorf("AMOUNT must be a number of US dollars, e.g. 50 or 12.50, not %q", args[0])
			}
			o.Amount = amount
			return run(cmd, o, runF, walletDepositRun)
		},
	}
	cmd.Flags().StringVar(&o.Method, "method", "credit_card", "payment method: credit_card, or bank_transfer where the site takes bank transfers (GET /api/wallet/deposit-options lists what works)")
	return cmd
}

func walletDepositRun(ctx context.Context, o *WalletDepositOptions) error {
	client, err := o.client()
	if err != nil {
		return err
	}
	dep, err := client.Wallet.Deposit(ctx, sdk.DepositRequest{Amount: o.Amount, PaymentMethod: o.Method})
	if err != nil {
		return err
	}
	return display(o.Options, depositDisplay{dep})
}

// WalletTransactionsOptions are the inputs of `wallet transactions`.
type WalletTransactionsOptions struct {
	*Options
	Limit int
}

// NewCmdWalletTransactions returns `wallet transactions`.
func NewCmdWalletTransactions(opts *Options, runF func(context.Context, *WalletTransactionsOptions) error) *cobra.Command {
	o := &WalletTransactionsOptions{Options: opts}
	cmd := &cobra.Command{
		Use:     "transactions",
		Aliases: []string{"tx"},
		Short:   "List the wallet's transactions, newest first",
		Example: `  nameportctl wallet transactions
  nameportctl wallet transactions --limit 10 --output json`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.Limit < 0 {
				return usageErrorf("--limit must be 0 (all) or more")
			}
			return run(cmd, o, runF, walletTransactionsRun)
		},
	}
	cmd.Flags().IntVar(&o.Limit, "limit", 0, "show at most this many, newest first (0: all)")
	return cmd
}

func walletTransactionsRun(ctx context.Context, o *WalletTransactionsOptions) error {
	client, err := o.client()
	if err != nil {
		return err
	}
	page := 100
	if o.Limit > 0 && o.Limit < page {
		page = o.Limit
	}
	var txs []sdk.Transaction
	for tx, err := range client.Wallet.Transactions(ctx, sdk.ListOptions{Limit: page}) {
		if err != nil {
			return err
		}
		txs = append(txs, tx)
		if o.Limit > 0 && len(txs) == o.Limit {
			break
		}
	}
	return display(o.Options, transactionDisplay{txs})
}
