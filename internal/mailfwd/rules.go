// Package mailfwd is email forwarding: a domain's owner sends mail for
// alias@domain (or any address of it, "*") to inboxes they already use. It
// owns the rules, the destinations (an address receives nothing until its
// reader confirms the link mailed to it), the inbound SMTP server of the
// mail role, and the forwarding itself: each accepted message is relayed
// byte for byte through the outbound relay (--smtp-url), with its envelope
// sender rewritten by SRS, as a River job that retries.
package mailfwd

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"net/mail"
	"slices"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/notify"
	"github.com/nameport/nameport/internal/zone"
)

// Limits of the rules.
const (
	// DefaultMaxRules is how many rules a domain of an end user may have
	// (--mail-max-rules); registrars get DefaultMaxRulesRegistrar.
	DefaultMaxRules          = 20
	DefaultMaxRulesRegistrar = 100
	// MaxDestinations is how many addresses one rule forwards to.
	MaxDestinations = 10
	// MaxAliasLength is the longest local part RFC 5321 allows.
	MaxAliasLength = 64
	// MaxAddressLength is the longest address RFC 5321 allows in a path.
	MaxAddressLength = 254
	// CatchAll is the alias that takes mail for every address of a domain
	// that no other rule names.
	CatchAll = "*"
)

// Options configure a Service.
type Options struct {
	MaxRules          int // per domain of an end user; DefaultMaxRules when 0
	MaxRulesRegistrar int // per domain of a registrar; DefaultMaxRulesRegistrar when 0
	// Notify sends the confirmation link to a new destination.
	Notify notify.Func
	// Records edits the MX and SPF records that bring a domain's mail here.
	Records *zone.Service
	// MailHost is --mail-host (see MailHost).
	MailHost string
	// Allowed refuses forwarding for an extension that does not allow it
	// (catalog.Service.CheckEmailForwarding); nil allows every extension.
	Allowed func(extension string) error
	Now     func() time.Time
}

// Service owns the forwarding rules and destinations.
type Service struct {
	db   *db.DB
	opts Options
}

