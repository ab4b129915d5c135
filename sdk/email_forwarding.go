package sdk

import (
	"context"
	"net/http"
	"strconv"
)

// Email forwarding sends the mail of alias@domain (or of every address of
// the domain, "*") to inboxes you already use. Each address gets a
// confirmation link by mail and receives nothing until its reader follows
// it. These calls are on DomainsService because forwarding belongs to one
// domain, as its records do.

// EmailForwarding returns domain's forwarding: whether it is on, its rules
// with each address and whether it is confirmed, and the mail records of
// another service that turning it on would replace.
//
// Errors: CodeNotFound when you have no such domain.
func (s *DomainsService) EmailForwarding(ctx context.Context, domain string) (*EmailForwarding, error) {
	if domain == "" {
		return nil, errEmpty("domain")
	}
	var out EmailForwarding
	if err := s.c.do(ctx, http.MethodGet, forwardingPath(domain), nil, nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// SetEmailForwarding turns domain's forwarding on (adding the MX record
// that names Nameport's mail server and the SPF record "v=spf1 mx ~all")
// or off (removing those two; the rules stay for when it is turned on
// again), and returns the forwarding afterwards.
//
// An MX or SPF record of another mail service makes turning it on fail
// with CodeConflict naming them, unless replaceMailRecords is set: then
// they are removed, in the same change.
//
// Errors: CodeConflict as above; CodeForbidden when the domain's extension
// does not allow DNS management; CodeNotFound when you have no such domain.
func (s *DomainsService) SetEmailForwarding(ctx context.Context, domain string, enabled, replaceMailRecords bool) (*EmailForwarding, error) {
	if domain == "" {
		return nil, errEmpty("domain")
	}
	var out EmailForwarding
	in := EmailForwardingSettings{Enabled: enabled, ReplaceMailRecords: replaceMailRecords}
	if err := s.c.effect(ctx, http.MethodPut, forwardingPath(domain), in, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// AddForwardingRule forwards the mail of alias@domain ("*" for every
// address no other rule names) to destinations, at most 10 addresses. An
// address not confirmed yet by your account gets a confirmation link by
// mail; the rule returned says which are confirmed. Rules work while
// forwarding is on (SetEmailForwarding).
//
//	rule, err := client.Domains.AddForwardingRule(ctx, "example.inf.nz", "info", []string{"you@example.com"})
//
// Errors: CodeInvalid with a message saying what is wrong (an alias or
// address that cannot be used, an address at domain itself, too many
// addresses or rules); CodeConflict when alias has a rule already;
// CodeNotFound when you have no such domain.
func (s *DomainsService) AddForwardingRule(ctx context.Context, domain, alias string, destinations []string) (*ForwardingRule, error) {
	if domain == "" {
		return nil, errEmpty("domain")
	}
	var out ForwardingRule
	in := ForwardingRuleRequest{Alias: alias, Destinations: destinations}
	if err := s.c.effect(ctx, http.MethodPost, forwardingPath(domain)+"/rules", in, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// UpdateForwardingRule gives rule id (ForwardingRule.ID) of domain its alias
// and destinations from now on, in one change, with the checks of
// AddForwardingRule. An address new to your account gets a confirmation
// link; addresses left out stay confirmed for your other rules.
//
// Errors: those of AddForwardingRule; CodeNotFound also when domain has no
// such rule.
func (s *DomainsService) UpdateForwardingRule(ctx context.Context, domain string, id int64, alias string, destinations []string) (*ForwardingRule, error) {
	if domain == "" {
		return nil, errEmpty("domain")
	}
	var out ForwardingRule
	in := ForwardingRuleRequest{Alias: alias, Destinations: destinations}
	if err := s.c.effect(ctx, http.MethodPut, forwardingPath(domain)+"/rules/"+strconv.FormatInt(id, 10), in, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// DeleteForwardingRule removes rule id (ForwardingRule.ID) of domain. Its
// addresses stay confirmed for your other rules.
//
// Errors: CodeNotFound when you have no such domain or it has no such rule.
func (s *DomainsService) DeleteForwardingRule(ctx context.Context, domain string, id int64) error {
	if domain == "" {
		return errEmpty("domain")
	}
	return s.c.do(ctx, http.MethodDelete, forwardingPath(domain)+"/rules/"+strconv.FormatInt(id, 10), nil, nil, nil)
}

// ForwardingLog returns domain's last 100 forwarded, failed and refused
// messages, newest first.
//
// Errors: CodeNotFound when you have no such domain.
func (s *DomainsService) ForwardingLog(ctx context.Context, domain string) ([]ForwardingLogEntry, error) {
	if domain == "" {
		return nil, errEmpty("domain")
	}
	var out ForwardingLog
	if err := s.c.do(ctx, http.MethodGet, forwardingPath(domain)+"/log", nil, nil, &out); err != nil {
		return nil, err
	}
	return out.Entries, nil
}

func forwardingPath(domain string) string {
	return "/v1/domains/" + escape(domain) + "/email-forwarding"
}
