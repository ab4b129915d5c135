// Package domainname holds the rules for the labels people register under an
// extension ("example" in example.inf.nz). The messages are the product's
// own words, fit to show a user.
package domainname

import (
	"strings"
	"unicode"

	"golang.org/x/net/idna"
)

// MaxLabel is the longest label DNS allows (RFC 1035).
const MaxLabel = 63

// Pattern is the shape CheckLabel's character rule accepts (letters, digits
// and hyphens, no hyphen first or last), for clients that check as the user
// types; CheckLabel alone decides, with the checks of internationalized
// labels on top.
const Pattern = `^[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?$`

// Problem is why a label was refused.
type Problem string

func (p Problem) Error() string { return string(p) }

// The problems CheckLabel reports.
const (
	Required   Problem = "Domain name is required"
	Characters Problem = "Domain name can only contain letters, numbers, and hyphens. It cannot start or end with a hyphen or contain consecutive hyphens."
	TooLong    Problem = "Domain name must be at most 63 characters"
	// Punycode: an xn-- label that is not a valid internationalized name
	// (IDNA 2008 / UTS 46): it does not decode, decodes to characters a
	// name may not hold, or does not encode back to itself.
	Punycode Problem = "Domain name starting with xn-- must be a valid internationalized domain name"
	// MixedScripts: an internationalized name that mixes scripts (Latin
	// with Cyrillic…), or is made only of letters that imitate Latin ones,
	// the stuff of look-alike names.
	MixedScripts Problem = "Domain name cannot mix letters of different scripts or imitate Latin letters"
)

// CheckLabel reports whether label is a registrable label: 1 to 63 letters,
// digits and hyphens, neither starting nor ending with a hyphen, with
// hyphens in both the third and fourth places only in a valid
// internationalized label (xn--, RFC 5891 section 4.2.3.1). An xn-- label
// must be valid under IDNA 2008 / UTS 46 (it decodes and encodes back to
// itself) and its letters must come from one script (or one of the usual
// Chinese, Japanese and Korean mixes) without imitating Latin letters
// wholesale. (The product's message also names consecutive hyphens; its
// rule, which this follows, allows them elsewhere: "a--b".)
func CheckLabel(label string) error {
	switch {
	case label == "":
		return Required
	case len(label) > MaxLabel:
		return TooLong
	case label[0] == '-' || label[len(label)-1] == '-':
		return Characters
	}
	for i := 0; i < len(label); i++ {
		c := label[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
			return Characters
		}
	}
	if len(label) >= 4 && label[2] == '-' && label[3] == '-' {
		if !strings.EqualFold(label[:2], "xn") {
			return Characters // reserved for other encodings (RFC 5891)
		}
		return checkALabel(strings.ToLower(label))
	}
	return nil
}

// checkALabel checks an internationalized label in its ASCII form.
func checkALabel(label string) error {
	u, err := idna.Registration.ToUnicode(label)
	if err != nil || u == label {
		return Punycode
	}
	if back, err := idna.Registration.ToASCII(u); err != nil || back != label {
		return Punycode
	}
	if !oneScript(u) || imitatesLatin(u) {
		return MixedScripts
	}
	return nil
}

// scriptMixes are the sets of scripts one label may combine (UTS 39's
// "highly restrictive" level); any other label keeps to one script.
var scriptMixes = [][]string{
	{"Latin", "Han", "Hiragana", "Katakana"},
	{"Latin", "Han", "Bopomofo"},
	{"Latin", "Han", "Hangul"},
}

// oneScript reports whether the letters of u keep to one script or one of
// scriptMixes. Common (digits, hyphen) and Inherited (combining marks)
// characters go with any script.
func oneScript(u string) bool {
	seen := map[string]bool{}
	for _, r := range u {
		if unicode.Is(unicode.Common, r) || unicode.Is(unicode.Inherited, r) {
			continue
		}
		for name, table := range unicode.Scripts {
			if unicode.Is(table, r) {
				seen[name] = true
				break
			}
		}
	}
	if len(seen) <= 1 {
		return true
	}
next:
	for _, mix := range scriptMixes {
		for name := range seen {
			if !contains(mix, name) {
				continue next
			}
		}
		return true
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// latinLookalikes are Cyrillic and Greek small letters that read as Latin
// ones (from Unicode's confusables): a name written only with them (and
// digits and hyphens), such as Cyrillic "аррӏе", passes for a Latin name.
var latinLookalikes = map[rune]bool{
	'а': true, 'е': true, 'о': true, 'р': true, 'с': true, 'у': true, 'х': true, 'к': true, 'ѕ': true,
	'і': true, 'ј': true, 'ԁ': true, 'ԛ': true, 'ԝ': true, 'ӏ': true, 'һ': true, 'ү': true, 'ь': true,
	'α': true, 'ο': true, 'ν': true, 'ρ': true, 'ι': true, 'κ': true, 'υ': true, 'χ': true,
}

// imitatesLatin reports whether every letter of u (a non-Latin label) looks
// like a Latin letter.
func imitatesLatin(u string) bool {
	letters := 0
	for _, r := range u {
		if !unicode.IsLetter(r) {
			continue
		}
		if unicode.Is(unicode.Latin, r) || !latinLookalikes[r] {
			return false
		}
		letters++
	}
	return letters > 0
}

// Normalize returns the stored form of a label: trimmed and lower case.
func Normalize(label string) string { return strings.ToLower(strings.TrimSpace(label)) }
