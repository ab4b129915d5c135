package zone

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/db"
)

// Options configure a Service.
type Options struct {
	// Now is the clock; tests inject their own.
	Now func() time.Time
	// Changed, when set, is called after every committed change, so that a
	// DNS server in the same process can reload at once instead of at its
	// next poll (dnsserver.Server.Poke).
	Changed func()
	// Events, when set, runs inside the transaction of every change of a
	// domain's records, with the names (relative, "@" for the apex) whose
	// records changed: the dns.changed webhook event, which commits with
	// the change or not at all.
	Events func(ctx context.Context, tx *db.Tx, d Domain, names []string) error
}

// Service reads and changes the DNS records of domains.
type Service struct {
	db      *db.DB
	now     func() time.Time
	changed func()
	events  func(ctx context.Context, tx *db.Tx, d Domain, names []string) error
}

// NewService returns the record service over d.
func NewService(d *db.DB, opts Options) *Service {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Changed == nil {
		opts.Changed = func() {}
	}
	return &Service{db: d, now: opts.Now, changed: opts.Changed, events: opts.Events}
}

func (s *Service) clock() time.Time { return s.now().UTC().Truncate(time.Microsecond) }

var errNotFound = apperr.New(apperr.NotFound, "DNS record not found")

// List returns the records of d: the apex ("@") first, then by name, type
// and id.
func (s *Service) List(ctx context.Context, d Domain) ([]Record, error) {
	records, err := listRecords(ctx, s.db.Bun, d.ID)
	if err != nil {
		return nil, fmt.Errorf("zone: list records of %s: %w", d, err)
	}
	return records, nil
}

// sortRecords orders records in Go rather than SQL, so that both engines
// (and any PostgreSQL collation) list them alike.
func sortRecords(records []Record) {
	slices.SortFunc(records, func(a, b Record) int {
		return cmp.Or(boolCmp(a.Name != "@", b.Name != "@"), cmp.Compare(a.Name, b.Name),
			cmp.Compare(a.Type, b.Type), cmp.Compare(a.ID, b.ID))
	})
}

func boolCmp(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}

func listRecords(ctx context.Context, q bun.IDB, domainID int64) ([]Record, error) {
	records := []Record{}
	// DS records are the delegation's, changed only through ds.go.
	err := q.NewSelect().Model(&records).Where("domain_id = ?", domainID).Where("type <> ?", TypeDS).Scan(ctx)
	sortRecords(records)
	for i := range records {
		records[i].CreatedAt, records[i].UpdatedAt = records[i].CreatedAt.UTC(), records[i].UpdatedAt.UTC()
	}
	return records, err
}

// Create adds a record to d. Returns invalid for a bad record (the messages
// name the field and the rule), and for a TTL that differs from the other
// records of its name and type unless in.AlignTTL (apperr.Error.SetTTL is
// theirs); conflict for an exact duplicate (same name, type, content and,
// for MX and SRV, priority).
func (s *Service) Create(ctx context.Context, d Domain, in Input) (*Record, error) {
	rec, err := normalize(d, in)
	if err != nil {
		return nil, err
	}
	names := []string{rec.Name}
	err = s.write(ctx, d, &names, func(ctx context.Context, tx *db.Tx) error {
		existing, err := listRecords(ctx, tx, d.ID)
		if err != nil {
			return err
		}
		if len(existing) >= MaxRecordsPerDomain {
			return invalid("A domain can have at most %d DNS records", MaxRecordsPerDomain)
		}
		if err := checkSet(existing, rec, 0); err != nil {
			return err
		}
		if err := checkChange(ctx, tx, d, existing, append(slices.Clip(existing), rec)); err != nil {
			return err
		}
		rec.CreatedAt = s.clock()
		rec.UpdatedAt = rec.CreatedAt
		if err := s.joinSet(ctx, tx, d, setOf(existing, rec.Name, rec.Type, 0), &rec, in); err != nil {
			return err
		}
		_, err = tx.NewInsert().Model(&rec).Exec(ctx)
		return err
	})
	if err != nil {
		return nil, wrap("create record in", d, err)
	}
	return &rec, nil
}

