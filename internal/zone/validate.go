package zone

import (
	"context"
	"fmt"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"github.com/nameport/nameport/internal/apperr"
)

func invalid(format string, args ...any) error { return apperr.New(apperr.Invalid, format, args...) }

// maxName is the longest domain name in presentation form, without the
// final dot (RFC 1035: 255 octets on the wire).
const maxName = 253

// normalize validates in as a record of d and returns its stored form.
// Returns invalid with a message fit for the user.
func normalize(d Domain, in Input) (Record, error) {
	typ := strings.ToUpper(strings.TrimSpace(in.Type))
	if typ == "" {
		return Record{}, apperr.OnField(invalid("Record type is required"), "type")
	}
	if !slices.Contains(Types, typ) {
		return Record{}, apperr.OnField(invalid("Record type must be one of %s", strings.Join(Types, ", ")), "type")
	}
	name, err := normalizeName(d, in.Name, typ)
	if err != nil {
		return Record{}, apperr.OnField(err, "name")
	}
	ttl := DefaultTTL
	if in.TTL != nil {
		ttl = *in.TTL
	}
	switch {
	case ttl < MinTTL:
		return Record{}, apperr.OnField(invalid("TTL must be at least %d seconds", MinTTL), "ttl")
	case ttl > MaxTTL:
		return Record{}, apperr.OnField(invalid("TTL must be at most %d seconds (a week)", MaxTTL), "ttl")
	}
	// Other types ignore a priority, but one out of range is a mistake
	// whatever the type.
	if err := checkPriority(in.Priority); err != nil {
		return Record{}, apperr.OnField(err, "priority")
	}
	content, priority, err := normalizeContent(d, typ, name, in.Content, in.Priority)
	if err != nil {
		return Record{}, apperr.OnField(err, "content")
	}
	return Record{DomainID: d.ID, Name: name, Type: typ, Content: content, TTL: ttl, Priority: priority}, nil
}

// normalizeName returns name relative to d and lower case: "@" for the
// apex. An absolute name inside d ("www.example.inf.nz." or without the
// final dot) is made relative.
func normalizeName(d Domain, raw, typ string) (string, error) {
	name := strings.ToLower(strings.TrimSpace(raw))
	if name == "" {
		return "", invalid("Record name is required")
	}
	if name == "@" {
		return "@", nil
	}
	apex := strings.ToLower(d.String())
	absolute := strings.HasSuffix(name, ".")
	trimmed := strings.TrimSuffix(name, ".")
	switch {
	case trimmed == apex:
		return "@", nil
	case strings.HasSuffix(trimmed, "."+apex):
		name = strings.TrimSuffix(trimmed, "."+apex)
	case absolute:
		return "", invalid("Record name %s is not inside %s", strings.TrimSpace(raw), d.String())
	}
	if len(name)+1+len(apex) > maxName {
		return "", invalid("Record name is too long: the full name must be at most %d characters", maxName)
	}
	labels := strings.Split(name, ".")
	underscoreOK := typ == TypeTXT || typ == TypeSRV || typ == TypeCNAME
	for i, label := range labels {
		if label == "*" {
			if i != 0 {
				return "", invalid("A wildcard (*) can only be the first label of a record name, like * or *.dev")
			}
			continue
		}
		if err := checkLabel(label, underscoreOK); err != nil {
			if strings.Contains(label, "_") && !underscoreOK && checkLabel(label, true) == nil {
				return "", invalid("Underscores are only allowed in TXT, SRV and CNAME record names (like _dmarc)")
			}
			return "", invalid("Record name %q is not valid: each label is 1 to 63 letters, digits, hyphens or underscores, and cannot start or end with a hyphen", strings.TrimSpace(raw))
		}
	}
	switch typ {
	case TypeSRV:
		if len(labels) < 2 || !isServiceLabel(labels[0]) || !isServiceLabel(labels[1]) {
			return "", invalid("SRV record names must look like _service._proto, for example _sip._tcp")
		}
	case TypeNS:
		if labels[0] == "*" {
			return "", invalid("NS records cannot be at a wildcard name")
		}
	}
	return name, nil
}

func isServiceLabel(label string) bool { return len(label) > 1 && label[0] == '_' }

