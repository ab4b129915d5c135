package account

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"
	"github.com/uptrace/bun"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/audit"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/notify"
)

// Passkeys (WebAuthn, through go-webauthn). An account may have several;
// each one signs in alone (a discoverable credential: the browser offers
// the site's passkeys, the passkey names the account) or is the second
// step after a right password, beside the authenticator app.
//
// A ceremony's state (the challenge, and what the library needs to check
// the browser's answer) stays on the server, in webauthn_ceremonies, found
// by the hash of a token the browser gets with the options. The answer
// takes the row (one conditional delete), so a challenge is good once, and
// the row dies at passkeyCeremonyTTL whatever the library says.
//
// The relying party is the site's public address (--public-url): its host
// is the RP ID and its origin the only origin answers may come from.
const (
	MethodPasskey = "passkey"

	passkeyCeremonyTTL = 5 * time.Minute
	maxPasskeyName     = 64
	maxPasskeys        = 20

	ceremonyRegister     = "register"
	ceremonyLogin        = "login"
	ceremonySecondFactor = "second_factor"
)

type passkey struct {
	bun.BaseModel `bun:"table:passkeys"`

	ID           int64     `bun:"id,pk,autoincrement"`
	UserID       int64     `bun:"user_id"`
	CredentialID string    `bun:"credential_id"`
	Name         string    `bun:"name"`
	Credential   string    `bun:"credential"`
	SignCount    int64     `bun:"sign_count"`
	CreatedAt    time.Time `bun:"created_at"`
	LastUsedAt   time.Time `bun:"last_used_at,nullzero"`
}

type ceremony struct {
	bun.BaseModel `bun:"table:webauthn_ceremonies"`

	TokenHash string    `bun:"token_hash,pk"`
	Kind      string    `bun:"kind"`
	UserID    int64     `bun:"user_id,nullzero"`
	Session   string    `bun:"session"`
	CreatedAt time.Time `bun:"created_at"`
	ExpiresAt time.Time `bun:"expires_at"`
}

// Passkey is one of an account's passkeys as its owner sees it.
type Passkey struct {
	ID         int64
	Name       string
	CreatedAt  time.Time
	LastUsedAt time.Time
}

var (
	errCeremonyGone   = apperr.New(apperr.Invalid, "This passkey request has expired or was used already: please try again")
	errPasskeyMissing = apperr.New(apperr.NotFound, "Passkey not found")
	errPasskeyFailed  = apperr.New(apperr.Unauthenticated, "This passkey could not sign you in")
	errPasskeyTaken   = apperr.New(apperr.Conflict, "This passkey is registered already")
)

// newRelyingParty returns the WebAuthn relying party of the site at
// publicURL, or why there is none: browsers take a domain name as RP ID,
// never an IP address.
func newRelyingParty(publicURL string) (*webauthn.WebAuthn, error) {
	u, err := url.Parse(publicURL)
	if err != nil || u.Hostname() == "" {
		return nil, fmt.Errorf("the site's public address (--public-url) %q has no host name", publicURL)
	}
	if net.ParseIP(u.Hostname()) != nil {
		return nil, fmt.Errorf("the site's public address (--public-url) %q is an IP address; passkeys need a domain name such as localhost", publicURL)
	}
	return webauthn.New(&webauthn.Config{
		RPID: u.Hostname(), RPDisplayName: "Nameport", RPOrigins: []string{u.Scheme + "://" + u.Host},
		Timeouts: webauthn.TimeoutsConfig{
			Login:        webauthn.TimeoutConfig{Enforce: false, Timeout: passkeyCeremonyTTL},
			Registration: webauthn.TimeoutConfig{Enforce: false, Timeout: passkeyCeremonyTTL},
		},
	})
}

// relyingParty returns the site's relying party, or a conflict saying why
// passkeys are off.
func (s *Service) relyingParty() (*webauthn.WebAuthn, error) {
	if s.webauthn == nil {
		return nil, apperr.New(apperr.Conflict, "Passkeys are not available on this site: %s", s.webauthnOff)
	}
	return s.webauthn, nil
}