// Update replaces record id of d with in. Returns not_found when d has no
// such record (also when it is another domain's), and what Create returns
// (the TTL is checked against the other records of the name and type the
// record gets).
func (s *Service) Update(ctx context.Context, d Domain, id int64, in Input) (*Record, error) {
	rec, err := normalize(d, in)
	if err != nil {
		return nil, err
	}
	names := []string{rec.Name}
	err = s.write(ctx, d, &names, func(ctx context.Context, tx *db.Tx) error {
		existing, err := listRecords(ctx, tx, d.ID)
		if err != nil {
			return err
		}
		var old *Record
		for i := range existing {
			if existing[i].ID == id {
				old = &existing[i]
			}
		}
		if old == nil {
			return errNotFound
		}
		names = append(names, old.Name)
		if err := checkSet(existing, rec, id); err != nil {
			return err
		}
		if err := checkChange(ctx, tx, d, existing, replaced(existing, id, &rec)); err != nil {
			return err
		}
		rec.ID, rec.CreatedAt, rec.UpdatedAt = id, old.CreatedAt, s.clock()
		if err := s.joinSet(ctx, tx, d, setOf(existing, rec.Name, rec.Type, id), &rec, in); err != nil {
			return err
		}
		_, err = tx.NewUpdate().Model(&rec).Column("name", "type", "content", "ttl", "priority", "updated_at").
			WherePK().Where("domain_id = ?", d.ID).Exec(ctx)
		return err
	})
	if err != nil {
		return nil, wrap("update record of", d, err)
	}
	return &rec, nil
}

// joinSet settles the TTL of rec, written as in, with others, the other
// records of its name and type: without a TTL of its own rec takes theirs;
// with one that differs, theirs become rec's if in.AlignTTL, else rec is
// refused (checkSetTTL).
func (s *Service) joinSet(ctx context.Context, tx bun.IDB, d Domain, others []Record, rec *Record, in Input) error {
	if len(others) == 0 {
		return nil
	}
	if in.TTL == nil {
		rec.TTL, _ = ttlRange(others)
	}
	if in.AlignTTL {
		return alignSetTTL(ctx, tx, d, others, rec.TTL, rec.UpdatedAt)
	}
	return checkSetTTL(others, *rec)
}

// Delete removes record id of d. Returns not_found when d has no such record.
func (s *Service) Delete(ctx context.Context, d Domain, id int64) error {
	var names []string
	err := s.write(ctx, d, &names, func(ctx context.Context, tx *db.Tx) error {
		existing, err := listRecords(ctx, tx, d.ID)
		if err != nil {
			return err
		}
		after := replaced(existing, id, nil)
		if len(after) == len(existing) {
			return errNotFound
		}
		for _, r := range existing {
			if r.ID == id {
				names = append(names, r.Name)
			}
		}
		// A record others depend on (the address of a name server) stays.
		if err := checkChange(ctx, tx, d, existing, after); err != nil {
			return err
		}
		_, err = tx.NewDelete().Model((*Record)(nil)).Where("id = ?", id).Where("domain_id = ?", d.ID).Exec(ctx)
		return err
	})
	return wrap("delete record of", d, err)
}

// replaced returns a copy of records with record id replaced by with, or
// removed when with is nil.
func replaced(records []Record, id int64, with *Record) []Record {
	out := make([]Record, 0, len(records))
	for _, r := range records {
		switch {
		case r.ID != id:
			out = append(out, r)
		case with != nil:
			out = append(out, *with)
		}
	}
	return out
}

// write runs fn in a transaction that first bumps the zone version. Bumping
// first takes the counter's row lock, which serialises record changes on
// PostgreSQL: the duplicate and CNAME checks inside fn then see every
// change committed before. (SQLite has one writer anyway.) names are the
// record names the change touches, as fn leaves them, for the dns.changed
// event.
func (s *Service) write(ctx context.Context, d Domain, names *[]string, fn func(ctx context.Context, tx *db.Tx) error) error {
	err := s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		if err := BumpVersion(ctx, tx, s.clock(), NameChange{Name: d.Name, Extension: d.Extension}); err != nil {
			return err
		}
		if err := fn(ctx, tx); err != nil {
			return err
		}
		if err := dropOrphanDS(ctx, tx, d); err != nil {
			return err
		}
		if s.events == nil || len(*names) == 0 {
			return nil
		}
		changed := slices.Clone(*names)
		slices.Sort(changed)
		return s.events(ctx, tx, d, slices.Compact(changed))
	})
	if err == nil {
		s.changed()
	}
	return err
}

