package account

import (
	"context"
	"crypto/rand"
	"database/sql"
	"database/sql/driver"
	"encoding/base32"
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/audit"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/notify"
)

// A registrar has several API keys, each with a name, the scopes it
// grants, optionally the client addresses it may be used from and an
// expiry. Only an HMAC of each key is stored, for lookup. The first key,
// made with the account, is the one the dashboard's API Access tab shows
// whenever it is opened (spec): it alone is also stored sealed, so that
// its owner can read it again. Keys made later are shown once, when made
// or rotated. The first key can be rotated but not revoked, so a registrar
// always has the key the tab shows.

// APIKeyPrefix starts every API key, so leaked keys are easy to recognise.
const APIKeyPrefix = "np_"

// Limits of API keys.
const (
	// MaxAPIKeys is how many keys (not revoked) one registrar may have.
	MaxAPIKeys = 50
	// MaxKeyName is the longest key name, in characters.
	MaxKeyName = 64
	// MaxKeyAddresses is how many addresses or prefixes one key may allow.
	MaxKeyAddresses = 20
	// PrimaryKeyName names the key made with the account.
	PrimaryKeyName = "Default"
	// keyUseInterval is how often at most a key's last use is written.
	keyUseInterval = time.Minute
)

// newAPIKey returns a fresh random API key.
func newAPIKey() (string, error) {
	raw := make([]byte, 25)
	if _, err := rand.Read(raw); err != nil {
		return "", fmt.Errorf("account: api key: %w", err)
	}
	return APIKeyPrefix + base32.HexEncoding.WithPadding(base32.NoPadding).EncodeToString(raw), nil
}

// Scope is a set of the things an API key may do on /v1. It is stored as
// its names, comma-separated ("read,dns").
type Scope uint8

// Scopes. Which /v1 operation needs which is declared where the operation
// is registered (api.registerV1).
const (
	ScopeRead     Scope = 1 << iota // every read (GET)
	ScopeDNS                        // record, email forwarding and domain forwarding changes
	ScopeRegister                   // domain checks, registrations and renewals
	ScopeWallet                     // deposits
	// AllScopes is every scope: the first key's, and what managing keys
	// through /v1 takes.
	AllScopes = ScopeRead | ScopeDNS | ScopeRegister | ScopeWallet
)

// scopeNames are the scopes' names, in bit order.
var scopeNames = [...]string{"read", "dns", "register", "wallet"}

// ScopeNames lists the name of every scope.
func ScopeNames() []string { return scopeNames[:] }

// Names lists the names of the scopes in s.
func (s Scope) Names() []string {
	names := []string{}
	for i, name := range scopeNames {
		if s&(1<<i) != 0 {
			names = append(names, name)
		}
	}
	return names
}

func (s Scope) String() string { return strings.Join(s.Names(), ",") }

// Describe names the scopes of s for a message: "the dns scope", "the
// register and wallet scopes".
func (s Scope) Describe() string {
	names := s.Names()
	switch len(names) {
	case 0:
		return "no scope"
	case 1:
		return "the " + names[0] + " scope"
	}
	return "the " + strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1] + " scopes"
}

// Missing is what of need s lacks.
func (s Scope) Missing(need Scope) Scope { return need &^ s }

// ParseScopes reads scope names; invalid for an unknown name or none.
func ParseScopes(names []string) (Scope, error) {
	var s Scope
	for _, name := range names {
		i := slices.Index(scopeNames[:], strings.ToLower(strings.TrimSpace(name)))
		if i < 0 {
			return 0, apperr.New(apperr.Invalid, "Unknown scope %s: the scopes are %s", clipQuoted(name),
				strings.Join(scopeNames[:], ", "))
		}
		s |= 1 << i
	}
	if s == 0 {
		return 0, invalid("Choose at least one scope")
	}
	return s, nil
}

// Value stores s as its names.
func (s Scope) Value() (driver.Value, error) { return s.String(), nil }

