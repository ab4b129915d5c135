package domainfwd

import (
	"fmt"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/net/idna"

	"github.com/nameport/nameport/internal/apperr"
)

// Limits of a rule.
const (
	// MaxTargetLength bounds a target URL: longer ones are not links
	// people type, and every redirect carries it.
	MaxTargetLength = 2000
	// maxName is the longest domain name in presentation form, without the
	// final dot (RFC 1035).
	maxName = 253
)

// Statuses are the redirect status codes a rule may answer with.
var Statuses = []int{301, 302, 307, 308}

// DefaultStatus is the status of a rule that names none: a temporary
// redirect, since a forward usually stands in "while you build your own",
// and browsers cache a permanent one (301, 308) for good.
const DefaultStatus = 302

// reservedSuffixes are names that are never public hosts: special-use
// names (RFC 6761, RFC 6762, RFC 8375, RFC 9476) and the suffixes private
// networks use by habit. A target under them would send visitors into
// their own network, or nowhere.
var reservedSuffixes = []string{
	"localhost", "local", "internal", "lan", "home", "corp", "intranet", "private",
	"localdomain", "invalid", "test", "example", "onion", "alt", "arpa",
}

func errTarget(raw, why string) error {
	return apperr.New(apperr.Invalid, "%q cannot be a forwarding target: %s", clip(raw), why)
}

// parseTarget checks a target URL and returns it normalised (scheme and
// host in lower case). It must be an absolute http or https URL to a public
// host name: no IP address in any form (browsers read "2130706433" and
// "0x7f.1" as 127.0.0.1), no special-use or private name, no user name or
// password, ASCII only. The loop checks need the database (Service.Set).
func parseTarget(raw string) (*url.URL, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return nil, apperr.New(apperr.Invalid, "Enter the URL to forward to, for example https://example.com")
	}
	if len(raw) > MaxTargetLength {
		return nil, errTarget(raw, fmt.Sprintf("it is longer than %d characters", MaxTargetLength))
	}
	for _, r := range raw {
		if r < 0x21 || r == 0x7f {
			return nil, errTarget(raw, "it holds a space or a control character")
		}
		if r > 0x7e {
			return nil, errTarget(raw, "use ASCII: write an international domain name in its xn-- form, and percent-encode other characters")
		}
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, errTarget(raw, "it is not a valid URL")
	}
	u.Scheme = strings.ToLower(u.Scheme)
	switch {
	case u.Scheme == "":
		return nil, errTarget(raw, "write the whole URL, starting with https:// or http://")
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, errTarget(raw, "only http and https URLs can be targets")
	case u.Opaque != "" || u.Host == "":
		return nil, errTarget(raw, "write the whole URL, starting with https:// or http://")
	case u.User != nil:
		return nil, errTarget(raw, "it must not hold a user name or password")
	}
	if port := u.Port(); port != "" {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return nil, errTarget(raw, "its port must be a number from 1 to 65535")
		}
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if strings.HasPrefix(u.Host, "[") {
		return nil, errTarget(raw, "it must name a host, not an IP address")
	}
	if _, err := netip.ParseAddr(host); err == nil {
		return nil, errTarget(raw, "it must name a host, not an IP address")
	}
	if why := publicName(host); why != "" {
		return nil, errTarget(raw, why)
	}
	if port := u.Port(); port != "" {
		host += ":" + port
	}
	u.Host = host
	return u, nil
}

