package api

import (
	"context"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/nameport/nameport/internal/account"
	"github.com/nameport/nameport/internal/catalog"
	"github.com/nameport/nameport/internal/mailfwd"
	"github.com/nameport/nameport/internal/ratelimit"
	"github.com/nameport/nameport/internal/registration"
	"github.com/nameport/nameport/internal/zone"
)

// Email forwarding of the signed-in account's domains (the Email
// Forwarding tab), and the confirmation of a destination, which its
// reader does from the link mailed to it, signed in or not.

type forwardingDestinationBody struct {
	Address  string `json:"address" example:"you@example.com"`
	Verified bool   `json:"verified" doc:"Its reader followed the confirmation link mailed to it; until then it receives nothing"`
}

type forwardingRuleBody struct {
	ID           int64                       `json:"id"`
	Alias        string                      `json:"alias" doc:"The local part (before the @), lower case, or * for every address no other rule names" example:"info"`
	Destinations []forwardingDestinationBody `json:"destinations" nullable:"false"`
	CreatedAt    time.Time                   `json:"createdAt"`
}

type forwardingBody struct {
	Enabled  bool                 `json:"enabled" doc:"The domain's MX record names Nameport's mail server, which forwards its mail by the rules"`
	MailHost string               `json:"mailHost" doc:"The mail server the domain's MX record names while forwarding is on" example:"mx.inf.nz"`
	Replaces []string             `json:"replaces" nullable:"false" doc:"Mail records of another service (MX, SPF) that turning forwarding on replaces; it is refused (409) unless replaceMailRecords is set" example:"[\"MX 10 mail.example.net\"]"`
	Rules    []forwardingRuleBody `json:"rules" nullable:"false" doc:"The catch-all (*) last"`
	MaxRules int                  `json:"maxRules" doc:"How many rules the domain may have" example:"20"`
}

type forwardingLogEntryBody struct {
	Time      time.Time `json:"time"`
	From      string    `json:"from" doc:"The envelope sender; empty for a bounce"`
	To        string    `json:"to" doc:"The address at the domain it was sent to"`
	ForwardTo string    `json:"forwardTo,omitempty" doc:"The destination it was forwarded to; absent for a refusal"`
	Size      int64     `json:"size" doc:"Bytes"`
	Outcome   string    `json:"outcome" enum:"forwarded,failed,refused"`
	Detail    string    `json:"detail,omitempty" doc:"Why it failed or was refused"`
}

type forwardingConfirmedBody struct {
	Address string `json:"address" doc:"The address confirmed: it receives the mail of the rules that name it from now on" example:"you@example.com"`
}

func toForwardingRuleBody(r mailfwd.Rule) forwardingRuleBody {
	out := forwardingRuleBody{ID: r.ID, Alias: r.Alias, CreatedAt: r.CreatedAt,
		Destinations: make([]forwardingDestinationBody, len(r.Destinations))}
	for i, d := range r.Destinations {
		out.Destinations[i] = forwardingDestinationBody{Address: d.Address, Verified: d.Verified}
	}
	return out
}

func toForwardingBody(st *mailfwd.Status) forwardingBody {
	out := forwardingBody{Enabled: st.Enabled, MailHost: st.MailHost, Replaces: st.Replaces,
		Rules: make([]forwardingRuleBody, len(st.Rules)), MaxRules: st.MaxRules}
	if out.Replaces == nil {
		out.Replaces = []string{}
	}
	for i, r := range st.Rules {
		out.Rules[i] = toForwardingRuleBody(r)
	}
	return out
}

type ForwardingOutput struct {
	Body envelope[forwardingBody]
}

type ForwardingSetInput struct {
	ID   int64 `path:"id" doc:"Domain id"`
	Body struct {
		Enabled            bool `json:"enabled" doc:"On: add the MX record naming Nameport's mail server and the SPF record v=spf1 mx ~all. Off: remove those two; the rules stay for next time"`
		ReplaceMailRecords bool `json:"replaceMailRecords,omitempty" doc:"Turning on: remove the domain's MX and SPF records of another mail service (without it they make a 409 naming them)"`
	}
}

