// Package dnssec owns the zones' DNSSEC signing keys. A zone starts with
// one CSK (a key that signs both the DNSKEY set and the zone's data),
// generated at the first start by whichever node gets there first, its
// private half sealed in the database (internal/sealer) so that every DNS
// node signs with the same keys; rollovers (rollover.go) add and retire
// keys: a ZSK (data only) on a schedule, a new KSK or CSK when an admin
// asks. internal/dnsserver signs answers with them (online signing).
package dnssec

import (
	"cmp"
	"context"
	"crypto"
	"errors"
	"fmt"
	"slices"
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

// DNSKEY flags: a secure entry point (257: a KSK, or a CSK when no ZSK
// signs the zone's data), the key the parent's DS points at; a zone
// signing key (256).
const (
	flagsSEP = 257
	flagsZSK = 256
)

// Key states. A key is published (in the DNSKEY set, not yet signing the
// zone's data), active (signing), retired (still published, no longer
// signing the data, while the signatures it made may still be cached) and
// at last removed (kept for the record only).
const (
	StatePublished = "published"
	StateActive    = "active"
	StateRetired   = "retired"
	StateRemoved   = "removed"
)

// Key is one signing key of a zone.
type Key struct {
	Zone   string // lower case, fully qualified
	DNSKEY *dns.DNSKEY
	Signer crypto.Signer
}

// Tag is the key's tag (RFC 4034 appendix B).
func (k *Key) Tag() uint16 { return k.DNSKEY.KeyTag() }

// DS is the record the parent zone publishes for the key (SHA-256 digest).
func (k *Key) DS() *dns.DS { return k.DNSKEY.ToDS(dns.SHA256) }

// ZoneKeys is what a zone is signed with now: the keys it publishes, those
// that sign its DNSKEY set (every secure entry point published: during a
// KSK rollover both the old and the new, so that either DS at the parent
// validates), the one that signs everything else, and, while a new KSK
// waits for its DS, the CDS and CDNSKEY records (RFC 7344) that tell the
// parent which DS to publish.
type ZoneKeys struct {
	Zone       string
	DNSKEYs    []dns.RR // *dns.DNSKEY, in the order the keys were made
	KeySigners []*Key
	DataSigner *Key
	CDS        []dns.RR // *dns.CDS and *dns.CDNSKEY; none outside a KSK rollover
	data       []*Key   // DataSigner alone
}

// SignersOf returns the keys that sign a record set of type t at the zone's
// apex (DNSKEY, CDS and CDNSKEY: the key signers; the rest: the data
// signer); below the apex every set is data.
func (z *ZoneKeys) SignersOf(t uint16, apex bool) []*Key {
	if apex && (t == dns.TypeDNSKEY || t == dns.TypeCDS || t == dns.TypeCDNSKEY) {
		return z.KeySigners
	}
	return z.data
}

// CSK returns the keys of a zone signed by k alone, as a zone starts.
func CSK(k *Key) *ZoneKeys {
	return &ZoneKeys{Zone: k.Zone, DNSKEYs: []dns.RR{k.DNSKEY}, KeySigners: []*Key{k}, DataSigner: k, data: []*Key{k}}
}

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
	RetiredAt     *time.Time `bun:"retired_at"`
	RemovedAt     *time.Time `bun:"removed_at"`
}

func (r *keyRow) sep() bool { return r.Flags&1 == 1 }

// activeSince is when the key started signing.
func (r *keyRow) activeSince() time.Time {
	if r.ActivatedAt != nil {
		return r.ActivatedAt.UTC()
	}
	return r.CreatedAt.UTC()
}

func (r *keyRow) dnskey() *dns.DNSKEY {
	return &dns.DNSKEY{Hdr: dns.RR_Header{Name: r.Zone, Rrtype: dns.TypeDNSKEY, Class: dns.ClassINET, Ttl: KeyTTL},
		Flags: uint16(r.Flags), Protocol: 3, Algorithm: uint8(r.Algorithm), PublicKey: r.PublicKey}
}

