// Package updatekey owns the TSIG keys with which a domain's owner lets
// tools change the domain's records by RFC 2136 dynamic update (certbot,
// lego, cert-manager, external-dns, nsupdate): their creation (the secret
// made here and shown once), scope (names and types), revocation and last
// use. Keyring serves them to the DNS server, cached, and applies the
// updates they sign through the zone service.
package updatekey

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/sealer"
	"github.com/nameport/nameport/internal/zone"
)

// Algorithms of update keys: the HMACs of RFC 8945 every client offers.
const (
	HMACSHA256 = "hmac-sha256"
	HMACSHA512 = "hmac-sha512"
)

// Limits of a key.
const (
	MaxKeysPerDomain = 20
	MaxScopeNames    = 20
	secretBytes      = 32 // 256 bits, the HMAC-SHA256 block's worth
)

// Key is an update key of a domain, without its secret.
type Key struct {
	ID       int64
	DomainID int64
	// Label is the name its owner gave it ("certbot"); KeyName is the
	// TSIG key name clients sign with: Label under the domain
	// ("certbot.example.inf.nz.").
	Label     string
	KeyName   string
	Algorithm string
	// Names are the names the key may change, relative to the domain
	// ("_acme-challenge", "@"); empty: every name of the domain.
	Names []string
	// Types are the record types it may change; empty: every type.
	Types      []string
	CreatedAt  time.Time
	LastUsedAt *time.Time
}

// Input is a key to create.
type Input struct {
	Name      string
	Algorithm string // "" means hmac-sha256
	Names     []string
	Types     []string
}

// row is a dns_update_keys row.
type row struct {
	bun.BaseModel `bun:"table:dns_update_keys"`

	ID           int64      `bun:"id,pk,autoincrement"`
	DomainID     int64      `bun:"domain_id"`
	Name         string     `bun:"name"`
	Algorithm    string     `bun:"algorithm"`
	SecretSealed string     `bun:"secret_sealed"`
	Names        string     `bun:"names"`
	Types        string     `bun:"types"`
	CreatedAt    time.Time  `bun:"created_at"`
	LastUsedAt   *time.Time `bun:"last_used_at"`
}

func (r row) key(d zone.Domain) Key {
	k := Key{ID: r.ID, DomainID: r.DomainID, Label: r.Name, KeyName: r.Name + "." + d.FQDN(), Algorithm: r.Algorithm,
		Names: fields(r.Names), Types: fields(r.Types), CreatedAt: r.CreatedAt.UTC()}
	if r.LastUsedAt != nil {
		t := r.LastUsedAt.UTC()
		k.LastUsedAt = &t
	}
	return k
}

func fields(s string) []string {
	if f := strings.Fields(s); len(f) > 0 {
		return f
	}
	return []string{}
}

// Options configure a Service.
type Options struct {
	Now func() time.Time
	// Changed, when set, is called with a key's name after it is revoked,
	// so that a Keyring in the same process forgets it at once (others
	// refuse it at their next update: see Keyring.Update).
	Changed func(keyName string)
}

// Service creates, lists and revokes update keys.
type Service struct {
	db      *db.DB
	seal    *sealer.Sealer
	now     func() time.Time
	changed func(string)
}

// NewService returns the key service over d; seal seals the secrets.
func NewService(d *db.DB, seal *sealer.Sealer, opts Options) *Service {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Changed == nil {
		opts.Changed = func(string) {}
	}
	return &Service{db: d, seal: seal, now: opts.Now, changed: opts.Changed}
}

// OnChange sets the function called after a key is revoked (see Options).
func (s *Service) OnChange(fn func(keyName string)) { s.changed = fn }

func invalid(format string, args ...any) error { return apperr.New(apperr.Invalid, format, args...) }

var errNotFound = apperr.New(apperr.NotFound, "Update key not found")