// webauthnUser is an account with its passkeys, as the library sees it.
type webauthnUser struct {
	u      *User
	handle []byte
	creds  []webauthn.Credential
	rows   []passkey
}

func (w *webauthnUser) WebAuthnID() []byte                         { return w.handle }
func (w *webauthnUser) WebAuthnName() string                       { return w.u.Username }
func (w *webauthnUser) WebAuthnDisplayName() string                { return w.u.Username }
func (w *webauthnUser) WebAuthnCredentials() []webauthn.Credential { return w.creds }

// userHandle is u's WebAuthn user handle: a keyed hash of its id, so that
// it says nothing about the account and needs no column of its own.
func (s *Service) userHandle(userID int64) []byte {
	h, _ := hex.DecodeString(s.twoFactor.Hash("webauthn-user:" + strconv.FormatInt(userID, 10)))
	return h
}

// loadWebAuthnUser returns u with its passkeys.
func (s *Service) loadWebAuthnUser(ctx context.Context, idb bun.IDB, u *User) (*webauthnUser, error) {
	w := &webauthnUser{u: u, handle: s.userHandle(u.ID)}
	if err := idb.NewSelect().Model(&w.rows).Where("user_id = ?", u.ID).OrderExpr("id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("account: passkeys of %s: %w", u.Username, err)
	}
	for _, row := range w.rows {
		var c webauthn.Credential
		if err := json.Unmarshal([]byte(row.Credential), &c); err != nil {
			return nil, fmt.Errorf("account: passkey %d: %w", row.ID, err)
		}
		c.Authenticator.SignCount = uint32(row.SignCount)
		w.creds = append(w.creds, c)
	}
	return w, nil
}

// hasPasskey reports whether userID has a passkey.
func hasPasskey(ctx context.Context, idb bun.IDB, userID int64) (bool, error) {
	ok, err := idb.NewSelect().Model((*passkey)(nil)).Where("user_id = ?", userID).Exists(ctx)
	if err != nil {
		return false, fmt.Errorf("account: passkeys of %d: %w", userID, err)
	}
	return ok, nil
}

// Passkeys returns u's passkeys, oldest first.
func (s *Service) Passkeys(ctx context.Context, u *User) ([]Passkey, error) {
	var rows []passkey
	if err := s.db.Bun.NewSelect().Model(&rows).Column("id", "name", "created_at", "last_used_at").
		Where("user_id = ?", u.ID).OrderExpr("id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("account: passkeys of %s: %w", u.Username, err)
	}
	out := make([]Passkey, len(rows))
	for i, r := range rows {
		out[i] = Passkey{ID: r.ID, Name: r.Name, CreatedAt: r.CreatedAt, LastUsedAt: r.LastUsedAt}
	}
	return out, nil
}

// PasskeyCeremony is what the browser needs for navigator.credentials:
// Options is the JSON of the library's options ({"publicKey": …}); Token
// names the ceremony when the browser answers.
type PasskeyCeremony struct {
	Options json.RawMessage
	Token   string
}

