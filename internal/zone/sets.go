package zone

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/db"
)

// MaxSetValues bounds the values of one record set.
const MaxSetValues = 100

// Set is every record of one name and type, as the registrar API sends it.
type Set struct {
	Name   string
	Type   string
	Values []string
	// TTL in seconds for every record; nil means the default, 3600.
	TTL *int
	// Priority for every value of an MX or SRV set.
	Priority *int
}

// normalizeSet validates set as records of d, in stored form.
func normalizeSet(d Domain, set Set) ([]Record, error) {
	if len(set.Values) == 0 {
		return nil, invalid("A record set needs at least one value; delete the set to remove it")
	}
	if len(set.Values) > MaxSetValues {
		return nil, invalid("A record set can have at most %d values", MaxSetValues)
	}
	records := make([]Record, 0, len(set.Values))
	seen := make(map[string]bool, len(set.Values))
	for _, v := range set.Values {
		rec, err := normalize(d, Input{Type: set.Type, Name: set.Name, Content: v, TTL: set.TTL, Priority: set.Priority})
		if err != nil {
			return nil, err
		}
		if seen[rec.Content] {
			return nil, invalid("The value %q appears twice in the set", v)
		}
		seen[rec.Content] = true
		records = append(records, rec)
	}
	if records[0].Type == TypeCNAME && len(records) > 1 {
		return nil, invalid("%s can have only one CNAME record", records[0].Name)
	}
	return records, nil
}

// ReplaceSet makes set the records of its name and type in d, replacing
// those there were, in one transaction; records whose value stays keep their
// id. It returns the set's records. Returns invalid for a bad set (the
// messages of Create), and when a CNAME would share its name with other
// records.
func (s *Service) ReplaceSet(ctx context.Context, d Domain, set Set) ([]Record, error) {
	incoming, err := normalizeSet(d, set)
	if err != nil {
		return nil, err
	}
	name, typ := incoming[0].Name, incoming[0].Type
	var result []Record
	err = s.write(ctx, func(ctx context.Context, tx *db.Tx) error {
		existing, err := listRecords(ctx, tx, d.ID)
		if err != nil {
			return err
		}
		var current, others []Record
		for _, r := range existing {
			if r.Name == name && r.Type == typ {
				current = append(current, r)
			} else {
				others = append(others, r)
			}
		}
		if len(others)+len(incoming) > MaxRecordsPerDomain {
			return invalid("A domain can have at most %d DNS records", MaxRecordsPerDomain)
		}
		for _, rec := range incoming {
			if err := checkSet(others, rec, 0); err != nil {
				return err
			}
		}
		if err := applyPlan(ctx, tx, d, diff(current, incoming), s.clock()); err != nil {
			return err
		}
		result, err = listSet(ctx, tx, d.ID, name, typ)
		return err
	})
	if err != nil {
		return nil, wrap("replace record set of", d, err)
	}
	return result, nil
}

// DeleteSet removes every record of name and type from d. Returns not_found
// when there is none.
func (s *Service) DeleteSet(ctx context.Context, d Domain, name, typ string) error {
	typ = strings.ToUpper(strings.TrimSpace(typ))
	if !slices.Contains(Types, typ) {
		return invalid("Record type must be one of %s", strings.Join(Types, ", "))
	}
	name, err := normalizeName(d, name, typ)
	if err != nil {
		return err
	}
	err = s.write(ctx, func(ctx context.Context, tx *db.Tx) error {
		res, err := tx.NewDelete().Model((*Record)(nil)).Where("domain_id = ?", d.ID).
			Where("name = ?", name).Where("type = ?", typ).Exec(ctx)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			if err == nil {
				err = errSetNotFound
			}
			return err
		}
		return nil
	})
	return wrap("delete record set of", d, err)
}

var errSetNotFound = apperr.New(apperr.NotFound, "No DNS records of that name and type")

func listSet(ctx context.Context, q bun.IDB, domainID int64, name, typ string) ([]Record, error) {
	records := []Record{}
	err := q.NewSelect().Model(&records).Where("domain_id = ?", domainID).
		Where("name = ?", name).Where("type = ?", typ).Order("id").Scan(ctx)
	for i := range records {
		records[i].CreatedAt, records[i].UpdatedAt = records[i].CreatedAt.UTC(), records[i].UpdatedAt.UTC()
	}
	return records, err
}

// Nameservers validates hosts as the NS records of a new domain's apex: the
// registrar delegates the domain to them. Duplicates are dropped.
func Nameservers(d Domain, hosts []string) ([]Record, error) {
	if len(hosts) == 0 {
		return nil, nil
	}
	if len(hosts) > 13 {
		return nil, invalid("At most 13 name servers")
	}
	var records []Record
	seen := map[string]bool{}
	for _, h := range hosts {
		rec, err := normalize(d, Input{Type: TypeNS, Name: "@", Content: h})
		if err != nil {
			if r := []rune(h); len(r) > 64 { // quote the start of a long input, not all of it
				h = string(r[:64]) + "…"
			}
			return nil, invalid("Name server %q: %s", h, apperr.Message(err))
		}
		if !seen[rec.Content] {
			seen[rec.Content] = true
			records = append(records, rec)
		}
	}
	return records, nil
}

// InsertRecords adds records to the domain domainID inside tx (the
// transaction that registers it).
func InsertRecords(ctx context.Context, tx bun.IDB, domainID int64, records []Record, now time.Time) error {
	if len(records) == 0 {
		return nil
	}
	for i := range records {
		records[i].DomainID, records[i].CreatedAt, records[i].UpdatedAt = domainID, now, now
	}
	_, err := tx.NewInsert().Model(&records).Exec(ctx)
	return err
}

// NameserversOf returns the NS hosts at the apex of each of the domains
// domainIDs: the name servers a domain is delegated to.
func (s *Service) NameserversOf(ctx context.Context, domainIDs []int64) (map[int64][]string, error) {
	return NameserversOf(ctx, s.db.Bun, domainIDs)
}

// NameserversOf is Service.NameserversOf through q, for the packages that
// write records with InsertRecords.
func NameserversOf(ctx context.Context, q bun.IDB, domainIDs []int64) (map[int64][]string, error) {
	out := make(map[int64][]string, len(domainIDs))
	if len(domainIDs) == 0 {
		return out, nil
	}
	var records []Record
	if err := q.NewSelect().Model(&records).Column("domain_id", "content").
		Where("domain_id IN (?)", bun.In(domainIDs)).Where("name = '@'").Where("type = ?", TypeNS).
		Order("domain_id", "id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("zone: name servers: %w", err)
	}
	for _, r := range records {
		out[r.DomainID] = append(out[r.DomainID], r.Content)
	}
	return out, nil
}
