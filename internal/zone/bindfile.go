package zone

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/miekg/dns"
	"github.com/uptrace/bun"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/db"
)

// MaxZoneFile is the largest zone file Import reads, in bytes (the API's
// schema says the same: TestZoneFileLimitIsTheSchemas).
const MaxZoneFile = 512 << 10

// Export returns the records of d as a BIND zone file: $ORIGIN and $TTL
// first, then one record per line with its name relative to the origin.
// There is no SOA: the registry owns it. PreviewImport and ApplyImport read
// the file back.
func (s *Service) Export(ctx context.Context, d Domain) (string, error) {
	records, err := s.List(ctx, d)
	if err != nil {
		return "", err
	}
	apex := d.FQDN()
	var b strings.Builder
	fmt.Fprintf(&b, "; Zone file of %s, exported by Nameport.\n", d)
	b.WriteString("; The registry serves the SOA record; the records below are the domain's.\n")
	fmt.Fprintf(&b, "$ORIGIN %s\n$TTL %d\n", apex, DefaultTTL)
	for _, r := range records {
		rr, err := r.RR(apex)
		if err != nil {
			return "", fmt.Errorf("zone: export %s: %w", d, err)
		}
		rdata := strings.TrimPrefix(rr.String(), rr.Header().String())
		fmt.Fprintf(&b, "%s\t%d\tIN\t%s\t%s\n", r.Name, r.TTL, r.Type, rdata)
	}
	return b.String(), nil
}

// PreviewImport reads text as a zone file of d and returns what importing it
// would do: the file's records replace the domain's, so records the file
// lacks are removed. A line that cannot be imported (outside the domain,
// an unsupported type, a record that fails validation, or breaks a rule
// tying records to others, such as an MX naming a CNAME) is skipped with a
// note, so that the rest can be; returns invalid for a file that cannot be
// read, or that holds nothing to import (naming the first refused line).
//
// NS records at the domain's apex, which every zone file has, are
// recognised when they name the extension's own name servers: the domain
// is served by them already, so they are skipped with a note that says so.
// Other apex NS are skipped with a note unless opts.Delegate: kept, they
// would delegate the domain away, and nothing else the file holds would be
// served. So is the SOA (the registry keeps it), and a TTL outside MinTTL
// to MaxTTL is moved to the nearest bound, with a note.
func (s *Service) PreviewImport(ctx context.Context, d Domain, text string, opts ImportOptions) (Plan, error) {
	lines, notes, err := s.readImport(ctx, d, text, opts)
	if err != nil {
		return Plan{}, err
	}
	current, err := s.List(ctx, d)
	if err != nil {
		return Plan{}, err
	}
	plan, err := planImport(ctx, s.db.Bun, d, current, lines, notes)
	return plan, wrap("preview import of", d, err)
}

// ApplyImport replaces the records of d with those of the zone file text,
// in one transaction, and returns what it did. The plan is computed again
// inside the transaction, so it is exact even if the records changed since
// a preview. Returns what PreviewImport returns.
func (s *Service) ApplyImport(ctx context.Context, d Domain, text string, opts ImportOptions) (Plan, error) {
	lines, notes, err := s.readImport(ctx, d, text, opts)
	if err != nil {
		return Plan{}, err
	}
	var plan Plan
	var names []string
	err = s.write(ctx, d, &names, func(ctx context.Context, tx *db.Tx) error {
		current, err := listRecords(ctx, tx, d.ID)
		if err != nil {
			return err
		}
		if plan, err = planImport(ctx, tx, d, current, lines, notes); err != nil {
			return err
		}
		for _, set := range [][]Record{plan.Add, plan.Change, plan.Remove} {
			for _, r := range set {
				names = append(names, r.Name)
			}
		}
		return applyPlan(ctx, tx, d, plan, s.clock())
	})
	if err != nil {
		return Plan{}, wrap("import records of", d, err)
	}
	return plan, nil
}

// readImport reads the zone file text of an import into d, recognising the
// extension's own name servers.
func (s *Service) readImport(ctx context.Context, d Domain, text string, opts ImportOptions) ([]importLine, []Note, error) {
	own, err := ownNameservers(ctx, s.db.Bun, d)
	if err != nil {
		return nil, nil, err
	}
	return readZoneFile(d, text, opts, own)
}