// startCeremony stores session for the answer and returns the ceremony.
// key, when set, is the token hash to store it under (a second factor's
// ceremony is the pending sign-in's); otherwise a new token is made.
func (s *Service) startCeremony(ctx context.Context, kind string, userID int64, options any, session *webauthn.SessionData, key string) (*PasskeyCeremony, error) {
	opts, err := json.Marshal(options)
	if err != nil {
		return nil, fmt.Errorf("account: passkey options: %w", err)
	}
	state, err := json.Marshal(session)
	if err != nil {
		return nil, fmt.Errorf("account: passkey ceremony: %w", err)
	}
	token := ""
	if key == "" {
		raw := make([]byte, 32)
		if _, err := rand.Read(raw); err != nil {
			return nil, fmt.Errorf("account: ceremony token: %w", err)
		}
		token = base64.RawURLEncoding.EncodeToString(raw)
		key = hashToken(token)
	}
	now := s.clock()
	row := &ceremony{TokenHash: key, Kind: kind, UserID: userID, Session: string(state), CreatedAt: now, ExpiresAt: now.Add(passkeyCeremonyTTL)}
	err = s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		// Ceremonies nobody answered go with the next one that starts.
		if _, err := tx.NewDelete().Model((*ceremony)(nil)).Where("expires_at <= ? OR token_hash = ?", now, key).Exec(ctx); err != nil {
			return err
		}
		_, err := tx.NewInsert().Model(row).Exec(ctx)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("account: store passkey ceremony: %w", err)
	}
	return &PasskeyCeremony{Options: opts, Token: token}, nil
}

// takeCeremony removes and returns the live ceremony of kind stored under
// key, so that its challenge serves one answer only. Returns errCeremonyGone
// for none, another kind, or an expired one.
func (s *Service) takeCeremony(ctx context.Context, key, kind string) (*ceremony, *webauthn.SessionData, error) {
	row := new(ceremony)
	err := s.db.Bun.NewSelect().Model(row).Where("token_hash = ?", key).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, errCeremonyGone
	}
	if err != nil {
		return nil, nil, fmt.Errorf("account: passkey ceremony: %w", err)
	}
	res, err := s.db.Bun.NewDelete().Model((*ceremony)(nil)).Where("token_hash = ?", key).Exec(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("account: take passkey ceremony: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 || row.Kind != kind || !s.clock().Before(row.ExpiresAt) {
		return nil, nil, errCeremonyGone // another answer took it first, or it is not this step's
	}
	session := new(webauthn.SessionData)
	if err := json.Unmarshal([]byte(row.Session), session); err != nil {
		return nil, nil, fmt.Errorf("account: passkey ceremony: %w", err)
	}
	// Our row's expiry (on the service's clock) is the one that counts.
	session.Expires = time.Time{}
	return row, session, nil
}

// ceremonyKey returns the hash a browser's ceremony token is stored
// under; errCeremonyGone for one that cannot be a token.
func ceremonyKey(token string) (string, error) {
	token = strings.TrimSpace(token)
	if token == "" || len(token) > 100 {
		return "", errCeremonyGone
	}
	return hashToken(token), nil
}

// BeginPasskeyRegistration starts adding a passkey to u: the options ask
// for a discoverable credential (it may sign in alone) and exclude u's
// passkeys. Conflict when passkeys are off or u has maxPasskeys.
func (s *Service) BeginPasskeyRegistration(ctx context.Context, u *User) (*PasskeyCeremony, error) {
	rp, err := s.relyingParty()
	if err != nil {
		return nil, err
	}
	w, err := s.loadWebAuthnUser(ctx, s.db.Bun, u)
	if err != nil {
		return nil, err
	}
	if len(w.creds) >= maxPasskeys {
		return nil, apperr.New(apperr.Conflict, "An account may have %d passkeys: remove one first", maxPasskeys)
	}
	creation, session, err := rp.BeginRegistration(w,
		webauthn.WithResidentKeyRequirement(protocol.ResidentKeyRequirementRequired),
		webauthn.WithExclusions(webauthn.Credentials(w.creds).CredentialDescriptors()),
		webauthn.WithConveyancePreference(protocol.PreferNoAttestation))
	if err != nil {
		return nil, fmt.Errorf("account: begin passkey registration: %w", err)
	}
	return s.startCeremony(ctx, ceremonyRegister, u.ID, creation, session, "")
}

// normalizePasskeyName trims name; a missing name becomes "Passkey".
func normalizePasskeyName(name string) (string, error) {
	name = strings.Join(strings.Fields(name), " ")
	switch {
	case name == "":
		return "Passkey", nil
	case utf8.RuneCountInString(name) > maxPasskeyName:
		return "", apperr.New(apperr.Invalid, "A passkey's name has at most %d characters", maxPasskeyName)
	}
	return name, nil
}

