// Package domainname holds the rules for the labels people register under an
// extension ("example" in example.inf.nz). The messages are the product's
// own words, fit to show a user.
package domainname

import "strings"

// MaxLabel is the longest label DNS allows (RFC 1035).
const MaxLabel = 63

// Problem is why a label was refused.
type Problem string

func (p Problem) Error() string { return string(p) }

// The problems CheckLabel reports.
const (
	Required   Problem = "Domain name is required"
	Characters Problem = "Domain name can only contain letters, numbers, and hyphens. It cannot start or end with a hyphen or contain consecutive hyphens."
	TooLong    Problem = "Domain name must be at most 63 characters"
)

// CheckLabel reports whether label is a registrable label: 1 to 63 letters,
// digits and hyphens, neither starting nor ending with a hyphen. (The
// product's message also names consecutive hyphens, but its rule, which this
// follows, allows them.)
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
	return nil
}

// Normalize returns the stored form of a label: trimmed and lower case.
func Normalize(label string) string { return strings.ToLower(strings.TrimSpace(label)) }
