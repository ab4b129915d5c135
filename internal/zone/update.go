package zone

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/miekg/dns"

	"github.com/nameport/nameport/internal/db"
)

// RelativeName validates raw as a name inside d (relative, "@", or
// absolute) and returns it relative and lower case, as records store their
// names: for the scopes of update keys (internal/updatekey).
func RelativeName(d Domain, raw string) (string, error) {
	// TXT's rules: underscores allowed (_acme-challenge), wildcards first.
	return normalizeName(d, raw, TypeTXT)
}

// UpdateError is a dynamic update refused as a whole, with the RCODE RFC
// 2136 gives the reason (a failed prerequisite: NXDOMAIN, YXDOMAIN,
// NXRRSET, YXRRSET; a malformed record: FORMERR; a name outside the zone:
// NOTZONE; policy: REFUSED).
type UpdateError struct {
	Rcode  int
	Reason string
}

func (e *UpdateError) Error() string {
	return "dynamic update refused (" + dns.RcodeToString[e.Rcode] + "): " + e.Reason
}

func updateErr(rcode int, format string, args ...any) error {
	return &UpdateError{Rcode: rcode, Reason: fmt.Sprintf(format, args...)}
}

// meta types: never records of an update (RFC 2136 3.4.1.3).
func metaType(t uint16) bool {
	switch t {
	case dns.TypeANY, dns.TypeAXFR, dns.TypeIXFR, dns.TypeMAILA, dns.TypeMAILB, dns.TypeOPT, dns.TypeTSIG, dns.TypeTKEY:
		return true
	}
	return false
}

// updateOp is one record of an update's update section, read.
type updateOp struct {
	name  string // relative to the domain
	class uint16 // IN: add; ANY: delete a set or every set; NONE: delete a record
	typ   string // "" for ANY; a type we do not store: nothing to delete
	rec   Record // IN and NONE: the record in stored form (ok false: none we could store)
	ok    bool
}

// prereq is one record of the prerequisite section, read.
type prereq struct {
	name  string
	class uint16
	rtype uint16
	rec   Record
	ok    bool
}

// relativeOwner returns the owner of rr relative to d, or false when it is
// outside d.
func relativeOwner(d Domain, rr dns.RR) (string, bool) {
	name := dns.CanonicalName(rr.Header().Name)
	apex := strings.ToLower(d.FQDN())
	switch {
	case name == apex:
		return "@", true
	case strings.HasSuffix(name, "."+apex):
		return strings.TrimSuffix(name, "."+apex), true
	}
	return "", false
}

// storedForm converts rr into the record d would store, TTL aside (the
// caller's); false when it is no record Nameport stores.
func storedForm(d Domain, rr dns.RR, ttl int) (Record, error) {
	in, err := inputFromRR(rr)
	if err != nil {
		return Record{}, err
	}
	in.TTL = &ttl
	return normalize(d, in)
}

// DynamicUpdate applies an RFC 2136 update to d's records: the
// prerequisites (section 2.4) are checked against the records, then the
// updates (section 2.5) made, in one transaction through the checks of
// every other change (validation, the record limit, the rules tying
// records to others), the journal, the serial and the dns.changed event.
// also runs first in the transaction (the key's own check and last use).
//
// Where RFC 2136 3.4.2.2 silently ignores an added CNAME beside other
// data (or data beside a CNAME), the whole update is refused instead:
// applied in part it would not be all or nothing. An added TTL outside
// 300..604800 is moved to the nearest bound (ACME clients ask for 60 to
// 120 seconds), and the set's other records take the TTL of the record
// added (RFC 2181 5.2; BIND does the same).
//
// It returns the zone version the change made, which a DNS server serves
// once it has applied the change. Returns *UpdateError with the RCODE for
// refusals of RFC 2136, an invalid apperr.Error for a change the zone's
// rules refuse.
func (s *Service) DynamicUpdate(ctx context.Context, d Domain, prereqs, updates []dns.RR, also func(ctx context.Context, tx *db.Tx) error) (int64, error) {
	pre, err := readPrereqs(d, prereqs)
	if err != nil {
		return 0, err
	}
	ops, err := readUpdates(d, updates)
	if err != nil {
		return 0, err
	}
	var version int64
	var names []string
	for _, op := range ops {
		names = append(names, op.name)
	}
	err = s.write(ctx, d, &names, func(ctx context.Context, tx *db.Tx) error {
		if also != nil {
			if err := also(ctx, tx); err != nil {
				return err
			}
		}
		existing, err := listRecords(ctx, tx, d.ID)
		if err != nil {
			return err
		}
		if err := checkPrereqs(existing, pre); err != nil {
			return err
		}
		after, err := applyUpdates(slices.Clone(existing), ops)
		if err != nil {
			return err
		}
		if len(after) > MaxRecordsPerDomain {
			return invalid("A domain can have at most %d DNS records", MaxRecordsPerDomain)
		}
		if err := checkChange(ctx, tx, d, existing, after); err != nil {
			return err
		}
		if err := applyPlan(ctx, tx, d, diff(existing, after), s.clock()); err != nil {
			return err
		}
		v, err := ReadVersions(ctx, tx)
		version = v.Zone
		return err
	})
	return version, wrap("dynamic update of", d, err)
}