// planImport plans replacing current, the records of d, with the records
// read from a zone file (lines, with their notes), reading through q the
// records of other domains they depend on.
func planImport(ctx context.Context, q bun.IDB, d Domain, current []Record, lines []importLine, notes []Note) (Plan, error) {
	lines, notes, err := refuseBreaches(ctx, q, d, current, lines, slices.Clone(notes))
	if err != nil {
		return Plan{}, err
	}
	if err := importable(lines, notes); err != nil {
		return Plan{}, err
	}
	incoming := make([]Record, len(lines))
	for i, l := range lines {
		incoming[i] = l.rec
	}
	plan := diff(current, incoming)
	plan.Notes = notes
	return plan, nil
}

// ownNameservers returns the name servers of d's extension (lower case,
// without the final dot): the ones Nameport serves the domain from.
func ownNameservers(ctx context.Context, q bun.IDB, d Domain) ([]string, error) {
	var stored []string // none when the extension is gone
	if err := q.NewSelect().Table("extensions").Column("dns_nameservers").
		Where("extension = ?", d.Extension).Scan(ctx, &stored); err != nil {
		return nil, fmt.Errorf("zone: name servers of %s: %w", d.Extension, err)
	}
	if len(stored) == 0 {
		return nil, nil
	}
	return extensionNameservers(d.Extension, stored[0])
}

// refuseBreaches skips, with a note each, the lines of an import whose
// record breaks a rule tying records to others (see checkChange): the MX,
// NS or SRV record naming an alias or a name server without its address,
// and the CNAME that would make a host another domain names an alias.
// Skipping a line can break another (a name that no longer exists falls
// under a wildcard), so it checks again until none does.
func refuseBreaches(ctx context.Context, q bun.IDB, d Domain, current []Record, lines []importLine, notes []Note) ([]importLine, []Note, error) {
	c := newTargetChecker(q)
	before := indexRecords(current)
	for range len(lines) + 1 {
		records := make([]Record, len(lines))
		for i, l := range lines {
			records[i] = l.rec
		}
		refused := map[string]string{} // record key → message
		for _, b := range localBreaches(d, records) {
			refused[recordKey(b.source)] = b.message(true)
		}
		for _, r := range records {
			b, err := c.outgoing(ctx, d, r)
			if err != nil {
				return nil, nil, err
			}
			if b != nil {
				refused[recordKey(r)] = b.message(true)
			}
		}
		if mayMakeAliases(current, records) {
			breaches, err := c.incoming(ctx, d, before, indexRecords(records))
			if err != nil {
				return nil, nil, err
			}
			for _, b := range breaches {
				if _, seen := refused[recordKey(*b.alias)]; !seen {
					refused[recordKey(*b.alias)] = b.message(false)
				}
			}
		}
		if len(refused) == 0 {
			break
		}
		kept := lines[:0:0]
		for _, l := range lines {
			if msg, ok := refused[recordKey(l.rec)]; ok {
				notes = append(notes, Note{Line: l.line, Kind: NoteRefused, Message: fmt.Sprintf("Line %d: %s", l.line, msg)})
				continue
			}
			kept = append(kept, l)
		}
		lines = kept
	}
	slices.SortStableFunc(notes, func(a, b Note) int { return cmp.Compare(a.Line, b.Line) })
	return lines, notes, nil
}