// checkLabel checks one label of letters, digits, hyphens and (when
// allowed) underscores: 1 to 63 characters, no hyphen at either end.
func checkLabel(label string, underscoreOK bool) error {
	if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
		return errBadLabel
	}
	for i := 0; i < len(label); i++ {
		c := label[i]
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '-':
		case c == '_' && underscoreOK:
		default:
			return errBadLabel
		}
	}
	return nil
}

var errBadLabel = invalid("bad label")

// hostName normalises a host name given as content: lower case, without the
// final dot; "@" stands for the domain itself. It must have two labels or
// more (a single label is most likely a mistaken relative name).
func hostName(d Domain, raw string, underscoreOK bool) (string, bool) {
	host := strings.ToLower(strings.TrimSpace(raw))
	if host == "@" {
		return strings.ToLower(d.String()), true
	}
	host = strings.TrimSuffix(host, ".")
	if host == "" || len(host) > maxName {
		return "", false
	}
	labels := strings.Split(host, ".")
	if len(labels) < 2 {
		return "", false
	}
	for _, label := range labels {
		if checkLabel(label, underscoreOK) != nil {
			return "", false
		}
	}
	return host, true
}

// isAddressShaped reports whether host is written as an IPv4 address, or
// was in a zone file, relative to d (192.0.2.1 read as
// 192.0.2.1.example.inf.nz). As the target of an MX, NS or SRV record it is
// still a name, one that does not exist: mail sent to it bounces, and
// named-checkzone refuses the zone.
func isAddressShaped(d Domain, host string) bool {
	if rel, inside := relativeTo(d, host); inside {
		host = rel
	}
	addr, err := netip.ParseAddr(host)
	return err == nil && addr.Is4()
}

func checkPriority(p *int) error {
	if p != nil && (*p < 0 || *p > 65535) {
		return invalid("Priority must be between 0 and 65535")
	}
	return nil
}

// normalizeContent validates raw as the content of a typ record named name
// and returns its stored form and priority.
func normalizeContent(d Domain, typ, name, raw string, priority *int) (string, *int, error) {
	content := strings.TrimSpace(raw)
	if content == "" {
		return "", nil, invalid("Record content is required")
	}
	switch typ {
	case TypeA:
		addr, err := netip.ParseAddr(content)
		if err != nil || !addr.Is4() {
			return "", nil, invalid("A record content must be an IPv4 address, like 192.0.2.1")
		}
		return addr.String(), nil, nil
	case TypeAAAA:
		addr, err := netip.ParseAddr(content)
		if err != nil || !addr.Is6() || addr.Is4In6() || addr.Zone() != "" {
			return "", nil, invalid("AAAA record content must be an IPv6 address, like 2001:db8::1")
		}
		return addr.String(), nil, nil
	case TypeCNAME:
		if name == "@" {
			return "", nil, invalid("A CNAME record cannot be at the domain apex (@); use A or AAAA records there")
		}
		host, ok := hostName(d, content, true)
		if !ok {
			return "", nil, invalid("CNAME target must be a host name, like www.example.com")
		}
		if host == strings.ToLower(relativeToFQDN(d, name)) {
			return "", nil, invalid("A CNAME record cannot point to itself")
		}
		return host, nil, nil
	case TypeNS:
		host, ok := hostName(d, content, false)
		if !ok {
			return "", nil, invalid("Nameserver must be a host name, like ns1.example.com")
		}
		if isAddressShaped(d, host) {
			return "", nil, invalid("Nameserver must be a host name, not an IP address: give the address an A record (like ns1.%s) and name that host", d)
		}
		return host, nil, nil
	case TypeMX:
		if priority == nil {
			return "", nil, apperr.OnField(invalid("MX records need a priority from 0 to 65535"), "priority")
		}
		if err := checkPriority(priority); err != nil {
			return "", nil, err
		}
		if content == "." {
			return ".", priority, nil // null MX (RFC 7505): the domain takes no mail
		}
		host, ok := hostName(d, content, false)
		if !ok {
			return "", nil, invalid("Mail server must be a host name, like mail.example.com")
		}
		if isAddressShaped(d, host) {
			return "", nil, invalid("Mail server must be a host name, not an IP address: give the address an A record (like mail.%s) and name that host", d)
		}
		return host, priority, nil
	case TypeTXT:
		return normalizeTXT(content)
	case TypeSRV:
		return normalizeSRV(d, content, priority)
	case TypeCAA:
		return normalizeCAA(content)
	}
	return "", nil, invalid("Record type must be one of %s", strings.Join(Types, ", "))
}

