package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/nameport/nameport/sdk"
)

// runForwardSetup registers a domain with the registrar's key, forwards
// the domain itself to the target, and waits until the forwarding servers
// have its certificate (the certificate's state on /v1 says "issued"), so
// that a benchmark of redirects over HTTPS measures serving, not issuance.
// Prints the forwarded host name.
func runForwardSetup(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("forward-setup", flag.ContinueOnError)
	base := fs.String("url", "", "the server's HTTP address, e.g. http://127.0.0.1:8080")
	key := fs.String("key", "", "a registrar API key with money for one domain")
	target := fs.String("target", "https://example.com/", "where the domain forwards to")
	status := fs.Int("status", http.StatusMovedPermanently, "the redirect's status")
	wait := fs.Duration("wait", 2*time.Minute, "how long to wait for the certificate (0: do not wait)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *base == "" || *key == "" {
		return errors.New("forward-setup: -url and -key are required")
	}
	client := sdk.NewClient(*key, sdk.WithBaseURL(*base))
	domain := fmt.Sprintf("fwdbench%d.inf.nz", time.Now().UnixNano()%1_000_000_000)
	if _, err := client.Domains.Register(ctx, sdk.RegisterRequest{Domain: domain}); err != nil {
		return fmt.Errorf("forward-setup: register %s: %w", domain, err)
	}
	// A new domain may have records of its own at the apex: the forward
	// replaces them.
	fwd, err := client.Domains.SetDomainForward(ctx, domain, "@",
		sdk.DomainForwardRequest{Target: *target, Status: *status, ReplaceRecords: true})
	if err != nil {
		return fmt.Errorf("forward-setup: forward %s: %w", domain, err)
	}
	deadline := time.Now().Add(*wait)
	for cert := fwd.Certificate; *wait > 0 && cert.State != "issued"; {
		if cert.State == "failed" {
			return fmt.Errorf("forward-setup: the certificate of %s failed: %s", fwd.Name, cert.Error)
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("forward-setup: no certificate for %s within %s (state %q)", fwd.Name, *wait, cert.State)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
		list, err := client.Domains.DomainForwarding(ctx, domain)
		if err != nil {
			return fmt.Errorf("forward-setup: %w", err)
		}
		i := slices.IndexFunc(list.Forwards, func(f sdk.DomainForward) bool { return f.Name == fwd.Name })
		if i < 0 {
			return fmt.Errorf("forward-setup: the forward of %s is gone", fwd.Name)
		}
		cert = list.Forwards[i].Certificate
	}
	fmt.Println(fwd.Name)
	return nil
}
