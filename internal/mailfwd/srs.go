package mailfwd

import (
	"crypto/hmac"
	"crypto/sha1"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"time"
)

// The wire format follows libsrs2 (Shevek, "Sender Rewriting Scheme"), so
// that our addresses look like every other forwarder's and theirs parse here:
//
//	SRS0=HHHH=TT=original-domain=original-local@us
//	SRS1=HHHH=first-forwarder-domain==HHHH=TT=original-domain=original-local@us
//
// HHHH is the first four characters of the base64 HMAC-SHA1, under our
// secret, of the lower-cased fields that follow it, concatenated; TT is the
// day of creation modulo 1024 in two base32 characters.
const (
	srs0Tag = "SRS0"
	srs1Tag = "SRS1"
	// srsSeparator separates the fields; we always write it after the tag too,
	// but read any of srsTagSeparators there, as libsrs2 can be configured to
	// write "+" or "-" after the tag.
	srsSeparator     = '='
	srsTagSeparators = "=+-"

	srsHashLength      = 4
	srsTimePrecision   = 24 * time.Hour
	srsTimeAlphabet    = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	srsTimeBits        = 5
	srsTimeSlots       = 1 << (2 * srsTimeBits) // two characters of five bits
	srsDefaultMaxAge   = 21 * 24 * time.Hour    // libsrs2's default
	srsMinSecretLength = 16

	// srsMaxSenderLength is the longest address RFC 5321 allows in a path.
	srsMaxSenderLength = 254
	// srsMaxAddressLength bounds what Reverse reads: rewriting lengthens an
	// address, so ours can be longer than srsMaxSenderLength, but never this
	// long (254 + tag, hash, stamp and separators + a 253-octet domain).
	srsMaxAddressLength = 1024
)

// Errors of SRS.Reverse.
var (
	// ErrNotSRS is returned for an address that is not an SRS address, or one
	// too malformed to be one of ours.
	ErrNotSRS = errors.New("mailfwd: not an SRS address")
	// ErrSRSHash is returned when the hash does not match: the address was not
	// made with our secret, or was altered.
	ErrSRSHash = errors.New("mailfwd: SRS address has a wrong hash")
	// ErrSRSExpired is returned for an SRS0 address older than the maximum age.
	ErrSRSExpired = errors.New("mailfwd: SRS address has expired")
)

// SRS rewrites envelope senders of forwarded mail so that SPF passes at the
// destination, and reverses them for bounces. It is safe for concurrent use.
type SRS struct {
	secret     []byte
	maxAgeDays int
	now        func() time.Time
}

// NewSRS: secret must be at least 16 bytes (error otherwise); maxAge is how
// long a rewritten address may be reversed (21 days when 0); now is the clock
// (time.Now when nil).
//
// Timestamps count whole days, so maxAge is rounded down to days and must be
// at least one day; an address stays reversible for maxAge to maxAge plus a
// day. It may be at most 512 days, half the 1024-day cycle of the
// timestamps, so that an address is refused for at least as long as it is
// accepted before its timestamp comes round again.
func NewSRS(secret []byte, maxAge time.Duration, now func() time.Time) (*SRS, error) {
	if len(secret) < srsMinSecretLength {
		return nil, fmt.Errorf("mailfwd: the SRS secret must be at least %d bytes", srsMinSecretLength)
	}
	if maxAge == 0 {
		maxAge = srsDefaultMaxAge
	}
	if maxAge < srsTimePrecision || maxAge > srsTimeSlots/2*srsTimePrecision {
		return nil, errors.New("mailfwd: the SRS maximum age must be between 1 and 512 days")
	}
	if now == nil {
		now = time.Now
	}
	return &SRS{
		secret:     append([]byte(nil), secret...),
		maxAgeDays: int(maxAge / srsTimePrecision),
		now:        now,
	}, nil
}

