// Package dnssec owns the zones' DNSSEC signing keys: one CSK (a key that
// signs both the DNSKEY set and the zone's data) per zone, generated at the
// first start by whichever node gets there first, its private half sealed in
// the database (internal/sealer) so that every DNS node signs with the same
// key. internal/dnsserver signs answers with them (online signing).
package dnssec

import (
	"context"
	"crypto"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/miekg/dns"
	"github.com/uptrace/bun"

	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/sealer"
)

// Algorithms a zone may be signed with: ECDSA P-256 with SHA-256 (13, the
// default: small signatures, validated everywhere) and Ed25519 (15).
const (
	ECDSAP256SHA256 = dns.ECDSAP256SHA256
	ED25519         = dns.ED25519
)

// flagsCSK are the DNSKEY flags of a combined signing key: zone key and
// secure entry point (257), the key the parent's DS points at.
const flagsCSK = 257

// stateActive is the state of the key that signs a zone (see the
// migration 0026 for the others to come with rollovers).
const stateActive = "active"

// Key is one zone's signing key.
type Key struct {
	Zone   string // lower case, fully qualified
	DNSKEY *dns.DNSKEY
	Signer crypto.Signer
}

// Tag is the key's tag (RFC 4034 appendix B).
func (k *Key) Tag() uint16 { return k.DNSKEY.KeyTag() }

// DS is the record the parent zone publishes for the key (SHA-256 digest).
func (k *Key) DS() *dns.DS { return k.DNSKEY.ToDS(dns.SHA256) }

type keyRow struct {
	bun.BaseModel `bun:"table:dnssec_keys"`

	ID            int64      `bun:"id,pk,autoincrement"`
	Zone          string     `bun:"zone"`
	Algorithm     int        `bun:"algorithm"`
	Flags         int        `bun:"flags"`
	KeyTag        int        `bun:"key_tag"`
	PublicKey     string     `bun:"public_key"`
	PrivateSealed string     `bun:"private_sealed"`
	State         string     `bun:"state"`
	CreatedAt     time.Time  `bun:"created_at"`
	ActivatedAt   *time.Time `bun:"activated_at"`
}

// Store loads and makes the keys.
type Store struct {
	db        *db.DB
	seal      *sealer.Sealer
	algorithm uint8
}

// NewStore returns the key store of d; secret is the server secret, whose
// derived key seals the private keys; algorithm is used for keys made from
// now on (ECDSAP256SHA256 or ED25519); a zone keeps the key it has.
func NewStore(d *db.DB, secret []byte, algorithm uint8) (*Store, error) {
	if algorithm != ECDSAP256SHA256 && algorithm != ED25519 {
		return nil, fmt.Errorf("dnssec: algorithm %d is not supported (13 or 15)", algorithm)
	}
	s, err := sealer.New(secret, "dnssec-keys")
	if err != nil {
		return nil, err
	}
	return &Store{db: d, seal: s, algorithm: algorithm}, nil
}

// Keys returns the active key of each zone (origins, any case), making
// the missing ones. Two nodes starting at once may both make one: the
// unique index keeps the first, and the other reads it.
func (s *Store) Keys(ctx context.Context, zones []string) ([]*Key, error) {
	want := make([]string, 0, len(zones))
	for _, z := range zones {
		want = append(want, strings.ToLower(dns.Fqdn(z)))
	}
	if len(want) == 0 {
		return nil, nil
	}
	have, err := s.load(ctx, want)
	if err != nil {
		return nil, err
	}
	out := make([]*Key, 0, len(want))
	for _, zone := range want {
		k := have[zone]
		if k == nil {
			if k, err = s.create(ctx, zone); err != nil {
				return nil, err
			}
		}
		out = append(out, k)
	}
	return out, nil
}

func (s *Store) load(ctx context.Context, zones []string) (map[string]*Key, error) {
	var rows []keyRow
	if err := s.db.Bun.NewSelect().Model(&rows).Where("zone IN (?)", bun.In(zones)).
		Where("state = ?", stateActive).Scan(ctx); err != nil {
		return nil, fmt.Errorf("dnssec: load keys: %w", err)
	}
	out := make(map[string]*Key, len(rows))
	for _, r := range rows {
		k, err := s.open(r)
		if err != nil {
			return nil, err
		}
		out[r.Zone] = k
	}
	return out, nil
}

