package zone

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/miekg/dns"
)

// Owner returns the fully qualified owner name of a record named name
// (relative, "@" for the apex) in the domain whose FQDN is apex.
func Owner(name, apex string) string {
	if name == "@" {
		return apex
	}
	return name + "." + apex
}

// RR returns the record as a DNS resource record of the domain whose fully
// qualified name is apex ("example.inf.nz."). The record must be in its
// stored form (from the database or a Service method).
func (r Record) RR(apex string) (dns.RR, error) {
	hdr := dns.RR_Header{Name: Owner(r.Name, apex), Class: dns.ClassINET, Ttl: uint32(r.TTL)}
	prio := uint16(0)
	if r.Priority != nil {
		prio = uint16(*r.Priority)
	}
	bad := func() (dns.RR, error) {
		return nil, fmt.Errorf("zone: record %d: bad %s content %q", r.ID, r.Type, r.Content)
	}
	switch r.Type {
	case TypeA:
		ip := net.ParseIP(r.Content).To4()
		if ip == nil {
			return bad()
		}
		hdr.Rrtype = dns.TypeA
		return &dns.A{Hdr: hdr, A: ip}, nil
	case TypeAAAA:
		ip := net.ParseIP(r.Content)
		if ip == nil {
			return bad()
		}
		hdr.Rrtype = dns.TypeAAAA
		return &dns.AAAA{Hdr: hdr, AAAA: ip}, nil
	case TypeCNAME:
		hdr.Rrtype = dns.TypeCNAME
		return &dns.CNAME{Hdr: hdr, Target: dns.Fqdn(r.Content)}, nil
	case TypeNS:
		hdr.Rrtype = dns.TypeNS
		return &dns.NS{Hdr: hdr, Ns: dns.Fqdn(r.Content)}, nil
	case TypeMX:
		hdr.Rrtype = dns.TypeMX
		return &dns.MX{Hdr: hdr, Preference: prio, Mx: dns.Fqdn(r.Content)}, nil
	case TypeTXT:
		hdr.Rrtype = dns.TypeTXT
		strs, quoted := parseTXTStrings(r.Content)
		if !quoted {
			return &dns.TXT{Hdr: hdr, Txt: TXTStrings(r.Content)}, nil
		}
		for i, s := range strs {
			strs[i] = escapeTXT(s)
		}
		return &dns.TXT{Hdr: hdr, Txt: strs}, nil
	case TypeSRV:
		f := strings.Fields(r.Content)
		if len(f) != 3 {
			return bad()
		}
		weight, err1 := strconv.ParseUint(f[0], 10, 16)
		port, err2 := strconv.ParseUint(f[1], 10, 16)
		if err1 != nil || err2 != nil {
			return bad()
		}
		hdr.Rrtype = dns.TypeSRV
		return &dns.SRV{Hdr: hdr, Priority: prio, Weight: uint16(weight), Port: uint16(port), Target: dns.Fqdn(f[2])}, nil
	case TypeDS:
		ds, err := dsOf(r)
		if err != nil {
			return bad()
		}
		hdr.Rrtype = dns.TypeDS
		return &dns.DS{Hdr: hdr, KeyTag: uint16(ds.KeyTag), Algorithm: uint8(ds.Algorithm),
			DigestType: uint8(ds.DigestType), Digest: ds.Digest}, nil
	case TypeCAA:
		flags, rest, ok1 := strings.Cut(r.Content, " ")
		tag, value, ok2 := strings.Cut(rest, " ")
		flag, err := strconv.ParseUint(flags, 10, 8)
		if !ok1 || !ok2 || err != nil || len(value) < 2 {
			return bad()
		}
		hdr.Rrtype = dns.TypeCAA
		return &dns.CAA{Hdr: hdr, Flag: uint8(flag), Tag: tag, Value: value[1 : len(value)-1]}, nil
	}
	return bad()
}

// TXTStrings splits plain TXT text into the character-strings of a TXT
// record (see splitTXT), escaped the way miekg/dns keeps TXT data (a
// backslash and a quote are escaped).
func TXTStrings(text string) []string {
	out := splitTXT(text)
	for i, s := range out {
		out[i] = escapeTXT(s)
	}
	return out
}

