package sdk

import (
	"context"
	"iter"
	"net/http"
)

// DomainsService checks, registers and reads domains, and manages their
// email forwarding. Reach it as Client.Domains.
type DomainsService struct{ c *Client }

// Check tells whether domain (label and extension, e.g. "example.inf.nz")
// can be registered, and its yearly price for your account.
//
// Errors: CodeInvalid for a malformed name or an extension Nameport does not
// sell.
func (s *DomainsService) Check(ctx context.Context, domain string) (*Availability, error) {
	if domain == "" {
		return nil, errEmpty("domain")
	}
	var out Availability
	if err := s.c.do(ctx, http.MethodPost, "/v1/domains/check", nil, CheckRequest{Domain: domain}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Register registers a domain and pays for it from the wallet. It returns
// the domain, the charge and the wallet after it.
//
// The call carries an Idempotency-Key, so retrying it never registers or
// charges twice; see WithIdempotencyKey to choose the key.
//
// Errors: CodeInsufficientFunds (402) when the wallet cannot pay, the
// message saying how much to add; CodeAllowanceExhausted (403) when your
// tier's new registrations for this month are used up (see Allowance);
// CodeConflict when the name is taken; CodeInvalid for bad input.
func (s *DomainsService) Register(ctx context.Context, in RegisterRequest) (*Registration, error) {
	if in.Domain == "" {
		return nil, errEmpty("domain")
	}
	var out Registration
	if err := s.c.effect(ctx, http.MethodPost, "/v1/domains/register", in, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Allowance returns your new registrations this calendar month (UTC)
// against your tier's monthly allowance, and when it resets.
func (s *DomainsService) Allowance(ctx context.Context) (*Allowance, error) {
	var out Allowance
	if err := s.c.do(ctx, http.MethodGet, "/v1/account/allowance", nil, nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Get returns one of your domains by name, e.g. "example.inf.nz".
//
// Errors: CodeNotFound when you have no such domain.
func (s *DomainsService) Get(ctx context.Context, domain string) (*Domain, error) {
	if domain == "" {
		return nil, errEmpty("domain")
	}
	var out Domain
	if err := s.c.do(ctx, http.MethodGet, "/v1/domains/"+escape(domain), nil, nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// ListPage returns one page of your domains, oldest first.
func (s *DomainsService) ListPage(ctx context.Context, opts ListOptions) (*DomainPage, error) {
	var out DomainPage
	if err := s.c.do(ctx, http.MethodGet, "/v1/domains", opts.query(), nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// List iterates over all your domains, oldest first, fetching pages of
// opts.Limit as it goes (start at opts.Cursor, or at the beginning). An
// error ends the iteration:
//
//	for d, err := range client.Domains.List(ctx, sdk.ListOptions{}) {
//		if err != nil {
//			return err
//		}
//		fmt.Println(d.Domain)
//	}
func (s *DomainsService) List(ctx context.Context, opts ListOptions) iter.Seq2[Domain, error] {
	return all(ctx, opts, func(ctx context.Context, o ListOptions) ([]Domain, string, error) {
		p, err := s.ListPage(ctx, o)
		if err != nil {
			return nil, "", err
		}
		return p.Domains, p.NextCursor, nil
	})
}
