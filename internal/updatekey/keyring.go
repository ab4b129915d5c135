package updatekey

import (
	"context"
	"database/sql"
	"encoding/base64"
	"errors"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/miekg/dns"

	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dnsserver"
	"github.com/nameport/nameport/internal/zone"
)

// Keyring is the update keys as the DNS server sees them
// (dnsserver.Updates): looked up by TSIG name and cached, so that a signed
// message costs no query but on a name's first use; and the updates they
// sign applied through the zone service after the key's scope is checked.
//
// A cached key lives keyTTL, an unknown name unknownTTL; a key revoked in
// this process is forgotten at once (Forget, through Service's Changed),
// and one revoked elsewhere changes nothing anyway: Apply finds its row
// gone in the update's own transaction.
type Keyring struct {
	keys    *Service
	records *zone.Service
	// allowed says whether a domain's extension allows DNS management
	// (catalog.Service.CheckDNSManagement); nil: all do.
	allowed func(extension string) error
	now     func() time.Time

	mu    sync.Mutex
	cache map[string]cached
}

type cached struct {
	key    dnsserver.UpdateKey
	domain zone.Domain
	names  []string
	types  []string
	found  bool
	until  time.Time
}

const (
	keyTTL       = time.Minute
	unknownTTL   = 5 * time.Second
	maxCached    = 10000
	lookupBudget = 2 * time.Second
)

// NewKeyring returns the keyring of keys, applying updates through
// records; allowed, when not nil, refuses updates of domains whose
// extension does not allow DNS management.
func NewKeyring(keys *Service, records *zone.Service, allowed func(extension string) error) *Keyring {
	return &Keyring{keys: keys, records: records, allowed: allowed, now: time.Now, cache: map[string]cached{}}
}

// Forget drops what the keyring holds of the key named name.
func (k *Keyring) Forget(name string) {
	k.mu.Lock()
	delete(k.cache, dns.CanonicalName(name))
	k.mu.Unlock()
}

// Key implements dnsserver.Updates.
func (k *Keyring) Key(name string) (dnsserver.UpdateKey, bool) {
	c, ok := k.lookup(name)
	return c.key, ok
}

func (k *Keyring) lookup(name string) (cached, bool) {
	name = dns.CanonicalName(name)
	now := k.now()
	k.mu.Lock()
	c, hit := k.cache[name]
	k.mu.Unlock()
	if hit && now.Before(c.until) {
		return c, c.found
	}
	c, err := k.load(name)
	if err != nil {
		// The database is down: no key, and try again next time.
		return cached{}, false
	}
	c.until = now.Add(unknownTTL)
	if c.found {
		c.until = now.Add(keyTTL)
	}
	k.mu.Lock()
	if len(k.cache) >= maxCached {
		clear(k.cache) // names made up by the thousand: start over
	}
	k.cache[name] = c
	k.mu.Unlock()
	return c, c.found
}

// load reads the key named name ("label.domain.extension."): the label,
// then the registered domain, the first label of the rest, directly under
// its extension.
func (k *Keyring) load(name string) (cached, error) {
	labels := dns.SplitDomainName(name)
	if len(labels) < 3 {
		return cached{}, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), lookupBudget)
	defer cancel()
	var r struct {
		row
		DomainName string `bun:"domain_name"`
		Extension  string `bun:"extension"`
	}
	err := k.keys.db.Bun.NewSelect().TableExpr("dns_update_keys AS k").
		ColumnExpr("k.*, d.name AS domain_name, d.extension").
		Join("JOIN domains AS d ON d.id = k.domain_id").
		Where("k.name = ?", labels[0]).Where("d.name = ?", labels[1]).
		Where("d.extension = ?", "."+strings.Join(labels[2:], ".")).
		Scan(ctx, &r)
	if errors.Is(err, sql.ErrNoRows) {
		return cached{}, nil
	}
	if err != nil {
		return cached{}, err
	}
	plain, err := k.keys.seal.Open(r.SecretSealed)
	if err != nil {
		return cached{}, err
	}
	secret, err := base64.StdEncoding.DecodeString(plain)
	if err != nil {
		return cached{}, err
	}
	d := zone.Domain{ID: r.DomainID, Name: r.DomainName, Extension: r.Extension}
	alg := dns.HmacSHA256
	if r.Algorithm == HMACSHA512 {
		alg = dns.HmacSHA512
	}
	names, types := fields(r.Names), fields(r.Types)
	return cached{key: dnsserver.UpdateKey{ID: r.ID, Name: name, Algorithm: alg, Secret: secret, Domain: d.FQDN(),
		WholeDomain: len(names) == 0 && len(types) == 0},
		domain: d, names: names, types: types, found: true}, nil
}

