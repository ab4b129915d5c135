package zone

import (
	"context"
	"fmt"
	"slices"
	"strconv"
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
	Name string
	Type string
	// Values are the records' contents. An MX value may carry its own
	// priority ("10 mx1.example.com") and an SRV value its own priority,
	// weight and port ("10 5 5060 sip.example.com"): each is then a
	// record of its own priority (RFC 2181 section 5).
	Values []string
	// TTL in seconds for every record (one TTL per set, RFC 2181 section
	// 5.2); nil means the default, 3600.
	TTL *int
	// Priority is for the values of an MX or SRV set that carry none.
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
	typ := strings.ToUpper(strings.TrimSpace(set.Type))
	for _, v := range set.Values {
		content, priority, err := valuePriority(typ, v, set.Priority)
		if err != nil {
			return nil, err
		}
		rec, err := normalize(d, Input{Type: set.Type, Name: set.Name, Content: content, TTL: set.TTL, Priority: priority})
		if err != nil {
			return nil, apperr.WithoutField(err) // a set has values, not a record's content
		}
		if seen[recordKey(rec)] {
			return nil, invalid("The value %q appears twice in the set", quotable(v))
		}
		seen[recordKey(rec)] = true
		records = append(records, rec)
	}
	if records[0].Type == TypeCNAME && len(records) > 1 {
		return nil, invalid("%s can have only one CNAME record", records[0].Name)
	}
	return records, nil
}

// valuePriority splits the priority off an MX value ("10 mx1.example.com")
// or an SRV value of four fields ("10 5 5060 sip.example.com"), so that
// each value of a set can have its own; a value without one takes the
// set's, setPriority. Other types' values are returned as they are.
func valuePriority(typ, value string, setPriority *int) (string, *int, error) {
	fields := strings.Fields(value)
	var own string
	switch {
	case typ == TypeMX && len(fields) == 2:
		own = fields[0]
	case typ == TypeMX && len(fields) > 2:
		return "", nil, invalid(`MX value %q must be "priority host", like "10 mail.example.com", or a host alone with the set's priority`, quotable(value))
	case typ == TypeSRV && len(fields) == 4:
		own = fields[0]
	case typ == TypeMX && len(fields) == 1 && setPriority == nil && fields[0] != ".":
		return "", nil, invalid(`MX value %q needs a priority: write it first, like "10 %s", or give the set's priority`,
			quotable(value), quotable(fields[0]))
	default:
		return value, setPriority, nil
	}
	p, err := strconv.Atoi(own)
	if err != nil {
		if typ == TypeMX {
			return "", nil, invalid(`MX value %q must be "priority host", like "10 mail.example.com", or a host alone with the set's priority`, quotable(value))
		}
		return "", nil, invalid(srvFormat)
	}
	if err := checkPriority(&p); err != nil {
		return "", nil, err
	}
	if setPriority != nil && *setPriority != p {
		return "", nil, invalid("The value %q has priority %d, but the set's priority is %d: give the priority in each value or for the whole set, not both",
			quotable(value), p, *setPriority)
	}
	return strings.Join(fields[1:], " "), &p, nil
}

// quotable is the start of a long value, for a message quoting it.
func quotable(value string) string {
	if r := []rune(value); len(r) > 64 {
		return string(r[:64]) + "…"
	}
	return value
}

// ReplaceSet makes set the records of its name and type in d, replacing
// those there were, in one transaction; records whose value stays keep their
// id. It returns the set's records. Returns invalid for a bad set (the
// messages of Create), and when a CNAME would share its name with other
// records.
func (s *Service) ReplaceSet(ctx context.Context, d Domain, set Set) ([]Record, error) {
	var result []Record
	err := s.replaceSets(ctx, d, []Set{set}, func(ctx context.Context, tx *db.Tx, replaced []Record) error {
		var err error
		result, err = listSet(ctx, tx, d.ID, replaced[0].Name, replaced[0].Type)
		return err
	})
	if err != nil {
		return nil, wrap("replace record set of", d, err)
	}
	return result, nil
}