// NewService returns the rules service over d.
func NewService(d *db.DB, opts Options) *Service {
	if opts.MaxRules <= 0 {
		opts.MaxRules = DefaultMaxRules
	}
	if opts.MaxRulesRegistrar <= 0 {
		opts.MaxRulesRegistrar = DefaultMaxRulesRegistrar
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Allowed == nil {
		opts.Allowed = func(string) error { return nil }
	}
	return &Service{db: d, opts: opts}
}

func (s *Service) clock() time.Time { return s.opts.Now().UTC().Truncate(time.Microsecond) }

// Domain is a domain as the caller proved it is the account's, and whether
// the account is a registrar (more rules).
type Domain struct {
	ID        int64
	UserID    int64
	Label     string // "example"
	Extension string // ".inf.nz"
	Registrar bool
}

// Name is the domain's full name: "example.inf.nz".
func (d Domain) Name() string { return d.Label + d.Extension }

func (d Domain) zone() zone.Domain {
	return zone.Domain{ID: d.ID, Name: d.Label, Extension: d.Extension}
}

// Rule is one alias of a domain and where its mail goes.
type Rule struct {
	ID           int64         `json:"id"`
	Alias        string        `json:"alias"`
	Destinations []Destination `json:"destinations"`
	CreatedAt    time.Time     `json:"createdAt"`
}

// Destination is an address mail is forwarded to, and whether its reader
// confirmed it.
type Destination struct {
	Address  string `json:"address"`
	Verified bool   `json:"verified"`
}

type ruleRow struct {
	bun.BaseModel `bun:"table:mail_rules"`
	ID            int64     `bun:"id,pk,autoincrement"`
	DomainID      int64     `bun:"domain_id"`
	Alias         string    `bun:"alias"`
	CreatedAt     time.Time `bun:"created_at"`
}

type mailDomainRow struct {
	bun.BaseModel `bun:"table:mail_domains"`
	DomainID      int64     `bun:"domain_id,pk"`
	CreatedAt     time.Time `bun:"created_at"`
}

type ruleDestinationRow struct {
	bun.BaseModel `bun:"table:mail_rule_destinations"`
	RuleID        int64 `bun:"rule_id,pk"`
	DestinationID int64 `bun:"destination_id,pk"`
}

type destinationRow struct {
	bun.BaseModel `bun:"table:mail_destinations"`
	ID            int64     `bun:"id,pk,autoincrement"`
	UserID        int64     `bun:"user_id"`
	Address       string    `bun:"address"`
	TokenHash     string    `bun:"token_hash"`
	VerifiedAt    time.Time `bun:"verified_at,nullzero"`
	SentAt        time.Time `bun:"sent_at"`
	CreatedAt     time.Time `bun:"created_at"`
}

// Messages of refusals, one owner for every surface.
var (
	errAlias = apperr.New(apperr.Invalid,
		"Use letters, digits, dots, hyphens, underscores or plus signs for the alias (at most %d characters), or * for every address", MaxAliasLength)
	errNoDestination = apperr.New(apperr.Invalid, "Name at least one address to forward to")
	errTooManyDest   = apperr.New(apperr.Invalid, "A rule forwards to at most %d addresses", MaxDestinations)
	errRuleExists    = apperr.New(apperr.Conflict, "This alias already has a rule")
	errRuleNotFound  = apperr.New(apperr.NotFound, "Forwarding rule not found")
	errTokenInvalid  = apperr.New(apperr.Invalid, "This confirmation link is invalid or has already been used")
	errDestNotFound  = apperr.New(apperr.NotFound, "No rule forwards to this address")
	errResendTooSoon = apperr.New(apperr.TooManyRequests, "A confirmation link was sent to this address less than a minute ago")
)

// normalizeAlias lower-cases alias and checks its characters: a conservative
// dot-atom (what mail systems accept everywhere), or the catch-all.
func normalizeAlias(alias string) (string, error) {
	alias = strings.ToLower(strings.TrimSpace(alias))
	if alias == CatchAll {
		return alias, nil
	}
	if alias == "" || len(alias) > MaxAliasLength || strings.HasPrefix(alias, ".") ||
		strings.HasSuffix(alias, ".") || strings.Contains(alias, "..") {
		return "", errAlias
	}
	for _, r := range alias {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || strings.ContainsRune(".-_+", r)) {
			return "", errAlias
		}
	}
	return alias, nil
}

// normalizeDestination checks one address to forward to: a bare ASCII
// address (an internationalized domain in its xn-- form), not at the
// forwarding domain itself (a loop). The domain part is lower-cased.
func normalizeDestination(address, domain string) (string, error) {
	raw := strings.TrimSpace(address)
	bad := func(why string) error {
		return apperr.New(apperr.Invalid, "%q is not an address mail can be forwarded to: %s", clip(raw), why)
	}
	if raw == "" {
		return "", bad("it is empty")
	}
	if len(raw) > MaxAddressLength {
		return "", bad(fmt.Sprintf("it is longer than %d characters", MaxAddressLength))
	}
	for _, r := range raw {
		if r < 0x21 || r == 0x7f {
			return "", bad("it holds a space or a control character")
		}
		if r > 0x7e {
			return "", bad("use ASCII (an internationalized domain in its xn-- form)")
		}
	}
	parsed, err := mail.ParseAddress(raw)
	if err != nil || parsed.Address != raw || parsed.Name != "" {
		return "", bad("write it as name@example.com")
	}
	local, host, _ := strings.Cut(parsed.Address, "@")
	host = strings.ToLower(host)
	if !strings.Contains(host, ".") || strings.HasPrefix(host, "[") {
		return "", bad("its domain must be a domain name")
	}
	if host == strings.ToLower(domain) {
		return "", bad("it is at the domain being forwarded, which would send mail round in a loop")
	}
	return local + "@" + host, nil
}

var errNoRows = sql.ErrNoRows