func readPrereqs(d Domain, rrs []dns.RR) ([]prereq, error) {
	out := make([]prereq, 0, len(rrs))
	for _, rr := range rrs {
		h := rr.Header()
		name, inside := relativeOwner(d, rr)
		if !inside {
			return nil, updateErr(dns.RcodeNotZone, "prerequisite %s is outside %s", h.Name, d)
		}
		if h.Ttl != 0 {
			return nil, updateErr(dns.RcodeFormatError, "a prerequisite's TTL must be 0")
		}
		p := prereq{name: name, class: h.Class, rtype: h.Rrtype}
		switch h.Class {
		case dns.ClassANY, dns.ClassNONE:
			if h.Rdlength != 0 {
				return nil, updateErr(dns.RcodeFormatError, "a prerequisite of class %s has no data", dns.ClassToString[h.Class])
			}
			if h.Rrtype != dns.TypeANY && metaType(h.Rrtype) {
				return nil, updateErr(dns.RcodeFormatError, "prerequisite of type %s", dns.Type(h.Rrtype))
			}
		case dns.ClassINET:
			if metaType(h.Rrtype) {
				return nil, updateErr(dns.RcodeFormatError, "prerequisite of type %s", dns.Type(h.Rrtype))
			}
			if rec, err := storedForm(d, rr, DefaultTTL); err == nil {
				p.rec, p.ok = rec, true
			}
		default:
			return nil, updateErr(dns.RcodeFormatError, "prerequisite of class %s", dns.Class(h.Class))
		}
		out = append(out, p)
	}
	return out, nil
}

func readUpdates(d Domain, rrs []dns.RR) ([]updateOp, error) {
	out := make([]updateOp, 0, len(rrs))
	for _, rr := range rrs {
		h := rr.Header()
		name, inside := relativeOwner(d, rr)
		if !inside {
			return nil, updateErr(dns.RcodeNotZone, "%s is outside %s", h.Name, d)
		}
		op := updateOp{name: name, class: h.Class}
		if h.Rrtype != dns.TypeANY {
			op.typ = dns.Type(h.Rrtype).String()
		}
		switch h.Class {
		case dns.ClassINET:
			if metaType(h.Rrtype) || h.Rdlength == 0 {
				return nil, updateErr(dns.RcodeFormatError, "cannot add a record of type %s without data", dns.Type(h.Rrtype))
			}
			if h.Rrtype == dns.TypeSOA {
				return nil, updateErr(dns.RcodeRefused, "the registry keeps the SOA record")
			}
			if !slices.Contains(Types, op.typ) {
				return nil, updateErr(dns.RcodeRefused, "%s", unsupportedType(op.typ))
			}
			ttl := max(MinTTL, min(MaxTTL, int(h.Ttl)))
			rec, err := storedForm(d, rr, ttl)
			if err != nil {
				return nil, updateErr(dns.RcodeRefused, "%s %s: %s", h.Name, op.typ, message(err))
			}
			op.rec, op.ok = rec, true
		case dns.ClassANY:
			if h.Ttl != 0 || h.Rdlength != 0 || h.Rrtype != dns.TypeANY && metaType(h.Rrtype) {
				return nil, updateErr(dns.RcodeFormatError, "a deletion of class ANY has TTL 0 and no data")
			}
		case dns.ClassNONE:
			if h.Ttl != 0 || metaType(h.Rrtype) {
				return nil, updateErr(dns.RcodeFormatError, "a deletion of class NONE has TTL 0 and a type")
			}
			// A record Nameport could not store is not there to delete.
			if rec, err := storedForm(d, rr, DefaultTTL); err == nil {
				op.rec, op.ok = rec, true
			}
		default:
			return nil, updateErr(dns.RcodeFormatError, "update of class %s", dns.Class(h.Class))
		}
		out = append(out, op)
	}
	return out, nil
}

// message is the user-facing text of a validation error.
func message(err error) string {
	s := err.Error()
	return strings.TrimPrefix(s, "invalid: ")
}

