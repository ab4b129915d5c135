package zone

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/nameport/nameport/internal/db"
)

// SnapshotData is everything the DNS server serves, read at one instant.
type SnapshotData struct {
	Versions Versions
	// Serial is the SOA serial of every zone: it moves forward with every
	// change to records or the catalog (see BumpVersion and the zone_version
	// migration). Sum of zone_version.serial and catalog_version, modulo 2³².
	Serial uint32
	Zones  []ZoneData
	// NextExpiry is when the first domain served now expires (zero if none):
	// the server must rebuild then (see NoteExpiry).
	NextExpiry time.Time
}

// ZoneData is an active extension and its domains.
type ZoneData struct {
	Origin      string   // fully qualified, lower case: "inf.nz."
	Nameservers []string // fully qualified, lower case (see extensionNameservers)
	Domains     []DomainData
	// Unsigned: the extension has DNSSEC off (extensions.dnssec_enabled),
	// so the zone is served unsigned even by a signing server.
	Unsigned bool
}

// DomainData is a domain that resolves and its records (stored form).
type DomainData struct {
	ID      int64
	Name    string // the label: "example"
	Records []Record
}

// FQDN returns the domain's fully qualified name under origin.
func (d DomainData) FQDN(origin string) string { return d.Name + "." + origin }

// Load reads the snapshot data from d in one read transaction (see
// Stream), each zone's domains by name.
func Load(ctx context.Context, d *db.DB, now time.Time) (*SnapshotData, error) {
	var data *SnapshotData
	zones := map[string]*ZoneData{}
	err := Stream(ctx, d, now, func(head *SnapshotData) error {
		data = head
		for i := range data.Zones {
			zones[data.Zones[i].Origin] = &data.Zones[i]
		}
		return nil
	}, func(origin string, dom DomainData) error {
		zones[origin].Domains = append(zones[origin].Domains, dom)
		return nil
	})
	if err != nil {
		return nil, err
	}
	for i := range data.Zones {
		slices.SortFunc(data.Zones[i].Domains, func(a, b DomainData) int { return strings.Compare(a.Name, b.Name) })
	}
	return data, nil
}

// readTx runs fn in a read transaction that sees one snapshot of the
// database (PostgreSQL: REPEATABLE READ; SQLite: one transaction).
func readTx(ctx context.Context, d *db.DB, fn func(ctx context.Context, tx bun.Tx) error) error {
	opts := &sql.TxOptions{}
	if d.Engine == db.Postgres {
		opts = &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true}
	}
	return d.Bun.RunInTx(ctx, opts, fn)
}

// Stream reads everything the DNS server serves in one pass of one read
// transaction, so that counters, extensions, domains and records are
// consistent with each other, keeping nothing: start gets the counters and
// the active extensions' zones (without domains), then each gets every
// domain of those zones that resolves at now (for now: not yet expired)
// and has records, with its records (ordered by sortRecords), in no
// particular order. The records of a domain are its own: each may keep
// them. An error from start or each ends the read and is returned.
func Stream(ctx context.Context, d *db.DB, now time.Time, start func(*SnapshotData) error,
	each func(origin string, dom DomainData) error) error {
	return readTx(ctx, d, func(ctx context.Context, tx bun.Tx) error {
		data, err := loadHead(ctx, tx, now)
		if err != nil {
			return err
		}
		if err := start(data); err != nil {
			return err
		}
		origins := make(map[string]string, len(data.Zones)) // by extension (".inf.nz")
		for _, z := range data.Zones {
			origins["."+strings.TrimSuffix(z.Origin, ".")] = z.Origin
		}
		// One pass over the records in domain order (the index on
		// dns_records.domain_id), each row with its domain's name.
		return domainRecords(ctx, tx, `WHERE d.expires_at > ?`, []any{now.UTC()},
			func(name, extension string, dom DomainData) error {
				if origin := origins[strings.ToLower(extension)]; origin != "" { // not an inactive extension's
					return each(origin, dom)
				}
				return nil
			})
	})
}