func clip(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

// Enabled tells whether forwarding is on for the domain.
func (s *Service) Enabled(ctx context.Context, d Domain) (bool, error) {
	return s.db.Bun.NewSelect().Table("mail_domains").Where("domain_id = ?", d.ID).Exists(ctx)
}

// Rules lists the domain's rules, the catch-all last, each with its
// destinations and whether they are confirmed.
func (s *Service) Rules(ctx context.Context, d Domain) ([]Rule, error) {
	return rulesOf(ctx, s.db.Bun, d.ID)
}

func rulesOf(ctx context.Context, q bun.IDB, domainID int64) ([]Rule, error) {
	var rows []struct {
		RuleID    int64     `bun:"rule_id"`
		Alias     string    `bun:"alias"`
		CreatedAt time.Time `bun:"created_at"`
		Address   string    `bun:"address"`
		Verified  bool      `bun:"verified"`
	}
	err := q.NewSelect().TableExpr("mail_rules AS r").
		Join("JOIN mail_rule_destinations AS rd ON rd.rule_id = r.id").
		Join("JOIN mail_destinations AS dst ON dst.id = rd.destination_id").
		ColumnExpr("r.id AS rule_id, r.alias, r.created_at, dst.address, dst.verified_at IS NOT NULL AS verified").
		Where("r.domain_id = ?", domainID).
		Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("mailfwd: rules of domain %d: %w", domainID, err)
	}
	rules := []Rule{}
	byID := map[int64]int{}
	for _, row := range rows {
		i, ok := byID[row.RuleID]
		if !ok {
			i = len(rules)
			byID[row.RuleID] = i
			rules = append(rules, Rule{ID: row.RuleID, Alias: row.Alias, CreatedAt: row.CreatedAt.UTC()})
		}
		rules[i].Destinations = append(rules[i].Destinations, Destination{Address: row.Address, Verified: row.Verified})
	}
	for i := range rules {
		slices.SortFunc(rules[i].Destinations, func(a, b Destination) int { return strings.Compare(a.Address, b.Address) })
	}
	slices.SortFunc(rules, func(a, b Rule) int {
		if (a.Alias == CatchAll) != (b.Alias == CatchAll) {
			if a.Alias == CatchAll {
				return 1
			}
			return -1
		}
		return strings.Compare(a.Alias, b.Alias)
	})
	return rules, nil
}

// AddRule adds a rule sending alias (or CatchAll) of d to destinations.
// Addresses the account has not confirmed yet get a confirmation link; until
// then they receive nothing. Returns invalid for a bad alias or address, a
// loop or too many rules or addresses, conflict when the alias has a rule.
func (s *Service) AddRule(ctx context.Context, d Domain, alias string, destinations []string) (*Rule, error) {
	return s.writeRule(ctx, d, 0, alias, destinations)
}

// UpdateRule makes rule id of d send alias to destinations, at once: what
// AddRule checks, and not_found for a rule that is not d's. Addresses new to
// the account get their confirmation link; those left out stay confirmed.
func (s *Service) UpdateRule(ctx context.Context, d Domain, id int64, alias string, destinations []string) (*Rule, error) {
	if id <= 0 {
		return nil, errRuleNotFound
	}
	return s.writeRule(ctx, d, id, alias, destinations)
}

