package api

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/nameport/nameport/internal/account"
	"github.com/nameport/nameport/internal/catalog"
	"github.com/nameport/nameport/internal/mailfwd"
	"github.com/nameport/nameport/internal/ratelimit"
	"github.com/nameport/nameport/internal/registration"
	"github.com/nameport/nameport/internal/zone"
	"github.com/nameport/nameport/sdk"
)

type V1EmailForwardingOutput struct {
	Body sdk.EmailForwarding
}

type V1EmailForwardingSetInput struct {
	IdempotencyKey string `header:"Idempotency-Key" maxLength:"255" doc:"Retrying with the same key and body returns the first answer without repeating the effect; kept 24 hours"`
	Domain         string `path:"domain" example:"example.inf.nz"`
	Body           sdk.EmailForwardingSettings
}

type V1ForwardingRuleCreateInput struct {
	IdempotencyKey string `header:"Idempotency-Key" maxLength:"255" doc:"Retrying with the same key and body returns the first answer without repeating the effect; kept 24 hours"`
	Domain         string `path:"domain" example:"example.inf.nz"`
	Body           sdk.ForwardingRuleRequest
}

type V1ForwardingRuleOutput struct {
	Body sdk.ForwardingRule
}

type V1ForwardingRuleUpdateInput struct {
	IdempotencyKey string `header:"Idempotency-Key" maxLength:"255" doc:"Retrying with the same key and body returns the first answer without repeating the effect; kept 24 hours"`
	Domain         string `path:"domain" example:"example.inf.nz"`
	RuleID         int64  `path:"ruleId" doc:"The rule's id"`
	Body           sdk.ForwardingRuleRequest
}

type V1ForwardingRuleDeleteInput struct {
	Domain string `path:"domain" example:"example.inf.nz"`
	RuleID int64  `path:"ruleId" doc:"The rule's id"`
}

type V1ForwardingLogOutput struct {
	Body sdk.ForwardingLog
}

func toV1Forwarding(st *mailfwd.Status) sdk.EmailForwarding {
	out := sdk.EmailForwarding{Enabled: st.Enabled, MailHost: st.MailHost, Replaces: st.Replaces,
		Rules: make([]sdk.ForwardingRule, len(st.Rules)), MaxRules: st.MaxRules}
	if out.Replaces == nil {
		out.Replaces = []string{}
	}
	for i, r := range st.Rules {
		out.Rules[i] = toV1ForwardingRule(r)
	}
	return out
}

func toV1ForwardingRule(r mailfwd.Rule) sdk.ForwardingRule {
	out := sdk.ForwardingRule{ID: r.ID, Alias: r.Alias, CreatedAt: r.CreatedAt.UTC(),
		Destinations: make([]sdk.ForwardingDestination, len(r.Destinations))}
	for i, d := range r.Destinations {
		out.Destinations[i] = sdk.ForwardingDestination{Address: d.Address, Verified: d.Verified}
	}
	return out
}

// v1ForwardingHandlers are the handlers of /v1's email forwarding of the
// key's domains.
type v1ForwardingHandlers struct {
	dns        v1DNSHandlers
	forwarding *mailfwd.Service
}