// Store loads and makes the keys.
type Store struct {
	db        *db.DB
	seal      *sealer.Sealer
	algorithm uint8
	// zskLifetime is how long a zone's data signer signs before a ZSK
	// rollover replaces it (0: never); see rollover.go.
	zskLifetime time.Duration
	clock       func() time.Time
}

// NewStore returns the key store of d; secret is the server secret, whose
// derived key seals the private keys; algorithm is used for zones' first
// keys from now on (ECDSAP256SHA256 or ED25519): a zone's rollovers keep
// the algorithm it has.
func NewStore(d *db.DB, secret []byte, algorithm uint8) (*Store, error) {
	if algorithm != ECDSAP256SHA256 && algorithm != ED25519 {
		return nil, fmt.Errorf("dnssec: algorithm %d is not supported (13 or 15)", algorithm)
	}
	s, err := sealer.New(secret, "dnssec-keys")
	if err != nil {
		return nil, err
	}
	return &Store{db: d, seal: s, algorithm: algorithm, clock: time.Now}, nil
}

// WithZSKLifetime makes the store roll each zone's data signer over once
// it has signed for lifetime (0: never; --dnssec-zsk-lifetime).
func (s *Store) WithZSKLifetime(lifetime time.Duration) *Store {
	s.zskLifetime = lifetime
	return s
}

// WithClock makes the store read the time from now (tests).
func (s *Store) WithClock(now func() time.Time) *Store {
	s.clock = now
	return s
}

// Keys returns the keys of each zone (origins, any case), making a CSK for
// the zones that have none. Two nodes starting at once may both make one:
// the unique index keeps the first, and the other reads it.
func (s *Store) Keys(ctx context.Context, zones []string) ([]*ZoneKeys, error) {
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
	out := make([]*ZoneKeys, 0, len(want))
	for _, zone := range want {
		zk := have[zone]
		if zk == nil || zk.DataSigner == nil {
			if err := s.create(ctx, zone); err != nil {
				return nil, err
			}
			again, err := s.load(ctx, []string{zone})
			if err != nil {
				return nil, err
			}
			if zk = again[zone]; zk == nil || zk.DataSigner == nil {
				return nil, fmt.Errorf("dnssec: zone %s has no active key", zone)
			}
		}
		out = append(out, zk)
	}
	return out, nil
}

// liveRows returns the keys of zones (all: none given) still published,
// in the order they were made.
func liveRows(ctx context.Context, q bun.IDB, zones []string) ([]keyRow, error) {
	var rows []keyRow
	sel := q.NewSelect().Model(&rows).Where("state IN (?)", bun.In([]string{StatePublished, StateActive, StateRetired})).Order("id")
	if zones != nil {
		sel = sel.Where("zone IN (?)", bun.In(zones))
	}
	if err := sel.Scan(ctx); err != nil {
		return nil, fmt.Errorf("dnssec: load keys: %w", err)
	}
	return rows, nil
}

func (s *Store) load(ctx context.Context, zones []string) (map[string]*ZoneKeys, error) {
	rows, err := liveRows(ctx, s.db.Bun, zones)
	if err != nil {
		return nil, err
	}
	byZone := map[string][]keyRow{}
	for _, r := range rows {
		byZone[r.Zone] = append(byZone[r.Zone], r)
	}
	out := make(map[string]*ZoneKeys, len(byZone))
	for zone, rows := range byZone {
		zk, err := s.zoneKeys(zone, rows)
		if err != nil {
			return nil, err
		}
		out[zone] = zk
	}
	return out, nil
}