// normalize validates in for d: a label of letters, digits and hyphens, a
// known algorithm, scope names inside d and supported types.
func normalize(d zone.Domain, in Input) (row, error) {
	label := strings.ToLower(strings.TrimSpace(in.Name))
	if label == "" {
		return row{}, invalid("Key name is required")
	}
	if len(label) > 63 || strings.HasPrefix(label, "-") || strings.HasSuffix(label, "-") ||
		strings.IndexFunc(label, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') }) >= 0 {
		return row{}, invalid("Key name must be 1 to 63 letters, digits or hyphens, not starting or ending with a hyphen (like certbot)")
	}
	alg := strings.ToLower(strings.TrimSpace(in.Algorithm))
	switch alg {
	case "":
		alg = HMACSHA256
	case HMACSHA256, HMACSHA512:
	default:
		return row{}, invalid("Algorithm must be %s or %s", HMACSHA256, HMACSHA512)
	}
	if len(in.Names) > MaxScopeNames {
		return row{}, invalid("A key can be limited to at most %d names", MaxScopeNames)
	}
	var names []string
	for _, n := range in.Names {
		rel, err := zone.RelativeName(d, n)
		if err != nil {
			return row{}, err
		}
		if !slices.Contains(names, rel) {
			names = append(names, rel)
		}
	}
	var types []string
	for _, t := range in.Types {
		t = strings.ToUpper(strings.TrimSpace(t))
		if !slices.Contains(zone.Types, t) {
			return row{}, invalid("Key types must be among %s", strings.Join(zone.Types, ", "))
		}
		if !slices.Contains(types, t) {
			types = append(types, t)
		}
	}
	slices.Sort(names)
	slices.Sort(types)
	return row{DomainID: d.ID, Name: label, Algorithm: alg, Names: strings.Join(names, " "), Types: strings.Join(types, " ")}, nil
}

// Create makes a key for d and returns it with its secret (base64, as
// TSIG clients take it), which is never shown again. Invalid for a bad
// input; conflict when d has a key of that name.
func (s *Service) Create(ctx context.Context, d zone.Domain, in Input) (Key, string, error) {
	r, err := normalize(d, in)
	if err != nil {
		return Key{}, "", err
	}
	raw := make([]byte, secretBytes)
	if _, err := rand.Read(raw); err != nil {
		return Key{}, "", fmt.Errorf("updatekey: secret: %w", err)
	}
	secret := base64.StdEncoding.EncodeToString(raw)
	if r.SecretSealed, err = s.seal.Seal(secret); err != nil {
		return Key{}, "", err
	}
	r.CreatedAt = s.now().UTC().Truncate(time.Microsecond)
	err = s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		n, err := tx.NewSelect().Model((*row)(nil)).Where("domain_id = ?", d.ID).Count(ctx)
		if err != nil {
			return err
		}
		if n >= MaxKeysPerDomain {
			return invalid("A domain can have at most %d update keys", MaxKeysPerDomain)
		}
		exists, err := tx.NewSelect().Model((*row)(nil)).Where("domain_id = ?", d.ID).Where("name = ?", r.Name).Exists(ctx)
		if err != nil {
			return err
		}
		if exists {
			return apperr.New(apperr.Conflict, "%s already has an update key named %s", d, r.Name)
		}
		_, err = tx.NewInsert().Model(&r).Exec(ctx)
		return err
	})
	if err != nil {
		var ae *apperr.Error
		if errors.As(err, &ae) {
			return Key{}, "", ae
		}
		if _, unique := db.UniqueViolation(err); unique {
			return Key{}, "", apperr.New(apperr.Conflict, "%s already has an update key named %s", d, r.Name)
		}
		return Key{}, "", fmt.Errorf("updatekey: create key of %s: %w", d, err)
	}
	// A lookup of the name before it existed is cached as unknown.
	s.changed(r.key(d).KeyName)
	return r.key(d), secret, nil
}

// List returns d's keys, oldest first.
func (s *Service) List(ctx context.Context, d zone.Domain) ([]Key, error) {
	var rows []row
	if err := s.db.Bun.NewSelect().Model(&rows).Where("domain_id = ?", d.ID).Order("id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("updatekey: list keys of %s: %w", d, err)
	}
	out := make([]Key, len(rows))
	for i, r := range rows {
		out[i] = r.key(d)
	}
	return out, nil
}

// Revoke ends key id of d at once. Not found when d has no such key.
func (s *Service) Revoke(ctx context.Context, d zone.Domain, id int64) error {
	var r row
	err := s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		err := tx.NewSelect().Model(&r).Where("id = ?", id).Where("domain_id = ?", d.ID).Scan(ctx)
		if errors.Is(err, sql.ErrNoRows) {
			return errNotFound
		}
		if err != nil {
			return err
		}
		_, err = tx.NewDelete().Model((*row)(nil)).Where("id = ?", id).Exec(ctx)
		return err
	})
	if errors.Is(err, errNotFound) {
		return errNotFound
	}
	if err != nil {
		return fmt.Errorf("updatekey: revoke key of %s: %w", d, err)
	}
	s.changed(r.Name + "." + d.FQDN())
	return nil
}
