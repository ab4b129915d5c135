// Package notify sends Nameport's mail: receipts, renewal and expiry notices
// and password reset links. Business code calls Enqueue inside its own
// transaction, so a message exists exactly when the change it reports
// commits; SendWorker (a River job) renders it, sends it by SMTP when a
// server is configured, and records every message in the mail_outbox table,
// which admins can read (and which is the whole mailbox in development).
package notify

import (
	"context"
	"errors"
	"fmt"
	"net/mail"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/riverqueue/river"

	"github.com/nameport/nameport/internal/db"
)

// Kinds of message, and the Data keys each one reads. Amounts ("amount",
// "balance") are integer cents written in decimal (see Cents); times
// ("expiresAt", "graceEndsAt") are RFC 3339 (see Time). Keys marked
// optional may be left out.
const (
	// KindRegistrationReceipt: domain, amount, expiresAt; optional years
	// (default 1), balance (the wallet after paying).
	KindRegistrationReceipt = "registration_receipt"
	// KindDepositReceipt: amount, balance; optional method (e.g. "card").
	KindDepositReceipt = "deposit_receipt"
	// KindRenewalSucceeded: domain, amount, expiresAt (the new expiry);
	// optional balance.
	KindRenewalSucceeded = "renewal_succeeded"
	// KindRenewalFailed: domain, amount (the renewal price), expiresAt;
	// optional balance, graceEndsAt, reason (a sentence saying why).
	KindRenewalFailed = "renewal_failed"
	// KindExpiryWarning: domain, days (until expiry), expiresAt; optional
	// amount (the renewal price).
	KindExpiryWarning = "expiry_warning"
	// KindDomainExpired: domain, expiresAt, graceEndsAt.
	KindDomainExpired = "domain_expired"
	// KindDomainReleased: domain.
	KindDomainReleased = "domain_released"
	// KindPasswordReset: resetId (which reset; the link itself is made at
	// send time by the kind's SecretFunc, see Options.Secrets).
	KindPasswordReset = "password_reset"
	// KindVerifyEmail: verificationId (which verification; the link is made
	// at send time, like a password reset's).
	KindVerifyEmail = "verify_email"
	// KindVerifyForwarding: destinationId (which forwarding destination; the
	// link is made at send time), address (the destination, which must be
	// Message.To), domain (whose forwarding rule named it). It goes to
	// someone who may not be the account holder, so it names no one.
	KindVerifyForwarding = "verify_forwarding"
	// KindTierApproved: tier (the registrar tier granted).
	KindTierApproved = "tier_approved"
	// KindTierDeclined: tier (the tier applied for), currentTier; optional
	// reason (the admin's words).
	KindTierDeclined = "tier_declined"
	// KindTwoFactorEnabled and KindTwoFactorDisabled: a security notice of
	// a change to the account's two-factor sign-in; optional method (e.g.
	// "authenticator app").
	KindTwoFactorEnabled  = "two_factor_enabled"
	KindTwoFactorDisabled = "two_factor_disabled"
	// KindPasskeyAdded and KindPasskeyRemoved: a security notice of a
	// passkey added to or removed from the account; name (the passkey's).
	KindPasskeyAdded   = "passkey_added"
	KindPasskeyRemoved = "passkey_removed"
	// KindNewSignIn: a security notice of a sign-in from a browser the
	// account had not signed in from; at (time), address, browser.
	KindNewSignIn = "new_sign_in"
	// KindAPIKeyCreated: a security notice of a new API key; name,
	// prefix (the key's visible start), scopes.
	KindAPIKeyCreated = "api_key_created"
	// KindContactReceived: a visitor's contact request or message, to the
	// site's contact address (Message.To; UserID the admin whose address it
	// is, or 0): id, form ("request" or "message"), name, email; optional
	// topic (the interest or subject), message.
	KindContactReceived = "contact_received"
	// KindContactReply: an admin's answer to a contact request or message,
	// to its sender (Message.To, UserID 0): reply; optional topic, message
	// (what the sender wrote, quoted).
	KindContactReply = "contact_reply"
)

// requiredData lists the Data keys each kind cannot do without.
var requiredData = map[string][]string{
	KindRegistrationReceipt: {"domain", "amount", "expiresAt"},
	KindDepositReceipt:      {"amount", "balance"},
	KindRenewalSucceeded:    {"domain", "amount", "expiresAt"},
	KindRenewalFailed:       {"domain", "amount", "expiresAt"},
	KindExpiryWarning:       {"domain", "days", "expiresAt"},
	KindDomainExpired:       {"domain", "expiresAt", "graceEndsAt"},
	KindDomainReleased:      {"domain"},
	KindPasswordReset:       {"resetId"},
	KindVerifyEmail:         {"verificationId"},
	KindVerifyForwarding:    {"destinationId", "address", "domain"},
	KindTierApproved:        {"tier"},
	KindTierDeclined:        {"tier", "currentTier"},
	KindTwoFactorEnabled:    {},
	KindTwoFactorDisabled:   {},
	KindPasskeyAdded:        {"name"},
	KindPasskeyRemoved:      {"name"},
	KindNewSignIn:           {"at", "address", "browser"},
	KindAPIKeyCreated:       {"name"},
	KindContactReceived:     {"id", "form", "name", "email"},
	KindContactReply:        {"reply"},
}

