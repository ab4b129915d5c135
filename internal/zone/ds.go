package zone

import (
	"context"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"github.com/uptrace/bun"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/db"
)

// TypeDS is the Delegation Signer record (RFC 4034 5) of a delegated
// domain: the digest of the key its own name servers sign it with, served
// by the parent zone in referrals so that validators can follow the chain
// of trust below the delegation. DS records are stored with the others but
// are not in Types: they are the parent's side of a delegation, changed
// only through AddDS and DeleteDS, never by record edits, imports or
// exports (List and the record paths do not see them).
const TypeDS = "DS"

// MaxDSPerDomain bounds a domain's DS records: a rollover needs two or
// three; more only grows every referral.
const MaxDSPerDomain = 8

// DSInput is a DS record as a user sends it.
type DSInput struct {
	KeyTag     int
	Algorithm  int
	DigestType int
	Digest     string // hexadecimal; spaces allowed (as registries show it)
}

// DS is a stored DS record in its parts.
type DS struct {
	ID         int64
	KeyTag     int
	Algorithm  int
	DigestType int
	Digest     string // upper-case hexadecimal
	TTL        int
}

// dsAlgorithms are the DNSSEC algorithms a DS may name: those RFC 8624
// says validators must or should support (RSASHA256, RSASHA512,
// ECDSAP256SHA256, ECDSAP384SHA384, ED25519, ED448).
var dsAlgorithms = map[int]string{8: "RSASHA256", 10: "RSASHA512", 13: "ECDSAP256SHA256", 14: "ECDSAP384SHA384", 15: "ED25519", 16: "ED448"}

// deprecatedAlgorithms are algorithms RFC 8624 says must not be used for
// signing (or that validators drop): a DS naming one would make the domain
// fail validation, or be treated as unsigned, at many resolvers.
var deprecatedAlgorithms = map[int]string{1: "RSAMD5", 3: "DSA", 5: "RSASHA1", 6: "DSA-NSEC3-SHA1", 7: "RSASHA1-NSEC3-SHA1", 12: "ECC-GOST"}

// dsDigestLengths are the digest types accepted, by their length in hex:
// SHA-256 (2) and SHA-384 (4). SHA-1 (1) is refused: RFC 8624 says it must
// not be used in DS records, and a child with a SHA-256 DS loses nothing.
var dsDigestLengths = map[int]int{2: 64, 4: 96}

// normalizeDS validates in as a DS record of d and returns its stored form.
func normalizeDS(d Domain, in DSInput) (Record, error) {
	if in.KeyTag < 0 || in.KeyTag > 65535 {
		return Record{}, invalid("Key tag must be from 0 to 65535")
	}
	if name, ok := deprecatedAlgorithms[in.Algorithm]; ok {
		return Record{}, invalid("Algorithm %d (%s) is deprecated (RFC 8624): sign the domain with algorithm 13 (ECDSAP256SHA256) or another of 8, 10, 13, 14, 15, 16", in.Algorithm, name)
	}
	if _, ok := dsAlgorithms[in.Algorithm]; !ok {
		return Record{}, invalid("Algorithm %d is not a DNSSEC signing algorithm validators support: use 8, 10, 13, 14, 15 or 16", in.Algorithm)
	}
	want, ok := dsDigestLengths[in.DigestType]
	switch {
	case in.DigestType == 1:
		return Record{}, invalid("Digest type 1 (SHA-1) is deprecated (RFC 8624): give the digest of type 2 (SHA-256)")
	case !ok:
		return Record{}, invalid("Digest type must be 2 (SHA-256) or 4 (SHA-384)")
	}
	digest := strings.ToUpper(strings.Join(strings.Fields(in.Digest), ""))
	if digest == "" {
		return Record{}, invalid("Digest is required")
	}
	if _, err := hex.DecodeString(digest); err != nil || strings.ContainsAny(digest, "+-") {
		return Record{}, invalid("Digest must be hexadecimal (0-9, A-F)")
	}
	if len(digest) != want {
		return Record{}, invalid("A digest of type %d is %d hexadecimal characters long, not %d", in.DigestType, want, len(digest))
	}
	content := fmt.Sprintf("%d %d %d %s", in.KeyTag, in.Algorithm, in.DigestType, digest)
	return Record{DomainID: d.ID, Name: "@", Type: TypeDS, Content: content, TTL: DefaultTTL}, nil
}