// publicName says why host (lower case, no final dot) is not a public DNS
// name, or "" when it is one.
func publicName(host string) string {
	if host == "" {
		return "it names no host"
	}
	if len(host) > maxName {
		return fmt.Sprintf("its host name is longer than %d characters", maxName)
	}
	labels := strings.Split(host, ".")
	for _, l := range labels {
		if !ldhLabel(l) {
			return "its host must be a domain name: letters, digits and hyphens between dots"
		}
	}
	// A last label that is a number (decimal, or 0x hexadecimal) makes
	// browsers read the whole host as an IPv4 address ("2130706433",
	// "0x7f.1", "127.1" are 127.0.0.1); no top-level domain is one.
	tld := labels[len(labels)-1]
	if numeric(tld) {
		return "it must name a host, not an IP address"
	}
	if slices.Contains(reservedSuffixes, tld) {
		return "its host is a local or reserved name, not a public one"
	}
	if len(labels) < 2 {
		return "its host must be a public domain name such as example.com"
	}
	if !strings.HasPrefix(tld, "xn--") && strings.ContainsFunc(tld, func(r rune) bool { return r < 'a' || r > 'z' }) {
		return "its host must end in a top-level domain of letters, such as .com"
	}
	for _, l := range labels {
		if _, err := idna.Lookup.ToUnicode(l); err != nil && strings.HasPrefix(l, "xn--") {
			return "its host holds an xn-- label that is not valid punycode"
		}
	}
	return ""
}

// numeric tells whether a label is a number as browsers' IPv4 parsing
// reads one: decimal digits, or 0x and hexadecimal digits.
func numeric(label string) bool {
	digits := "0123456789"
	if rest, ok := strings.CutPrefix(label, "0x"); ok {
		label, digits = rest, "0123456789abcdef"
	}
	return !strings.ContainsFunc(label, func(r rune) bool { return !strings.ContainsRune(digits, r) })
}

// ldhLabel reports whether l is a DNS label of letters, digits and
// hyphens (lower case), not starting or ending with a hyphen.
func ldhLabel(l string) bool {
	if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
		return false
	}
	for i := 0; i < len(l); i++ {
		c := l[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

var errHost = apperr.New(apperr.Invalid,
	"Use letters, digits and hyphens for the host (such as www or shop), or @ for the domain itself")

// normalizeHost returns the host of a rule of d relative to it ("@" for the
// apex, "www", "a.b") and the full name it forwards. An absolute name
// inside d is made relative.
func normalizeHost(d Domain, raw string) (host, name string, err error) {
	host = strings.ToLower(strings.TrimSpace(raw))
	// A name with its final dot is absolute: it must be the domain's.
	absolute := strings.HasSuffix(host, ".") && host != "."
	host = strings.TrimSuffix(host, ".")
	apex := strings.ToLower(d.Name())
	switch {
	case host == "" || host == "@" || host == apex:
		return "@", apex, nil
	case strings.HasSuffix(host, "."+apex):
		host = strings.TrimSuffix(host, "."+apex)
	case absolute:
		return "", "", apperr.New(apperr.Invalid, "%s is not a name of %s: give the host relative to the domain (such as www), or @", clip(host), apex)
	}
	for _, r := range host {
		if r > 0x7e {
			return "", "", apperr.New(apperr.Invalid, "Write an international host name in its xn-- form")
		}
	}
	if strings.Contains(host, "*") {
		return "", "", apperr.New(apperr.Invalid, "A forward is for one host name, not a wildcard: name each host")
	}
	if slices.ContainsFunc(strings.Split(host, "."), func(l string) bool { return !ldhLabel(l) }) {
		return "", "", errHost
	}
	name = host + "." + apex
	if len(name) > maxName {
		return "", "", apperr.New(apperr.Invalid, "The full host name is longer than %d characters", maxName)
	}
	return host, name, nil
}

// clip shortens s for a message: a 10 KB URL is not repeated back.
func clip(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:60]) + "…"
	}
	return s
}

// checkStatus returns the status of a rule: status, or DefaultStatus for 0.
func checkStatus(status int) (int, error) {
	if status == 0 {
		return DefaultStatus, nil
	}
	if !slices.Contains(Statuses, status) {
		return 0, apperr.New(apperr.Invalid, "Choose 301, 302, 307 or 308 as the redirect status")
	}
	return status, nil
}