func relativeToFQDN(d Domain, name string) string {
	if name == "@" {
		return d.String()
	}
	return name + "." + d.String()
}

// TXT content has two forms. Plain text, what people type, is served split
// into strings of at most 255 bytes (TXTStrings), as it always was. Content
// in zone-file form, double-quoted strings such as "v=spf1 " "-all", keeps
// its strings as given: SPF, DKIM and other readers see where one ends. The
// stored form of a record is plain text whenever plain text serves the same
// strings, so each TXT record has one stored form (duplicates and import
// plans compare contents), and what was stored before stays plain.

// normalizeTXT validates content as TXT content and returns its stored form.
func normalizeTXT(content string) (string, *int, error) {
	strs, quoted := parseTXTStrings(content)
	if !quoted {
		if !utf8.ValidString(content) || strings.ContainsFunc(content, isControl) {
			return "", nil, errTXTControl
		}
		if utf8.RuneCountInString(content) > MaxTXT {
			return "", nil, errTXTLength
		}
		return content, nil, nil
	}
	text := strings.Join(strs, "")
	if text == "" {
		return "", nil, invalid("Record content is required")
	}
	if strings.ContainsFunc(text, isControl) {
		return "", nil, errTXTControl
	}
	if utf8.RuneCountInString(text) > MaxTXT {
		return "", nil, errTXTLength
	}
	for _, s := range strs {
		if len(s) > 255 {
			return "", nil, invalid(`Each quoted TXT string can be at most 255 bytes: split a longer text into several strings, like "first part" "second part"`)
		}
	}
	if isPlainTXT(text) && slices.Equal(splitTXT(text), strs) {
		return text, nil, nil
	}
	return quoteTXT(strs), nil, nil
}

var (
	errTXTControl = invalid("TXT content cannot contain control characters (such as line breaks)")
	errTXTLength  = invalid("TXT content must be at most %d characters", MaxTXT)
)