// writeRule adds a rule (id 0) or replaces rule id.
func (s *Service) writeRule(ctx context.Context, d Domain, id int64, alias string, destinations []string) (*Rule, error) {
	if err := s.opts.Allowed(d.Extension); err != nil {
		return nil, err
	}
	alias, err := normalizeAlias(alias)
	if err != nil {
		return nil, err
	}
	if len(destinations) == 0 {
		return nil, errNoDestination
	}
	if len(destinations) > MaxDestinations {
		return nil, errTooManyDest
	}
	var addresses []string
	for _, a := range destinations {
		n, err := normalizeDestination(a, d.Name())
		if err != nil {
			return nil, err
		}
		if !slices.Contains(addresses, n) {
			addresses = append(addresses, n)
		}
	}
	limit := s.opts.MaxRules
	if d.Registrar {
		limit = s.opts.MaxRulesRegistrar
	}
	now := s.clock()
	var rule *Rule
	err = s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		// Locks the domain's row, so that two rules added at once count
		// each other against the limit.
		if _, err := tx.NewUpdate().Table("domains").Set("updated_at = updated_at").Where("id = ?", d.ID).Exec(ctx); err != nil {
			return err
		}
		if id == 0 {
			n, err := tx.NewSelect().Table("mail_rules").Where("domain_id = ?", d.ID).Count(ctx)
			if err != nil {
				return err
			}
			if n >= int64(limit) {
				return apperr.New(apperr.Invalid, "A domain can have at most %d forwarding rules", limit)
			}
		} else {
			exists, err := tx.NewSelect().Table("mail_rules").Where("id = ? AND domain_id = ?", id, d.ID).Exists(ctx)
			if err != nil {
				return err
			}
			if !exists {
				return errRuleNotFound
			}
		}
		taken, err := tx.NewSelect().Table("mail_rules").Where("domain_id = ? AND alias = ? AND id <> ?", d.ID, alias, id).Exists(ctx)
		if err != nil {
			return err
		}
		if taken {
			return errRuleExists
		}
		if id == 0 {
			row := &ruleRow{DomainID: d.ID, Alias: alias, CreatedAt: now}
			if _, err := tx.NewInsert().Model(row).Returning("id").Exec(ctx); err != nil {
				return err
			}
			id = row.ID
		} else {
			if _, err := tx.NewUpdate().Table("mail_rules").Set("alias = ?", alias).Where("id = ?", id).Exec(ctx); err != nil {
				return err
			}
			if _, err := tx.NewDelete().Table("mail_rule_destinations").Where("rule_id = ?", id).Exec(ctx); err != nil {
				return err
			}
		}
		for _, a := range addresses {
			dest, err := s.destination(ctx, tx, d, a, now)
			if err != nil {
				return err
			}
			if _, err := tx.NewInsert().Model(&ruleDestinationRow{RuleID: id, DestinationID: dest.ID}).Exec(ctx); err != nil {
				return err
			}
		}
		rules, err := rulesOf(ctx, tx, d.ID)
		if err != nil {
			return err
		}
		for i := range rules {
			if rules[i].ID == id {
				rule = &rules[i]
			}
		}
		return nil
	})
	if err != nil {
		return nil, wrap("write a rule of", d, err)
	}
	return rule, nil
}

// destination returns the account's destination row for address, creating
// it (and mailing its confirmation link) when new.
func (s *Service) destination(ctx context.Context, tx *db.Tx, d Domain, address string, now time.Time) (*destinationRow, error) {
	row := new(destinationRow)
	err := tx.NewSelect().Model(row).Where("user_id = ? AND address = ?", d.UserID, address).Scan(ctx)
	if err == nil {
		return row, nil
	}
	if !errors.Is(err, errNoRows) {
		return nil, err
	}
	// The token stored is a placeholder until the confirmation mail is
	// sent: the link is made then (VerificationLink), so no job argument
	// ever holds it.
	*row = destinationRow{UserID: d.UserID, Address: address, TokenHash: unusableToken(), SentAt: now, CreatedAt: now}
	if _, err := tx.NewInsert().Model(row).Returning("id").Exec(ctx); err != nil {
		return nil, err
	}
	return row, s.sendLink(ctx, tx, d, row)
}

func (s *Service) sendLink(ctx context.Context, tx *db.Tx, d Domain, row *destinationRow) error {
	if s.opts.Notify == nil {
		return nil
	}
	return s.opts.Notify(ctx, tx, notify.Message{UserID: d.UserID, Kind: notify.KindVerifyForwarding, To: row.Address,
		Data: map[string]string{"destinationId": fmt.Sprint(row.ID), "address": row.Address, "domain": d.Name()}})
}

// unusableToken is a random hash no token has: the row's unique index wants
// one before any link exists.
func unusableToken() string {
	var b [32]byte
	_, _ = rand.Read(b[:])
	return "unsent-" + hex.EncodeToString(b[:])
}

func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// ConfirmPath is where a confirmation link points, below the public URL.
const ConfirmPath = "/email-forwarding/confirm"

// VerificationLink makes a new confirmation link for destination id (the
// notify SecretFunc of KindVerifyForwarding): it replaces the token of any
// link sent before. ErrObsolete when the destination is gone or confirmed.
func (s *Service) VerificationLink(publicURL string) notify.SecretFunc {
	return func(ctx context.Context, userID int64, data map[string]string) (map[string]string, error) {
		var b [24]byte
		if _, err := rand.Read(b[:]); err != nil {
			return nil, err
		}
		token := hex.EncodeToString(b[:])
		res, err := s.db.Bun.NewUpdate().Table("mail_destinations").Set("token_hash = ?", hashToken(token)).
			Where("id = ? AND user_id = ? AND verified_at IS NULL", data["destinationId"], userID).Exec(ctx)
		if err != nil {
			return nil, err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil, notify.ErrObsolete
		}
		return map[string]string{"link": strings.TrimRight(publicURL, "/") + ConfirmPath + "?token=" + token}, nil
	}
}