// applyPlan makes plan's changes to the records of d inside tx.
func applyPlan(ctx context.Context, tx bun.IDB, d Domain, plan Plan, now time.Time) error {
	if len(plan.Remove) > 0 {
		ids := make([]int64, len(plan.Remove))
		for i, r := range plan.Remove {
			ids[i] = r.ID
		}
		if _, err := tx.NewDelete().Model((*Record)(nil)).Where("domain_id = ?", d.ID).
			Where("id IN (?)", bun.In(ids)).Exec(ctx); err != nil {
			return err
		}
	}
	for i := range plan.Change {
		plan.Change[i].UpdatedAt = now
		if _, err := tx.NewUpdate().Model(&plan.Change[i]).Column("ttl", "priority", "updated_at").
			WherePK().Where("domain_id = ?", d.ID).Exec(ctx); err != nil {
			return err
		}
	}
	if len(plan.Add) > 0 {
		for i := range plan.Add {
			plan.Add[i].CreatedAt, plan.Add[i].UpdatedAt = now, now
		}
		if _, err := tx.NewInsert().Model(&plan.Add).Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

// recordKey identifies a record for duplicates and import plans: its name,
// type, content and, for MX and SRV, priority (RFC 2181 section 5: records
// that differ in priority are different records).
func recordKey(r Record) string {
	key := r.Name + "\x00" + r.Type + "\x00" + r.Content
	if r.Priority != nil {
		key += "\x00" + strconv.Itoa(*r.Priority)
	}
	return key
}

// diff plans replacing current with incoming. Records match by recordKey;
// then a record whose priority alone differs is kept with the new one (and
// its id), rather than removed and added again.
func diff(current, incoming []Record) Plan {
	plan := Plan{Add: []Record{}, Change: []Record{}, Remove: []Record{}}
	byKey := make(map[string]Record, len(current))
	for _, r := range current {
		byKey[recordKey(r)] = r
	}
	var unmatched []Record
	for _, in := range incoming {
		old, ok := byKey[recordKey(in)]
		if !ok {
			unmatched = append(unmatched, in)
			continue
		}
		delete(byKey, recordKey(in))
		if old.TTL == in.TTL {
			plan.Unchanged++
			continue
		}
		old.TTL = in.TTL
		plan.Change = append(plan.Change, old)
	}
	byContent := map[string][]Record{}
	for _, r := range current {
		if _, left := byKey[recordKey(r)]; left {
			k := r.Name + "\x00" + r.Type + "\x00" + r.Content
			byContent[k] = append(byContent[k], r)
		}
	}
	for _, in := range unmatched {
		k := in.Name + "\x00" + in.Type + "\x00" + in.Content
		if olds := byContent[k]; len(olds) > 0 {
			old := olds[0]
			byContent[k] = olds[1:]
			delete(byKey, recordKey(old))
			old.TTL, old.Priority = in.TTL, in.Priority
			plan.Change = append(plan.Change, old)
			continue
		}
		plan.Add = append(plan.Add, in)
	}
	for _, r := range current {
		if _, gone := byKey[recordKey(r)]; gone {
			plan.Remove = append(plan.Remove, r)
		}
	}
	return plan
}

// importLine is a record of a zone file and the line it starts on.
type importLine struct {
	rec  Record
	line int
}

// parseZoneFile reads text as a zone file of d into records in stored form,
// with notes on the lines it skipped, as an import does without the
// database: no name server is recognised as the extension's own, and the
// rules tying records to others are not checked.
func parseZoneFile(d Domain, text string, opts ImportOptions) ([]Record, []Note, error) {
	lines, notes, err := readZoneFile(d, text, opts, nil)
	if err != nil {
		return nil, nil, err
	}
	if err := importable(lines, notes); err != nil {
		return nil, nil, err
	}
	records := make([]Record, len(lines))
	for i, l := range lines {
		records[i] = l.rec
	}
	return records, notes, nil
}

// importable refuses an import left with no record: the first refusal says
// why, when there is one.
func importable(lines []importLine, notes []Note) error {
	if len(lines) > 0 {
		return nil
	}
	for _, n := range notes {
		if n.Kind == NoteRefused {
			return invalid("%s", n.Message)
		}
	}
	for _, n := range notes {
		if n.Kind == NoteApexNS {
			return invalid("The zone file holds only NS records at the apex: keep the delegation to import them")
		}
	}
	for _, n := range notes {
		if n.Kind == NoteOwnNS {
			return invalid("The zone file holds only the NS records of Nameport's own name servers, which serve the domain already: there is nothing to import")
		}
	}
	return invalid("The zone file contains no records")
}

// readZoneFile reads text as a zone file of d: its records with their
// lines, and notes on the lines it skipped. own are the extension's name
// servers (see ownNameservers).
func readZoneFile(d Domain, text string, opts ImportOptions, own []string) (lines []importLine, notes []Note, err error) {
	if len(text) > MaxZoneFile {
		return nil, nil, invalid("The zone file is too large: at most %d KB", MaxZoneFile>>10)
	}
	if !strings.HasSuffix(text, "\n") {
		text += "\n" // the parser wants every record ended
	}
	apex := strings.ToLower(d.FQDN())
	var records []Record
	seen := map[string]int{} // record key → line
	tooMany := false
	take := func(rr dns.RR, line int, readErr error) bool {
		// A line that cannot be imported is skipped and said; the rest of
		// the file can still be imported.
		refuse := func(format string, args ...any) {
			notes = append(notes, Note{Line: line, Kind: NoteRefused,
				Message: fmt.Sprintf("Line %d: %s", line, fmt.Sprintf(format, args...))})
		}
		if readErr != nil {
			refuse("%s", readErr.Error())
			return true
		}
		h := rr.Header()
		owner := strings.ToLower(h.Name)
		if owner != apex && !strings.HasSuffix(owner, "."+apex) {
			refuse("%s is outside %s", h.Name, d)
			return true
		}
		if h.Class != dns.ClassINET {
			refuse("only class IN is supported")
			return true
		}
		if h.Rrtype == dns.TypeSOA {
			notes = append(notes, Note{Line: line, Kind: NoteSOA,
				Message: fmt.Sprintf("Line %d: SOA skipped: the registry keeps the SOA record of %s", line, d)})
			return true
		}
		if ns, ok := rr.(*dns.NS); ok && owner == apex {
			host := strings.TrimSuffix(strings.ToLower(ns.Ns), ".")
			if slices.Contains(own, host) {
				notes = append(notes, Note{Line: line, Kind: NoteOwnNS, Message: fmt.Sprintf(
					"Line %d: NS %s at the apex is one of Nameport's own name servers, which serve %s already: nothing to change",
					line, host, d)})
				return true
			}
			if !opts.Delegate {
				notes = append(notes, Note{Line: line, Kind: NoteApexNS, Message: fmt.Sprintf(
					"Line %d: NS %s at the apex skipped: it would delegate %s to other name servers, and none of the "+
						"file's other records would be served. Keep the delegation to import it.",
					line, host, d)})
				return true
			}
		}
		switch ttl := int(h.Ttl); {
		case ttl < MinTTL:
			h.Ttl = MinTTL
			notes = append(notes, Note{Line: line, Kind: NoteTTL,
				Message: fmt.Sprintf("Line %d: TTL %d raised to %d seconds, the least Nameport serves", line, ttl, MinTTL)})
		case ttl > MaxTTL:
			h.Ttl = MaxTTL
			notes = append(notes, Note{Line: line, Kind: NoteTTL,
				Message: fmt.Sprintf("Line %d: TTL %d lowered to %d seconds (a week), the most Nameport serves", line, ttl, MaxTTL)})
		}
		in, err := inputFromRR(rr)
		if err != nil {
			refuse("%s", err.Error())
			return true
		}
		rec, err := normalize(d, in)
		if err != nil {
			refuse("%s", apperr.Message(err))
			return true
		}
		if first, dup := seen[recordKey(rec)]; dup {
			refuse("the same record as line %d", first)
			return true
		}
		if err := checkSet(records, rec, 0); err != nil {
			refuse("%s", apperr.Message(err))
			return true
		}
		seen[recordKey(rec)] = line
		records = append(records, rec)
		lines = append(lines, importLine{rec: rec, line: line})
		tooMany = len(records) > MaxRecordsPerDomain
		return !tooMany
	}
	whole := zoneReader{text: text, apex: apex,
		each: func(rr dns.RR, line int) bool { return take(rr, line, nil) },
		bad:  func(line int, err error) { take(nil, line, err) },
	}.read()
	switch {
	case tooMany:
		return nil, nil, invalid("A domain can have at most %d DNS records", MaxRecordsPerDomain)
	case !whole:
		return nil, nil, invalid("The zone file has more than %d records that cannot be read: is it a zone file?", maxUnreadable)
	}
	notes = alignImportTTLs(records, seen, notes)
	withLineText(text, notes)
	for i := range lines {
		lines[i].rec = records[i]
	}
	if notes == nil {
		notes = []Note{}
	}
	return lines, notes, nil
}

// withLineText sets the Text of each note to the line of text it is about.
func withLineText(text string, notes []Note) {
	if len(notes) == 0 {
		return
	}
	starts := []int{0} // starts[i]: offset of line i+1
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	for i, n := range notes {
		if n.Line < 1 || n.Line > len(starts) {
			continue
		}
		line, _, _ := strings.Cut(text[starts[n.Line-1]:], "\n")
		notes[i].Text = shorten(strings.TrimSpace(line))
	}
}

// maxQuoted is the most of a file's text an error message quotes: a token
// can be as long as the file.
const maxQuoted = 80

// shorten cuts s to maxQuoted bytes, between characters, marking the cut.
func shorten(s string) string {
	if len(s) <= maxQuoted {
		return s
	}
	n := maxQuoted
	for n > maxQuoted-utf8.UTFMax && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
