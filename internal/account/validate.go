package account

import (
	"net/mail"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/nameport/nameport/internal/apperr"
)

// Limits of sign-up fields. The minimums and their messages are the spec's
// (section 5); the maximums keep hashing and storage bounded.
const (
	minUsername = 3
	maxUsername = 32
	minPassword = 6
	maxPassword = 128
	minFullName = 2
	maxFullName = 100
	maxEmail    = 254
)

func invalid(msg string) error { return apperr.New(apperr.Invalid, "%s", msg) }

func validateUsername(username string) error {
	n := utf8.RuneCountInString(username)
	switch {
	case n < minUsername:
		return invalid("Username must be at least 3 characters")
	case n > maxUsername:
		return invalid("Username must be at most 32 characters")
	}
	for _, r := range username {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' || r == '_') {
			return invalid("Username can only contain letters, numbers, dots, hyphens and underscores")
		}
	}
	return nil
}

func validatePassword(password string) error {
	n := utf8.RuneCountInString(password)
	switch {
	case n < minPassword:
		return invalid("Password must be at least 6 characters")
	case n > maxPassword:
		return invalid("Password must be at most 128 characters")
	}
	return nil
}

// hasControl reports whether s holds a control character (CR, LF, tab,
// NUL…), a line or paragraph separator, or invalid UTF-8: none belongs in a
// name or an address, and in a mail header or body a line break lets the
// text pose as something the platform wrote.
func hasControl(s string) bool {
	if !utf8.ValidString(s) {
		return true
	}
	for _, r := range s {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || unicode.Is(unicode.Cf, r) && r != '\u200d' {
			return true
		}
	}
	return false
}

func validateEmail(email string) error {
	if hasControl(email) {
		return invalid("Invalid email address")
	}
	addr, err := mail.ParseAddress(email)
	if err != nil || addr.Address != email || len(email) > maxEmail {
		return invalid("Invalid email address")
	}
	_, domain, _ := strings.Cut(email, "@")
	if !strings.Contains(domain, ".") || strings.HasPrefix(domain, ".") || strings.HasSuffix(domain, ".") {
		return invalid("Invalid email address")
	}
	return nil
}

// validateSignUp checks the fields in the order the form shows them and
// returns the first problem.
func validateSignUp(in SignUp) error {
	if hasControl(in.FullName) {
		return invalid("Full name cannot contain line breaks or control characters")
	}
	if n := utf8.RuneCountInString(in.FullName); n < minFullName {
		return invalid("Full name is required")
	} else if n > maxFullName {
		return invalid("Full name must be at most 100 characters")
	}
	if err := validateUsername(in.Username); err != nil {
		return err
	}
	if err := validateEmail(in.Email); err != nil {
		return err
	}
	if err := validatePassword(in.Password); err != nil {
		return err
	}
	if in.Password != in.ConfirmPassword {
		return invalid("Passwords do not match")
	}
	if in.UserType != TypeUser && in.UserType != TypeRegistrar {
		return invalid("Account type must be user or registrar")
	}
	// An end user's tier is ignored, but a wrong one is still refused: it
	// is a mistake, not something to store or drop silently.
	switch in.Tier {
	case "", TierBasic, TierPremium, TierEnterprise:
	default:
		return invalid("Tier must be basic, premium or enterprise")
	}
	return nil
}