// checkPrereqs checks the prerequisites against records (RFC 2136 3.2).
// The apex always holds the SOA, which the registry serves.
func checkPrereqs(records []Record, pre []prereq) error {
	inUse := func(name string) bool {
		return name == "@" || slices.ContainsFunc(records, func(r Record) bool { return r.Name == name })
	}
	setExists := func(name string, t uint16) bool {
		if name == "@" && t == dns.TypeSOA {
			return true
		}
		typ := dns.Type(t).String()
		return slices.ContainsFunc(records, func(r Record) bool { return r.Name == name && r.Type == typ })
	}
	// Value-dependent prerequisites, by name and type.
	wanted := map[string]map[string]bool{}
	var order []string
	for _, p := range pre {
		switch {
		case p.class == dns.ClassANY && p.rtype == dns.TypeANY:
			if !inUse(p.name) {
				return updateErr(dns.RcodeNameError, "%s has no records", p.name)
			}
		case p.class == dns.ClassANY:
			if !setExists(p.name, p.rtype) {
				return updateErr(dns.RcodeNXRrset, "%s has no %s records", p.name, dns.Type(p.rtype))
			}
		case p.class == dns.ClassNONE && p.rtype == dns.TypeANY:
			if inUse(p.name) {
				return updateErr(dns.RcodeYXDomain, "%s has records", p.name)
			}
		case p.class == dns.ClassNONE:
			if setExists(p.name, p.rtype) {
				return updateErr(dns.RcodeYXRrset, "%s has %s records", p.name, dns.Type(p.rtype))
			}
		default: // IN: the set is exactly these records
			k := p.name + "\x00" + dns.Type(p.rtype).String()
			if wanted[k] == nil {
				wanted[k] = map[string]bool{}
				order = append(order, k)
			}
			if !p.ok {
				return updateErr(dns.RcodeNXRrset, "%s has no such %s record", p.name, dns.Type(p.rtype))
			}
			wanted[k][recordKey(p.rec)] = true
		}
	}
	for _, k := range order {
		have := map[string]bool{}
		for _, r := range records {
			if r.Name+"\x00"+r.Type == k {
				have[recordKey(r)] = true
			}
		}
		if len(have) != len(wanted[k]) {
			return updateErr(dns.RcodeNXRrset, "the %s set differs", strings.ReplaceAll(k, "\x00", " "))
		}
		for rk := range wanted[k] {
			if !have[rk] {
				return updateErr(dns.RcodeNXRrset, "the %s set differs", strings.ReplaceAll(k, "\x00", " "))
			}
		}
	}
	return nil
}

// applyUpdates makes ops to records in order (RFC 2136 3.4.2).
func applyUpdates(records []Record, ops []updateOp) ([]Record, error) {
	for _, op := range ops {
		switch op.class {
		case dns.ClassINET:
			rec := op.rec
			for _, r := range records {
				if r.Name != rec.Name {
					continue
				}
				if rec.Type == TypeCNAME && r.Type != TypeCNAME {
					return nil, updateErr(dns.RcodeRefused, "a CNAME record cannot share its name with other records: %s has %s records", rec.Name, r.Type)
				}
				if rec.Type != TypeCNAME && r.Type == TypeCNAME {
					return nil, updateErr(dns.RcodeRefused, "%s has a CNAME record, so it cannot have other records", rec.Name)
				}
			}
			if rec.Type == TypeCNAME {
				// A CNAME replaces the CNAME there was (3.4.2.2).
				records = slices.DeleteFunc(records, func(r Record) bool { return r.Name == rec.Name && r.Type == TypeCNAME })
			}
			dup := false
			for i := range records {
				if records[i].Name == rec.Name && records[i].Type == rec.Type {
					records[i].TTL = rec.TTL
					dup = dup || recordKey(records[i]) == recordKey(rec)
				}
			}
			if !dup {
				records = append(records, rec)
			}
		case dns.ClassANY:
			records = slices.DeleteFunc(records, func(r Record) bool {
				// The apex keeps its SOA and NS records (3.4.2.3).
				return r.Name == op.name && (op.typ == "" || r.Type == op.typ) && !(r.Name == "@" && r.Type == TypeNS)
			})
		case dns.ClassNONE:
			if !op.ok {
				continue
			}
			k := recordKey(op.rec)
			if op.rec.Name == "@" && op.rec.Type == TypeNS && len(setOf(records, "@", TypeNS, 0)) <= 1 {
				continue // the apex keeps its last NS record (3.4.2.4)
			}
			records = slices.DeleteFunc(records, func(r Record) bool { return recordKey(r) == k })
		}
	}
	return records, nil
}