// Scan reads s from its names.
func (s *Scope) Scan(src any) error {
	text, err := columnText(src)
	if err != nil {
		return err
	}
	*s = 0
	for name := range strings.SplitSeq(text, ",") {
		if i := slices.Index(scopeNames[:], name); i >= 0 {
			*s |= 1 << i
		}
	}
	return nil
}

// AddressList is the client addresses an API key may be used from, as
// prefixes (a single address is a /32 or /128); empty allows any. It is
// stored comma-separated.
type AddressList []netip.Prefix

// ParseAddressList reads addresses ("203.0.113.7", "2001:db8::1") and
// prefixes ("203.0.113.0/24", "2001:db8::/32"). A prefix with host bits
// set is taken as its network (10.1.2.3/8 is 10.0.0.0/8), and IPv4 given
// as IPv6 (::ffff:192.0.2.1) as IPv4, since that is how the server sees
// such clients. Returns invalid naming the first entry that is neither.
func ParseAddressList(entries []string) (AddressList, error) {
	if len(entries) > MaxKeyAddresses {
		return nil, apperr.New(apperr.Invalid, "A key may allow at most %d addresses or prefixes", MaxKeyAddresses)
	}
	list := AddressList{}
	for _, e := range entries {
		p, ok := parseAddressOrPrefix(strings.TrimSpace(e))
		if !ok {
			return nil, apperr.New(apperr.Invalid,
				"%s is not an IP address or prefix (like 203.0.113.7, 203.0.113.0/24 or 2001:db8::/32)", clipQuoted(e))
		}
		if !slices.Contains(list, p) {
			list = append(list, p)
		}
	}
	return list, nil
}

func parseAddressOrPrefix(s string) (netip.Prefix, bool) {
	if strings.Contains(s, "%") { // a zone means nothing off the host
		return netip.Prefix{}, false
	}
	if a, err := netip.ParseAddr(s); err == nil {
		a = a.Unmap()
		return netip.PrefixFrom(a, a.BitLen()), true
	}
	p, err := netip.ParsePrefix(s)
	if err != nil {
		return netip.Prefix{}, false
	}
	if a := p.Addr(); a.Is4In6() && p.Bits() >= 96 {
		p = netip.PrefixFrom(a.Unmap(), p.Bits()-96)
	}
	return p.Masked(), true
}

// Strings lists l as text: addresses alone, prefixes with their length.
func (l AddressList) Strings() []string {
	out := make([]string, 0, len(l))
	for _, p := range l {
		if p.IsSingleIP() {
			out = append(out, p.Addr().String())
		} else {
			out = append(out, p.String())
		}
	}
	return out
}

// Allows reports whether a client at ip (as api.ClientAddr gives it) may
// use a key with list l.
func (l AddressList) Allows(ip string) bool {
	if len(l) == 0 {
		return true
	}
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return false
	}
	a = a.Unmap()
	return slices.ContainsFunc(l, func(p netip.Prefix) bool { return p.Contains(a) })
}

// Value stores l comma-separated.
func (l AddressList) Value() (driver.Value, error) { return strings.Join(l.Strings(), ","), nil }

// Scan reads l from its stored text.
func (l *AddressList) Scan(src any) error {
	text, err := columnText(src)
	if err != nil {
		return err
	}
	*l = AddressList{}
	for e := range strings.SplitSeq(text, ",") {
		if e == "" {
			continue
		}
		p, ok := parseAddressOrPrefix(e)
		if !ok {
			return fmt.Errorf("account: stored address %q", e)
		}
		*l = append(*l, p)
	}
	return nil
}

func columnText(src any) (string, error) {
	switch v := src.(type) {
	case nil:
		return "", nil
	case string:
		return v, nil
	case []byte:
		return string(v), nil
	}
	return "", fmt.Errorf("account: cannot read %T as text", src)
}