// zoneKeys makes what zone is signed with from its live keys (see
// ZoneKeys): the data signer is the active ZSK, or else the active SEP key
// (a CSK); a published SEP key is a KSK rollover's new key, whose CDS and
// CDNSKEY are published.
func (s *Store) zoneKeys(zone string, rows []keyRow) (*ZoneKeys, error) {
	zk := &ZoneKeys{Zone: zone}
	var sep, zsk *Key
	for _, r := range rows {
		k, err := s.open(r)
		if err != nil {
			return nil, err
		}
		zk.DNSKEYs = append(zk.DNSKEYs, k.DNSKEY)
		if r.sep() {
			zk.KeySigners = append(zk.KeySigners, k)
		}
		switch {
		case r.State == StateActive && r.sep():
			sep = k
		case r.State == StateActive:
			zsk = k
		case r.State == StatePublished && r.sep():
			cdnskey := &dns.CDNSKEY{DNSKEY: *k.DNSKEY}
			cdnskey.Hdr.Rrtype = dns.TypeCDNSKEY
			cds := &dns.CDS{DS: *k.DS()}
			cds.Hdr = dns.RR_Header{Name: zone, Rrtype: dns.TypeCDS, Class: dns.ClassINET, Ttl: KeyTTL}
			zk.CDS = append(zk.CDS, cds, cdnskey)
		}
	}
	zk.DataSigner = cmp.Or(zsk, sep)
	if zk.DataSigner != nil {
		zk.data = []*Key{zk.DataSigner}
	}
	return zk, nil
}

// open rebuilds a key from its row.
func (s *Store) open(r keyRow) (*Key, error) {
	pub := r.dnskey()
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

// KeyTTL is the TTL of the DNSKEY set (and of CDS and CDNSKEY).
const KeyTTL = 3600

// Generate returns a new CSK for zone (lower case, fully qualified).
func Generate(zone string, algorithm uint8) (*Key, error) {
	return generate(zone, algorithm, flagsSEP)
}

func generate(zone string, algorithm uint8, flags uint16) (*Key, error) {
	pub := &dns.DNSKEY{Hdr: dns.RR_Header{Name: zone, Rrtype: dns.TypeDNSKEY, Class: dns.ClassINET, Ttl: KeyTTL},
		Flags: flags, Protocol: 3, Algorithm: algorithm}
	priv, err := pub.Generate(256)
	if err != nil {
		return nil, fmt.Errorf("dnssec: generate key of %s: %w", zone, err)
	}
	signer, ok := priv.(crypto.Signer)
	if !ok {
		return nil, errors.New("dnssec: generated key is not a signer")
	}
	return &Key{Zone: zone, DNSKEY: pub, Signer: signer}, nil
}

// create makes zone's first key, an active CSK; when another node made
// one first, the unique index refuses this one, and the caller reads
// theirs.
func (s *Store) create(ctx context.Context, zone string) error {
	row, err := s.newRow(zone, s.algorithm, flagsSEP, StateActive, nil)
	if err != nil {
		return err
	}
	if _, err := s.db.Bun.NewInsert().Model(row).Exec(ctx); err != nil {
		if _, dup := db.UniqueViolation(err); !dup {
			return fmt.Errorf("dnssec: store key of %s: %w", zone, err)
		}
	}
	return nil
}

// newRow generates a key for zone and returns its row, in state; its tag
// differs from those of taken (a zone's keys are told apart by tag).
func (s *Store) newRow(zone string, algorithm uint8, flags uint16, state string, taken []keyRow) (*keyRow, error) {
	var k *Key
	for {
		var err error
		if k, err = generate(zone, algorithm, flags); err != nil {
			return nil, err
		}
		if !slices.ContainsFunc(taken, func(r keyRow) bool { return r.KeyTag == int(k.Tag()) }) {
			break
		}
	}
	sealed, err := s.seal.Seal(k.DNSKEY.PrivateKeyString(k.Signer))
	if err != nil {
		return nil, err
	}
	now := s.clock().UTC()
	row := &keyRow{Zone: zone, Algorithm: int(algorithm), Flags: int(flags), KeyTag: int(k.Tag()),
		PublicKey: k.DNSKEY.PublicKey, PrivateSealed: sealed, State: state, CreatedAt: now}
	if state == StateActive {
		row.ActivatedAt = &now
	}
	return row, nil
}