// Confirm marks the destination whose link carries token as confirmed and
// returns its address. The link works once.
func (s *Service) Confirm(ctx context.Context, token string) (string, error) {
	if token == "" || len(token) > 200 {
		return "", errTokenInvalid
	}
	var address string
	err := s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		row := new(destinationRow)
		err := tx.NewSelect().Model(row).Where("token_hash = ? AND verified_at IS NULL", hashToken(token)).Scan(ctx)
		if errors.Is(err, errNoRows) {
			return errTokenInvalid
		}
		if err != nil {
			return err
		}
		address = row.Address
		_, err = tx.NewUpdate().Table("mail_destinations").Set("verified_at = ?", s.clock()).
			Set("token_hash = ?", unusableToken()).Where("id = ?", row.ID).Exec(ctx)
		return err
	})
	if err != nil {
		var appErr *apperr.Error
		if errors.As(err, &appErr) {
			return "", err
		}
		return "", fmt.Errorf("mailfwd: confirm a destination: %w", err)
	}
	return address, nil
}

// Resend mails a new confirmation link to address, one of d's unconfirmed
// destinations; at most once a minute.
func (s *Service) Resend(ctx context.Context, d Domain, address string) error {
	address, err := normalizeDestination(address, d.Name())
	if err != nil {
		return err
	}
	now := s.clock()
	err = s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		row := new(destinationRow)
		err := tx.NewSelect().Model(row).
			Where("user_id = ? AND address = ?", d.UserID, address).
			Where("EXISTS (SELECT 1 FROM mail_rule_destinations rd JOIN mail_rules r ON r.id = rd.rule_id WHERE rd.destination_id = ?TableAlias.id AND r.domain_id = ?)", d.ID).
			Scan(ctx)
		if errors.Is(err, errNoRows) {
			return errDestNotFound
		}
		if err != nil {
			return err
		}
		if !row.VerifiedAt.IsZero() {
			return apperr.New(apperr.Conflict, "This address is already confirmed")
		}
		if now.Sub(row.SentAt) < time.Minute {
			return errResendTooSoon
		}
		if _, err := tx.NewUpdate().Table("mail_destinations").Set("sent_at = ?", now).Where("id = ?", row.ID).Exec(ctx); err != nil {
			return err
		}
		return s.sendLink(ctx, tx, d, row)
	})
	return wrap("resend a link for", d, err)
}

