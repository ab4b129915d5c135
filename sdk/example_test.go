package sdk_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/nameport/nameport/sdk"
)

// The examples need a running Nameport server and a registrar's key, so
// they are compiled but not run.

func ExampleNewClient() {
	client := sdk.NewClient(os.Getenv("NAMEPORT_API_KEY"),
		sdk.WithBaseURL("http://127.0.0.1:8080"),
		sdk.WithUserAgent("my-reseller-app/1.0"),
		sdk.WithMaxRetries(5),
	)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	wallet, err := client.Wallet.Get(ctx)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("balance: $%.2f\n", wallet.Balance)
}

func ExampleDomainsService_Check() {
	client := sdk.NewClient(os.Getenv("NAMEPORT_API_KEY"))
	avail, err := client.Domains.Check(context.Background(), "example.inf.nz")
	if err != nil {
		log.Fatal(err)
	}
	if avail.Available {
		fmt.Printf("%s is available for $%.2f a year\n", avail.Domain, avail.Price)
	} else {
		fmt.Printf("%s is taken (%s)\n", avail.Domain, avail.Reason)
	}
}

func ExampleDomainsService_Register() {
	client := sdk.NewClient(os.Getenv("NAMEPORT_API_KEY"))
	ctx := context.Background()
	reg, err := client.Domains.Register(ctx, sdk.RegisterRequest{
		Domain:      "example.inf.nz",
		Years:       sdk.Int(2),
		Nameservers: []string{"ns1.example.net", "ns2.example.net"},
	})
	var apiErr *sdk.Error
	switch {
	case errors.As(err, &apiErr) && apiErr.Code == sdk.CodeInsufficientFunds:
		// The message says how much is missing.
		log.Fatalf("cannot pay: %s", apiErr.Message)
	case err != nil:
		log.Fatal(err)
	}
	fmt.Printf("registered %s until %s; balance $%.2f\n",
		reg.Domain.Domain, reg.Domain.ExpiresAt.Format(time.DateOnly), reg.Wallet.Balance)
}

func ExampleWithIdempotencyKey() {
	client := sdk.NewClient(os.Getenv("NAMEPORT_API_KEY"))
	// A key derived from your own order makes a job that may run twice
	// register (and charge) once: the second run gets the first's answer.
	ctx := sdk.WithIdempotencyKey(context.Background(), "order-4711")
	reg, err := client.Domains.Register(ctx, sdk.RegisterRequest{Domain: "example.inf.nz"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(reg.Transaction.ID)
}

func ExampleDomainsService_List() {
	client := sdk.NewClient(os.Getenv("NAMEPORT_API_KEY"))
	for d, err := range client.Domains.List(context.Background(), sdk.ListOptions{}) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(d.Domain, d.ExpiresAt.Format(time.DateOnly))
	}
}

func ExampleDomainsService_ListPage() {
	client := sdk.NewClient(os.Getenv("NAMEPORT_API_KEY"))
	opts := sdk.ListOptions{Limit: 100}
	for {
		page, err := client.Domains.ListPage(context.Background(), opts)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(len(page.Domains), "domains")
		if page.NextCursor == "" {
			break
		}
		opts.Cursor = page.NextCursor
	}
}

func ExampleIsNotFound() {
	client := sdk.NewClient(os.Getenv("NAMEPORT_API_KEY"))
	_, err := client.Domains.Get(context.Background(), "not-mine.inf.nz")
	if sdk.IsNotFound(err) {
		fmt.Println("no such domain in this account")
	}
}

func ExampleDNSService_Upsert() {
	client := sdk.NewClient(os.Getenv("NAMEPORT_API_KEY"))
	ctx := context.Background()
	// Each MX value carries its priority ("priority host"); a value without
	// one would take the set's Priority.
	records, err := client.DNS.Upsert(ctx, "example.inf.nz", sdk.RecordSet{
		Name:   "@",
		Type:   "MX",
		Values: []string{"10 mx1.example.net", "20 mx2.example.net"},
		TTL:    sdk.Int(3600),
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range records {
		fmt.Println(r.Name, r.Type, *r.Priority, r.Content)
	}
}

func ExampleDNSService_Delete() {
	client := sdk.NewClient(os.Getenv("NAMEPORT_API_KEY"))
	if err := client.DNS.Delete(context.Background(), "example.inf.nz", "A", "www"); err != nil {
		log.Fatal(err)
	}
}

func ExampleWalletService_Deposit() {
	client := sdk.NewClient(os.Getenv("NAMEPORT_API_KEY"))
	dep, err := client.Wallet.Deposit(context.Background(), sdk.DepositRequest{Amount: 50, PaymentMethod: "credit_card"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s; balance $%.2f\n", dep.Transaction.Status, dep.Wallet.Balance)
}

func ExampleWalletService_Transactions() {
	client := sdk.NewClient(os.Getenv("NAMEPORT_API_KEY"))
	for tx, err := range client.Wallet.Transactions(context.Background(), sdk.ListOptions{}) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(tx.CreatedAt.Format(time.DateOnly), tx.Type, tx.Amount)
	}
}

func ExampleDomainsService_SetEmailForwarding() {
	client := sdk.NewClient(os.Getenv("NAMEPORT_API_KEY"))
	ctx := context.Background()
	f, err := client.Domains.SetEmailForwarding(ctx, "example.inf.nz", true, false)
	if sdk.ErrorCode(err) == sdk.CodeConflict {
		// Another mail service's MX or SPF record: the message names them.
		// Replacing them is a decision for their owner.
		log.Fatalf("not turned on: %v", err)
	}
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("forwarding on; mail goes to", f.MailHost)
}

func ExampleDomainsService_AddForwardingRule() {
	client := sdk.NewClient(os.Getenv("NAMEPORT_API_KEY"))
	ctx := context.Background()
	rule, err := client.Domains.AddForwardingRule(ctx, "example.inf.nz", "info", []string{"you@example.com"})
	if err != nil {
		log.Fatal(err) // e.g. "A rule forwards to at most 10 addresses"
	}
	for _, d := range rule.Destinations {
		// An address receives nothing until its reader follows the link
		// mailed to it.
		fmt.Printf("info@example.inf.nz → %s (confirmed: %t)\n", d.Address, d.Verified)
	}
}

func ExampleDomainsService_SetDomainForward() {
	client := sdk.NewClient(os.Getenv("NAMEPORT_API_KEY"))
	ctx := context.Background()
	req := sdk.DomainForwardRequest{Target: "https://example.com/", Status: 301, KeepPath: true}
	fwd, err := client.Domains.SetDomainForward(ctx, "example.inf.nz", "www", req)
	if sdk.ErrorCode(err) == sdk.CodeConflict {
		// The host has records of its own (the message names them; so
		// does PreviewDomainForward). Replace them only if they are no
		// longer needed.
		log.Fatalf("not forwarded: %v", err)
	}
	if err != nil {
		log.Fatal(err) // e.g. "\"http://10.0.0.1\" cannot be a forwarding target: ..."
	}
	// The certificate for https://www.example.inf.nz is pending at first,
	// issued within seconds.
	fmt.Printf("%s → %s (%d), certificate %s\n", fwd.Name, fwd.Target, fwd.Status, fwd.Certificate.State)
}
