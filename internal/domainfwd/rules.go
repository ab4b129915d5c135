// Package domainfwd is domain forwarding: a domain's owner sends every
// request for one of its host names (the domain itself, www, shop…) to a
// website elsewhere, over HTTP and HTTPS. It owns the rules and the A/AAAA
// records that bring a forwarded name's traffic here (Service), the
// forwarding role's HTTP and HTTPS servers and their redirects (Server), and
// the certificates of forwarded names: obtained from an ACME CA through
// certmagic for names that have a rule and no others, renewed in the
// background, stored sealed in the database (Storage) so that every
// forwarding node shares them.
package domainfwd

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/zone"
)

// DefaultMaxRules is how many hosts of one domain may forward.
const DefaultMaxRules = 20

// Options configure a Service.
type Options struct {
	// Records edits the A/AAAA records that bring a forwarded host here.
	Records *zone.Service
	// IPv4 and IPv6 are the forwarding servers' addresses (--forward-ipv4,
	// --forward-ipv6): a forwarded host's A and AAAA records. At least one
	// is required.
	IPv4, IPv6 []string
	// OwnHosts are host names of the platform itself (its public URL's
	// host, the forwarding servers' own names): never a target, since a
	// redirect there would loop or lead into the platform.
	OwnHosts []string
	// MaxRules per domain; DefaultMaxRules when 0.
	MaxRules int
	// Changed, when set, is called after every committed change of rules,
	// so that a forwarding server in the same process reloads at once
	// (Server.Poke) rather than at its next poll.
	Changed func()
	Now     func() time.Time
}

// Service owns the forwarding rules.
type Service struct {
	db   *db.DB
	opts Options
	ips  []string // the forwarding addresses, normalised
}

// NewService returns the rules service over d. It refuses forwarding
// addresses that are not IP addresses of their family.
func NewService(d *db.DB, opts Options) (*Service, error) {
	if opts.Records == nil {
		return nil, errors.New("domainfwd: a record service is required")
	}
	if opts.MaxRules <= 0 {
		opts.MaxRules = DefaultMaxRules
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Changed == nil {
		opts.Changed = func() {}
	}
	var ips []string
	for _, family := range []struct {
		flag string
		list []string
		is4  bool
	}{{"--forward-ipv4", opts.IPv4, true}, {"--forward-ipv6", opts.IPv6, false}} {
		for _, raw := range family.list {
			ip, err := netip.ParseAddr(strings.TrimSpace(raw))
			if err != nil || ip.Zone() != "" || ip.Is4() != family.is4 || ip.Is4In6() {
				return nil, fmt.Errorf("domainfwd: %s %q is not an address of that family", family.flag, raw)
			}
			ips = append(ips, ip.String())
		}
	}
	if len(ips) == 0 {
		return nil, errors.New("domainfwd: forwarding needs at least one address (--forward-ipv4 or --forward-ipv6)")
	}
	own := make([]string, len(opts.OwnHosts))
	for i, h := range opts.OwnHosts {
		own[i] = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(h)), ".")
	}
	opts.OwnHosts = own
	return &Service{db: d, opts: opts, ips: ips}, nil
}

// MaxRules is how many hosts of one domain may forward.
func (s *Service) MaxRules() int { return s.opts.MaxRules }

// Addresses are the forwarding servers' addresses, which forwarded hosts'
// A/AAAA records point at.
func (s *Service) Addresses() []string { return slices.Clone(s.ips) }

func (s *Service) clock() time.Time { return s.opts.Now().UTC().Truncate(time.Microsecond) }

// Domain is a domain as the caller proved it is the account's.
type Domain struct {
	ID        int64
	UserID    int64
	Label     string // "example"
	Extension string // ".inf.nz"
}

// Name is the domain's full name: "example.inf.nz".
func (d Domain) Name() string { return d.Label + d.Extension }

func (d Domain) zone() zone.Domain {
	return zone.Domain{ID: d.ID, Name: d.Label, Extension: d.Extension}
}