// ReplaceSets makes each of sets the records of its name and type in d, as
// ReplaceSet does for one, all in one transaction: a DNS template applied
// to a domain whose last set the domain cannot take (a CNAME beside other
// records, the record limit) leaves the domain as it was. Returns invalid
// with ReplaceSet's messages, and when two sets have the same name and type.
func (s *Service) ReplaceSets(ctx context.Context, d Domain, sets []Set) error {
	if len(sets) == 0 {
		return nil
	}
	return wrap("replace record sets of", d, s.replaceSets(ctx, d, sets, nil))
}

// replaceSets writes sets to d in one transaction, each set's records
// checked against the records that stay and the sets before it, then runs
// then (if any) in the transaction with the first set's new records.
func (s *Service) replaceSets(ctx context.Context, d Domain, sets []Set, then func(ctx context.Context, tx *db.Tx, first []Record) error) error {
	incoming, err := normalizeSets(d, sets)
	if err != nil {
		return err
	}
	replacing := map[string]bool{}
	var all []Record
	names := make([]string, 0, len(incoming))
	for _, set := range incoming {
		replacing[set[0].Name+"\x00"+set[0].Type] = true
		names = append(names, set[0].Name)
		all = append(all, set...)
	}
	return s.write(ctx, d, &names, func(ctx context.Context, tx *db.Tx) error {
		existing, err := listRecords(ctx, tx, d.ID)
		if err != nil {
			return err
		}
		var current, after []Record
		for _, r := range existing {
			if replacing[r.Name+"\x00"+r.Type] {
				current = append(current, r)
			} else {
				after = append(after, r)
			}
		}
		if len(after)+len(all) > MaxRecordsPerDomain {
			return invalid("A domain can have at most %d DNS records", MaxRecordsPerDomain)
		}
		for _, set := range incoming {
			for _, rec := range set {
				if err := checkSet(after, rec, 0); err != nil {
					return err
				}
			}
			after = append(after, set...)
		}
		if err := checkChange(ctx, tx, d, existing, after); err != nil {
			return err
		}
		if err := applyPlan(ctx, tx, d, diff(current, all), s.clock()); err != nil {
			return err
		}
		if then == nil {
			return nil
		}
		return then(ctx, tx, incoming[0])
	})
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
	names := []string{name}
	err = s.write(ctx, d, &names, func(ctx context.Context, tx *db.Tx) error {
		existing, err := listRecords(ctx, tx, d.ID)
		if err != nil {
			return err
		}
		after := slices.DeleteFunc(slices.Clone(existing), func(r Record) bool { return r.Name == name && r.Type == typ })
		if len(after) == len(existing) {
			return errSetNotFound
		}
		// A set others depend on (the addresses of a name server) stays.
		if err := checkChange(ctx, tx, d, existing, after); err != nil {
			return err
		}
		_, err = tx.NewDelete().Model((*Record)(nil)).Where("domain_id = ?", d.ID).
			Where("name = ?", name).Where("type = ?", typ).Exec(ctx)
		return err
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
	// A name server inside the domain needs an address there (glue), which
	// a registration cannot give: validators refuse such a delegation.
	if b := localBreaches(d, records); len(b) > 0 {
		return nil, invalid("%s: register with name servers outside the domain, then add the address and the NS records", b[0].message(true))
	}
	return records, nil
}

// InsertRecords adds records (from Nameservers) to d, the domain being
// registered inside tx, once they pass the rules that tie records to other
// domains (an NS naming an alias in our zones is refused).
func InsertRecords(ctx context.Context, tx bun.IDB, d Domain, records []Record, now time.Time) error {
	if len(records) == 0 {
		return nil
	}
	if err := checkChange(ctx, tx, d, nil, records); err != nil {
		return err
	}
	for i := range records {
		records[i].DomainID, records[i].CreatedAt, records[i].UpdatedAt = d.ID, now, now
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

// The records of one name and type are one RRset, and RFC 2181 section 5.2
// gives an RRset one TTL: a record whose TTL differs from the others' is
// refused (Create, Update) unless its change asks to align them
// (Input.AlignTTL), and an import gives a set of the file its lowest TTL.
// Records stored before this rule may still differ; DNS serves such a set
// at its lowest TTL, as RFC 2181 tells a resolver to read it.

// setOf returns the records of name and type among records, but for the
// record skipID (the one being replaced; 0 for none).
func setOf(records []Record, name, typ string, skipID int64) []Record {
	var out []Record
	for _, r := range records {
		if r.Name == name && r.Type == typ && (skipID == 0 || r.ID != skipID) {
			out = append(out, r)
		}
	}
	return out
}

// ttlRange returns the lowest and highest TTL of set, which is not empty.
func ttlRange(set []Record) (lowest, highest int) {
	lowest, highest = set[0].TTL, set[0].TTL
	for _, r := range set[1:] {
		lowest, highest = min(lowest, r.TTL), max(highest, r.TTL)
	}
	return lowest, highest
}

// checkSetTTL refuses rec when its TTL differs from that of others, the
// other records of its set. The error carries the set's TTL (the lowest,
// which DNS serves, when they differ already) for a client to offer both
// ways out: that TTL for rec, or rec's for the whole set.
func checkSetTTL(others []Record, rec Record) error {
	if len(others) == 0 {
		return nil
	}
	lowest, highest := ttlRange(others)
	var err *apperr.Error
	switch {
	case lowest == highest && rec.TTL == lowest:
		return nil
	case lowest == highest:
		err = apperr.New(apperr.Invalid, "Records of %s %s share one TTL (%d seconds): set %d, or change the TTL of the whole set to %d",
			rec.Name, rec.Type, lowest, lowest, rec.TTL)
	default:
		err = apperr.New(apperr.Invalid, "Records of %s %s have different TTLs (%d to %d seconds), and all are served at %d: "+
			"change the TTL of the whole set to %d", rec.Name, rec.Type, lowest, highest, lowest, rec.TTL)
	}
	err.SetTTL = lowest
	return err
}

// alignSetTTL gives the records of set (rec's other records, in tx) rec's
// TTL.
func alignSetTTL(ctx context.Context, tx bun.IDB, d Domain, set []Record, ttl int, now time.Time) error {
	var ids []int64
	for _, r := range set {
		if r.TTL != ttl {
			ids = append(ids, r.ID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	_, err := tx.NewUpdate().Model((*Record)(nil)).Set("ttl = ?", ttl).Set("updated_at = ?", now).
		Where("domain_id = ?", d.ID).Where("id IN (?)", bun.In(ids)).Exec(ctx)
	return err
}

// alignImportTTLs gives each set of an imported file the lowest TTL of its
// records, with a note on each line whose TTL changed; lines maps a
// record's key to its line. Notes come back ordered by line.
func alignImportTTLs(records []Record, lines map[string]int, notes []Note) []Note {
	type setKey struct{ name, typ string }
	lowest := map[setKey]int{}
	for _, r := range records {
		k := setKey{r.Name, r.Type}
		if t, ok := lowest[k]; !ok || r.TTL < t {
			lowest[k] = r.TTL
		}
	}
	aligned := false
	for i, r := range records {
		ttl := lowest[setKey{r.Name, r.Type}]
		if r.TTL == ttl {
			continue
		}
		line := lines[recordKey(r)]
		notes = append(notes, Note{Line: line, Kind: NoteTTL, Message: fmt.Sprintf(
			"Line %d: TTL %d lowered to %d seconds, the lowest of the %s %s records: the records of one name and type share one TTL",
			line, r.TTL, ttl, r.Name, r.Type)})
		records[i].TTL = ttl
		aligned = true
	}
	if aligned {
		slices.SortStableFunc(notes, func(a, b Note) int { return a.Line - b.Line })
	}
	return notes
}