// clipQuoted quotes what a person sent for a message, cut short: a
// message must not echo a huge input.
func clipQuoted(s string) string {
	if utf8.RuneCountInString(s) > 40 {
		s = string([]rune(s)[:40]) + "…"
	}
	return fmt.Sprintf("%q", s)
}

// APIKey is one of a registrar's API keys. The key itself is not in it.
type APIKey struct {
	bun.BaseModel `bun:"table:api_keys"`

	ID     int64  `bun:"id,pk,autoincrement"`
	UserID int64  `bun:"user_id"`
	Name   string `bun:"name"`
	// Hash finds the key (sealer.Hash); Sealed is the key itself, sealed,
	// for the first key only (see Primary).
	Hash       string      `bun:"hash"`
	Sealed     string      `bun:"sealed,nullzero"`
	Scopes     Scope       `bun:"scopes"`
	Allowed    AddressList `bun:"allowed_cidrs"`
	ExpiresAt  time.Time   `bun:"expires_at,nullzero"`
	CreatedAt  time.Time   `bun:"created_at"`
	LastUsedAt time.Time   `bun:"last_used_at,nullzero"`
	RevokedAt  time.Time   `bun:"revoked_at,nullzero"`
}

// Primary reports whether k is the key made with the account: the one the
// API Access tab shows, which may be rotated but not revoked.
func (k *APIKey) Primary() bool { return k.Sealed != "" }

// NewKey is what a registrar asks for when it makes a key.
type NewKey struct {
	Name   string
	Scopes []string
	// Allowed are the addresses and prefixes the key may be used from;
	// none: anywhere.
	Allowed []string
	// ExpiresAt is when the key stops working; zero: never.
	ExpiresAt time.Time
}

func (s *Service) validateNewKey(in NewKey) (*APIKey, error) {
	name := strings.TrimSpace(in.Name)
	switch {
	case name == "":
		return nil, invalid("Key name is required")
	case hasControl(name):
		return nil, invalid("Key name cannot contain line breaks or control characters")
	case utf8.RuneCountInString(name) > MaxKeyName:
		return nil, apperr.New(apperr.Invalid, "Key name must be at most %d characters", MaxKeyName)
	}
	scopes, err := ParseScopes(in.Scopes)
	if err != nil {
		return nil, err
	}
	allowed, err := ParseAddressList(in.Allowed)
	if err != nil {
		return nil, err
	}
	if !in.ExpiresAt.IsZero() && !in.ExpiresAt.After(s.now()) {
		return nil, invalid("Expiry must be in the future")
	}
	k := &APIKey{Name: name, Scopes: scopes, Allowed: allowed}
	if !in.ExpiresAt.IsZero() {
		k.ExpiresAt = in.ExpiresAt.UTC().Truncate(time.Second)
	}
	return k, nil
}

var (
	errNoKeys      = apperr.New(apperr.Forbidden, "Only registrar accounts have an API key")
	errKeyNotFound = apperr.New(apperr.NotFound, "API key not found")
)

// APIKeys returns registrar u's keys that are not revoked, oldest first.
// Returns forbidden for accounts that are not registrars.
func (s *Service) APIKeys(ctx context.Context, u *User) ([]APIKey, error) {
	if !u.IsRegistrar() {
		return nil, errNoKeys
	}
	keys := []APIKey{}
	if err := s.db.Bun.NewSelect().Model(&keys).Where("user_id = ?", u.ID).Where("revoked_at IS NULL").
		Order("id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("account: api keys of %s: %w", u.Username, err)
	}
	return keys, nil
}