// DeleteRule removes rule id of d. Destinations stay confirmed for the
// account's other rules.
func (s *Service) DeleteRule(ctx context.Context, d Domain, id int64) error {
	res, err := s.db.Bun.NewDelete().Table("mail_rules").Where("id = ? AND domain_id = ?", id, d.ID).Exec(ctx)
	if err != nil {
		return wrap("delete a rule of", d, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errRuleNotFound
	}
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
	return fmt.Errorf("mailfwd: %s %s: %w", op, d.Name(), err)
}

// SPF is the SPF record forwarding adds: the hosts of the domain's MX (this
// mail server) may send for it.
const SPF = "v=spf1 mx ~all"

// MXPriority is the preference of the MX record forwarding adds.
const MXPriority = 10

// MailHostLabel is the label of the default mail host in each zone: the DNS
// role answers for it (dnsserver.WithZoneHost) and registration reserves it.
const MailHostLabel = "mx"

// MailHost is the mail server's name for domains of extension (".inf.nz"):
// configured (--mail-host), or MailHostLabel under the extension
// ("mx.inf.nz").
func MailHost(configured, extension string) string {
	if configured != "" {
		return strings.TrimSuffix(configured, ".")
	}
	return MailHostLabel + extension
}

// mailRecord tells whether r brings mail somewhere: an MX, or an SPF TXT.
// ours says whether it is the one forwarding adds.
func mailRecord(r zone.Record, host string) (mail, ours bool) {
	switch r.Type {
	case "MX":
		return true, strings.EqualFold(strings.TrimSuffix(r.Content, "."), host)
	case "TXT":
		text := strings.Trim(strings.TrimSpace(r.Content), `"`)
		if strings.HasPrefix(strings.ToLower(text), "v=spf1") {
			return true, text == SPF
		}
	}
	return false, false
}

// Status is what the Email Forwarding tab shows.
type Status struct {
	Enabled  bool   `json:"enabled"`
	MailHost string `json:"mailHost"`
	// Replaces lists the mail records of the domain that are not
	// forwarding's (another mail service's MX, an SPF of its own): turning
	// forwarding on replaces them, and says so first.
	Replaces []string `json:"replaces"`
	Rules    []Rule   `json:"rules"`
	MaxRules int      `json:"maxRules"`
}

// Status returns d's forwarding state.
func (s *Service) Status(ctx context.Context, d Domain) (*Status, error) {
	enabled, err := s.db.Bun.NewSelect().Table("mail_domains").Where("domain_id = ?", d.ID).Exists(ctx)
	if err != nil {
		return nil, wrap("read forwarding of", d, err)
	}
	records, err := s.opts.Records.List(ctx, d.zone())
	if err != nil {
		return nil, err
	}
	rules, err := s.Rules(ctx, d)
	if err != nil {
		return nil, err
	}
	host := MailHost(s.opts.MailHost, d.Extension)
	st := &Status{Enabled: enabled, MailHost: host, Replaces: foreignMail(records, host), Rules: rules, MaxRules: s.opts.MaxRules}
	if d.Registrar {
		st.MaxRules = s.opts.MaxRulesRegistrar
	}
	return st, nil
}

func foreignMail(records []zone.Record, host string) []string {
	out := []string{}
	for _, r := range records {
		if mail, ours := mailRecord(r, host); mail && !ours {
			text := r.Type + " " + r.Content
			if r.Priority != nil {
				text = fmt.Sprintf("MX %d %s", *r.Priority, r.Content)
			}
			out = append(out, text)
		}
	}
	return out
}

// Enable turns forwarding on for d: it adds the MX record that brings d's
// mail to this server and the SPF record, and from then on d's rules take
// mail. Mail records of another service (MX, SPF) are replaced only when
// replace is set; otherwise Enable refuses with a conflict naming them.
func (s *Service) Enable(ctx context.Context, d Domain, replace bool) error {
	if err := s.opts.Allowed(d.Extension); err != nil {
		return err
	}
	host := MailHost(s.opts.MailHost, d.Extension)
	prio := MXPriority
	return s.opts.Records.Apply(ctx, d.zone(), zone.Change{
		Remove: func(r zone.Record) bool {
			mail, ours := mailRecord(r, host)
			return ours || mail && replace
		},
		Add: []zone.Input{{Type: "MX", Name: "@", Content: host + ".", Priority: &prio}, {Type: "TXT", Name: "@", Content: SPF}},
		Also: func(ctx context.Context, tx *db.Tx, before []zone.Record) error {
			if foreign := foreignMail(before, host); len(foreign) > 0 && !replace {
				return apperr.New(apperr.Conflict, "Turning forwarding on replaces this domain's mail records: %s", strings.Join(foreign, "; "))
			}
			_, err := tx.NewInsert().Model(&mailDomainRow{DomainID: d.ID, CreatedAt: s.clock()}).
				On("CONFLICT (domain_id) DO NOTHING").Exec(ctx)
			return err
		},
	})
}

// Disable turns forwarding off for d: its MX and SPF records go, and mail
// for it is refused as for any domain that is not ours. Its rules stay, for
// when it is turned on again.
func (s *Service) Disable(ctx context.Context, d Domain) error {
	host := MailHost(s.opts.MailHost, d.Extension)
	return s.opts.Records.Apply(ctx, d.zone(), zone.Change{
		Remove: func(r zone.Record) bool {
			_, ours := mailRecord(r, host)
			return ours
		},
		Also: func(ctx context.Context, tx *db.Tx, _ []zone.Record) error {
			_, err := tx.NewDelete().Table("mail_domains").Where("domain_id = ?", d.ID).Exec(ctx)
			return err
		},
	})
}
