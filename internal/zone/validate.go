package zone

import (
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

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
		return Record{}, invalid("Record type is required")
	}
	if !slices.Contains(Types, typ) {
		return Record{}, invalid("Record type must be one of %s", strings.Join(Types, ", "))
	}
	name, err := normalizeName(d, in.Name, typ)
	if err != nil {
		return Record{}, err
	}
	ttl := DefaultTTL
	if in.TTL != nil {
		ttl = *in.TTL
	}
	switch {
	case ttl < MinTTL:
		return Record{}, invalid("TTL must be at least %d seconds", MinTTL)
	case ttl > MaxTTL:
		return Record{}, invalid("TTL must be at most %d seconds (a week)", MaxTTL)
	}
	// Other types ignore a priority, but one out of range is a mistake
	// whatever the type.
	if err := checkPriority(in.Priority); err != nil {
		return Record{}, err
	}
	content, priority, err := normalizeContent(d, typ, name, in.Content, in.Priority)
	if err != nil {
		return Record{}, err
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
		return host, nil, nil
	case TypeMX:
		if priority == nil {
			return "", nil, invalid("MX records need a priority from 0 to 65535")
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

// normalizeTXT accepts the text as is, or written as zone-file strings
// ("part one" "part two"), which are joined: that is how people paste SPF
// and DKIM values copied from elsewhere.
func normalizeTXT(content string) (string, *int, error) {
	if len(content) >= 2 && content[0] == '"' && content[len(content)-1] == '"' {
		if joined, ok := unquoteStrings(content); ok {
			content = joined
		}
	}
	if content == "" {
		return "", nil, invalid("Record content is required")
	}
	if !utf8.ValidString(content) || strings.ContainsFunc(content, isControl) {
		return "", nil, invalid("TXT content cannot contain control characters (such as line breaks)")
	}
	if utf8.RuneCountInString(content) > MaxTXT {
		return "", nil, invalid("TXT content must be at most %d characters", MaxTXT)
	}
	return content, nil, nil
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

// unquoteStrings reads a sequence of double-quoted strings separated by
// blanks, with \" and \\ escapes, and returns them joined.
func unquoteStrings(s string) (string, bool) {
	var b strings.Builder
	i := 0
	for i < len(s) {
		if s[i] == ' ' || s[i] == '\t' {
			i++
			continue
		}
		if s[i] != '"' {
			return "", false
		}
		i++
		closed := false
		for i < len(s) {
			c := s[i]
			if c == '\\' && i+1 < len(s) {
				b.WriteByte(s[i+1])
				i += 2
				continue
			}
			i++
			if c == '"' {
				closed = true
				break
			}
			b.WriteByte(c)
		}
		if !closed {
			return "", false
		}
	}
	return b.String(), true
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