// CreateAPIKey makes a key for registrar u and returns it with the key
// itself, which is shown this once. Returns invalid for a bad name, scope,
// address or expiry, conflict when u has MaxAPIKeys keys already, and
// forbidden for accounts that are not registrars.
func (s *Service) CreateAPIKey(ctx context.Context, u *User, in NewKey) (*APIKey, string, error) {
	if !u.IsRegistrar() {
		return nil, "", errNoKeys
	}
	k, err := s.validateNewKey(in)
	if err != nil {
		return nil, "", err
	}
	secret, err := newAPIKey()
	if err != nil {
		return nil, "", err
	}
	k.UserID, k.Hash, k.CreatedAt = u.ID, s.keys.Hash(secret), s.clock()
	err = s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		// Counted under the account's row lock (on SQLite the one writer
		// is lock enough), so that racing requests cannot pass the limit
		// together.
		if s.db.Engine == db.Postgres {
			if _, err := tx.NewSelect().Model((*User)(nil)).Column("id").Where("id = ?", u.ID).For("UPDATE").Exec(ctx); err != nil {
				return err
			}
		}
		n, err := tx.NewSelect().Model((*APIKey)(nil)).Where("user_id = ?", u.ID).Where("revoked_at IS NULL").Count(ctx)
		if err != nil {
			return err
		}
		if n >= MaxAPIKeys {
			return apperr.New(apperr.Conflict, "You have %d API keys, the most an account may have: revoke one first", MaxAPIKeys)
		}
		if _, err = tx.NewInsert().Model(k).Exec(ctx); err != nil {
			return err
		}
		if err := recordSecurity(ctx, tx, u, audit.ActionAPIKeyCreate, nil, keyAudit(k)); err != nil {
			return err
		}
		// A new key is a way into the account: its holder hears of it.
		return notify.Enqueue(ctx, tx, notify.Message{UserID: u.ID, Kind: notify.KindAPIKeyCreated,
			Data: map[string]string{"name": k.Name, "prefix": secret[:len(APIKeyPrefix)+4] + "…"}})
	})
	if err != nil {
		if apperr.Code(err) != apperr.Internal {
			return nil, "", err
		}
		return nil, "", fmt.Errorf("account: create api key of %s: %w", u.Username, err)
	}
	return k, secret, nil
}

// RotateKey gives registrar u's key id a new secret and returns the key
// with it (shown this once, or, for the first key, whenever the API Access
// tab shows it); the old secret stops working at once on this node and
// within keyCacheTTL on others. Name, scopes, addresses and expiry stay.
// Returns not_found when u has no such key (revoked keys included) and
// forbidden for accounts that are not registrars.
func (s *Service) RotateKey(ctx context.Context, u *User, id int64) (*APIKey, string, error) {
	defer s.apiKeys.forget()
	if !u.IsRegistrar() {
		return nil, "", errNoKeys
	}
	k := new(APIKey)
	err := s.db.Bun.NewSelect().Model(k).Where("id = ?", id).Where("user_id = ?", u.ID).Where("revoked_at IS NULL").Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, "", errKeyNotFound
	}
	if err != nil {
		return nil, "", fmt.Errorf("account: rotate api key %d: %w", id, err)
	}
	secret, err := newAPIKey()
	if err != nil {
		return nil, "", err
	}
	k.Hash = s.keys.Hash(secret)
	if k.Primary() {
		if k.Sealed, err = s.keys.Seal(secret); err != nil {
			return nil, "", err
		}
	}
	err = s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		res, err := tx.NewUpdate().Model(k).Column("hash", "sealed").WherePK().Where("revoked_at IS NULL").Exec(ctx)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err == nil && n == 0 {
			return errKeyNotFound // revoked meanwhile
		}
		return recordSecurity(ctx, tx, u, audit.ActionAPIKeyRotate, nil, keyAudit(k))
	})
	if err != nil {
		if apperr.Code(err) != apperr.Internal {
			return nil, "", err
		}
		return nil, "", fmt.Errorf("account: rotate api key %d: %w", id, err)
	}
	return k, secret, nil
}

