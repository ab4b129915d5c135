package account

import (
	"fmt"
	"net/mail"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/nameport/nameport/internal/apperr"
)

// Limits of account fields, and the messages that refuse them: the
// minimums and their messages are the spec's (section 5); the maximums keep
// hashing and storage bounded. Lengths count characters. GET /api/rules
// publishes them, so that forms check as the user types.
const (
	MinUsername = 3
	MaxUsername = 32
	MinPassword = 6
	MaxPassword = 128
	MinFullName = 2
	MaxFullName = 100
	maxEmail    = 254
	// UsernamePattern is the characters a new username may have, as an
	// ECMAScript/RE2 pattern (validateUsername checks the same).
	UsernamePattern = `^[A-Za-z0-9._-]+$`
)

// The messages of the account field rules.
var (
	UsernameTooShort   = fmt.Sprintf("Username must be at least %d characters", MinUsername)
	UsernameTooLong    = fmt.Sprintf("Username must be at most %d characters", MaxUsername)
	UsernameCharacters = "Username can only contain letters, numbers, dots, hyphens and underscores"
	PasswordTooShort   = fmt.Sprintf("Password must be at least %d characters", MinPassword)
	PasswordTooLong    = fmt.Sprintf("Password must be at most %d characters", MaxPassword)
	FullNameRequired   = "Full name is required"
	FullNameTooLong    = fmt.Sprintf("Full name must be at most %d characters", MaxFullName)
	EmailInvalid       = "Invalid email address"
	PasswordsMismatch  = "Passwords do not match"
)

func invalid(msg string) error { return apperr.New(apperr.Invalid, "%s", msg) }

func validateUsername(username string) error {
	n := utf8.RuneCountInString(username)
	switch {
	case n < MinUsername:
		return invalid(UsernameTooShort)
	case n > MaxUsername:
		return invalid(UsernameTooLong)
	}
	for _, r := range username {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' || r == '_') {
			return invalid(UsernameCharacters)
		}
	}
	return nil
}

func validatePassword(password string) error {
	n := utf8.RuneCountInString(password)
	switch {
	case n < MinPassword:
		return invalid(PasswordTooShort)
	case n > MaxPassword:
		return invalid(PasswordTooLong)
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
		return invalid(EmailInvalid)
	}
	addr, err := mail.ParseAddress(email)
	if err != nil || addr.Address != email || len(email) > maxEmail {
		return invalid(EmailInvalid)
	}
	_, domain, _ := strings.Cut(email, "@")
	if !strings.Contains(domain, ".") || strings.HasPrefix(domain, ".") || strings.HasSuffix(domain, ".") {
		return invalid(EmailInvalid)
	}
	return nil
}

// validateSignUp checks the fields in the order the form shows them and
// returns the first problem.
func validateSignUp(in SignUp) error {
	if hasControl(in.FullName) {
		return invalid("Full name cannot contain line breaks or control characters")
	}
	if n := utf8.RuneCountInString(in.FullName); n < MinFullName {
		return invalid(FullNameRequired)
	} else if n > MaxFullName {
		return invalid(FullNameTooLong)
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
		return invalid(PasswordsMismatch)
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
