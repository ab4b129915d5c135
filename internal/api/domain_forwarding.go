package api

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/nameport/nameport/internal/account"
	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/catalog"
	"github.com/nameport/nameport/internal/domainfwd"
	"github.com/nameport/nameport/internal/ratelimit"
	"github.com/nameport/nameport/internal/registration"
	"github.com/nameport/nameport/internal/zone"
	"github.com/nameport/nameport/sdk"
)

// Domain forwarding of the signed-in account's domains (the Domain
// Forwarding tab): host names of a domain that redirect to another website.
// The bodies are the registrar API's (sdk), so both APIs answer alike.

type DomainForwardingOutput struct {
	Body envelope[sdk.DomainForwarding]
}

type DomainForwardHostInput struct {
	ID   int64  `path:"id" doc:"Domain id"`
	Host string `path:"host" maxLength:"300" doc:"Relative to the domain: @ for the domain itself, www, shop" example:"www"`
}

type DomainForwardSetInput struct {
	ID   int64  `path:"id" doc:"Domain id"`
	Host string `path:"host" maxLength:"300" doc:"Relative to the domain: @ for the domain itself, www, shop" example:"www"`
	Body sdk.DomainForwardRequest
}

type DomainForwardOutput struct {
	Body envelope[sdk.DomainForward]
}

type DomainForwardPreviewOutput struct {
	Body envelope[sdk.DomainForwardPreview]
}

func toDomainForward(r domainfwd.Rule) sdk.DomainForward {
	return sdk.DomainForward{ID: r.ID, Host: r.Host, Name: r.Name, Target: r.Target, Status: r.Status,
		KeepPath: r.KeepPath, KeepQuery: r.KeepQuery, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
		Certificate: sdk.ForwardCertificate{State: r.Certificate.State, NotAfter: r.Certificate.NotAfter, Error: r.Certificate.Error}}
}

// listForwards returns d's forwarding, as both APIs show it.
func listForwards(ctx context.Context, svc *domainfwd.Service, d domainfwd.Domain) (sdk.DomainForwarding, error) {
	rules, err := svc.List(ctx, d)
	if err != nil {
		return sdk.DomainForwarding{}, err
	}
	out := sdk.DomainForwarding{Forwards: make([]sdk.DomainForward, len(rules)), MaxRules: svc.MaxRules(), Addresses: svc.Addresses()}
	for i, r := range rules {
		out.Forwards[i] = toDomainForward(r)
	}
	return out, nil
}

func toForwardPreview(p *domainfwd.Preview) sdk.DomainForwardPreview {
	return sdk.DomainForwardPreview{Host: p.Host, Name: p.Name, Adds: p.Adds, Replaces: p.Replaces}
}

func forwardInput(host string, in sdk.DomainForwardRequest) domainfwd.Input {
	return domainfwd.Input{Host: host, Target: in.Target, Status: in.Status, KeepPath: in.KeepPath, KeepQuery: in.KeepQuery}
}

// errForwardingOff answers every forwarding request of a server without a
// forwarding address (--forward-ipv4/--forward-ipv6).
var errForwardingOff = apperr.New(apperr.Unavailable, "Domain forwarding is not set up on this server")

// webForwardingHandlers are the handlers of the domain forwarding of the
// signed-in account's domains. Which domains are the account's, and which
// may have their records changed, is the DNS handlers' decision: a forward
// changes the host's records.
type webForwardingHandlers struct {
	dns        dnsHandlers
	forwarding *domainfwd.Service // nil: not set up
}