func wrap(op string, d Domain, err error) error {
	if err == nil {
		return nil
	}
	var appErr *apperr.Error
	if errors.As(err, &appErr) {
		return appErr
	}
	return fmt.Errorf("zone: %s %s: %w", op, d, err)
}

// NameChange is a domain whose served data a change alters, for the
// journals: every one goes to zone_changes (see LoadChanges), and those
// registered or released also to name_changes (see registration.Names).
type NameChange struct {
	Name      string // the label: "example"
	Extension string // ".inf.nz"
	Kind      ChangeKind
}

// ChangeKind says what a NameChange does to the registered names.
type ChangeKind int

const (
	// Served: the name stays as registered as it was; only what DNS serves
	// for it changes (its records, or it resolves again once renewed).
	Served ChangeKind = iota
	// Registered: the name joins the registered names.
	Registered
	// Released: the name leaves them.
	Released
)

// bumpVersion moves the version and the SOA serial forward (the serial to
// at least now's Unix time).
const bumpVersion = `UPDATE zone_version SET version = version + 1,
	serial = CASE WHEN serial + 1 > ? THEN serial + 1 ELSE ? END WHERE id = 1`

// BumpVersion records a change to what DNS serves, inside the caller's
// transaction q: the version and the SOA serial move forward, and the
// domains changed go to the journal, so that DNS servers apply the change
// as a delta. Without names the journal says "everything": servers load
// every zone again (a bulk change such as the benchmark's).
//
// The version row stays locked until q commits, so versions commit in
// order: a reader that has seen version v misses nothing by reading the
// journal after v. (BumpVersionAtCommit holds that lock for less time.)
func BumpVersion(ctx context.Context, q bun.IDB, now time.Time, names ...NameChange) error {
	for _, st := range bumpStatements(q.Dialect().Name(), now, names) {
		if _, err := q.ExecContext(ctx, st.query, st.args...); err != nil {
			return fmt.Errorf("zone: bump version: %w", err)
		}
	}
	return nil
}

// BumpVersionAtCommit is BumpVersion run last in tx, with its commit (see
// db.Tx.Finally): every registration, renewal and release waits for the
// version row's lock, so it is held only while the database commits. For
// changes that need nothing of the bump before they commit (record changes
// bump first, to see every change committed before theirs).
func BumpVersionAtCommit(tx *db.Tx, now time.Time, names ...NameChange) {
	for _, st := range bumpStatements(tx.Dialect().Name(), now, names) {
		tx.Finally(func(err error) error { return fmt.Errorf("zone: bump version: %w", err) }, st.query, st.args...)
	}
}

type statement struct {
	query string
	args  []any
}

