// Package zone owns the DNS records of registered domains: their validation
// per type, their storage relative to the domain ("@", "www", "*"), import
// and export as BIND zone files, and the consistent read of everything the
// authoritative DNS server serves (see Stream).
//
// Every change to what DNS serves bumps the single-row zone_version counter
// in the same transaction and journals the domains it touched
// (zone_changes); DNS servers poll the counters (with catalog_version) and
// apply what the journal names as deltas (see LoadChanges).
package zone

import (
	"time"

	"github.com/uptrace/bun"
)

// Record types Nameport serves.
const (
	TypeA     = "A"
	TypeAAAA  = "AAAA"
	TypeCNAME = "CNAME"
	TypeMX    = "MX"
	TypeTXT   = "TXT"
	TypeNS    = "NS"
	TypeSRV   = "SRV"
	TypeCAA   = "CAA"
)

// Types lists the supported record types in the order the product shows them.
var Types = []string{TypeA, TypeAAAA, TypeCNAME, TypeMX, TypeTXT, TypeNS, TypeSRV, TypeCAA}

// Limits of record fields.
const (
	DefaultTTL = 3600
	MinTTL     = 300    // the spec: "ttl at least 300"
	MaxTTL     = 604800 // a week
	// MaxTXT is the longest TXT content, in characters. On the wire it is
	// split into strings of at most 255 bytes.
	MaxTXT = 4000
	// MaxRecordsPerDomain bounds a domain's records, so that one customer
	// cannot grow every DNS server's memory or a single answer without limit.
	MaxRecordsPerDomain = 1000
)

// Domain is the registered domain whose records are read or changed. The
// caller (the API) has checked that the user holds it.
type Domain struct {
	ID        int64
	Name      string // the label, lower case: "example"
	Extension string // with its leading dot: ".inf.nz"
}

// FQDN returns the domain's fully qualified name: "example.inf.nz.".
func (d Domain) FQDN() string { return d.Name + d.Extension + "." }

// String returns the domain's name without the final dot: "example.inf.nz".
func (d Domain) String() string { return d.Name + d.Extension }

// Record is one DNS record of a domain, in its stored (normalised) form.
//
// Content by type:
//   - A, AAAA: the address ("192.0.2.1", "2001:db8::1").
//   - CNAME, NS, MX: a fully qualified host name without the final dot
//     ("mail.example.com"); MX takes its preference from Priority, and "."
//     is the null MX of RFC 7505.
//   - TXT: the text itself, unquoted (up to 4,000 characters).
//   - SRV: "weight port target" ("5 5060 sip.example.com"); the SRV priority
//     is Priority. Target "." means "no such service".
//   - CAA: `flags tag "value"` (`0 issue "letsencrypt.org"`).
type Record struct {
	bun.BaseModel `bun:"table:dns_records"`

	ID        int64     `bun:"id,pk,autoincrement"`
	DomainID  int64     `bun:"domain_id"`
	Name      string    `bun:"name"` // relative, lower case: "@", "www", "*", "a.b"
	Type      string    `bun:"type"`
	Content   string    `bun:"content"`
	TTL       int       `bun:"ttl"`
	Priority  *int      `bun:"priority"` // MX and SRV only
	CreatedAt time.Time `bun:"created_at"`
	UpdatedAt time.Time `bun:"updated_at"`
}

// Input is a record as a user sends it; Create and Update normalise and
// validate it.
type Input struct {
	Type string
	// Name is relative to the domain ("@", "www", "*.dev"), or absolute
	// inside it ("www.example.inf.nz.").
	Name    string
	Content string
	// TTL in seconds, from 300 to 604800; nil means the TTL of the other
	// records of its name and type, or the default, 3600, when there are
	// none. An explicit 0 is too low, not the default.
	TTL *int
	// Priority is required for MX (0-65535) and SRV (or given as the first
	// of four content fields); other types ignore it.
	Priority *int
	// AlignTTL gives the other records of the record's name and type its
	// TTL, in the same change. Without it a TTL that differs from theirs
	// is refused: the records of one name and type share one TTL (RFC 2181
	// section 5.2).
	AlignTTL bool
}

// Plan is what importing a zone file does to a domain's records.
type Plan struct {
	Add    []Record // records of the file the domain lacks
	Change []Record // records kept with a new TTL or priority (ID of the existing record)
	Remove []Record // records of the domain the file lacks
	// Unchanged counts the records the file and the domain share as they are.
	Unchanged int
	// Notes are what the import did differently from the file, line by line.
	Notes []Note
}

// Note is a line of a zone file an import did not take as it is.
type Note struct {
	Line int
	Kind string // NoteApexNS, NoteOwnNS, NoteSOA, NoteTTL or NoteRefused
	// Text is the line as the file has it (trimmed; its start when long).
	Text    string
	Message string
}

// The kinds of notes.
const (
	// NoteApexNS marks an NS record at the domain's apex that an import
	// skipped: kept, it would delegate the domain to those name servers,
	// and Nameport would serve none of the domain's other records.
	NoteApexNS = "apex_ns"
	// NoteOwnNS marks an NS record at the domain's apex that names one of
	// the extension's own name servers: the domain is served by them
	// already, so it is recognised and nothing changes.
	NoteOwnNS = "own_ns"
	// NoteSOA marks a skipped SOA record: the registry owns the SOA.
	NoteSOA = "soa"
	// NoteTTL marks a record whose TTL was raised to MinTTL or lowered to
	// MaxTTL, or lowered to the lowest TTL of its set in the file.
	NoteTTL = "ttl"
	// NoteRefused marks a line that cannot be imported, and why: the other
	// lines can be.
	NoteRefused = "refused"
)

// ImportOptions are the choices an import leaves to its user.
type ImportOptions struct {
	// Delegate keeps the NS records at the domain's apex: the domain is
	// then delegated to them and its other records are not served.
	Delegate bool
}

// Empty reports whether applying the plan changes nothing.
func (p Plan) Empty() bool { return len(p.Add)+len(p.Change)+len(p.Remove) == 0 }