// webauthnRefusal is a clear message for the library's refusal of an
// answer: its words for what was wrong, never a server error.
func webauthnRefusal(prefix string, err error) error {
	var pe *protocol.Error
	if errors.As(err, &pe) && pe.Details != "" {
		return apperr.New(apperr.Invalid, "%s: %s", prefix, pe.Details)
	}
	return apperr.New(apperr.Invalid, "%s: %v", prefix, err)
}

// FinishPasskeyRegistration adds the passkey of the browser's answer
// (response, the JSON of a PublicKeyCredential) to u, named name, for
// the ceremony of token; it ends u's other sessions (keepToken's stays),
// as turning the authenticator app on or off does. Returns invalid for an
// expired, used or foreign ceremony, a malformed or wrong answer or a bad
// name, conflict for a passkey registered already.
func (s *Service) FinishPasskeyRegistration(ctx context.Context, u *User, token, name string, response []byte, keepToken string) (*Passkey, error) {
	rp, err := s.relyingParty()
	if err != nil {
		return nil, err
	}
	if name, err = normalizePasskeyName(name); err != nil {
		return nil, err
	}
	key, err := ceremonyKey(token)
	if err != nil {
		return nil, err
	}
	parsed, err := protocol.ParseCredentialCreationResponseBytes(response)
	if err != nil {
		return nil, webauthnRefusal("The passkey's answer is not valid", err)
	}
	row, session, err := s.takeCeremony(ctx, key, ceremonyRegister)
	if err != nil {
		return nil, err
	}
	if row.UserID != u.ID {
		return nil, errCeremonyGone
	}
	w, err := s.loadWebAuthnUser(ctx, s.db.Bun, u)
	if err != nil {
		return nil, err
	}
	cred, err := rp.CreateCredential(w, *session, parsed)
	if err != nil {
		return nil, webauthnRefusal("The passkey could not be added", err)
	}
	stored, err := json.Marshal(cred)
	if err != nil {
		return nil, fmt.Errorf("account: passkey credential: %w", err)
	}
	pk := &passkey{UserID: u.ID, CredentialID: base64.RawURLEncoding.EncodeToString(cred.ID), Name: name,
		Credential: string(stored), SignCount: int64(cred.Authenticator.SignCount), CreatedAt: s.clock()}
	err = s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		if _, err := tx.NewInsert().Model(pk).Exec(ctx); err != nil {
			return err
		}
		return s.afterPasskeyChange(ctx, tx, u, keepToken, audit.ActionPasskeyAdd, notify.KindPasskeyAdded, pk)
	})
	if _, ok := db.UniqueViolation(err); ok {
		return nil, errPasskeyTaken
	}
	if err != nil {
		return nil, fmt.Errorf("account: add passkey for %s: %w", u.Username, err)
	}
	return &Passkey{ID: pk.ID, Name: pk.Name, CreatedAt: pk.CreatedAt}, nil
}

// afterPasskeyChange ends u's other sessions, records the change and
// mails the security notice, in the change's transaction.
func (s *Service) afterPasskeyChange(ctx context.Context, tx *db.Tx, u *User, keepToken, action, mailKind string, pk *passkey) error {
	ended, err := endOtherSessions(ctx, tx, u, keepToken)
	if err != nil {
		return err
	}
	entry := map[string]any{"passkey": pk.Name, "passkeyId": pk.ID}
	before, after := map[string]any(nil), map[string]any{"passkey": pk.Name, "passkeyId": pk.ID, "sessionsEnded": ended}
	if action == audit.ActionPasskeyRemove {
		before, after = entry, map[string]any{"sessionsEnded": ended}
	}
	if err := recordSecurity(ctx, tx, u, action, before, after); err != nil {
		return err
	}
	return notify.Enqueue(ctx, tx, notify.Message{UserID: u.ID, Kind: mailKind, Data: map[string]string{"name": pk.Name}})
}