// ForwardingRuleCreateInput's limits are loose on purpose: the service's
// own checks say what is wrong in words (at most 64 characters, 10
// addresses), which a schema's "expected length <= 64" would not.
type ForwardingRuleCreateInput struct {
	ID   int64 `path:"id" doc:"Domain id"`
	Body struct {
		Alias        string   `json:"alias" required:"false" maxLength:"200" doc:"Letters, digits, dots, hyphens, underscores or plus signs, at most 64 characters; * for every address no other rule names" example:"info"`
		Destinations []string `json:"destinations" required:"false" maxItems:"1000" doc:"1 to 10 addresses, ASCII (an internationalized domain in its xn-- form), none at the domain itself. A new address gets a confirmation link and receives nothing until its reader follows it" example:"[\"you@example.com\"]"`
	}
}

type ForwardingRuleOutput struct {
	Body envelope[forwardingRuleBody]
}

// ForwardingRuleUpdateInput's limits are loose for the same reason as
// ForwardingRuleCreateInput's.
type ForwardingRuleUpdateInput struct {
	ID     int64 `path:"id" doc:"Domain id"`
	RuleID int64 `path:"ruleId"`
	Body   struct {
		Alias        string   `json:"alias" required:"false" maxLength:"200" doc:"As when adding a rule" example:"info"`
		Destinations []string `json:"destinations" required:"false" maxItems:"1000" doc:"As when adding a rule: the rule's addresses from now on" example:"[\"you@example.com\"]"`
	}
}

type ForwardingRuleIDInput struct {
	ID     int64 `path:"id" doc:"Domain id"`
	RuleID int64 `path:"ruleId"`
}

type ForwardingResendInput struct {
	ID   int64 `path:"id" doc:"Domain id"`
	Body struct {
		Address string `json:"address" required:"false" doc:"An unconfirmed address of one of the domain's rules" example:"you@example.com"`
	}
}

type ForwardingLogOutput struct {
	Body envelope[[]forwardingLogEntryBody]
}

type ForwardingConfirmInput struct {
	Body struct {
		Token string `json:"token" required:"false" doc:"The token of the confirmation link"`
	}
}

type ForwardingConfirmOutput struct {
	Body envelope[forwardingConfirmedBody]
}

// forwardingHandlers are the handlers of the email forwarding of the
// signed-in account's domains. Which domains are the account's, and which
// may have their records changed, is the DNS handlers' decision: turning
// forwarding on or off changes records.
type forwardingHandlers struct {
	dns        dnsHandlers
	forwarding *mailfwd.Service
}