func addV1ForwardingRoutes(v *v1, domains *registration.Service, cat *catalog.Service, records *zone.Service, forwarding *mailfwd.Service) {
	h := v1ForwardingHandlers{v1DNSHandlers{domains, cat, records}, forwarding}
	tags := []string{"Registrar API"}

	registerV1(v, account.ScopeRead, huma.Operation{
		OperationID: "v1-email-forwarding-get", Method: http.MethodGet, Path: "/v1/domains/{domain}/email-forwarding", Tags: tags,
		Summary:     "Get a domain's email forwarding",
		Description: "Whether it is on, its rules with each address and whether its reader confirmed it, and the mail records of another service that turning it on would replace.",
		Errors:      []int{http.StatusNotFound},
	}, nil, h.status)

	// Turning forwarding on or off changes the domain's records: it counts
	// as a DNS operation, as on /api.
	registerV1(v, account.ScopeDNS, huma.Operation{
		OperationID: "v1-email-forwarding-set", Method: http.MethodPut, Path: "/v1/domains/{domain}/email-forwarding", Tags: tags,
		Summary: "Turn a domain's email forwarding on or off",
		Description: "On adds the MX record naming Nameport's mail server and the SPF record v=spf1 mx ~all, in one change; " +
			"an MX or SPF record of another mail service makes it a 409 naming them unless replaceMailRecords is set. " +
			"Off removes those two records; the rules stay. Returns the forwarding afterwards.",
		Errors: []int{http.StatusForbidden, http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
	}, &ratelimit.DNSChanges, h.set)

	registerV1(v, account.ScopeDNS, huma.Operation{
		OperationID: "v1-email-forwarding-rule-create", Method: http.MethodPost, Path: "/v1/domains/{domain}/email-forwarding/rules", Tags: tags,
		Summary: "Add a forwarding rule", DefaultStatus: http.StatusCreated,
		Description: "Forwards the mail of alias@domain (* for every address no other rule names) to 1 to 10 addresses. " +
			"An address the account has not confirmed gets a confirmation link by mail and receives nothing until its reader follows it.",
		Errors: []int{http.StatusForbidden, http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
	}, nil, h.addRule)

	registerV1(v, account.ScopeDNS, huma.Operation{
		OperationID: "v1-email-forwarding-rule-update", Method: http.MethodPut, Path: "/v1/domains/{domain}/email-forwarding/rules/{ruleId}", Tags: tags,
		Summary: "Change a forwarding rule",
		Description: "Gives the rule its alias and addresses from now on, in one change, with the checks of adding one. " +
			"An address new to the account gets a confirmation link; addresses left out stay confirmed for the account's other rules.",
		Errors: []int{http.StatusForbidden, http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
	}, nil, h.updateRule)

	registerV1(v, account.ScopeDNS, huma.Operation{
		OperationID: "v1-email-forwarding-rule-delete", Method: http.MethodDelete, Path: "/v1/domains/{domain}/email-forwarding/rules/{ruleId}", Tags: tags,
		Summary: "Delete a forwarding rule", DefaultStatus: http.StatusNoContent,
		Errors: []int{http.StatusNotFound, http.StatusUnprocessableEntity},
	}, nil, h.deleteRule)

	registerV1(v, account.ScopeRead, huma.Operation{
		OperationID: "v1-email-forwarding-log", Method: http.MethodGet, Path: "/v1/domains/{domain}/email-forwarding/log", Tags: tags,
		Summary: "List a domain's forwarding log", Description: "The last 100 forwarded, failed and refused messages, newest first.",
		Errors: []int{http.StatusNotFound},
	}, nil, h.log)
}

// owned returns the key's domain by name as forwarding knows it; another
// account's is not found.
func (h v1ForwardingHandlers) owned(ctx context.Context, name string) (mailfwd.Domain, error) {
	d, err := h.dns.owned(ctx, name)
	return forwardingDomain(keyUser(ctx), d), err
}

// editable is owned, for turning forwarding on or off, which changes the
// domain's records: the extension must allow DNS management.
func (h v1ForwardingHandlers) editable(ctx context.Context, name string) (mailfwd.Domain, error) {
	d, err := h.dns.editable(ctx, name)
	return forwardingDomain(keyUser(ctx), d), err
}

// status returns the email forwarding of one of the key's domains.
func (h v1ForwardingHandlers) status(ctx context.Context, in *V1DomainInput) (*V1EmailForwardingOutput, error) {
	d, err := h.owned(ctx, in.Domain)
	if err != nil {
		return nil, problem(ctx, err)
	}
	st, err := h.forwarding.Status(ctx, d)
	if err != nil {
		return nil, problem(ctx, err)
	}
	return &V1EmailForwardingOutput{Body: toV1Forwarding(st)}, nil
}

// set turns the email forwarding of one of the key's domains on or off.
func (h v1ForwardingHandlers) set(ctx context.Context, in *V1EmailForwardingSetInput) (*V1EmailForwardingOutput, error) {
	d, err := h.editable(ctx, in.Domain)
	if err != nil {
		return nil, problem(ctx, err)
	}
	st, err := setForwarding(ctx, h.forwarding, d, in.Body.Enabled, in.Body.ReplaceMailRecords)
	if err != nil {
		return nil, problem(ctx, err)
	}
	return &V1EmailForwardingOutput{Body: toV1Forwarding(st)}, nil
}

// addRule adds a forwarding rule to one of the key's domains.
func (h v1ForwardingHandlers) addRule(ctx context.Context, in *V1ForwardingRuleCreateInput) (*V1ForwardingRuleOutput, error) {
	d, err := h.owned(ctx, in.Domain)
	if err != nil {
		return nil, problem(ctx, err)
	}
	r, err := h.forwarding.AddRule(ctx, d, in.Body.Alias, in.Body.Destinations)
	if err != nil {
		return nil, problem(ctx, err)
	}
	return &V1ForwardingRuleOutput{Body: toV1ForwardingRule(*r)}, nil
}

// updateRule changes a forwarding rule of one of the key's domains.
func (h v1ForwardingHandlers) updateRule(ctx context.Context, in *V1ForwardingRuleUpdateInput) (*V1ForwardingRuleOutput, error) {
	d, err := h.owned(ctx, in.Domain)
	if err != nil {
		return nil, problem(ctx, err)
	}
	r, err := h.forwarding.UpdateRule(ctx, d, in.RuleID, in.Body.Alias, in.Body.Destinations)
	if err != nil {
		return nil, problem(ctx, err)
	}
	return &V1ForwardingRuleOutput{Body: toV1ForwardingRule(*r)}, nil
}

// deleteRule removes a forwarding rule of one of the key's domains.
func (h v1ForwardingHandlers) deleteRule(ctx context.Context, in *V1ForwardingRuleDeleteInput) (*V1NoContentOutput, error) {
	d, err := h.owned(ctx, in.Domain)
	if err != nil {
		return nil, problem(ctx, err)
	}
	if err := h.forwarding.DeleteRule(ctx, d, in.RuleID); err != nil {
		return nil, problem(ctx, err)
	}
	return &V1NoContentOutput{}, nil
}

// log lists the forwarding log of one of the key's domains.
func (h v1ForwardingHandlers) log(ctx context.Context, in *V1DomainInput) (*V1ForwardingLogOutput, error) {
	d, err := h.owned(ctx, in.Domain)
	if err != nil {
		return nil, problem(ctx, err)
	}
	entries, err := h.forwarding.Log(ctx, d)
	if err != nil {
		return nil, problem(ctx, err)
	}
	out := sdk.ForwardingLog{Entries: make([]sdk.ForwardingLogEntry, len(entries))}
	for i, e := range entries {
		out.Entries[i] = sdk.ForwardingLogEntry{Time: e.Time, From: e.From, To: e.To, ForwardTo: e.ForwardTo,
			Size: e.Size, Outcome: e.Outcome, Detail: e.Detail}
	}
	return &V1ForwardingLogOutput{Body: out}, nil
}
