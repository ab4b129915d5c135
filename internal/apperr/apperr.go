// Package apperr is the error type that services return: a machine-readable
// code and a message fit to show a user. Errors without a code are internal:
// logged with their cause, never shown.
package apperr

import (
	"errors"
	"fmt"
	"time"
)

// Codes of application errors.
const (
	Invalid           = "invalid"
	Unauthenticated   = "unauthenticated"
	Forbidden         = "forbidden"
	NotFound          = "not_found"
	Conflict          = "conflict"
	TooManyRequests   = "too_many_requests"
	InsufficientFunds = "insufficient_funds"
	// AllowanceExhausted: a registrar has made all the new registrations
	// its tier allows this month.
	AllowanceExhausted = "allowance_exhausted"
	// Unavailable: a service we depend on (the payment provider) cannot
	// serve now; trying again later may work.
	Unavailable = "unavailable"
	// TwoFactorSetupRequired: an admin that must set up two-factor
	// sign-in (an authenticator app or a passkey) before admin operations.
	TwoFactorSetupRequired = "two_factor_setup_required"
	Internal               = "internal"
)

// Error is an application error.
type Error struct {
	Code    string
	Message string
	// RetryAfter tells a throttled client when to try again.
	RetryAfter time.Duration
	// Shortfall is the money an insufficient_funds error is about; nil
	// for other errors.
	Shortfall *Shortfall
	// SetTTL is, for an invalid DNS record whose TTL differs from the other
	// records of its name and type, the TTL of those (the lowest, if they
	// differ too); 0 for other errors.
	SetTTL int
	// Field names the input field an invalid error is about ("name",
	// "content"...), so a form can show the message beside it; empty when
	// the error is about the request as a whole.
	Field string
}

// Shortfall is what a payment from the wallet lacked, in cents.
type Shortfall struct {
	// NeededCents is the amount missing: what to add to the wallet.
	NeededCents int64
	// BalanceCents is the wallet's balance when the payment failed.
	BalanceCents int64
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// New returns an error with code and a user-facing message.
func New(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Code returns the code of err, or Internal when it carries none.
func Code(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return Internal
}

// ShortfallOf returns the shortfall err carries, or nil.
func ShortfallOf(err error) *Shortfall {
	var e *Error
	if errors.As(err, &e) {
		return e.Shortfall
	}
	return nil
}

// OnField returns err about input field, unless it names a field already;
// errors that are not application errors are returned as they are. The
// error is copied: services keep some errors in package variables.
func OnField(err error, field string) error {
	var e *Error
	if !errors.As(err, &e) || e.Field != "" {
		return err
	}
	withField := *e
	withField.Field = field
	return &withField
}

// WithoutField returns err no longer about a field: for a caller whose
// input has other fields than the ones its service named.
func WithoutField(err error) error {
	var e *Error
	if !errors.As(err, &e) || e.Field == "" {
		return err
	}
	general := *e
	general.Field = ""
	return &general
}

// FieldOf returns the input field err is about, or "".
func FieldOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Field
	}
	return ""
}

// SetTTLOf returns the record set's TTL err carries, or 0.
func SetTTLOf(err error) int {
	var e *Error
	if errors.As(err, &e) {
		return e.SetTTL
	}
	return 0
}

// Message returns the user-facing message of err, or a generic one for
// internal errors, whose text may hold details users must not see.
func Message(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return "An unexpected error occurred"
}
