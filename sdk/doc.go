// Package sdk is the Go client of Nameport's registrar API (/v1): check and
// register domains, manage their DNS records and email forwarding, and fund
// the wallet that pays for them. It uses the standard library only.
//
// # Quick start
//
// Create a registrar account in the Nameport web app; its API key is in the
// registrar dashboard under API Access. Then:
//
//	client := sdk.NewClient(os.Getenv("NAMEPORT_API_KEY"),
//		sdk.WithBaseURL("https://nameport.example"))
//
//	avail, err := client.Domains.Check(ctx, "example.inf.nz")
//	if err != nil {
//		return err
//	}
//	if avail.Available {
//		reg, err := client.Domains.Register(ctx, sdk.RegisterRequest{Domain: "example.inf.nz", Years: sdk.Int(1)})
//		if sdk.ErrorCode(err) == sdk.CodeInsufficientFunds {
//			// err's message says how much to add: client.Wallet.Deposit(…)
//		}
//		…
//	}
//
//	_, err = client.DNS.Upsert(ctx, "example.inf.nz", sdk.RecordSet{
//		Name: "www", Type: "A", Values: []string{"192.0.2.10"},
//	})
//
//	// Each MX value with its own priority (SRV: "10 5 5060 sip.example.net").
//	_, err = client.DNS.Upsert(ctx, "example.inf.nz", sdk.RecordSet{
//		Name: "@", Type: "MX", Values: []string{"10 mx1.example.net", "20 mx2.example.net"},
//	})
//
// # Errors
//
// A call the API refuses returns an *Error: an HTTP status, a stable Code
// (the Code* constants), a Message fit to show a person and the RequestID
// to quote to support. ErrorCode and IsNotFound read it without errors.As.
// Other errors are network failures or the context's.
//
// # Retries and idempotency
//
// The client retries what is safe to retry: 429 Too Many Requests (after the
// Retry-After the server sends), 409 idempotency_in_progress, 5xx answers
// and network errors, with exponential backoff and jitter, at most
// WithMaxRetries times. It never waits past the context's cancellation or
// deadline: a wait that would end after the deadline is not begun, and the
// error that caused it is returned. A Retry-After longer than a minute is not
// waited out either; the *Error comes back with its RetryAfter set.
//
// Every call with an effect (Register, Deposit, DNS Upsert,
// SetEmailForwarding, AddForwardingRule) carries an
// Idempotency-Key, random and the same on every retry of that call, so a
// retried registration or deposit happens once. Calls without an effect,
// Check included, carry none and are simply sent again. To make your own repeats safe too (a job that may run twice), give
// the call a key of yours with WithIdempotencyKey.
//
// # Lists
//
// Domains.List and Wallet.Transactions are iterators over every page;
// Domains.ListPage and Wallet.TransactionsPage fetch one page at a time.
//
// # Money
//
// Amounts are US dollars as float64 with at most two decimals (8 means
// $8.00); the server keeps exact cents.
package sdk