// bumpStatements are the statements of a bump and its journal rows: on
// PostgreSQL one (the journals take the version the bump returns), on
// SQLite, where statements cost no round trip, the bump and an insert per
// row.
func bumpStatements(engine dialect.Name, now time.Time, names []NameChange) []statement {
	unix := now.Unix()
	bump := statement{bumpVersion, []any{unix, unix}}
	served := names
	if len(served) == 0 {
		served = []NameChange{{}} // "everything"
	}
	var listed []NameChange // registered or released
	for _, c := range names {
		if c.Kind != Served {
			listed = append(listed, c)
		}
	}
	if engine == dialect.PG {
		args := []any{unix, unix, now}
		values := make([]string, len(served))
		for i, c := range served {
			values[i] = "(?, ?)"
			args = append(args, c.Name, c.Extension)
		}
		query := `WITH bumped AS (` + bumpVersion + ` RETURNING version, serial)`
		if len(listed) > 0 {
			names := make([]string, len(listed))
			for i := range listed {
				names[i] = "(?, ?, ?::boolean)"
			}
			query += `, listed AS (INSERT INTO name_changes (version, created_at, name, extension, registered)
				SELECT bumped.version, ?::timestamptz, c.name, c.extension, c.registered
				FROM bumped, (VALUES ` + strings.Join(names, ", ") + `) AS c (name, extension, registered))`
		}
		query += ` INSERT INTO zone_changes (version, serial, created_at, name, extension)
			SELECT bumped.version, bumped.serial, ?::timestamptz, c.name, c.extension
			FROM bumped, (VALUES ` + strings.Join(values, ", ") + `) AS c (name, extension)`
		if len(listed) > 0 {
			// The CTE's placeholders come first in the text.
			cte := []any{unix, unix, now}
			for _, c := range listed {
				cte = append(cte, c.Name, c.Extension, c.Kind == Registered)
			}
			args = append(cte, args[2:]...)
		}
		return []statement{{query, args}}
	}
	out := []statement{bump}
	for _, c := range listed {
		out = append(out, statement{`INSERT INTO name_changes (version, created_at, name, extension, registered)
			SELECT version, ?, ?, ?, ? FROM zone_version WHERE id = 1`, []any{now, c.Name, c.Extension, c.Kind == Registered}})
	}
	for _, c := range served {
		out = append(out, statement{`INSERT INTO zone_changes (version, serial, created_at, name, extension)
			SELECT version, serial, ?, ?, ? FROM zone_version WHERE id = 1`, []any{now, c.Name, c.Extension}})
	}
	return out
}

// Versions are the change counters a DNS server watches.
type Versions struct {
	Zone    int64 // zone_version
	Catalog int64 // catalog_version
}

// ReadVersions reads both counters in one query.
func ReadVersions(ctx context.Context, q bun.IDB) (Versions, error) {
	var v Versions
	err := q.QueryRowContext(ctx, `SELECT (SELECT version FROM zone_version WHERE id = 1),
		(SELECT version FROM catalog_version WHERE id = 1)`).Scan(&v.Zone, &v.Catalog)
	if err != nil {
		return Versions{}, fmt.Errorf("zone: read versions: %w", err)
	}
	return v, nil
}

// NoteExpiry records that domains expiring at or before through have left
// DNS: it journals each one that expired since the last note and bumps the
// zone version once for them, however many DNS servers call it (the first
// one wins; the rest find them noted). A domain's expiry changes the zones
// without any write, so without this the SOA serial would not move,
// secondaries would keep serving it and other servers would not know to
// drop it. When none expired (the one due was renewed meanwhile) nothing
// moves.
func NoteExpiry(ctx context.Context, d *db.DB, through, now time.Time) error {
	err := d.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		// Lock the row first, so that two servers noting at once journal
		// each domain once.
		var noted int64
		sel := tx.NewSelect().Table("zone_version").Column("expired_through").Where("id = 1")
		if tx.Dialect().Name() == dialect.PG {
			sel = sel.For("UPDATE")
		}
		if err := sel.Scan(ctx, &noted); err != nil {
			return err
		}
		if noted >= through.UnixMicro() {
			return nil
		}
		// Through now, not only through: the domains that expired since
		// through have left DNS too, and the next note starts after now.
		upto := through
		if now.After(upto) {
			upto = now
		}
		unix := now.Unix()
		res, err := tx.ExecContext(ctx, `INSERT INTO zone_changes (version, serial, created_at, name, extension)
			SELECT z.version + 1, CASE WHEN z.serial + 1 > ? THEN z.serial + 1 ELSE ? END, ?, d.name, d.extension
			FROM domains d, zone_version z WHERE z.id = 1 AND d.expires_at > ? AND d.expires_at <= ?`,
			unix, unix, now, time.UnixMicro(noted).UTC(), upto.UTC())
		if err != nil {
			return err
		}
		q := tx.NewUpdate().Table("zone_version").Set("expired_through = ?", upto.UnixMicro()).Where("id = 1")
		if n, _ := res.RowsAffected(); n > 0 {
			q = q.Set("version = version + 1").Set("serial = CASE WHEN serial + 1 > ? THEN serial + 1 ELSE ? END", unix, unix)
		}
		_, err = q.Exec(ctx)
		return err
	})
	if err != nil {
		return fmt.Errorf("zone: note expiry: %w", err)
	}
	return nil
}