// Forward returns the address to use as envelope sender when forwarding mail
// from sender through forwarder domain `domain` (e.g. "mx.inf.nz"). The null
// sender "" stays "" (bounces are never rewritten). An address that is
// already ours (…@domain, any SRS form) is returned unchanged. Errors for a
// sender that is not local@domain.
//
// A sender that is already an SRS0 or SRS1 address of another forwarder
// becomes SRS1, naming the first forwarder, so that a bounce goes back to it
// directly rather than through every forwarder of the chain.
func (s *SRS) Forward(sender, domain string) (string, error) {
	if sender == "" {
		return "", nil
	}
	if !validSRSDomain(domain) {
		return "", fmt.Errorf("mailfwd: SRS forwarder domain %q is not a domain", domain)
	}
	if len(sender) > srsMaxSenderLength {
		return "", fmt.Errorf("mailfwd: sender is longer than %d octets", srsMaxSenderLength)
	}
	local, senderDomain, ok := splitAddress(sender)
	if !ok || !validSRSLocal(local) || !validSRSDomain(senderDomain) {
		return "", fmt.Errorf("mailfwd: sender %q is not local@domain", sender)
	}
	if sameDomain(senderDomain, domain) {
		return sender, nil
	}

	if tagged(local, srs1Tag) {
		// Keep the first forwarder and the SRS0 part it made; only the hash
		// is ours, so that we can check it when the bounce comes back.
		if _, firstHost, rest, ok := splitSRS1(local); ok && validSRSDomain(firstHost) {
			return s.srs1(firstHost, rest, domain), nil
		}
		// Not an SRS1 we can keep the first forwarder of: an ordinary
		// local part, as far as we are concerned.
	}
	if tagged(local, srs0Tag) {
		// The SRS0 part keeps its separator: local[4:] is "=HHHH=TT=d=l".
		return s.srs1(senderDomain, local[len(srs0Tag):], domain), nil
	}

	stamp := srsStamp(s.now())
	return srs0Tag + string(srsSeparator) +
		s.hash(stamp, senderDomain, local) + string(srsSeparator) +
		stamp + string(srsSeparator) +
		senderDomain + string(srsSeparator) +
		local + "@" + domain, nil
}

func (s *SRS) srs1(firstHost, rest, domain string) string {
	return srs1Tag + string(srsSeparator) +
		s.hash(firstHost, rest) + string(srsSeparator) +
		firstHost + string(srsSeparator) +
		rest + "@" + domain
}

// Reverse returns the address an SRS address (SRS0 or SRS1, at any domain;
// the caller checks the domain is ours) stands for: for SRS0 the original
// sender, for SRS1 the SRS0 address at the first forwarder. ErrNotSRS for an
// address that is not SRS; ErrSRSHash for a wrong hash; ErrSRSExpired for a
// timestamp older than maxAge (or from the future beyond one day).
//
// The SRS0 address an SRS1 stands for comes back with its tag upper-cased,
// as libsrs2 writes it: SRS1 does not keep the tag, and forwarders read it in
// any case. Everything else keeps the case it has in address.
func (s *SRS) Reverse(address string) (string, error) {
	if len(address) > srsMaxAddressLength {
		return "", fmt.Errorf("%w: longer than %d octets", ErrNotSRS, srsMaxAddressLength)
	}
	local, _, ok := splitAddress(address)
	if !ok {
		return "", fmt.Errorf("%w: not local@domain", ErrNotSRS)
	}

	switch {
	case tagged(local, srs1Tag):
		hash, firstHost, rest, ok := splitSRS1(local)
		if !ok {
			return "", fmt.Errorf("%w: malformed SRS1 address", ErrNotSRS)
		}
		if !s.hashMatches(hash, firstHost, rest) {
			return "", ErrSRSHash
		}
		return srs0Tag + rest + "@" + firstHost, nil

	case tagged(local, srs0Tag):
		// local[5:] is "HHHH=TT=domain=local"; the original local part may
		// itself hold separators, so it is everything after the third.
		fields := strings.SplitN(local[len(srs0Tag)+1:], string(srsSeparator), 4)
		if len(fields) != 4 {
			return "", fmt.Errorf("%w: malformed SRS0 address", ErrNotSRS)
		}
		hash, stamp, origDomain, origLocal := fields[0], fields[1], fields[2], fields[3]
		day, ok := parseSRSStamp(stamp)
		if !ok || origDomain == "" || origLocal == "" {
			return "", fmt.Errorf("%w: malformed SRS0 address", ErrNotSRS)
		}
		// The hash first: a forged address is reported as forged, whatever
		// its timestamp says.
		if !s.hashMatches(hash, stamp, origDomain, origLocal) {
			return "", ErrSRSHash
		}
		if !s.fresh(day) {
			return "", ErrSRSExpired
		}
		return origLocal + "@" + origDomain, nil
	}
	return "", ErrNotSRS
}

// hash is the base64 HMAC-SHA1 of the lower-cased fields, concatenated,
// truncated to srsHashLength characters. Lower-casing is ASCII only, as
// libsrs2's tolower in the C locale, so that both compute the same hash.
func (s *SRS) hash(fields ...string) string {
	mac := hmac.New(sha1.New, s.secret)
	for _, field := range fields {
		mac.Write(asciiLower(field))
	}
	return base64.StdEncoding.EncodeToString(mac.Sum(nil))[:srsHashLength]
}