// RevokeKey ends registrar u's key id for good: it stops working at once
// on this node and within keyCacheTTL on others, and leaves the list.
// Returns not_found when u has no such key, conflict for the first key
// (rotate it instead) and forbidden for accounts that are not registrars.
func (s *Service) RevokeKey(ctx context.Context, u *User, id int64) error {
	defer s.apiKeys.forget()
	if !u.IsRegistrar() {
		return errNoKeys
	}
	k := new(APIKey)
	err := s.db.Bun.NewSelect().Model(k).Column("id", "name", "sealed").Where("id = ?", id).Where("user_id = ?", u.ID).
		Where("revoked_at IS NULL").Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return errKeyNotFound
	}
	if err != nil {
		return fmt.Errorf("account: revoke api key %d: %w", id, err)
	}
	if k.Primary() {
		return apperr.New(apperr.Conflict, "The %s key is the one the API Access tab shows: rotate it instead of revoking it", PrimaryKeyName)
	}
	err = s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		res, err := tx.NewUpdate().Model((*APIKey)(nil)).Set("revoked_at = ?", s.clock()).Where("id = ?", id).
			Where("revoked_at IS NULL").Exec(ctx)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err == nil && n == 0 {
			return errKeyNotFound
		}
		return recordSecurity(ctx, tx, u, audit.ActionAPIKeyRevoke, keyAudit(k), nil)
	})
	if err != nil && apperr.Code(err) == apperr.Internal {
		return fmt.Errorf("account: revoke api key %d: %w", id, err)
	}
	return err
}

// keyAudit is how the audit log names key k: never its secret or hash.
func keyAudit(k *APIKey) map[string]any {
	return map[string]any{"apiKey": k.Name, "apiKeyId": k.ID}
}

// primaryKey returns registrar u's first key; not_found if it has none.
func (s *Service) primaryKey(ctx context.Context, u *User) (*APIKey, error) {
	k := new(APIKey)
	err := s.db.Bun.NewSelect().Model(k).Where("user_id = ?", u.ID).Where("sealed IS NOT NULL").
		Where("revoked_at IS NULL").Order("id").Limit(1).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errKeyNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("account: api key of %s: %w", u.Username, err)
	}
	return k, nil
}