// Apply implements dnsserver.Updates: the update must stay inside the
// key's domain and scope, or it is refused as a whole (REFUSED, the
// RCODE of policy; NOTZONE for a name outside the zone section's zone).
func (k *Keyring) Apply(ctx context.Context, key dnsserver.UpdateKey, zoneName string, prereqs, updates []dns.RR) (int64, error) {
	c, ok := k.lookup(key.Name)
	if !ok || c.key.ID != key.ID {
		return 0, &zone.UpdateError{Rcode: dns.RcodeRefused, Reason: "the key was revoked"}
	}
	d := c.domain
	apex := d.FQDN()
	// The zone section names the extension's zone (what an SOA query
	// finds) or the domain itself.
	if !dns.IsSubDomain(zoneName, apex) {
		return 0, &zone.UpdateError{Rcode: dns.RcodeRefused, Reason: "the key is for " + d.String()}
	}
	// Names outside the zone are refused as RFC 2136 says (NOTZONE),
	// then those outside the key's domain (REFUSED).
	for _, rr := range slices.Concat(prereqs, updates) {
		name := dns.CanonicalName(rr.Header().Name)
		if !dns.IsSubDomain(zoneName, name) {
			return 0, &zone.UpdateError{Rcode: dns.RcodeNotZone, Reason: name + " is outside " + zoneName}
		}
		if !dns.IsSubDomain(apex, name) {
			return 0, &zone.UpdateError{Rcode: dns.RcodeRefused, Reason: name + " is outside the key's domain " + d.String()}
		}
	}
	for _, rr := range updates {
		if reason := outOfScope(c, d, rr); reason != "" {
			return 0, &zone.UpdateError{Rcode: dns.RcodeRefused, Reason: reason}
		}
	}
	if k.allowed != nil {
		if err := k.allowed(d.Extension); err != nil {
			return 0, err
		}
	}
	return k.records.DynamicUpdate(ctx, d, prereqs, updates, func(ctx context.Context, tx *db.Tx) error {
		res, err := tx.NewUpdate().Model((*row)(nil)).Set("last_used_at = ?", k.keys.now().UTC().Truncate(time.Microsecond)).
			Where("id = ?", key.ID).Exec(ctx)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			k.Forget(key.Name)
			return &zone.UpdateError{Rcode: dns.RcodeRefused, Reason: "the key was revoked"}
		}
		return nil
	})
}

// outOfScope says why rr is outside the key's scope; "" when inside.
func outOfScope(c cached, d zone.Domain, rr dns.RR) string {
	h := rr.Header()
	if len(c.names) > 0 {
		rel, err := zone.RelativeName(d, h.Name)
		if err != nil || !slices.Contains(c.names, rel) {
			return h.Name + " is outside the key's names"
		}
	}
	if len(c.types) > 0 {
		if h.Rrtype == dns.TypeANY {
			return "the key may change only " + strings.Join(c.types, ", ") + " records, not every type"
		}
		if !slices.Contains(c.types, dns.Type(h.Rrtype).String()) {
			return dns.Type(h.Rrtype).String() + " is outside the key's types"
		}
	}
	return ""
}
