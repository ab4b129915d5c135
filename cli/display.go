package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	moneyfmt "github.com/nameport/nameport/pkg/money"
	"github.com/nameport/nameport/sdk"
)

// displayer shows one kind of resource as a table for people or as JSON
// (the SDK's wire types, indented) for programs.
type displayer interface {
	// JSON is the value printed by --output json.
	JSON() any
	// Table writes the header row and one row per item, cells separated by
	// tabs.
	Table(w io.Writer)
}

// display prints d in the format chosen with --output.
func display(opts *Options, d displayer) error {
	if opts.Output == "json" {
		enc := json.NewEncoder(opts.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(d.JSON())
	}
	tw := tabwriter.NewWriter(opts.Out, 0, 0, 2, ' ', 0)
	d.Table(tw)
	return tw.Flush()
}

func row(w io.Writer, cells ...string) { fmt.Fprintln(w, strings.Join(cells, "\t")) }

// availabilityDisplay shows the answer of a domain check.
type availabilityDisplay struct{ a *sdk.Availability }

func (d availabilityDisplay) JSON() any { return d.a }

func (d availabilityDisplay) Table(w io.Writer) {
	row(w, "DOMAIN", "AVAILABLE", "PRICE/YEAR", "PREMIUM")
	available := "yes"
	if !d.a.Available {
		available = "no"
		if d.a.Reason != "" {
			available += " (" + strings.ReplaceAll(d.a.Reason, "_", " ") + ")"
		}
	}
	row(w, d.a.Domain, available, money(d.a.Price), yesNo(d.a.IsPremium))
}

// domainDisplay shows domains: one (domain get) or a list (domain list).
type domainDisplay struct {
	domains []sdk.Domain
	single  bool
}

func (d domainDisplay) JSON() any {
	if d.single && len(d.domains) == 1 {
		return d.domains[0]
	}
	if d.domains == nil {
		return []sdk.Domain{}
	}
	return d.domains
}

func (d domainDisplay) Table(w io.Writer) {
	row(w, domainHeader...)
	for _, dom := range d.domains {
		row(w, domainCells(dom)...)
	}
}

var domainHeader = []string{"DOMAIN", "EXPIRES", "AUTO-RENEW", "PRICE/YEAR", "PREMIUM", "NAMESERVERS"}

func domainCells(d sdk.Domain) []string {
	ns := "Nameport DNS"
	if len(d.Nameservers) > 0 {
		ns = strings.Join(d.Nameservers, ",")
	}
	return []string{d.Domain, date(d.ExpiresAt), yesNo(d.AutoRenew), money(d.Price), yesNo(d.IsPremium), ns}
}

// registrationDisplay shows a new domain with its charge and the wallet
// after it.
type registrationDisplay struct{ r *sdk.Registration }

func (d registrationDisplay) JSON() any { return d.r }

func (d registrationDisplay) Table(w io.Writer) {
	row(w, append(domainHeader[:len(domainHeader):len(domainHeader)], "CHARGED", "BALANCE")...)
	row(w, append(domainCells(d.r.Domain), money(-d.r.Transaction.Amount), money(d.r.Wallet.Balance))...)
}

// recordDisplay shows DNS records.
type recordDisplay struct{ records []sdk.Record }

func (d recordDisplay) JSON() any {
	if d.records == nil {
		return []sdk.Record{}
	}
	return d.records
}

func (d recordDisplay) Table(w io.Writer) {
	row(w, "NAME", "TYPE", "TTL", "PRIORITY", "CONTENT")
	for _, r := range d.records {
		priority := ""
		if r.Priority != nil {
			priority = strconv.Itoa(*r.Priority)
		}
		row(w, r.Name, r.Type, strconv.Itoa(r.TTL), priority, r.Content)
	}
}

// forwardingDisplay shows a domain's email forwarding: whether it is on,
// then one row per address of each rule.
type forwardingDisplay struct {
	domain string
	f      *sdk.EmailForwarding
}

func (d forwardingDisplay) JSON() any { return d.f }

func (d forwardingDisplay) Table(w io.Writer) {
	row(w, "DOMAIN", "FORWARDING", "MAIL HOST", "RULES")
	state := "off"
	if d.f.Enabled {
		state = "on"
	}
	row(w, d.domain, state, d.f.MailHost, fmt.Sprintf("%d of %d", len(d.f.Rules), d.f.MaxRules))
	fmt.Fprintln(w)
	forwardingRuleRows(w, d.f.Rules)
	if !d.f.Enabled && len(d.f.Replaces) > 0 {
		fmt.Fprintf(w, "\nTurning forwarding on replaces %s (nameportctl email-forward on %s --replace-mail-records).\n",
			strings.Join(d.f.Replaces, ", "), d.domain)
	}
}

// forwardingRuleDisplay shows a rule just added.
type forwardingRuleDisplay struct{ r *sdk.ForwardingRule }

func (d forwardingRuleDisplay) JSON() any { return d.r }

func (d forwardingRuleDisplay) Table(w io.Writer) {
	forwardingRuleRows(w, []sdk.ForwardingRule{*d.r})
	for _, dest := range d.r.Destinations {
		if !dest.Verified {
			fmt.Fprintln(w, "\nEach unverified address was mailed a confirmation link: it receives nothing until its reader follows it.")
			return
		}
	}
}

// forwardingRuleRows writes one row per address of each rule, so that
// every row says which rule and address it is about.
func forwardingRuleRows(w io.Writer, rules []sdk.ForwardingRule) {
	row(w, "ID", "ALIAS", "DESTINATION", "VERIFIED")
	for _, r := range rules {
		for _, dest := range r.Destinations {
			row(w, strconv.FormatInt(r.ID, 10), r.Alias, dest.Address, yesNo(dest.Verified))
		}
	}
}

// forwardingLogDisplay shows a domain's forwarding log.
type forwardingLogDisplay struct{ entries []sdk.ForwardingLogEntry }

func (d forwardingLogDisplay) JSON() any {
	if d.entries == nil {
		return []sdk.ForwardingLogEntry{}
	}
	return d.entries
}

func (d forwardingLogDisplay) Table(w io.Writer) {
	row(w, "TIME", "FROM", "TO", "FORWARDED TO", "SIZE", "OUTCOME", "DETAIL")
	for _, e := range d.entries {
		from := e.From
		if from == "" {
			from = "<>" // the null sender of a bounce
		}
		row(w, e.Time.Local().Format(time.DateTime), from, e.To, e.ForwardTo, strconv.FormatInt(e.Size, 10), e.Outcome,
			strings.Join(strings.Fields(e.Detail), " ")) // a relay's answer may span lines
	}
}

// domainForwardingDisplay shows a domain's web forwarding: how many of its
// host names forward and where their records point, then one row per
// forward.
type domainForwardingDisplay struct {
	domain string
	f      *sdk.DomainForwarding
}

func (d domainForwardingDisplay) JSON() any { return d.f }

func (d domainForwardingDisplay) Table(w io.Writer) {
	row(w, "DOMAIN", "FORWARDS", "ADDRESSES")
	row(w, d.domain, fmt.Sprintf("%d of %d", len(d.f.Forwards), d.f.MaxRules), strings.Join(d.f.Addresses, ","))
	fmt.Fprintln(w)
	domainForwardRows(w, d.f.Forwards)
}

// domainForwardDisplay shows a forward just set.
type domainForwardDisplay struct{ f *sdk.DomainForward }

func (d domainForwardDisplay) JSON() any { return d.f }

func (d domainForwardDisplay) Table(w io.Writer) { domainForwardRows(w, []sdk.DomainForward{*d.f}) }

func domainForwardRows(w io.Writer, forwards []sdk.DomainForward) {
	row(w, "HOST", "TARGET", "STATUS", "OPTIONS", "CERTIFICATE")
	for _, f := range forwards {
		var options []string
		if f.KeepPath {
			options = append(options, "keep path")
		}
		if f.KeepQuery {
			options = append(options, "keep query")
		}
		if len(options) == 0 {
			options = []string{"-"}
		}
		row(w, f.Host, f.Target, strconv.Itoa(f.Status), strings.Join(options, ", "), certificateState(f.Certificate))
	}
}

// certificateState says where a forwarded host's HTTPS certificate stands:
// pending, issued until a date, or failed with the CA's message.
func certificateState(c sdk.ForwardCertificate) string {
	switch {
	case c.State == "issued" && c.NotAfter != nil:
		return "issued until " + date(*c.NotAfter)
	case c.State == "failed" && c.Error != "":
		return "failed: " + strings.Join(strings.Fields(c.Error), " ") // a CA's message may span lines
	}
	return c.State
}

// walletDisplay shows the wallet's balance.
type walletDisplay struct{ w *sdk.Wallet }

func (d walletDisplay) JSON() any { return d.w }

func (d walletDisplay) Table(w io.Writer) {
	row(w, "BALANCE", "CURRENCY")
	row(w, money(d.w.Balance), d.w.Currency)
}

// depositDisplay shows a deposit and the wallet after it.
type depositDisplay struct{ d *sdk.Deposit }

func (d depositDisplay) JSON() any { return d.d }

func (d depositDisplay) Table(w io.Writer) {
	row(w, "TRANSACTION", "STATUS", "AMOUNT", "METHOD", "BALANCE")
	tx := d.d.Transaction
	row(w, strconv.FormatInt(tx.ID, 10), tx.Status, money(tx.Amount), tx.PaymentMethod, money(d.d.Wallet.Balance))
}

// transactionDisplay shows the wallet's ledger.
type transactionDisplay struct{ txs []sdk.Transaction }

func (d transactionDisplay) JSON() any {
	if d.txs == nil {
		return []sdk.Transaction{}
	}
	return d.txs
}

func (d transactionDisplay) Table(w io.Writer) {
	row(w, "ID", "DATE", "TYPE", "AMOUNT", "STATUS", "METHOD", "DESCRIPTION")
	for _, tx := range d.txs {
		row(w, strconv.FormatInt(tx.ID, 10), tx.CreatedAt.Local().Format("2006-01-02 15:04"), strings.ReplaceAll(tx.Type, "_", " "),
			money(tx.Amount), tx.Status, tx.PaymentMethod, tx.Description)
	}
}

// money formats dollars as people read them: $8.00, -$8.00 (the SDK
// speaks dollars; the one formatter works in cents).
func money(dollars float64) string { return moneyfmt.Format(int64(math.Round(dollars * 100))) }

func date(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Local().Format(time.DateOnly)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