func addForwardingRoutes(a huma.API, domains *registration.Service, cat *catalog.Service, records *zone.Service, forwarding *mailfwd.Service) {
	h := forwardingHandlers{dnsHandlers{domains, cat, records}, forwarding}
	errs := []int{http.StatusNotFound}
	tags := []string{"Email forwarding"}

	register(a, accessAccount, huma.Operation{
		OperationID: "email-forwarding-get", Method: http.MethodGet, Path: "/api/domains/{id}/email-forwarding", Tags: tags,
		Summary:     "Get my domain's email forwarding",
		Description: "Whether it is on, its rules with each address and whether its reader confirmed it, and the mail records of another service that turning it on would replace.",
		Errors:      errs,
	}, h.status)

	// Turning forwarding on or off changes the domain's records: it counts
	// against the account's DNS limit, as a record change does.
	register(a, accessAccount.countedAs(ratelimit.DNSChanges), huma.Operation{
		OperationID: "email-forwarding-set", Method: http.MethodPut, Path: "/api/domains/{id}/email-forwarding", Tags: tags,
		Summary: "Turn my domain's email forwarding on or off",
		Description: "On adds the MX record naming Nameport's mail server and the SPF record v=spf1 mx ~all, in one change; " +
			"an MX or SPF record of another mail service makes it a 409 naming them unless replaceMailRecords is set. " +
			"Off removes those two records; the rules stay. Returns the forwarding afterwards.",
		Errors: append(errs, http.StatusForbidden, http.StatusConflict, http.StatusUnprocessableEntity),
	}, h.set)

	register(a, accessAccount, huma.Operation{
		OperationID: "email-forwarding-rule-create", Method: http.MethodPost, Path: "/api/domains/{id}/email-forwarding/rules", Tags: tags,
		Summary: "Add a forwarding rule", DefaultStatus: http.StatusCreated,
		Description: "Forwards the mail of alias@domain (* for every address no other rule names) to 1 to 10 addresses. " +
			"An address the account has not confirmed gets a confirmation link by mail and receives nothing until its reader follows it.",
		Errors: append(errs, http.StatusForbidden, http.StatusConflict, http.StatusUnprocessableEntity),
	}, h.addRule)

	register(a, accessAccount, huma.Operation{
		OperationID: "email-forwarding-rule-update", Method: http.MethodPut, Path: "/api/domains/{id}/email-forwarding/rules/{ruleId}", Tags: tags,
		Summary: "Change a forwarding rule",
		Description: "Gives the rule its alias and addresses from now on, in one change, with the checks of adding one. " +
			"An address new to the account gets a confirmation link; addresses left out stay confirmed for the account's other rules.",
		Errors: append(errs, http.StatusForbidden, http.StatusConflict, http.StatusUnprocessableEntity),
	}, h.updateRule)

	register(a, accessAccount, huma.Operation{
		OperationID: "email-forwarding-rule-delete", Method: http.MethodDelete, Path: "/api/domains/{id}/email-forwarding/rules/{ruleId}", Tags: tags,
		Summary: "Delete a forwarding rule", Description: "Its addresses stay confirmed for the account's other rules.",
		Errors: append(errs, http.StatusUnprocessableEntity),
	}, h.deleteRule)

	register(a, accessAccount, huma.Operation{
		OperationID: "email-forwarding-destination-resend", Method: http.MethodPost, Path: "/api/domains/{id}/email-forwarding/destinations/resend", Tags: tags,
		Summary: "Send an address's confirmation link again", Description: "Once a minute at most; sooner answers 429.",
		Errors: append(errs, http.StatusConflict, http.StatusUnprocessableEntity, http.StatusTooManyRequests),
	}, h.resend)

	register(a, accessAccount, huma.Operation{
		OperationID: "email-forwarding-log", Method: http.MethodGet, Path: "/api/domains/{id}/email-forwarding/log", Tags: tags,
		Summary: "List my domain's forwarding log", Description: "The last 100 forwarded, failed and refused messages, newest first.",
		Errors: errs,
	}, h.log)

	// The reader of a confirmation link may have no account here: the
	// link's token alone says which address it confirms. Like the other
	// links' tokens (verify-email, reset-password) it is long and random,
	// so guessing one is hopeless and it needs no throttle of its own.
	register(a, accessPublic, huma.Operation{
		OperationID: "email-forwarding-confirm", Method: http.MethodPost, Path: "/api/email-forwarding/confirm", Tags: tags,
		Summary:     "Confirm an address to forward to",
		Description: "Uses the token of the confirmation link mailed to an address (once) and returns the address, which receives forwarded mail from then on. Needs no session.",
		Errors:      []int{http.StatusUnprocessableEntity},
	}, h.confirm)
}

// forwardingDomain is d, a domain of u, as forwarding knows it.
func forwardingDomain(u *account.User, d zone.Domain) mailfwd.Domain {
	return mailfwd.Domain{ID: d.ID, UserID: u.ID, Label: d.Name, Extension: d.Extension, Registrar: u.IsRegistrar()}
}

// owned returns the caller's domain id as forwarding knows it; another
// account's id is not found.
func (h forwardingHandlers) owned(ctx context.Context, id int64) (mailfwd.Domain, error) {
	d, err := h.dns.owned(ctx, id)
	return forwardingDomain(sessionUser(ctx), d), err
}

// editable is owned, for turning forwarding on or off: the extension must
// allow DNS management.
func (h forwardingHandlers) editable(ctx context.Context, id int64) (mailfwd.Domain, error) {
	d, err := h.dns.editable(ctx, id)
	return forwardingDomain(sessionUser(ctx), d), err
}

// status returns the email forwarding of one of the signed-in account's domains.
func (h forwardingHandlers) status(ctx context.Context, in *DomainIDInput) (*ForwardingOutput, error) {
	d, err := h.owned(ctx, in.ID)
	if err != nil {
		return nil, fail(ctx, err)
	}
	st, err := h.forwarding.Status(ctx, d)
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &ForwardingOutput{Body: ok(toForwardingBody(st))}, nil
}