// Input is a rule as a user sends it.
type Input struct {
	// Host is relative to the domain: "@" (or "") for the domain itself,
	// "www", "shop", "a.b"; an absolute name inside the domain also works.
	Host string
	// Target is the absolute http or https URL requests go to.
	Target string
	// Status is 301, 302, 307 or 308; 0 means DefaultStatus.
	Status int
	// KeepPath appends the request's path to the target's ("/a" to
	// https://example.com/blog gives https://example.com/blog/a).
	KeepPath bool
	// KeepQuery appends the request's query string to the target's.
	KeepQuery bool
}

// Certificate states of a forwarded host.
const (
	CertPending = "pending" // not issued yet
	CertIssued  = "issued"  // valid until NotAfter
	CertFailed  = "failed"  // the last attempt failed; Error says why
)

// Certificate is the state of a forwarded host's HTTPS certificate.
type Certificate struct {
	State    string     `json:"state"`
	NotAfter *time.Time `json:"notAfter,omitempty"`
	// Error is the CA's message about the last failed attempt, also while
	// an earlier certificate is still valid (a failed renewal).
	Error     string     `json:"error,omitempty"`
	UpdatedAt *time.Time `json:"updatedAt,omitempty"`
}

// Rule is one forwarded host of a domain.
type Rule struct {
	ID          int64       `json:"id"`
	Host        string      `json:"host"` // "@", "www"
	Name        string      `json:"name"` // "www.example.inf.nz"
	Target      string      `json:"target"`
	Status      int         `json:"status"`
	KeepPath    bool        `json:"keepPath"`
	KeepQuery   bool        `json:"keepQuery"`
	Certificate Certificate `json:"certificate"`
	CreatedAt   time.Time   `json:"createdAt"`
	UpdatedAt   time.Time   `json:"updatedAt"`
}

type ruleRow struct {
	bun.BaseModel `bun:"table:forward_rules"`
	ID            int64     `bun:"id,pk,autoincrement"`
	DomainID      int64     `bun:"domain_id"`
	Host          string    `bun:"host"`
	Name          string    `bun:"name"`
	Target        string    `bun:"target"`
	Status        int       `bun:"status"`
	KeepPath      bool      `bun:"keep_path"`
	KeepQuery     bool      `bun:"keep_query"`
	CertState     string    `bun:"cert_state"`
	CertNotAfter  time.Time `bun:"cert_not_after,nullzero"`
	CertError     string    `bun:"cert_error"`
	CertUpdatedAt time.Time `bun:"cert_updated_at,nullzero"`
	CreatedAt     time.Time `bun:"created_at"`
	UpdatedAt     time.Time `bun:"updated_at"`
}

func (r *ruleRow) rule() Rule {
	out := Rule{ID: r.ID, Host: r.Host, Name: r.Name, Target: r.Target, Status: r.Status, KeepPath: r.KeepPath,
		KeepQuery: r.KeepQuery, CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC(),
		Certificate: Certificate{State: r.CertState, Error: r.CertError}}
	if !r.CertNotAfter.IsZero() {
		t := r.CertNotAfter.UTC()
		out.Certificate.NotAfter = &t
	}
	if !r.CertUpdatedAt.IsZero() {
		t := r.CertUpdatedAt.UTC()
		out.Certificate.UpdatedAt = &t
	}
	return out
}

var errRuleNotFound = apperr.New(apperr.NotFound, "Forwarding rule not found")