// secretKinds are the kinds whose mail carries something that grants access
// (a link with a token). Their job arguments hold only an id; the secret is
// made when the mail is sent, by the SecretFunc the owning service gives
// (Options.Secrets), so neither the job table, River UI, the jobs API nor a
// backup of the database can open an account.
var secretKinds = map[string]bool{KindPasswordReset: true, KindVerifyEmail: true, KindVerifyForwarding: true}

// strangerKinds go to an address whose owner may not be the account holder
// (Message.To): they greet no one by name and put no name beside the
// address, so the mail tells a stranger nothing about the account.
var strangerKinds = map[string]bool{KindVerifyForwarding: true, KindContactReceived: true, KindContactReply: true}

// addressKinds go to Message.To, which they need, and may belong to no
// account (UserID 0): the contact form's sender has none, and the site's
// contact address need not be an account's.
var addressKinds = map[string]bool{KindContactReceived: true, KindContactReply: true}

// secretData are Data keys that grant access (a link with a token). They
// never enter job arguments (Enqueue refuses them), and when the mail really
// goes out by SMTP, the outbox keeps the message with them removed, so
// reading the outbox never lets anyone into an account either.
var secretData = []string{"link"}

// SecretFunc returns, at send time, the secret Data of a message of a secret
// kind (e.g. "link"), from the Data stored in its job. It returns
// ErrObsolete when the message should no longer be sent (its token is gone).
type SecretFunc func(ctx context.Context, userID int64, data map[string]string) (map[string]string, error)

// ErrObsolete, from a SecretFunc, cancels the mail: what it would carry no
// longer works.
var ErrObsolete = errors.New("notify: the message is obsolete")

// Message is one mail to one account.
type Message struct {
	UserID int64
	Kind   string
	Data   map[string]string
	// To, when set, the mail goes to this address instead of the account's;
	// the account is still whose it is (outbox, name in the greeting).
	To string
}

// Cents writes an amount of cents for Message.Data.
func Cents(cents int64) string { return strconv.FormatInt(cents, 10) }

// Time writes a time for Message.Data.
func Time(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// Func sends a message inside the transaction of what it reports: Enqueue,
// or a test's own recorder. Services hold one; nil sends nothing.
type Func func(ctx context.Context, tx *db.Tx, m Message) error

// Enqueue schedules m inside tx: the mail is sent only if tx commits. It
// fails for an unknown kind or missing Data, which are programming errors.
func Enqueue(ctx context.Context, tx *db.Tx, m Message) error {
	if err := m.check(); err != nil {
		return err
	}
	return tx.Enqueue(ctx, SendArgs{UserID: m.UserID, Template: m.Kind, Data: m.Data, To: m.To}, nil)
}

func (m Message) check() error {
	required, ok := requiredData[m.Kind]
	if !ok {
		return fmt.Errorf("notify: unknown message kind %q", m.Kind)
	}
	if addressKinds[m.Kind] {
		if m.To == "" || m.UserID < 0 {
			return fmt.Errorf("notify: %s message without an address", m.Kind)
		}
	} else if m.UserID <= 0 {
		return fmt.Errorf("notify: %s message without a user", m.Kind)
	}
	for _, key := range required {
		if m.Data[key] == "" {
			return fmt.Errorf("notify: %s message without %s", m.Kind, key)
		}
	}
	for _, key := range secretData {
		if _, ok := m.Data[key]; ok {
			return fmt.Errorf("notify: %s message with %s: secrets never go into job arguments", m.Kind, key)
		}
	}
	if m.To != "" {
		// A bare address, exactly (equal to what parses from it: no display
		// name, no comment, no line break): To becomes an SMTP recipient and
		// a header, where anything more could add recipients.
		if a, err := mail.ParseAddress(m.To); err != nil || a.Address != m.To {
			return fmt.Errorf("notify: %s message to %q: not a bare email address", m.Kind, m.To)
		}
	}
	// The forwarding link must reach the destination it confirms: sent to the
	// account, it would let the account holder confirm someone else's address.
	if m.Kind == KindVerifyForwarding && !strings.EqualFold(m.To, m.Data["address"]) {
		return fmt.Errorf("notify: %s message must go to its address %q, not %q", m.Kind, m.Data["address"], m.To)
	}
	return nil
}

// SendArgs is the job of sending one Message.
type SendArgs struct {
	UserID int64 `json:"userId"`
	// Template is the Message kind (Kind is taken by the job kind).
	Template string            `json:"kind"`
	Data     map[string]string `json:"data,omitempty"`
	// To is Message.To.
	To string `json:"to,omitempty"`
}

// Kind identifies the job.
func (SendArgs) Kind() string { return "notify.send" }

// InsertOpts: a mail server that is down for a while gets a few retries with
// River's growing back-off (about an hour and a half in all).
func (SendArgs) InsertOpts() river.InsertOpts { return river.InsertOpts{MaxAttempts: 8} }

// knownKinds lists the message kinds in a stable order.
func knownKinds() []string {
	kinds := make([]string, 0, len(requiredData))
	for k := range requiredData {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	return kinds
}