// open rebuilds a key from its row.
func (s *Store) open(r keyRow) (*Key, error) {
	pub := &dns.DNSKEY{Hdr: dns.RR_Header{Name: r.Zone, Rrtype: dns.TypeDNSKEY, Class: dns.ClassINET, Ttl: KeyTTL},
		Flags: uint16(r.Flags), Protocol: 3, Algorithm: uint8(r.Algorithm), PublicKey: r.PublicKey}
	text, err := s.seal.Open(r.PrivateSealed)
	if err != nil {
		return nil, fmt.Errorf("dnssec: key of %s: open: %w", r.Zone, err)
	}
	priv, err := pub.NewPrivateKey(text)
	if err != nil {
		return nil, fmt.Errorf("dnssec: key of %s: %w", r.Zone, err)
	}
	signer, ok := priv.(crypto.Signer)
	if !ok {
		return nil, fmt.Errorf("dnssec: key of %s: not a signer", r.Zone)
	}
	return &Key{Zone: r.Zone, DNSKEY: pub, Signer: signer}, nil
}

// KeyTTL is the TTL of the DNSKEY set.
const KeyTTL = 3600

// Generate returns a new CSK for zone (lower case, fully qualified).
func Generate(zone string, algorithm uint8) (*Key, error) {
	pub := &dns.DNSKEY{Hdr: dns.RR_Header{Name: zone, Rrtype: dns.TypeDNSKEY, Class: dns.ClassINET, Ttl: KeyTTL},
		Flags: flagsCSK, Protocol: 3, Algorithm: algorithm}
	bits := 256
	priv, err := pub.Generate(bits)
	if err != nil {
		return nil, fmt.Errorf("dnssec: generate key of %s: %w", zone, err)
	}
	signer, ok := priv.(crypto.Signer)
	if !ok {
		return nil, errors.New("dnssec: generated key is not a signer")
	}
	return &Key{Zone: zone, DNSKEY: pub, Signer: signer}, nil
}

func (s *Store) create(ctx context.Context, zone string) (*Key, error) {
	k, err := Generate(zone, s.algorithm)
	if err != nil {
		return nil, err
	}
	sealed, err := s.seal.Seal(k.DNSKEY.PrivateKeyString(k.Signer))
	if err != nil {
		return nil, err
	}
	now := time.Now().UTC()
	row := keyRow{Zone: zone, Algorithm: int(k.DNSKEY.Algorithm), Flags: int(k.DNSKEY.Flags), KeyTag: int(k.Tag()),
		PublicKey: k.DNSKEY.PublicKey, PrivateSealed: sealed, State: stateActive, CreatedAt: now, ActivatedAt: &now}
	if _, err := s.db.Bun.NewInsert().Model(&row).Exec(ctx); err != nil {
		if _, dup := db.UniqueViolation(err); !dup {
			return nil, fmt.Errorf("dnssec: store key of %s: %w", zone, err)
		}
		// Another node made it first: use theirs.
		have, err := s.load(ctx, []string{zone})
		if err != nil {
			return nil, err
		}
		if have[zone] == nil {
			return nil, fmt.Errorf("dnssec: key of %s: lost a race and found no key", zone)
		}
		return have[zone], nil
	}
	return k, nil
}

// KeyInfo is what an admin sees of a zone's key: never its private half.
type KeyInfo struct {
	Zone   string
	DNSKEY *dns.DNSKEY
	// Role is CSK for a key with the secure entry point flag (257), the
	// only kind made so far: it signs the DNSKEY set and the zone's data;
	// ZSK (256) signs the data only.
	Role        string
	State       string
	CreatedAt   time.Time
	ActivatedAt *time.Time
}

// DS is the record the parent zone publishes for the key (SHA-256 digest,
// what registries ask for).
func (k KeyInfo) DS() *dns.DS { return k.DNSKEY.ToDS(dns.SHA256) }

// ZoneKeys returns every key of zone (an origin, any case) whatever its
// state, oldest first; none when the zone has not been signed yet (its key
// is made when a DNS server first serves it signed).
func (s *Store) ZoneKeys(ctx context.Context, zone string) ([]KeyInfo, error) {
	zone = strings.ToLower(dns.Fqdn(zone))
	var rows []keyRow
	if err := s.db.Bun.NewSelect().Model(&rows).Column("zone", "algorithm", "flags", "public_key", "state", "created_at", "activated_at").
		Where("zone = ?", zone).Order("created_at", "id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("dnssec: keys of %s: %w", zone, err)
	}
	out := make([]KeyInfo, len(rows))
	for i, r := range rows {
		role := "CSK"
		if r.Flags&1 == 0 {
			role = "ZSK"
		}
		out[i] = KeyInfo{Zone: r.Zone, Role: role, State: r.State, CreatedAt: r.CreatedAt.UTC(), ActivatedAt: r.ActivatedAt,
			DNSKEY: &dns.DNSKEY{Hdr: dns.RR_Header{Name: r.Zone, Rrtype: dns.TypeDNSKEY, Class: dns.ClassINET, Ttl: KeyTTL},
				Flags: uint16(r.Flags), Protocol: 3, Algorithm: uint8(r.Algorithm), PublicKey: r.PublicKey}}
	}
	return out, nil
}