// List returns d's rules, the domain itself first, then by host.
func (s *Service) List(ctx context.Context, d Domain) ([]Rule, error) {
	var rows []ruleRow
	if err := s.db.Bun.NewSelect().Model(&rows).Where("domain_id = ?", d.ID).Scan(ctx); err != nil {
		return nil, wrap("list the rules of", d, err)
	}
	rules := make([]Rule, len(rows))
	for i := range rows {
		rules[i] = rows[i].rule()
	}
	slices.SortFunc(rules, func(a, b Rule) int {
		if (a.Host == "@") != (b.Host == "@") {
			if a.Host == "@" {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Host, b.Host)
	})
	return rules, nil
}

// Preview is what setting a rule for a host does to the domain's records,
// for a screen to show before it asks.
type Preview struct {
	Host string `json:"host"` // "@", "www"
	Name string `json:"name"` // "www.example.inf.nz"
	// Adds are the records the rule gives the host ("A 192.0.2.80").
	Adds []string `json:"adds"`
	// Replaces are the records at the host that are not forwarding's (an
	// A record of another server, a CNAME): Set removes them only when
	// told to replace.
	Replaces []string `json:"replaces"`
}

// Preview says what setting a rule for host of d would change. Returns
// invalid for a bad host, conflict when the host cannot forward at all (its
// name is delegated to other name servers).
func (s *Service) Preview(ctx context.Context, d Domain, host string) (*Preview, error) {
	host, name, err := normalizeHost(d, host)
	if err != nil {
		return nil, err
	}
	records, err := s.opts.Records.List(ctx, d.zone())
	if err != nil {
		return nil, err
	}
	if err := s.checkDelegation(records, host); err != nil {
		return nil, err
	}
	p := &Preview{Host: host, Name: name, Adds: []string{}, Replaces: s.foreign(records, host)}
	for _, in := range s.records(host) {
		p.Adds = append(p.Adds, in.Type+" "+in.Content)
	}
	return p, nil
}

// records are the A and AAAA records a rule gives host.
func (s *Service) records(host string) []zone.Input {
	out := make([]zone.Input, len(s.ips))
	for i, ip := range s.ips {
		typ := zone.TypeA
		if strings.Contains(ip, ":") {
			typ = zone.TypeAAAA
		}
		out[i] = zone.Input{Type: typ, Name: host, Content: ip}
	}
	return out
}

// ours tells whether r is a record forwarding gives host: an A or AAAA
// record of it naming a forwarding address.
func (s *Service) ours(r zone.Record, host string) bool {
	return r.Name == host && (r.Type == zone.TypeA || r.Type == zone.TypeAAAA) && slices.Contains(s.ips, r.Content)
}

// foreign lists the records at host that answer for the same queries as
// forwarding's and are not its own: other A/AAAA records, and a CNAME
// (which may not share a name with anything).
func (s *Service) foreign(records []zone.Record, host string) []string {
	out := []string{}
	for _, r := range records {
		if r.Name != host || s.ours(r, host) {
			continue
		}
		if r.Type == zone.TypeA || r.Type == zone.TypeAAAA || r.Type == zone.TypeCNAME {
			out = append(out, r.Type+" "+r.Content)
		}
	}
	return out
}

func (s *Service) replaceable(r zone.Record, host string) bool {
	return r.Name == host && (r.Type == zone.TypeA || r.Type == zone.TypeAAAA || r.Type == zone.TypeCNAME)
}

// checkDelegation refuses a host at or below NS records of the domain: its
// answers come from other name servers, so records here would not bring
// its traffic to us, and a forward must not silently undo a delegation.
func (s *Service) checkDelegation(records []zone.Record, host string) error {
	for _, r := range records {
		if r.Type != zone.TypeNS {
			continue
		}
		if r.Name == "@" || r.Name == host || strings.HasSuffix(host, "."+r.Name) {
			at := r.Name
			if at == "@" {
				at = "the domain itself"
			}
			return apperr.New(apperr.Conflict,
				"This name is delegated to other name servers (NS records at %s): set up forwarding where its DNS is served, or remove the delegation first", at)
		}
	}
	return nil
}

// Set forwards host of d to in.Target, replacing the host's rule if it has
// one, and points the host's A/AAAA records at the forwarding servers.
// Records at the host that are not forwarding's (another A record, a
// CNAME) are replaced only when replace is set; otherwise Set refuses with
// a conflict naming them (Preview lists them first). Returns invalid for a
// bad host, target or status, a loop, or too many rules; conflict as said
// and for a delegated name.
func (s *Service) Set(ctx context.Context, d Domain, in Input, replace bool) (*Rule, error) {
	host, name, err := normalizeHost(d, in.Host)
	if err != nil {
		return nil, err
	}
	target, err := parseTarget(in.Target)
	if err != nil {
		return nil, err
	}
	status, err := checkStatus(in.Status)
	if err != nil {
		return nil, err
	}
	targetHost := target.Hostname()
	if targetHost == name || slices.Contains(s.opts.OwnHosts, targetHost) {
		return nil, errTarget(in.Target, "it is this forwarding itself, which would send visitors round in a loop")
	}
	now := s.clock()
	row := &ruleRow{DomainID: d.ID, Host: host, Name: name, Target: target.String(), Status: status,
		KeepPath: in.KeepPath, KeepQuery: in.KeepQuery, CertState: CertPending, CreatedAt: now, UpdatedAt: now}
	err = s.opts.Records.Apply(ctx, d.zone(), zone.Change{
		Remove: func(r zone.Record) bool { return s.ours(r, host) || replace && s.replaceable(r, host) },
		Add:    s.records(host),
		// Runs after the zone version's bump, whose row lock serialises
		// every record change: two rules set at once see each other here,
		// for the limit and the loop check.
		Also: func(ctx context.Context, tx *db.Tx, before []zone.Record) error {
			if err := s.checkDelegation(before, host); err != nil {
				return err
			}
			if foreign := s.foreign(before, host); len(foreign) > 0 && !replace {
				return apperr.New(apperr.Conflict, "Forwarding %s replaces its DNS records: %s", name, strings.Join(foreign, "; "))
			}
			loop, err := tx.NewSelect().Table("forward_rules").Where("name = ?", targetHost).Exists(ctx)
			if err != nil {
				return err
			}
			if loop {
				return errTarget(in.Target, "its host forwards too, which could send visitors round in a loop")
			}
			existing := new(ruleRow)
			err = tx.NewSelect().Model(existing).Where("name = ?", name).Scan(ctx)
			switch {
			case err == nil && existing.DomainID != d.ID:
				// Only where extensions nest (.inf.nz and .co.inf.nz) can
				// a host of another domain have this name.
				return apperr.New(apperr.Conflict, "%s already forwards from another domain", name)
			case err == nil:
				_, err = tx.NewUpdate().Model(row).Column("target", "status", "keep_path", "keep_query", "updated_at").
					Where("id = ?", existing.ID).Exec(ctx)
				row.ID, row.CreatedAt = existing.ID, existing.CreatedAt
				row.CertState, row.CertNotAfter, row.CertError, row.CertUpdatedAt =
					existing.CertState, existing.CertNotAfter, existing.CertError, existing.CertUpdatedAt
				return err
			case !errors.Is(err, sql.ErrNoRows):
				return err
			}
			n, err := tx.NewSelect().Table("forward_rules").Where("domain_id = ?", d.ID).Count(ctx)
			if err != nil {
				return err
			}
			if n >= int64(s.opts.MaxRules) {
				return apperr.New(apperr.Invalid, "A domain can forward at most %d host names", s.opts.MaxRules)
			}
			_, err = tx.NewInsert().Model(row).Returning("id").Exec(ctx)
			return err
		},
	})
	if err != nil {
		return nil, wrap("set a rule of", d, err)
	}
	s.opts.Changed()
	rule := row.rule()
	return &rule, nil
}

// Delete stops forwarding host of d: its rule goes, with the A/AAAA
// records forwarding gave it (records of its own stay) and its stored
// certificate. Returns not_found when host has no rule.
func (s *Service) Delete(ctx context.Context, d Domain, host string) error {
	host, name, err := normalizeHost(d, host)
	if err != nil {
		return err
	}
	err = s.opts.Records.Apply(ctx, d.zone(), zone.Change{
		Remove: func(r zone.Record) bool { return s.ours(r, host) },
		Also: func(ctx context.Context, tx *db.Tx, _ []zone.Record) error {
			res, err := tx.NewDelete().Table("forward_rules").Where("domain_id = ? AND name = ?", d.ID, name).Exec(ctx)
			if err != nil {
				return err
			}
			if n, _ := res.RowsAffected(); n == 0 {
				return errRuleNotFound
			}
			// The certificate and its private key: nothing serves them now.
			// (Names hold no LIKE wildcards: letters, digits, dots, hyphens.)
			_, err = tx.NewDelete().Table("acme_storage").Where("key LIKE ?", "certificates/%/"+name+"/%").Exec(ctx)
			return err
		},
	})
	if err != nil {
		return wrap("delete a rule of", d, err)
	}
	s.opts.Changed()
	return nil
}

func wrap(op string, d Domain, err error) error {
	if err == nil {
		return nil
	}
	var appErr *apperr.Error
	if errors.As(err, &appErr) {
		return appErr
	}
	return fmt.Errorf("domainfwd: %s %s: %w", op, d.Name(), err)
}