// splitTXT splits text into strings of at most 255 bytes, cut between
// characters: how plain TXT content is served.
func splitTXT(text string) []string {
	var out []string
	for len(text) > 0 {
		n := min(len(text), 255)
		for n < len(text) && n > 0 && !utf8.RuneStart(text[n]) {
			n--
		}
		if n == 0 { // not UTF-8: cut at 255 bytes
			n = min(len(text), 255)
		}
		out = append(out, text[:n])
		text = text[n:]
	}
	if out == nil {
		out = []string{""}
	}
	return out
}

func escapeTXT(s string) string {
	if !strings.ContainsAny(s, `\"`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' || s[i] == '"' {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// unescapeTXT turns a miekg/dns TXT string (with \X and \DDD escapes) into
// its bytes. It reports false for a \DDD above \255, which is no byte:
// miekg/dns would serve it wrapped around (\999 as \231).
func unescapeTXT(s string) (string, bool) {
	if !strings.Contains(s, `\`) {
		return s, true
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		if i+3 < len(s) && isDigit(s[i+1]) && isDigit(s[i+2]) && isDigit(s[i+3]) {
			v := int(s[i+1]-'0')*100 + int(s[i+2]-'0')*10 + int(s[i+3]-'0')
			if v > 255 {
				return "", false
			}
			b.WriteByte(byte(v))
			i += 3
			continue
		}
		b.WriteByte(s[i+1])
		i++
	}
	return b.String(), true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// inputFromRR turns a parsed resource record of a domain into an Input, or
// says why it cannot be one.
// unsupportedType is the refusal of a record of type name.
func unsupportedType(name string) error {
	return fmt.Errorf("record type %s is not supported (supported: %s)", name, strings.Join(Types, ", "))
}

func inputFromRR(rr dns.RR) (Input, error) {
	h := rr.Header()
	// The name stays absolute. Made relative here, normalize would read a
	// relative name that ends like the domain ("www.example.inf.nz", from
	// www.example.inf.nz.example.inf.nz.) as absolute, and move the record.
	ttl := int(h.Ttl)
	in := Input{Name: strings.ToLower(h.Name), TTL: &ttl}
	prio := func(p uint16) *int { v := int(p); return &v }
	switch v := rr.(type) {
	case *dns.A:
		in.Type, in.Content = TypeA, v.A.String()
	case *dns.AAAA:
		in.Type, in.Content = TypeAAAA, v.AAAA.String()
	case *dns.CNAME:
		in.Type, in.Content = TypeCNAME, v.Target
	case *dns.NS:
		in.Type, in.Content = TypeNS, v.Ns
	case *dns.MX:
		in.Type, in.Content, in.Priority = TypeMX, v.Mx, prio(v.Preference)
	case *dns.TXT:
		parts := make([]string, len(v.Txt))
		for i, s := range v.Txt {
			var ok bool
			if parts[i], ok = unescapeTXT(s); !ok {
				return Input{}, errors.New(`a TXT escape \DDD cannot exceed \255`)
			}
		}
		if strings.Join(parts, "") == "" {
			return Input{}, fmt.Errorf("empty TXT records are not supported")
		}
		// In zone-file form, so that normalize keeps the strings as they
		// are (and stores plain text when they are what it would serve).
		in.Type, in.Content = TypeTXT, quoteTXT(parts)
	case *dns.SRV:
		in.Type, in.Priority = TypeSRV, prio(v.Priority)
		in.Content = strconv.Itoa(int(v.Weight)) + " " + strconv.Itoa(int(v.Port)) + " " + v.Target
	case *dns.CAA:
		in.Type = TypeCAA
		in.Content = strconv.Itoa(int(v.Flag)) + " " + v.Tag + ` "` + v.Value + `"`
	default:
		return Input{}, unsupportedType(dns.Type(h.Rrtype).String()) // TYPE65226 for a type without a name
	}
	return in, nil
}