// hashMatches compares case-insensitively, because mail systems may change
// the case of a local part on its way back, and in constant time, so that
// the hash cannot be guessed a character at a time.
func (s *SRS) hashMatches(got string, fields ...string) bool {
	return subtle.ConstantTimeCompare(asciiLower(got), asciiLower(s.hash(fields...))) == 1
}

// fresh reports whether a timestamp's day is at most maxAgeDays old, or one
// day ahead (another machine's clock, or ours, just past midnight). Days
// are compared modulo the cycle of the timestamps.
func (s *SRS) fresh(day int) bool {
	age := (srsDay(s.now()) - day + srsTimeSlots) % srsTimeSlots
	return age <= s.maxAgeDays || age == srsTimeSlots-1
}

// srsDay is the day of t since the epoch, modulo the cycle of the timestamps.
func srsDay(t time.Time) int {
	secondsPerDay := int64(srsTimePrecision / time.Second)
	days := t.Unix() / secondsPerDay
	if t.Unix()%secondsPerDay < 0 {
		days-- // before 1970: round towards the past, not towards zero
	}
	return int((days%srsTimeSlots + srsTimeSlots) % srsTimeSlots)
}

func srsStamp(t time.Time) string {
	day := srsDay(t)
	return string([]byte{srsTimeAlphabet[day>>srsTimeBits], srsTimeAlphabet[day&(1<<srsTimeBits-1)]})
}

// parseSRSStamp reads two base32 characters, in either case.
func parseSRSStamp(stamp string) (int, bool) {
	if len(stamp) != 2 {
		return 0, false
	}
	day := 0
	for i := range len(stamp) {
		digit := strings.IndexByte(srsTimeAlphabet, asciiUpper(stamp[i]))
		if digit < 0 {
			return 0, false
		}
		day = day<<srsTimeBits | digit
	}
	return day, true
}

// tagged reports whether local starts with tag (in any case) and a separator.
func tagged(local, tag string) bool {
	return len(local) > len(tag) &&
		strings.EqualFold(local[:len(tag)], tag) &&
		strings.IndexByte(srsTagSeparators, local[len(tag)]) >= 0
}

// splitSRS1 splits the local part "SRS1=HHHH=first-host==rest" into its hash,
// the first forwarder's domain and the rest of the SRS0 address that
// forwarder made, the rest keeping its leading separator ("=rest").
func splitSRS1(local string) (hash, firstHost, rest string, ok bool) {
	fields := strings.SplitN(local[len(srs1Tag)+1:], string(srsSeparator), 3)
	if len(fields) != 3 || fields[0] == "" || fields[1] == "" || fields[2] == "" {
		return "", "", "", false
	}
	return fields[0], fields[1], fields[2], true
}

// splitAddress splits at the last "@", as a quoted local part may hold one.
func splitAddress(address string) (local, domain string, ok bool) {
	at := strings.LastIndexByte(address, '@')
	if at <= 0 || at == len(address)-1 {
		return "", "", false
	}
	return address[:at], address[at+1:], true
}

// validSRSLocal refuses what would let an envelope sender break out of its
// SMTP command (controls, spaces, angle brackets); anything else a mail
// system sent us is passed on as it came.
func validSRSLocal(local string) bool {
	for i := range len(local) {
		if c := local[i]; c <= ' ' || c == 0x7f || c == '<' || c == '>' {
			return false
		}
	}
	return true
}

// validSRSDomain also refuses "@" and the field separator, which would make
// the rewritten address parse differently on its way back.
func validSRSDomain(domain string) bool {
	return domain != "" && validSRSLocal(domain) && !strings.ContainsAny(domain, "@=")
}

// sameDomain compares domains in any case, with or without the root's dot.
func sameDomain(a, b string) bool {
	return strings.EqualFold(strings.TrimSuffix(a, "."), strings.TrimSuffix(b, "."))
}

// asciiLower works byte by byte: strings.ToLower would fold non-ASCII
// letters and replace invalid UTF-8, and hash other bytes than libsrs2.
func asciiLower(s string) []byte {
	lower := []byte(s)
	for i, c := range lower {
		if 'A' <= c && c <= 'Z' {
			lower[i] = c + ('a' - 'A')
		}
	}
	return lower
}

func asciiUpper(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}