// domainRecords reads the records of the domains where selects (a WHERE
// clause on domains d, with args), in domain order, and hands each domain
// that has any to each, with its name and extension as stored and its
// records ordered by sortRecords (a slice of its own).
func domainRecords(ctx context.Context, q bun.IDB, where string, args []any,
	each func(name, extension string, dom DomainData) error) error {
	rows, err := q.QueryContext(ctx, `SELECT r.domain_id, d.name, d.extension, r.id, r.name, r.type, r.content, r.ttl, r.priority
		FROM dns_records r JOIN domains d ON d.id = r.domain_id `+where+` ORDER BY r.domain_id`, args...)
	if err != nil {
		return fmt.Errorf("zone: load records: %w", err)
	}
	defer rows.Close()
	var (
		cur             DomainData
		name, extension string
		curName, curExt string
		priority        sql.NullInt64
		owner, typ      sql.RawBytes
		// Record names ("@", "www") and types recur: one string each
		// rather than one per record (a full load reads every record).
		common = map[string]string{}
	)
	intern := func(b []byte) string {
		if v, ok := common[string(b)]; ok {
			return v
		}
		v := string(b)
		if len(common) < 4096 {
			common[v] = v
		}
		return v
	}
	flush := func() error {
		if cur.ID == 0 {
			return nil
		}
		sortRecords(cur.Records)
		return each(curName, curExt, cur)
	}
	for rows.Next() {
		var r Record
		if err := rows.Scan(&r.DomainID, &name, &extension, &r.ID, &owner, &typ, &r.Content, &r.TTL, &priority); err != nil {
			return fmt.Errorf("zone: load records: %w", err)
		}
		r.Name, r.Type = intern(owner), intern(typ)
		if priority.Valid {
			p := int(priority.Int64)
			r.Priority = &p
		}
		if r.DomainID != cur.ID {
			if err := flush(); err != nil {
				return err
			}
			cur = DomainData{ID: r.DomainID, Name: strings.ToLower(name)}
			curName, curExt = name, extension
		}
		cur.Records = append(cur.Records, r)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("zone: load records: %w", err)
	}
	return flush()
}

// loadZones reads the active extensions' zones, with the domains of those
// whose origin is not among served.
func loadZones(ctx context.Context, q bun.IDB, served []string, now time.Time) ([]ZoneData, error) {
	head, err := loadHead(ctx, q, now)
	if err != nil {
		return nil, err
	}
	for i := range head.Zones {
		z := &head.Zones[i]
		if slices.Contains(served, z.Origin) {
			continue
		}
		err := domainRecords(ctx, q, `WHERE d.expires_at > ? AND lower(d.extension) = ?`,
			[]any{now.UTC(), "." + strings.TrimSuffix(z.Origin, ".")}, func(_, _ string, dom DomainData) error {
				z.Domains = append(z.Domains, dom)
				return nil
			})
		if err != nil {
			return nil, err
		}
	}
	return head.Zones, nil
}

// versionsAndSerial reads the counters and the SOA serial they make: the
// zone serial plus the catalog version, modulo 2³².
func versionsAndSerial(ctx context.Context, q bun.IDB) (Versions, uint32, error) {
	var v Versions
	var zoneSerial int64
	err := q.QueryRowContext(ctx, `SELECT z.version, z.serial, c.version FROM zone_version z, catalog_version c
		WHERE z.id = 1 AND c.id = 1`).Scan(&v.Zone, &zoneSerial, &v.Catalog)
	if err != nil {
		return Versions{}, 0, fmt.Errorf("zone: load versions: %w", err)
	}
	return v, uint32(zoneSerial + v.Catalog), nil
}

// loadHead reads the counters, the active extensions' zones (without
// domains) and when the first domain served expires.
func loadHead(ctx context.Context, q bun.IDB, now time.Time) (*SnapshotData, error) {
	data := &SnapshotData{}
	var err error
	if data.Versions, data.Serial, err = versionsAndSerial(ctx, q); err != nil {
		return nil, err
	}

	var exts []struct {
		Extension   string `bun:"extension"`
		Nameservers string `bun:"dns_nameservers"`
		DNSSEC      bool   `bun:"dnssec_enabled"`
	}
	if err := q.NewSelect().Table("extensions").Column("extension", "dns_nameservers", "dnssec_enabled").
		Where("active").Order("extension").Scan(ctx, &exts); err != nil {
		return nil, fmt.Errorf("zone: load extensions: %w", err)
	}
	for _, e := range exts {
		z := ZoneData{Origin: strings.ToLower(strings.TrimPrefix(e.Extension, ".")) + ".", Unsigned: !e.DNSSEC}
		hosts, err := extensionNameservers(e.Extension, e.Nameservers)
		if err != nil {
			return nil, err
		}
		for _, h := range hosts {
			z.Nameservers = append(z.Nameservers, h+".")
		}
		data.Zones = append(data.Zones, z)
	}
	if data.NextExpiry, err = nextExpiry(ctx, q, now); err != nil {
		return nil, err
	}
	return data, nil
}