// isPlainTXT reports whether text can be stored as plain text: read back,
// it must not be taken for quoted strings, nor lose blanks at either end
// when a user edits it.
func isPlainTXT(text string) bool {
	_, quoted := parseTXTStrings(text)
	return text != "" && utf8.ValidString(text) && !quoted && strings.TrimSpace(text) == text
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

// parseTXTStrings reads s as zone-file strings: one or more double-quoted
// strings separated by blanks, with the escapes \X (the character X) and
// \DDD (the byte of that decimal value). It reports false when s is not
// exactly that, which makes s plain text.
func parseTXTStrings(s string) ([]string, bool) {
	var out []string
	i := 0
	for {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		if i == len(s) {
			return out, out != nil
		}
		if s[i] != '"' {
			return nil, false
		}
		i++
		var b strings.Builder
		for {
			if i >= len(s) {
				return nil, false // not closed
			}
			c := s[i]
			if c == '"' {
				i++
				break
			}
			if c != '\\' {
				b.WriteByte(c)
				i++
				continue
			}
			if i+1 >= len(s) {
				return nil, false
			}
			if i+3 < len(s) && isDigit(s[i+1]) && isDigit(s[i+2]) && isDigit(s[i+3]) {
				v := int(s[i+1]-'0')*100 + int(s[i+2]-'0')*10 + int(s[i+3]-'0')
				if v > 255 {
					return nil, false
				}
				b.WriteByte(byte(v))
				i += 4
				continue
			}
			b.WriteByte(s[i+1])
			i += 2
		}
		out = append(out, b.String())
	}
}

// quoteTXT writes strs as zone-file strings, the stored form of TXT content
// with strings of its own: a quote and a backslash escaped, and a byte that
// is not part of valid UTF-8 as \DDD (the column holds UTF-8 text).
func quoteTXT(strs []string) string {
	var b strings.Builder
	for i, s := range strs {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteByte('"')
		for len(s) > 0 {
			r, size := utf8.DecodeRuneInString(s)
			switch {
			case r == utf8.RuneError && size == 1:
				fmt.Fprintf(&b, "\\%03d", s[0])
			case r == '"' || r == '\\':
				b.WriteByte('\\')
				b.WriteRune(r)
			default:
				b.WriteString(s[:size])
			}
			s = s[size:]
		}
		b.WriteByte('"')
	}
	return b.String()
}

const srvFormat = `SRV content must be "weight port target", for example "5 5060 sip.example.com" (with the priority in its own field), or "priority weight port target"`

// normalizeSRV accepts "weight port target" with priority given apart, or
// "priority weight port target"; it stores the former.
func normalizeSRV(d Domain, content string, priority *int) (string, *int, error) {
	fields := strings.Fields(content)
	switch {
	case len(fields) == 4 && priority == nil:
		p, err := strconv.Atoi(fields[0])
		if err != nil {
			return "", nil, invalid(srvFormat)
		}
		priority, fields = &p, fields[1:]
	case len(fields) == 3 && priority == nil:
		return "", nil, invalid("SRV records need a priority from 0 to 65535")
	case len(fields) != 3:
		return "", nil, invalid(srvFormat)
	}
	if err := checkPriority(priority); err != nil {
		return "", nil, err
	}
	weight, err := strconv.Atoi(fields[0])
	if err != nil || weight < 0 || weight > 65535 {
		return "", nil, invalid("SRV weight must be a number from 0 to 65535")
	}
	port, err := strconv.Atoi(fields[1])
	if err != nil || port < 0 || port > 65535 {
		return "", nil, invalid("SRV port must be a number from 0 to 65535")
	}
	target := "."
	if fields[2] != "." {
		var ok bool
		if target, ok = hostName(d, fields[2], false); !ok {
			return "", nil, invalid("SRV target must be a host name, like sip.example.com")
		}
		if isAddressShaped(d, target) {
			return "", nil, invalid("SRV target must be a host name, not an IP address: give the address an A record (like sip.%s) and name that host", d)
		}
	}
	return strconv.Itoa(weight) + " " + strconv.Itoa(port) + " " + target, priority, nil
}

const caaFormat = `CAA content must be "flags tag value", for example 0 issue "letsencrypt.org"`

// CAATags are the CAA properties accepted: RFC 8659's (issue, issuewild,
// iodef), RFC 9495's issuemail, and the contacts of the CA/Browser Forum's
// Baseline Requirements (contactemail, contactphone), as IANA registers them.
var CAATags = []string{"issue", "issuewild", "issuemail", "iodef", "contactemail", "contactphone"}

// normalizeCAA accepts `flags tag value` with the value quoted or not and
// stores `flags tag "value"`.
func normalizeCAA(content string) (string, *int, error) {
	flagsText, rest, ok := strings.Cut(content, " ")
	if !ok {
		return "", nil, invalid(caaFormat)
	}
	tag, value, ok := strings.Cut(strings.TrimSpace(rest), " ")
	if !ok {
		tag, value = strings.TrimSpace(rest), ""
	}
	flags, err := strconv.Atoi(flagsText)
	if err != nil {
		return "", nil, invalid(caaFormat)
	}
	if flags < 0 || flags > 255 {
		return "", nil, invalid("CAA flags must be between 0 and 255")
	}
	tag = strings.ToLower(tag)
	if !slices.Contains(CAATags, tag) {
		return "", nil, invalid("CAA tag must be one of %s", strings.Join(CAATags, ", "))
	}
	value = strings.TrimSpace(value)
	if len(value) >= 2 && value[0] == '"' && value[len(value)-1] == '"' {
		value = value[1 : len(value)-1]
	}
	if strings.ContainsFunc(value, func(r rune) bool { return isControl(r) || r == '"' || r == '\\' || r > 0x7e }) || len(value) > 255 {
		return "", nil, invalid("CAA value must be at most 255 printable ASCII characters, without quotes or backslashes")
	}
	if tag == "iodef" && !strings.HasPrefix(value, "mailto:") && !strings.HasPrefix(value, "https://") && !strings.HasPrefix(value, "http://") {
		return "", nil, invalid("CAA iodef value must be a mailto: or https: URL")
	}
	switch {
	case value != "":
	case tag == "issue" || tag == "issuewild" || tag == "issuemail":
		value = ";" // RFC 8659: no CA may issue
	default:
		return "", nil, invalid("CAA %s needs a value", tag)
	}
	return strconv.Itoa(flags) + " " + tag + ` "` + value + `"`, nil, nil
}

// checkSet checks rec against the domain's other records (skipID is the
// record being replaced, 0 for none): no exact duplicate (the same
// recordKey: conflict), and a CNAME alone at its name (invalid).
func checkSet(existing []Record, rec Record, skipID int64) error {
	for _, r := range existing {
		if r.ID == skipID && skipID != 0 || r.Name != rec.Name {
			continue
		}
		if recordKey(r) == recordKey(rec) {
			return apperr.New(apperr.Conflict, "This %s record already exists at %s", rec.Type, rec.Name)
		}
		if rec.Type == TypeCNAME {
			if r.Type == TypeCNAME {
				return invalid("%s already has a CNAME record; a name can have only one", rec.Name)
			}
			return invalid("A CNAME record cannot share its name with other records: %s already has %s records", rec.Name, r.Type)
		}
		if r.Type == TypeCNAME {
			return invalid("%s has a CNAME record, so it cannot have other records", rec.Name)
		}
	}
	return nil
}

// The rules below tie a record to others, as validators of zone files
// (named-checkzone, kzonecheck) check them: an MX, NS or SRV record names a
// host, which must not be an alias (a CNAME, RFC 2181 10.3), and a name
// server inside the domain it serves needs an address there (glue, RFC
// 1034 4.2.1). Every change to records is checked against them (Service
// write paths and imports), in both directions: the record that names a
// host, and a change to the host's records.

// target returns the host an MX, NS or SRV record names, "" for none (the
// null MX or SRV ".", or another type).
func target(r Record) string {
	switch r.Type {
	case TypeMX, TypeNS:
		if r.Content != "." {
			return r.Content
		}
	case TypeSRV:
		if f := strings.Fields(r.Content); len(f) == 3 && f[2] != "." {
			return f[2]
		}
	}
	return ""
}

// relativeTo returns host (stored form: lower case, no final dot) relative
// to d, "@" for d itself, and whether host is inside d at all.
func relativeTo(d Domain, host string) (string, bool) {
	apex := strings.ToLower(d.String())
	switch {
	case host == apex:
		return "@", true
	case strings.HasSuffix(host, "."+apex):
		return strings.TrimSuffix(host, "."+apex), true
	}
	return "", false
}

// recordIndex answers, for one domain's records, what a name resolves to.
type recordIndex struct {
	byName map[string][]Record
	exists map[string]bool // names with records, and the names between them and the apex
}

func indexRecords(records []Record) recordIndex {
	ix := recordIndex{byName: map[string][]Record{}, exists: map[string]bool{"@": true}}
	for _, r := range records {
		ix.byName[r.Name] = append(ix.byName[r.Name], r)
		for name := r.Name; name != "@"; name = parentName(name) {
			ix.exists[name] = true
		}
	}
	return ix
}

// parentName returns the name one label up from a relative name: "b" for
// "a.b", "@" for "b".
func parentName(name string) string {
	if _, rest, ok := strings.Cut(name, "."); ok {
		return rest
	}
	return "@"
}

// alias returns the CNAME record a query for name (relative) meets: the one
// at name, or, when name does not exist, the one of the wildcard below its
// closest existing ancestor (RFC 4592), as the DNS server answers.
func (ix recordIndex) alias(name string) (Record, bool) {
	at := name
	if !ix.exists[name] {
		encloser := parentName(name)
		for !ix.exists[encloser] {
			encloser = parentName(encloser)
		}
		at = "*"
		if encloser != "@" {
			at = "*." + encloser
		}
	}
	for _, r := range ix.byName[at] {
		if r.Type == TypeCNAME {
			return r, true
		}
	}
	return Record{}, false
}

// hasAddress reports whether name (relative) has an A or AAAA record of
// its own: glue is never synthesised from a wildcard.
func (ix recordIndex) hasAddress(name string) bool {
	for _, r := range ix.byName[name] {
		if r.Type == TypeA || r.Type == TypeAAAA {
			return true
		}
	}
	return false
}

// breach is a record that breaks one of the rules: source (an MX, NS or SRV
// record of the domain named in from) names host, which is an alias (the
// CNAME record alias of the domain named in at) or, for glue, lacks an
// address.
type breach struct {
	source Record
	from   Domain
	host   string
	alias  *Record
	at     Domain
}

func (b breach) key() string {
	return fmt.Sprintf("%d\x00%s\x00%t", b.from.ID, recordKey(b.source), b.alias != nil)
}

// message says what is wrong, from the side of the change: forward when
// the change is to the MX, NS or SRV record itself, else from the side of
// the host whose records changed.
func (b breach) message(forward bool) string {
	owner := strings.TrimSuffix(Owner(b.source.Name, b.from.FQDN()), ".")
	switch {
	case b.alias != nil && forward:
		return fmt.Sprintf("%s records cannot point to a CNAME: %s is an alias of %s; name the host itself instead",
			b.source.Type, b.host, b.alias.Content)
	case b.alias != nil:
		return fmt.Sprintf("%s would become an alias (CNAME), but the %s record of %s names it: "+
			"MX, NS and SRV records must name a host, not an alias", b.host, b.source.Type, owner)
	case forward:
		return fmt.Sprintf("Name server %s is inside %s, so it needs an A or AAAA record there",
			b.host, b.from)
	}
	return fmt.Sprintf("%s must keep an A or AAAA record: the NS record of %s names it as a name server", b.host, owner)
}

// localBreaches returns the breaches of d's records among themselves: the
// MX, NS and SRV records naming an alias inside d, and the NS records
// naming a host inside d without an address.
func localBreaches(d Domain, records []Record) []breach {
	ix := indexRecords(records)
	var out []breach
	for _, r := range records {
		host := target(r)
		name, inside := relativeTo(d, host)
		if host == "" || !inside {
			continue
		}
		if cname, ok := ix.alias(name); ok {
			out = append(out, breach{source: r, from: d, host: host, alias: &cname, at: d})
		} else if r.Type == TypeNS && !ix.hasAddress(name) {
			out = append(out, breach{source: r, from: d, host: host})
		}
	}
	return out
}

// targetChecker checks hosts in other registered domains inside one
// transaction, reading each domain's records once.
type targetChecker struct {
	q       bun.IDB
	domains map[string]*checkedDomain // by FQDN without the final dot; nil for none
}

type checkedDomain struct {
	dom   Domain
	index recordIndex
}

func newTargetChecker(q bun.IDB) *targetChecker {
	return &targetChecker{q: q, domains: map[string]*checkedDomain{}}
}

// domainOf returns the registered domain host is inside, with its records,
// or nil when there is none. Every registered domain is in one of
// Nameport's extensions (active or not: its records are served once it
// is); the domains table has one row per label and extension, so each way
// of cutting host into those is one lookup on its unique key.
func (c *targetChecker) domainOf(ctx context.Context, host string) (*checkedDomain, error) {
	for rest := host; ; {
		label, ext, ok := strings.Cut(rest, ".")
		if !ok {
			return nil, nil
		}
		key := rest
		rest = ext
		cd, seen := c.domains[key]
		if !seen {
			var ids []int64
			if err := c.q.NewSelect().Table("domains").Column("id").Where("name = ?", label).
				Where("extension = ?", "."+ext).Scan(ctx, &ids); err != nil {
				return nil, fmt.Errorf("zone: find domain %s: %w", key, err)
			}
			if len(ids) > 0 {
				dom := Domain{ID: ids[0], Name: label, Extension: "." + ext}
				records, err := listRecords(ctx, c.q, dom.ID)
				if err != nil {
					return nil, err
				}
				cd = &checkedDomain{dom: dom, index: indexRecords(records)}
			}
			c.domains[key] = cd
		}
		if cd != nil {
			return cd, nil
		}
	}
}

// outgoing returns the breach of r, a record of d, whose host is in another
// domain of Nameport's zones and an alias there; nil if none.
func (c *targetChecker) outgoing(ctx context.Context, d Domain, r Record) (*breach, error) {
	host := target(r)
	if _, inside := relativeTo(d, host); host == "" || inside {
		return nil, nil
	}
	other, err := c.domainOf(ctx, host)
	if err != nil || other == nil {
		return nil, err
	}
	name, _ := relativeTo(other.dom, host)
	if cname, ok := other.index.alias(name); ok {
		return &breach{source: r, from: d, host: host, alias: &cname, at: other.dom}, nil
	}
	return nil, nil
}

// referrer is an MX, NS or SRV record of another domain naming a host
// inside the domain checked.
type referrer struct {
	Record
	DomainName      string `bun:"domain_name"`
	DomainExtension string `bun:"domain_extension"`
}

// incoming returns the MX, NS and SRV records of domains other than d whose
// host inside d is an alias in after and was not in before.
func (c *targetChecker) incoming(ctx context.Context, d Domain, before, after recordIndex) ([]breach, error) {
	apex := strings.ToLower(d.String())
	var refs []referrer
	// No index serves this (content is not indexed): it runs only when a
	// change can make a name an alias (see mayMakeAliases).
	err := c.q.NewSelect().TableExpr("dns_records AS r").Join("JOIN domains AS d ON d.id = r.domain_id").
		ColumnExpr("r.id, r.domain_id, r.name, r.type, r.content, r.ttl, r.priority").
		ColumnExpr("d.name AS domain_name, d.extension AS domain_extension").
		Where("r.domain_id <> ?", d.ID).
		WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
			return q.WhereOr("r.type IN ('MX', 'NS') AND (r.content = ? OR r.content LIKE ?)", apex, "%."+apex).
				WhereOr("r.type = 'SRV' AND (r.content LIKE ? OR r.content LIKE ?)", "% "+apex, "%."+apex)
		}).OrderExpr("r.id").Scan(ctx, &refs)
	if err != nil {
		return nil, fmt.Errorf("zone: records naming hosts of %s: %w", d, err)
	}
	var out []breach
	for _, ref := range refs {
		host := target(ref.Record)
		name, inside := relativeTo(d, host)
		if !inside {
			continue // "xexample.inf.nz" matched the LIKE
		}
		cname, now := after.alias(name)
		if _, was := before.alias(name); now && !was {
			from := Domain{ID: ref.DomainID, Name: ref.DomainName, Extension: strings.ToLower(ref.DomainExtension)}
			out = append(out, breach{source: ref.Record, from: from, host: host, alias: &cname, at: d})
		}
	}
	return out, nil
}