// ownPasskey returns u's passkey id; not found for another account's.
func ownPasskey(ctx context.Context, idb bun.IDB, u *User, id int64) (*passkey, error) {
	pk := new(passkey)
	err := idb.NewSelect().Model(pk).Where("id = ?", id).Where("user_id = ?", u.ID).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errPasskeyMissing
	}
	if err != nil {
		return nil, fmt.Errorf("account: passkey %d: %w", id, err)
	}
	return pk, nil
}

// RenamePasskey names u's passkey id. Not found for another account's.
func (s *Service) RenamePasskey(ctx context.Context, u *User, id int64, name string) (*Passkey, error) {
	name, err := normalizePasskeyName(name)
	if err != nil {
		return nil, err
	}
	pk, err := ownPasskey(ctx, s.db.Bun, u, id)
	if err != nil {
		return nil, err
	}
	if _, err := s.db.Bun.NewUpdate().Model((*passkey)(nil)).Set("name = ?", name).
		Where("id = ?", id).Where("user_id = ?", u.ID).Exec(ctx); err != nil {
		return nil, fmt.Errorf("account: rename passkey %d: %w", id, err)
	}
	return &Passkey{ID: pk.ID, Name: name, CreatedAt: pk.CreatedAt, LastUsedAt: pk.LastUsedAt}, nil
}

// DeletePasskey removes u's passkey id, once password is u's, and ends
// u's other sessions (keepToken's stays). The password is asked, as to
// turn two-factor sign-in off: a passkey may be the account's only second
// factor, and a stolen session alone must not remove it. Wrong passwords
// are throttled like logins (from c). Not found for another account's.
func (s *Service) DeletePasskey(ctx context.Context, u *User, id int64, password, keepToken string, c Client) error {
	if _, err := ownPasskey(ctx, s.db.Bun, u, id); err != nil {
		return err
	}
	if err := s.confirmPassword(ctx, u, password, c); err != nil {
		return err
	}
	err := s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		pk, err := ownPasskey(ctx, tx, u, id)
		if err != nil {
			return err
		}
		res, err := tx.NewDelete().Model((*passkey)(nil)).Where("id = ?", id).Where("user_id = ?", u.ID).Exec(ctx)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return errPasskeyMissing
		}
		return s.afterPasskeyChange(ctx, tx, u, keepToken, audit.ActionPasskeyRemove, notify.KindPasskeyRemoved, pk)
	})
	if err != nil && apperr.Code(err) == apperr.Internal {
		return fmt.Errorf("account: remove passkey %d of %s: %w", id, u.Username, err)
	}
	return err
}

// BeginPasskeyLogin starts a sign-in with a passkey alone: no account is
// named; the browser offers the site's passkeys and the chosen one names
// its account. The passkey must verify its user (a PIN, a fingerprint).
func (s *Service) BeginPasskeyLogin(ctx context.Context) (*PasskeyCeremony, error) {
	rp, err := s.relyingParty()
	if err != nil {
		return nil, err
	}
	assertion, session, err := rp.BeginDiscoverableLogin(webauthn.WithUserVerification(protocol.VerificationRequired))
	if err != nil {
		return nil, fmt.Errorf("account: begin passkey login: %w", err)
	}
	return s.startCeremony(ctx, ceremonyLogin, 0, assertion, session, "")
}