// setForwarding turns forwarding of d on (replacing another service's
// mail records when replace is set) or off, and returns it afterwards.
func setForwarding(ctx context.Context, forwarding *mailfwd.Service, d mailfwd.Domain, enabled, replace bool) (*mailfwd.Status, error) {
	var err error
	if enabled {
		err = forwarding.Enable(ctx, d, replace)
	} else {
		err = forwarding.Disable(ctx, d)
	}
	if err != nil {
		return nil, err
	}
	return forwarding.Status(ctx, d)
}

// set turns the email forwarding of one of the signed-in account's domains on or off.
func (h forwardingHandlers) set(ctx context.Context, in *ForwardingSetInput) (*ForwardingOutput, error) {
	d, err := h.editable(ctx, in.ID)
	if err != nil {
		return nil, fail(ctx, err)
	}
	st, err := setForwarding(ctx, h.forwarding, d, in.Body.Enabled, in.Body.ReplaceMailRecords)
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &ForwardingOutput{Body: ok(toForwardingBody(st))}, nil
}

// addRule adds a forwarding rule to one of the signed-in account's domains.
func (h forwardingHandlers) addRule(ctx context.Context, in *ForwardingRuleCreateInput) (*ForwardingRuleOutput, error) {
	d, err := h.owned(ctx, in.ID)
	if err != nil {
		return nil, fail(ctx, err)
	}
	r, err := h.forwarding.AddRule(ctx, d, in.Body.Alias, in.Body.Destinations)
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &ForwardingRuleOutput{Body: ok(toForwardingRuleBody(*r))}, nil
}

// updateRule changes a forwarding rule of one of the signed-in account's domains.
func (h forwardingHandlers) updateRule(ctx context.Context, in *ForwardingRuleUpdateInput) (*ForwardingRuleOutput, error) {
	d, err := h.owned(ctx, in.ID)
	if err != nil {
		return nil, fail(ctx, err)
	}
	r, err := h.forwarding.UpdateRule(ctx, d, in.RuleID, in.Body.Alias, in.Body.Destinations)
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &ForwardingRuleOutput{Body: ok(toForwardingRuleBody(*r))}, nil
}

// deleteRule removes a forwarding rule of one of the signed-in account's domains.
func (h forwardingHandlers) deleteRule(ctx context.Context, in *ForwardingRuleIDInput) (*DoneOutput, error) {
	d, err := h.owned(ctx, in.ID)
	if err != nil {
		return nil, fail(ctx, err)
	}
	if err := h.forwarding.DeleteRule(ctx, d, in.RuleID); err != nil {
		return nil, fail(ctx, err)
	}
	return done(), nil
}

// resend mails an unconfirmed address of one of the signed-in account's domains its link again.
func (h forwardingHandlers) resend(ctx context.Context, in *ForwardingResendInput) (*DoneOutput, error) {
	d, err := h.owned(ctx, in.ID)
	if err != nil {
		return nil, fail(ctx, err)
	}
	if err := h.forwarding.Resend(ctx, d, in.Body.Address); err != nil {
		return nil, fail(ctx, err)
	}
	return done(), nil
}

// log lists the forwarding log of one of the signed-in account's domains.
func (h forwardingHandlers) log(ctx context.Context, in *DomainIDInput) (*ForwardingLogOutput, error) {
	d, err := h.owned(ctx, in.ID)
	if err != nil {
		return nil, fail(ctx, err)
	}
	entries, err := h.forwarding.Log(ctx, d)
	if err != nil {
		return nil, fail(ctx, err)
	}
	out := make([]forwardingLogEntryBody, len(entries))
	for i, e := range entries {
		out[i] = forwardingLogEntryBody{Time: e.Time, From: e.From, To: e.To, ForwardTo: e.ForwardTo,
			Size: e.Size, Outcome: e.Outcome, Detail: e.Detail}
	}
	return &ForwardingLogOutput{Body: ok(out)}, nil
}

// confirm uses a confirmation link's token: its address receives forwarded mail from now on.
func (h forwardingHandlers) confirm(ctx context.Context, in *ForwardingConfirmInput) (*ForwardingConfirmOutput, error) {
	address, err := h.forwarding.Confirm(ctx, in.Body.Token)
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &ForwardingConfirmOutput{Body: ok(forwardingConfirmedBody{Address: address})}, nil
}