// nextExpiry returns when the first domain of an active extension expires
// after now (zero if none).
func nextExpiry(ctx context.Context, q bun.IDB, now time.Time) (time.Time, error) {
	// ORDER BY with LIMIT rather than MIN: SQLite types an aggregate's
	// result as text, the column as a time.
	var next []time.Time
	// EXISTS rather than IN: with IN, SQLite reads the domains by
	// extension and sorts them all; with EXISTS it walks the expiry index
	// and stops at the first (as PostgreSQL does either way).
	if err := q.NewSelect().TableExpr("domains AS d").Column("d.expires_at").Where("d.expires_at > ?", now.UTC()).
		Where("EXISTS (SELECT 1 FROM extensions e WHERE e.extension = d.extension AND e.active)").
		Order("d.expires_at").Limit(1).Scan(ctx, &next); err != nil {
		return time.Time{}, fmt.Errorf("zone: load next expiry: %w", err)
	}
	if len(next) == 0 {
		return time.Time{}, nil
	}
	return next[0], nil
}

// extensionNameservers returns the name servers an extension's zone is
// served from (lower case, without the final dot), from its stored
// dns_nameservers (a JSON list): those configured, or ns1 and ns2 under the
// extension when none are. The DNS server publishes them at the zone's apex
// and an import recognises them as Nameport's own.
func extensionNameservers(extension, stored string) ([]string, error) {
	var names []string
	if stored != "" {
		if err := json.Unmarshal([]byte(stored), &names); err != nil {
			return nil, fmt.Errorf("zone: name servers of %s: %w", extension, err)
		}
	}
	var hosts []string
	for _, ns := range names {
		if ns = strings.ToLower(strings.TrimSuffix(strings.TrimSpace(ns), ".")); ns != "" {
			hosts = append(hosts, ns)
		}
	}
	if len(hosts) == 0 {
		hosts = DefaultNameservers(extension)
	}
	return hosts, nil
}

// DefaultNameservers are the name servers of a zone (".inf.nz" or
// "inf.nz.") whose extension configures none: ns1 and ns2 under it (lower
// case, without the final dot).
func DefaultNameservers(zone string) []string {
	origin := strings.ToLower(strings.Trim(zone, "."))
	return []string{"ns1." + origin, "ns2." + origin}
}

// Changes is what changed in DNS since versions a DNS server has applied:
// the domains the journal names, each with what it serves now.
type Changes struct {
	Versions Versions
	Serial   uint32 // as in SnapshotData
	Domains  []ChangedDomain
	// NextExpiry is when the first domain served now expires (zero if none).
	NextExpiry time.Time
	// Zones, when the catalog moved (an extension added, removed, given
	// other name servers, or any other catalog change), are the zones to
	// serve now, in place of those served: each zone not served before
	// with its domains, the others without. nil: the same zones.
	Zones []ZoneData
	// Rekeyed are the zones (origins) whose serial alone moved (BumpSigned,
	// BumpKeys): their signing keys may have changed, and a DNS server
	// reads them again.
	Rekeyed []string
}

// ChangedDomain is a domain a change touched and its records now; none
// when it no longer resolves (released, expired) or has no records left.
type ChangedDomain struct {
	Origin  string // its zone: "inf.nz."
	Name    string // the label, lower case: "example"
	Records []Record
}

// ErrLoadAll says that the journal cannot tell what changed: a change was
// made without naming its domains, the rows needed were pruned, or so many
// domains changed that one full load is cheaper. Load everything instead.
var ErrLoadAll = errors.New("zone: changes need a full load")

// maxChangedDomains is the most domains LoadChanges reads one by one;
// beyond it a full load costs less.
const maxChangedDomains = 20000

// LoadChanges reads, in one read transaction (as Load), the changes
// committed after since: the domains in the journal rows after since.Zone,
// and the records each serves at now; and when the catalog moved, the
// zones to serve, with the domains of those not among served (origins).
// It returns ErrLoadAll when only a full load can say.
func LoadChanges(ctx context.Context, d *db.DB, since Versions, served []string, now time.Time) (*Changes, error) {
	var out *Changes
	err := readTx(ctx, d, func(ctx context.Context, tx bun.Tx) error {
		var err error
		out, err = loadChanges(ctx, tx, since, served, now)
		return err
	})
	return out, err
}

