package sdk

import (
	"context"
	"net/http"
)

// Domain forwarding redirects a host name of a domain ("@" for the domain
// itself, "www", "shop") to another website, over HTTP and HTTPS: the
// forwarding servers obtain each host's certificate on their own. A
// forward points the host's A/AAAA records at those servers. These calls
// are on DomainsService because forwarding belongs to one domain, as its
// records do; hosts are relative to the domain, as records' names are.

// DomainForwarding returns domain's forwards, the domain itself (@) first,
// each with its target and the state of its HTTPS certificate, and the
// forwarding servers' addresses its hosts' records point at.
//
// Errors: CodeNotFound when you have no such domain; CodeUnavailable when
// the server does not offer domain forwarding.
func (s *DomainsService) DomainForwarding(ctx context.Context, domain string) (*DomainForwarding, error) {
	if domain == "" {
		return nil, errEmpty("domain")
	}
	var out DomainForwarding
	if err := s.c.do(ctx, http.MethodGet, domainForwardingPath(domain), nil, nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// PreviewDomainForward says what forwarding host of domain ("@" for the
// domain itself) would change in its DNS records: the records it adds, and
// the host's own A, AAAA or CNAME records it would replace, which
// SetDomainForward refuses to remove unless asked to
// (DomainForwardRequest.ReplaceRecords). Nothing changes.
//
// Errors: CodeInvalid for a host that cannot be a name of domain;
// CodeConflict when the host cannot forward at all (its name is delegated
// to other name servers); CodeNotFound when you have no such domain.
func (s *DomainsService) PreviewDomainForward(ctx context.Context, domain, host string) (*DomainForwardPreview, error) {
	if domain == "" {
		return nil, errEmpty("domain")
	}
	if host == "" {
		return nil, errEmpty("host")
	}
	var out DomainForwardPreview
	if err := s.c.do(ctx, http.MethodGet, domainForwardPath(domain, host)+"/preview", nil, nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// SetDomainForward forwards host of domain ("@" for the domain itself) to
// req.Target, or changes its forward if it has one (every field of req
// applies, so a field left out turns its option off), and returns the
// forward. The host's A/AAAA records point at the forwarding servers from
// then on, and its HTTPS certificate is obtained within seconds
// (DomainForward.Certificate says how that went).
//
//	fwd, err := client.Domains.SetDomainForward(ctx, "example.inf.nz", "www",
//		sdk.DomainForwardRequest{Target: "https://example.com/", Status: 301})
//
// Records of the host's own (another A record, a CNAME) make it fail with
// CodeConflict naming them, unless req.ReplaceRecords is set: then they are
// removed, in the same change (PreviewDomainForward lists them first).
//
// Errors: CodeInvalid with a message saying what is wrong (a target that
// is not an http or https URL to a public host name, one that would loop,
// a bad status or host, too many forwards); CodeConflict as above and when
// the host's name is delegated to other name servers; CodeForbidden when
// the domain's extension does not allow DNS management; CodeNotFound when
// you have no such domain.
func (s *DomainsService) SetDomainForward(ctx context.Context, domain, host string, req DomainForwardRequest) (*DomainForward, error) {
	if domain == "" {
		return nil, errEmpty("domain")
	}
	if host == "" {
		return nil, errEmpty("host")
	}
	var out DomainForward
	if err := s.c.effect(ctx, http.MethodPut, domainForwardPath(domain, host), req, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// DeleteDomainForward stops forwarding host of domain ("@" for the domain
// itself): the A/AAAA records the forward added go with it (records of the
// host's own that it replaced do not come back).
//
// Errors: CodeNotFound when you have no such domain or host has no
// forward; CodeForbidden when the domain's extension does not allow DNS
// management.
func (s *DomainsService) DeleteDomainForward(ctx context.Context, domain, host string) error {
	if domain == "" {
		return errEmpty("domain")
	}
	if host == "" {
		return errEmpty("host")
	}
	return s.c.do(ctx, http.MethodDelete, domainForwardPath(domain, host), nil, nil, nil)
}

func domainForwardingPath(domain string) string {
	return "/v1/domains/" + escape(domain) + "/domain-forwarding"
}

func domainForwardPath(domain, host string) string {
	return domainForwardingPath(domain) + "/" + escape(host)
}