// dsOf returns the parts of a stored DS record.
func dsOf(r Record) (DS, error) {
	f := strings.Fields(r.Content)
	if len(f) != 4 {
		return DS{}, fmt.Errorf("zone: DS record %d: bad content %q", r.ID, r.Content)
	}
	var n [3]int
	for i := range n {
		v, err := strconv.Atoi(f[i])
		if err != nil {
			return DS{}, fmt.Errorf("zone: DS record %d: bad content %q", r.ID, r.Content)
		}
		n[i] = v
	}
	return DS{ID: r.ID, KeyTag: n[0], Algorithm: n[1], DigestType: n[2], Digest: f[3], TTL: r.TTL}, nil
}

func listDS(ctx context.Context, q bun.IDB, domainID int64) ([]Record, error) {
	records := []Record{}
	err := q.NewSelect().Model(&records).Where("domain_id = ?", domainID).Where("type = ?", TypeDS).
		OrderExpr("id").Scan(ctx)
	return records, err
}

// ListDS returns the DS records of d, oldest first.
func (s *Service) ListDS(ctx context.Context, d Domain) ([]DS, error) {
	records, err := listDS(ctx, s.db.Bun, d.ID)
	if err != nil {
		return nil, fmt.Errorf("zone: list DS of %s: %w", d, err)
	}
	out := make([]DS, 0, len(records))
	for _, r := range records {
		ds, err := dsOf(r)
		if err != nil {
			return nil, err
		}
		out = append(out, ds)
	}
	return out, nil
}

// AddDS adds a DS record to d. Returns invalid for a bad record and when d
// is not delegated (it has no NS records at its apex: Nameport's own name
// servers serve it, and its DNSSEC is the zone's), conflict for a DS d has
// already.
func (s *Service) AddDS(ctx context.Context, d Domain, in DSInput) (*DS, error) {
	rec, err := normalizeDS(d, in)
	if err != nil {
		return nil, err
	}
	names := []string{"@"}
	err = s.write(ctx, d, &names, func(ctx context.Context, tx *db.Tx) error {
		n, err := tx.NewSelect().Model((*Record)(nil)).Where("domain_id = ?", d.ID).
			Where("name = '@'").Where("type = ?", TypeNS).Count(ctx)
		if err != nil {
			return err
		}
		if n == 0 {
			return invalid("%s is not delegated: DS records are for a domain whose NS records point to other name servers. Nameport signs the domains it serves itself", d)
		}
		existing, err := listDS(ctx, tx, d.ID)
		if err != nil {
			return err
		}
		for _, r := range existing {
			if r.Content == rec.Content {
				return apperr.New(apperr.Conflict, "This DS record already exists")
			}
		}
		if len(existing) >= MaxDSPerDomain {
			return invalid("A domain can have at most %d DS records", MaxDSPerDomain)
		}
		if len(existing) > 0 {
			rec.TTL = existing[0].TTL // one TTL per record set
		}
		rec.CreatedAt = s.clock()
		rec.UpdatedAt = rec.CreatedAt
		_, err = tx.NewInsert().Model(&rec).Exec(ctx)
		return err
	})
	if err != nil {
		return nil, wrap("add DS to", d, err)
	}
	ds, err := dsOf(rec)
	return &ds, err
}

// DeleteDS removes DS record id of d. Returns not_found when d has no such
// DS record.
func (s *Service) DeleteDS(ctx context.Context, d Domain, id int64) error {
	names := []string{"@"}
	err := s.write(ctx, d, &names, func(ctx context.Context, tx *db.Tx) error {
		res, err := tx.NewDelete().Model((*Record)(nil)).Where("id = ?", id).Where("domain_id = ?", d.ID).
			Where("type = ?", TypeDS).Exec(ctx)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return errDSNotFound
		}
		return nil
	})
	return wrap("delete DS of", d, err)
}

var errDSNotFound = apperr.New(apperr.NotFound, "DS record not found")

// dropOrphanDS deletes d's DS records once d has no NS records at its apex
// (a record change ended the delegation): a DS proves the key of a child
// zone, which is then gone, and Nameport serves the domain itself.
func dropOrphanDS(ctx context.Context, tx bun.IDB, d Domain) error {
	_, err := tx.NewDelete().Model((*Record)(nil)).Where("domain_id = ?", d.ID).Where("type = ?", TypeDS).
		Where("NOT EXISTS (SELECT 1 FROM dns_records n WHERE n.domain_id = ? AND n.name = '@' AND n.type = ?)", d.ID, TypeNS).
		Exec(ctx)
	return err
}