func loadChanges(ctx context.Context, q bun.IDB, since Versions, served []string, now time.Time) (*Changes, error) {
	c := &Changes{}
	var err error
	if c.Versions, c.Serial, err = versionsAndSerial(ctx, q); err != nil {
		return nil, err
	}
	if c.Versions.Catalog < since.Catalog || c.Versions.Zone < since.Zone {
		return nil, ErrLoadAll
	}
	if c.Versions.Catalog != since.Catalog {
		if c.Zones, err = loadZones(ctx, q, served, now); err != nil {
			return nil, err
		}
	}
	var rows []struct {
		Version   int64  `bun:"version"`
		Name      string `bun:"name"`
		Extension string `bun:"extension"`
	}
	if c.Versions.Zone > since.Zone {
		if err := q.NewSelect().Table("zone_changes").Column("version", "name", "extension").
			Where("version > ?", since.Zone).Where("version <= ?", c.Versions.Zone).
			Order("version").Limit(maxChangedDomains+1).Scan(ctx, &rows); err != nil {
			return nil, fmt.Errorf("zone: load changes: %w", err)
		}
		// Every bump journals at least one row, so a version missing means
		// its rows were pruned.
		if len(rows) > maxChangedDomains || !unbroken(since.Zone, c.Versions.Zone, rows, func(i int) int64 { return rows[i].Version }) {
			return nil, ErrLoadAll
		}
	}
	type key struct{ name, extension string }
	seen := make(map[key]bool, len(rows))
	var keys []key
	for _, r := range rows {
		if r.Name == "" {
			return nil, ErrLoadAll
		}
		if r.Name == resignName {
			// A serial-only bump (BumpSigned, BumpKeys): no domain changed.
			origin := strings.ToLower(strings.TrimPrefix(r.Extension, ".")) + "."
			if !slices.Contains(c.Rekeyed, origin) {
				c.Rekeyed = append(c.Rekeyed, origin)
			}
			continue
		}
		k := key{r.Name, r.Extension}
		if !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	// The domains that resolve now, and their records, a chunk at a time
	// (SQLite takes at most 32,766 parameters in a statement).
	const chunk = 500
	for start := 0; start < len(keys); start += chunk {
		part := keys[start:min(start+chunk, len(keys))]
		pairs := make([]string, len(part))
		args := make([]any, 0, 2*len(part)+1)
		for i, k := range part {
			pairs[i] = "(?, ?)"
			args = append(args, k.name, k.extension)
		}
		args = append(args, now.UTC())
		records := make(map[key][]Record, len(part))
		err := domainRecords(ctx, q, `WHERE (d.name, d.extension) IN (`+strings.Join(pairs, ", ")+`) AND d.expires_at > ?`, args,
			func(name, extension string, dom DomainData) error {
				records[key{name, extension}] = dom.Records
				return nil
			})
		if err != nil {
			return nil, err
		}
		for _, k := range part {
			c.Domains = append(c.Domains, ChangedDomain{Origin: strings.ToLower(strings.TrimPrefix(k.extension, ".")) + ".",
				Name: strings.ToLower(k.name), Records: records[k]})
		}
	}
	if c.NextExpiry, err = nextExpiry(ctx, q, now); err != nil {
		return nil, err
	}
	return c, nil
}

// SerialAt returns the zone serial (zone_version.serial, without the
// catalog version) that the zone version produced: the counter's when it is
// the current version, else the journal's. ok is false when neither knows
// it any more (rows pruned, version 0 before any change). A snapshot taken
// at version and another serial comes from another history of the
// database: a backup restored, then changed.
func SerialAt(ctx context.Context, q bun.IDB, version int64) (serial int64, ok bool, err error) {
	for _, query := range []string{`SELECT serial FROM zone_version WHERE id = 1 AND version = ?`,
		`SELECT serial FROM zone_changes WHERE version = ? LIMIT 1`} {
		var serials []int64
		if err := q.NewRaw(query, version).Scan(ctx, &serials); err != nil {
			return 0, false, fmt.Errorf("zone: serial at version %d: %w", version, err)
		}
		if len(serials) > 0 {
			return serials[0], true, nil
		}
	}
	return 0, false, nil
}

// unbroken reports whether the versions of rows (ordered) run without a
// gap from after to through.
func unbroken[T any](after, through int64, rows []T, version func(int) int64) bool {
	last := after
	for i := range rows {
		switch v := version(i); v {
		case last:
		case last + 1:
			last = v
		default:
			return false
		}
	}
	return last == through
}

// JournalKeep is how long zone_changes rows are kept: a DNS server that
// has been cut off from the database for longer loads every zone again.
const JournalKeep = 24 * time.Hour

// PruneJournal drops the journal's rows older than JournalKeep; the
// lifecycle scan calls it.
func PruneJournal(ctx context.Context, q bun.IDB, now time.Time) error {
	if _, err := q.NewDelete().Table("zone_changes").Where("created_at < ?", now.Add(-JournalKeep)).Exec(ctx); err != nil {
		return fmt.Errorf("zone: prune journal: %w", err)
	}
	return nil
}