func addWebForwardingRoutes(a huma.API, domains *registration.Service, cat *catalog.Service, records *zone.Service, forwarding *domainfwd.Service) {
	h := webForwardingHandlers{dnsHandlers{domains, cat, records}, forwarding}
	errs := []int{http.StatusNotFound, http.StatusServiceUnavailable}
	tags := []string{"Domain forwarding"}

	register(a, accessAccount, huma.Operation{
		OperationID: "domain-forwarding-get", Method: http.MethodGet, Path: "/api/domains/{id}/domain-forwarding", Tags: tags,
		Summary:     "List my domain's forwards",
		Description: "The host names of the domain that redirect to another website, each with its target and the state of its HTTPS certificate.",
		Errors:      errs,
	}, h.list)

	register(a, accessAccount, huma.Operation{
		OperationID: "domain-forward-preview", Method: http.MethodGet, Path: "/api/domains/{id}/domain-forwarding/{host}/preview", Tags: tags,
		Summary:     "Preview a forward's DNS changes",
		Description: "The records forwarding the host adds, and those of its records it replaces (which setting it refuses unless told to replace them).",
		Errors:      append(errs, http.StatusConflict, http.StatusUnprocessableEntity),
	}, h.preview)

	// A forward changes the host's records: it counts against the
	// account's DNS limit, as a record change does.
	register(a, accessAccount.countedAs(ratelimit.DNSChanges), huma.Operation{
		OperationID: "domain-forward-set", Method: http.MethodPut, Path: "/api/domains/{id}/domain-forwarding/{host}", Tags: tags,
		Summary: "Forward a host name of my domain",
		Description: "Redirects every request for the host (@ for the domain itself) to the target with the status chosen, over HTTP and HTTPS " +
			"(a certificate is obtained for it within seconds). The host's A/AAAA records point at the forwarding servers from then on; " +
			"records of its own make a 409 naming them unless replaceRecords is set. Setting it again changes the forward.",
		Errors: append(errs, http.StatusForbidden, http.StatusConflict, http.StatusUnprocessableEntity),
	}, h.set)

	register(a, accessAccount.countedAs(ratelimit.DNSChanges), huma.Operation{
		OperationID: "domain-forward-delete", Method: http.MethodDelete, Path: "/api/domains/{id}/domain-forwarding/{host}", Tags: tags,
		Summary:     "Stop forwarding a host name of my domain",
		Description: "Removes the forward, the A/AAAA records it added and its certificate.",
		Errors:      append(errs, http.StatusForbidden, http.StatusUnprocessableEntity),
	}, h.delete)
}

// webForwardingDomain is d, a domain of u, as forwarding knows it.
func webForwardingDomain(u *account.User, d zone.Domain) domainfwd.Domain {
	return domainfwd.Domain{ID: d.ID, UserID: u.ID, Label: d.Name, Extension: d.Extension}
}

// owned returns the caller's domain as forwarding knows it; another
// account's is not found.
func (h webForwardingHandlers) owned(ctx context.Context, id int64) (domainfwd.Domain, error) {
	d, err := h.dns.owned(ctx, id)
	if err == nil && h.forwarding == nil {
		err = errForwardingOff
	}
	return webForwardingDomain(sessionUser(ctx), d), err
}

// editable is owned, for changes: the extension must allow DNS management.
func (h webForwardingHandlers) editable(ctx context.Context, id int64) (domainfwd.Domain, error) {
	d, err := h.dns.editable(ctx, id)
	if err == nil && h.forwarding == nil {
		err = errForwardingOff
	}
	return webForwardingDomain(sessionUser(ctx), d), err
}

// list returns the forwards of one of the signed-in account's domains.
func (h webForwardingHandlers) list(ctx context.Context, in *DomainIDInput) (*DomainForwardingOutput, error) {
	d, err := h.owned(ctx, in.ID)
	if err != nil {
		return nil, fail(ctx, err)
	}
	out, err := listForwards(ctx, h.forwarding, d)
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &DomainForwardingOutput{Body: ok(out)}, nil
}

// preview says what forwarding a host of one of the account's domains changes in its records.
func (h webForwardingHandlers) preview(ctx context.Context, in *DomainForwardHostInput) (*DomainForwardPreviewOutput, error) {
	d, err := h.owned(ctx, in.ID)
	if err != nil {
		return nil, fail(ctx, err)
	}
	p, err := h.forwarding.Preview(ctx, d, in.Host)
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &DomainForwardPreviewOutput{Body: ok(toForwardPreview(p))}, nil
}

// set forwards a host of one of the signed-in account's domains.
func (h webForwardingHandlers) set(ctx context.Context, in *DomainForwardSetInput) (*DomainForwardOutput, error) {
	d, err := h.editable(ctx, in.ID)
	if err != nil {
		return nil, fail(ctx, err)
	}
	r, err := h.forwarding.Set(ctx, d, forwardInput(in.Host, in.Body), in.Body.ReplaceRecords)
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &DomainForwardOutput{Body: ok(toDomainForward(*r))}, nil
}

// delete stops forwarding a host of one of the signed-in account's domains.
func (h webForwardingHandlers) delete(ctx context.Context, in *DomainForwardHostInput) (*DoneOutput, error) {
	d, err := h.editable(ctx, in.ID)
	if err != nil {
		return nil, fail(ctx, err)
	}
	if err := h.forwarding.Delete(ctx, d, in.Host); err != nil {
		return nil, fail(ctx, err)
	}
	return done(), nil
}
