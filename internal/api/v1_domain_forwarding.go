package api

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/nameport/nameport/internal/account"
	"github.com/nameport/nameport/internal/catalog"
	"github.com/nameport/nameport/internal/domainfwd"
	"github.com/nameport/nameport/internal/ratelimit"
	"github.com/nameport/nameport/internal/registration"
	"github.com/nameport/nameport/internal/zone"
	"github.com/nameport/nameport/sdk"
)

type V1DomainForwardingOutput struct {
	Body sdk.DomainForwarding
}

type V1DomainForwardHostInput struct {
	Domain string `path:"domain" example:"example.inf.nz"`
	Host   string `path:"host" maxLength:"300" doc:"Relative to the domain: @ for the domain itself, www, shop" example:"www"`
}

type V1DomainForwardSetInput struct {
	IdempotencyKey string `header:"Idempotency-Key" maxLength:"255" doc:"Retrying with the same key and body returns the first answer without repeating the effect; kept 24 hours"`
	Domain         string `path:"domain" example:"example.inf.nz"`
	Host           string `path:"host" maxLength:"300" doc:"Relative to the domain: @ for the domain itself, www, shop" example:"www"`
	Body           sdk.DomainForwardRequest
}

type V1DomainForwardOutput struct {
	Body sdk.DomainForward
}

type V1DomainForwardPreviewOutput struct {
	Body sdk.DomainForwardPreview
}

// v1WebForwardingHandlers are the handlers of /v1's domain forwarding of
// the key's domains.
type v1WebForwardingHandlers struct {
	dns        v1DNSHandlers
	forwarding *domainfwd.Service // nil: not set up
}

func addV1WebForwardingRoutes(v *v1, domains *registration.Service, cat *catalog.Service, records *zone.Service, forwarding *domainfwd.Service) {
	h := v1WebForwardingHandlers{v1DNSHandlers{domains, cat, records}, forwarding}
	tags := []string{"Registrar API"}
	errs := []int{http.StatusNotFound, http.StatusServiceUnavailable}

	registerV1(v, account.ScopeRead, huma.Operation{
		OperationID: "v1-domain-forwarding-get", Method: http.MethodGet, Path: "/v1/domains/{domain}/domain-forwarding", Tags: tags,
		Summary:     "List a domain's forwards",
		Description: "The host names of the domain that redirect to another website, each with its target and the state of its HTTPS certificate.",
		Errors:      errs,
	}, nil, h.list)

	registerV1(v, account.ScopeRead, huma.Operation{
		OperationID: "v1-domain-forward-preview", Method: http.MethodGet, Path: "/v1/domains/{domain}/domain-forwarding/{host}/preview", Tags: tags,
		Summary:     "Preview a forward's DNS changes",
		Description: "The records forwarding the host adds, and those of its records it replaces (which setting it refuses unless told to replace them).",
		Errors:      append(errs, http.StatusConflict, http.StatusUnprocessableEntity),
	}, nil, h.preview)

	// A forward changes the host's records: it counts as a DNS operation,
	// as on /api.
	registerV1(v, account.ScopeDNS, huma.Operation{
		OperationID: "v1-domain-forward-set", Method: http.MethodPut, Path: "/v1/domains/{domain}/domain-forwarding/{host}", Tags: tags,
		Summary: "Forward a host name of a domain",
		Description: "Redirects every request for the host (@ for the domain itself) to the target with the status chosen, over HTTP and HTTPS " +
			"(a certificate is obtained for it within seconds). The host's A/AAAA records point at the forwarding servers from then on; " +
			"records of its own make a 409 naming them unless replaceRecords is set. Setting it again changes the forward.",
		Errors: append(errs, http.StatusForbidden, http.StatusConflict, http.StatusUnprocessableEntity),
	}, &ratelimit.DNSChanges, h.set)

	registerV1(v, account.ScopeDNS, huma.Operation{
		OperationID: "v1-domain-forward-delete", Method: http.MethodDelete, Path: "/v1/domains/{domain}/domain-forwarding/{host}", Tags: tags,
		Summary:     "Stop forwarding a host name of a domain",
		Description: "Removes the forward, the A/AAAA records it added and its certificate.", DefaultStatus: http.StatusNoContent,
		Errors: append(errs, http.StatusForbidden, http.StatusUnprocessableEntity),
	}, &ratelimit.DNSChanges, h.delete)
}

// owned returns the key's domain by name as forwarding knows it; another
// account's is not found.
func (h v1WebForwardingHandlers) owned(ctx context.Context, name string) (domainfwd.Domain, error) {
	d, err := h.dns.owned(ctx, name)
	if err == nil && h.forwarding == nil {
		err = errForwardingOff
	}
	return webForwardingDomain(keyUser(ctx), d), err
}

// editable is owned, for changes: the extension must allow DNS management.
func (h v1WebForwardingHandlers) editable(ctx context.Context, name string) (domainfwd.Domain, error) {
	d, err := h.dns.editable(ctx, name)
	if err == nil && h.forwarding == nil {
		err = errForwardingOff
	}
	return webForwardingDomain(keyUser(ctx), d), err
}

func (h v1WebForwardingHandlers) list(ctx context.Context, in *V1DomainInput) (*V1DomainForwardingOutput, error) {
	d, err := h.owned(ctx, in.Domain)
	if err != nil {
		return nil, problem(ctx, err)
	}
	out, err := listForwards(ctx, h.forwarding, d)
	if err != nil {
		return nil, problem(ctx, err)
	}
	return &V1DomainForwardingOutput{Body: out}, nil
}

func (h v1WebForwardingHandlers) preview(ctx context.Context, in *V1DomainForwardHostInput) (*V1DomainForwardPreviewOutput, error) {
	d, err := h.owned(ctx, in.Domain)
	if err != nil {
		return nil, problem(ctx, err)
	}
	p, err := h.forwarding.Preview(ctx, d, in.Host)
	if err != nil {
		return nil, problem(ctx, err)
	}
	return &V1DomainForwardPreviewOutput{Body: toForwardPreview(p)}, nil
}

func (h v1WebForwardingHandlers) set(ctx context.Context, in *V1DomainForwardSetInput) (*V1DomainForwardOutput, error) {
	d, err := h.editable(ctx, in.Domain)
	if err != nil {
		return nil, problem(ctx, err)
	}
	r, err := h.forwarding.Set(ctx, d, forwardInput(in.Host, in.Body), in.Body.ReplaceRecords)
	if err != nil {
		return nil, problem(ctx, err)
	}
	return &V1DomainForwardOutput{Body: toDomainForward(*r)}, nil
}

func (h v1WebForwardingHandlers) delete(ctx context.Context, in *V1DomainForwardHostInput) (*V1NoContentOutput, error) {
	d, err := h.editable(ctx, in.Domain)
	if err != nil {
		return nil, problem(ctx, err)
	}
	if err := h.forwarding.Delete(ctx, d, in.Host); err != nil {
		return nil, problem(ctx, err)
	}
	return &V1NoContentOutput{}, nil
}