// FinishPasskeyLogin signs in with the browser's answer to the ceremony of
// token: the passkey's account gets a session (oldToken's ends) and the
// passkey's use is recorded. Returns invalid for an expired or used
// ceremony or a malformed answer, unauthenticated for a passkey that is
// not (or no longer) registered or whose signature is wrong, forbidden for
// a disabled account.
func (s *Service) FinishPasskeyLogin(ctx context.Context, token string, response []byte, oldToken string, c Client) (*User, string, error) {
	rp, err := s.relyingParty()
	if err != nil {
		return nil, "", err
	}
	key, err := ceremonyKey(token)
	if err != nil {
		return nil, "", err
	}
	parsed, err := protocol.ParseCredentialRequestResponseBytes(response)
	if err != nil {
		return nil, "", webauthnRefusal("The passkey's answer is not valid", err)
	}
	_, session, err := s.takeCeremony(ctx, key, ceremonyLogin)
	if err != nil {
		return nil, "", err
	}
	var owner *webauthnUser
	handler := func(rawID, userHandle []byte) (webauthn.User, error) {
		pk := new(passkey)
		err := s.db.Bun.NewSelect().Model(pk).Column("user_id").
			Where("credential_id = ?", base64.RawURLEncoding.EncodeToString(rawID)).Scan(ctx)
		if err != nil {
			return nil, errPasskeyFailed
		}
		if subtle.ConstantTimeCompare(s.userHandle(pk.UserID), userHandle) != 1 {
			return nil, errPasskeyFailed
		}
		u, err := s.ByID(ctx, pk.UserID)
		if err != nil {
			return nil, errPasskeyFailed
		}
		if owner, err = s.loadWebAuthnUser(ctx, s.db.Bun, u); err != nil {
			return nil, err
		}
		return owner, nil
	}
	_, cred, err := rp.ValidatePasskeyLogin(handler, *session, parsed)
	if err != nil || owner == nil {
		return nil, "", errPasskeyFailed
	}
	u := owner.u
	if !u.DisabledAt.IsZero() {
		return nil, "", apperr.New(apperr.Forbidden, "This account is disabled")
	}
	if err := s.passkeyUsed(ctx, u, cred); err != nil {
		return nil, "", err
	}
	if oldToken != "" {
		if err := s.Logout(ctx, oldToken); err != nil {
			return nil, "", err
		}
	}
	session2, err := s.StartSession(ctx, u, c)
	if err != nil {
		return nil, "", err
	}
	return u, session2, nil
}

// passkeyUsed records a sign-in with cred: its counter and last use.
func (s *Service) passkeyUsed(ctx context.Context, u *User, cred *webauthn.Credential) error {
	_, err := s.db.Bun.NewUpdate().Model((*passkey)(nil)).
		Set("sign_count = ?", int64(cred.Authenticator.SignCount)).Set("last_used_at = ?", s.clock()).
		Where("user_id = ?", u.ID).Where("credential_id = ?", base64.RawURLEncoding.EncodeToString(cred.ID)).Exec(ctx)
	if err != nil {
		return fmt.Errorf("account: passkey use: %w", err)
	}
	return nil
}

// BeginPasskeySecondFactor starts the passkey step of a sign-in that Login
// answered with TwoFactorRequired (pendingToken): the options list the
// account's passkeys. The ceremony is the pending sign-in's; asking again
// replaces it. Returns unauthenticated for an unknown or expired pending
// sign-in, invalid when the account has no passkey.
func (s *Service) BeginPasskeySecondFactor(ctx context.Context, pendingToken string) (*PasskeyCeremony, error) {
	rp, err := s.relyingParty()
	if err != nil {
		return nil, err
	}
	ch, u, err := s.liveChallenge(ctx, pendingToken)
	if err != nil {
		return nil, err
	}
	w, err := s.loadWebAuthnUser(ctx, s.db.Bun, u)
	if err != nil {
		return nil, err
	}
	if len(w.creds) == 0 {
		return nil, apperr.New(apperr.Invalid, "This account has no passkey: use another method")
	}
	assertion, session, err := rp.BeginLogin(w)
	if err != nil {
		return nil, fmt.Errorf("account: begin passkey second factor: %w", err)
	}
	return s.startCeremony(ctx, ceremonySecondFactor, u.ID, assertion, session, ch.TokenHash)
}