// mayMakeAliases reports whether changing d's records from before to after
// can turn a name into an alias: a CNAME added, or a record removed while a
// wildcard CNAME can now answer for its name.
func mayMakeAliases(before, after []Record) bool {
	kept := make(map[string]bool, len(after))
	for _, r := range after {
		kept[recordKey(r)] = true
	}
	removed := false
	for _, r := range before {
		if !kept[recordKey(r)] {
			removed = true
		}
		delete(kept, recordKey(r))
	}
	wildcard := false
	for _, r := range after {
		if r.Type != TypeCNAME {
			continue
		}
		if kept[recordKey(r)] {
			return true // added
		}
		wildcard = wildcard || strings.HasPrefix(r.Name, "*")
	}
	return wildcard && removed
}

// checkChange refuses a change of d's records from before to after that
// breaks a rule above. Breaches the records had before are not the
// change's doing and do not stop it.
func checkChange(ctx context.Context, q bun.IDB, d Domain, before, after []Record) error {
	had := make(map[string]bool, len(before))
	for _, r := range before {
		had[recordKey(r)] = true
	}
	known := map[string]bool{}
	for _, b := range localBreaches(d, before) {
		known[b.key()] = true
	}
	for _, b := range localBreaches(d, after) {
		if !known[b.key()] {
			return invalid("%s", b.message(!had[recordKey(b.source)]))
		}
	}
	c := newTargetChecker(q)
	for _, r := range after {
		if had[recordKey(r)] {
			continue
		}
		b, err := c.outgoing(ctx, d, r)
		if err != nil {
			return err
		}
		if b != nil {
			return invalid("%s", b.message(true))
		}
	}
	if !mayMakeAliases(before, after) {
		return nil
	}
	breaches, err := c.incoming(ctx, d, indexRecords(before), indexRecords(after))
	if err != nil {
		return err
	}
	if len(breaches) > 0 {
		return invalid("%s", breaches[0].message(false))
	}
	return nil
}