// APIKey returns registrar u's first key (the one the API Access tab
// shows), unsealed for its owner; empty for accounts without one.
func (s *Service) APIKey(ctx context.Context, u *User) (string, error) {
	if !u.IsRegistrar() {
		return "", nil
	}
	k, err := s.primaryKey(ctx, u)
	if apperr.Code(err) == apperr.NotFound {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	key, err := s.keys.Open(k.Sealed)
	if err != nil {
		return "", fmt.Errorf("account: api key of %s: %w", u.Username, err)
	}
	return key, nil
}

// RegistrarAPIKey is APIKey for the dashboard: forbidden for accounts that
// are not registrars.
func (s *Service) RegistrarAPIKey(ctx context.Context, u *User) (string, error) {
	if !u.IsRegistrar() {
		return "", errNoKeys
	}
	return s.APIKey(ctx, u)
}

// RotateAPIKey gives registrar u's first key a new secret and returns it;
// the old one stops working at once. Returns forbidden for accounts that
// are not registrars.
func (s *Service) RotateAPIKey(ctx context.Context, u *User) (string, error) {
	if !u.IsRegistrar() {
		return "", errNoKeys
	}
	k, err := s.primaryKey(ctx, u)
	if err != nil {
		return "", err
	}
	_, secret, err := s.RotateKey(ctx, u, k.ID)
	return secret, err
}

// newPrimaryKey returns the first key of registrar u (not yet stored) and
// the key itself.
func (s *Service) newPrimaryKey(u *User) (*APIKey, error) {
	secret, err := newAPIKey()
	if err != nil {
		return nil, err
	}
	sealed, err := s.keys.Seal(secret)
	if err != nil {
		return nil, err
	}
	return &APIKey{UserID: u.ID, Name: PrimaryKeyName, Hash: s.keys.Hash(secret), Sealed: sealed, Scopes: AllScopes,
		Allowed: AddressList{}, CreatedAt: u.CreatedAt}, nil
}

// KeyGrant is what an API key allows, as ByAPIKey found it: kept in the
// key cache, shared by the requests of the key, never changed.
type KeyGrant struct {
	ID        int64
	Scopes    Scope
	Allowed   AddressList
	ExpiresAt time.Time
	// lastUse is when a use of the key was last queued for writing, in
	// Unix seconds (see Service.noteUse).
	lastUse *atomic.Int64
}

// keyOwner is a row of the /v1 key lookup: the account and its key.
type keyOwner struct {
	User `bun:",extend"`

	KeyID        int64       `bun:"key_id"`
	KeyScopes    Scope       `bun:"key_scopes"`
	KeyAllowed   AddressList `bun:"key_allowed"`
	KeyExpiresAt time.Time   `bun:"key_expires_at,nullzero"`
	KeyRevokedAt time.Time   `bun:"key_revoked_at,nullzero"`
}

// byAPIKeyQuery is the query of /v1 requests: prepared once, run at most
// once a second per key (see keyCache).
const byAPIKeyQuery = `SELECT u.*, k.id AS key_id, k.scopes AS key_scopes, k.allowed_cidrs AS key_allowed,
k.expires_at AS key_expires_at, k.revoked_at AS key_revoked_at
FROM api_keys AS k JOIN users AS u ON u.id = k.user_id WHERE k.hash = ? AND u.disabled_at IS NULL`

// ByAPIKey returns the enabled registrar that owns key and what the key
// allows; unauthenticated when no account does, or the key was revoked or
// has expired. The scopes and addresses are the caller's to check.
func (s *Service) ByAPIKey(ctx context.Context, key string) (*User, *KeyGrant, error) {
	hash := s.keys.Hash(key)
	now := s.now()
	u, g, ok := s.apiKeys.get(hash, now)
	if !ok {
		var err error
		if u, g, err = s.lookUpKey(ctx, hash); err != nil {
			return nil, nil, err
		}
		s.apiKeys.put(hash, u, g, now)
	}
	if !g.ExpiresAt.IsZero() && !now.Before(g.ExpiresAt) {
		return nil, nil, apperr.New(apperr.Unauthenticated, "This API key expired on %s",
			g.ExpiresAt.UTC().Format("2006-01-02 15:04 UTC"))
	}
	s.noteUse(g, now)
	return u, g, nil
}

func (s *Service) lookUpKey(ctx context.Context, hash string) (*User, *KeyGrant, error) {
	rows, err := s.byAPIKey.Query(ctx, hash)
	if err != nil {
		return nil, nil, fmt.Errorf("account: look up api key: %w", err)
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return nil, nil, fmt.Errorf("account: look up api key: %w", err)
		}
		return nil, nil, apperr.New(apperr.Unauthenticated, "Invalid API key")
	}
	row := new(keyOwner)
	if err := s.db.Bun.ScanRow(ctx, rows, row); err != nil {
		return nil, nil, fmt.Errorf("account: look up api key: %w", err)
	}
	if !row.KeyRevokedAt.IsZero() {
		return nil, nil, apperr.New(apperr.Unauthenticated, "This API key was revoked")
	}
	return &row.User, &KeyGrant{ID: row.KeyID, Scopes: row.KeyScopes, Allowed: row.KeyAllowed,
		ExpiresAt: row.KeyExpiresAt, lastUse: s.keyUses.mark(row.KeyID)}, nil
}

// noteUse queues the use of g at now for RecordKeyUses to write, unless
// one was queued less than keyUseInterval ago: one atomic load a request.
func (s *Service) noteUse(g *KeyGrant, now time.Time) {
	sec := now.Unix()
	last := g.lastUse.Load()
	if sec-last < int64(keyUseInterval/time.Second) || !g.lastUse.CompareAndSwap(last, sec) {
		return
	}
	s.keyUses.queue(g.ID, now.UTC().Truncate(time.Microsecond))
}