// checkPasskeySecondFactor checks the browser's answer (response) to the
// passkey step of u's pending sign-in ch. Unauthenticated for a passkey
// that is not u's or a wrong signature, invalid for a malformed answer or
// no ceremony.
func (s *Service) checkPasskeySecondFactor(ctx context.Context, ch *challenge, u *User, response []byte) error {
	rp, err := s.relyingParty()
	if err != nil {
		return err
	}
	parsed, err := protocol.ParseCredentialRequestResponseBytes(response)
	if err != nil {
		return webauthnRefusal("The passkey's answer is not valid", err)
	}
	row, session, err := s.takeCeremony(ctx, ch.TokenHash, ceremonySecondFactor)
	if err != nil {
		return err
	}
	if row.UserID != u.ID {
		return errCeremonyGone
	}
	w, err := s.loadWebAuthnUser(ctx, s.db.Bun, u)
	if err != nil {
		return err
	}
	cred, err := rp.ValidateLogin(w, *session, parsed)
	if err != nil {
		return apperr.New(apperr.Unauthenticated, "This passkey could not confirm the sign-in")
	}
	return s.passkeyUsed(ctx, u, cred)
}

// The site's two-factor policy. Every admin and, when an admin's setting
// says so, every registrar is asked to set up a second factor (an
// authenticator app or a passkey). Asked accounts are held back from the
// tools of their role until they do: admins made after two-factor sign-in
// came (TwoFactorRequired), every admin while the setting for admins is on
// (otherwise older admins only see the dashboards' banner), and registrars
// while theirs is. Held accounts can still sign in, use their own domains
// and open Account Settings to set one up, so turning a setting on strands
// nobody; API keys (/v1) are not held. These are the one place of the
// rule: the API's access check and its two-factor status ask them.

// TwoFactorAsked reports whether the site asks u to set up a second factor
// (it has none yet).
func (s *Service) TwoFactorAsked(ctx context.Context, u *User) (bool, error) {
	if !u.IsAdmin() && !u.IsRegistrar() {
		return false, nil
	}
	if u.IsRegistrar() {
		p, err := s.twoFactorPolicy(ctx)
		if err != nil || !p.Registrars {
			return false, err
		}
	}
	return s.lacksSecondFactor(ctx, u)
}

// NeedsTwoFactorSetup reports whether u is held back from the tools of its
// role until it sets up a second factor.
func (s *Service) NeedsTwoFactorSetup(ctx context.Context, u *User) (bool, error) {
	switch {
	case u.IsRegistrar():
		return s.TwoFactorAsked(ctx, u)
	case u.IsAdmin() && u.TwoFactorRequired:
		return s.TwoFactorAsked(ctx, u)
	case u.IsAdmin():
		p, err := s.twoFactorPolicy(ctx)
		if err != nil || !p.AllAdmins {
			return false, err
		}
		return s.TwoFactorAsked(ctx, u)
	}
	return false, nil
}

// lacksSecondFactor reports whether u has neither an authenticator app nor
// a passkey.
func (s *Service) lacksSecondFactor(ctx context.Context, u *User) (bool, error) {
	sec, err := s.confirmedSecret(ctx, s.db.Bun, u.ID)
	if err != nil || sec != nil {
		return false, err
	}
	ok, err := hasPasskey(ctx, s.db.Bun, u.ID)
	return !ok, err
}

// CheckTwoFactorSetup returns two_factor_setup_required while u is held
// back from the tools of its role (NeedsTwoFactorSetup).
func (s *Service) CheckTwoFactorSetup(ctx context.Context, u *User) error {
	need, err := s.NeedsTwoFactorSetup(ctx, u)
	if err != nil || !need {
		return err
	}
	tools := "registrar tools"
	if u.IsAdmin() {
		tools = "admin tools"
	}
	return apperr.New(apperr.TwoFactorSetupRequired,
		"Set up two-factor sign-in (an authenticator app or a passkey) in Account Settings before using %s", tools)
}
