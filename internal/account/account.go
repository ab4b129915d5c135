// Package account owns the people who use Nameport: their accounts and
// roles, password hashes, login sessions, the login throttle, and the API keys
// of registrars.
package account

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"time"

	"github.com/go-webauthn/webauthn/webauthn"
	"github.com/uptrace/bun"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/sealer"
)

// User types.
const (
	TypeUser      = "user"
	TypeRegistrar = "registrar"
	TypeAdmin     = "admin"
)

// Registrar tiers (spec section 6).
const (
	TierBasic      = "basic"
	TierPremium    = "premium"
	TierEnterprise = "enterprise"
)

// User is an account.
type User struct {
	bun.BaseModel `bun:"table:users"`

	ID           int64     `bun:"id,pk,autoincrement"`
	Username     string    `bun:"username"`
	Email        string    `bun:"email"`
	FullName     string    `bun:"full_name"`
	PasswordHash string    `bun:"password_hash"`
	UserType     string    `bun:"user_type"`
	Tier         string    `bun:"tier,nullzero"`
	DisabledAt   time.Time `bun:"disabled_at,nullzero"`
	CreatedAt    time.Time `bun:"created_at"`
	UpdatedAt    time.Time `bun:"updated_at"`
	// EmailVerifiedAt is when the address was verified; zero while it is
	// not (see MayTransact).
	EmailVerifiedAt time.Time `bun:"email_verified_at,nullzero"`
	// TwoFactorRequired marks admins made after two-factor sign-in came:
	// they must set it up before admin operations (see
	// NeedsTwoFactorSetup). Admins from before are asked, not held.
	TwoFactorRequired bool `bun:"two_factor_required"`

	// appliesFor is the tier a registrar asked for at sign-up, applied for
	// when the account is created.
	appliesFor string `bun:"-"`
}

// IsRegistrar reports whether u is a registrar partner.
func (u *User) IsRegistrar() bool { return u.UserType == TypeRegistrar }

// IsAdmin reports whether u is an admin.
func (u *User) IsAdmin() bool { return u.UserType == TypeAdmin }

// Options configure a Service.
type Options struct {
	// Secret is the server secret that seals API keys (32 bytes or more).
	Secret []byte
	// SessionTTL is how long a session lives without use.
	SessionTTL time.Duration
	// Now is the clock; tests inject their own.
	Now func() time.Time
	// PublicURL is where users reach the web app (password reset links).
	PublicURL string
	// HashConcurrency bounds how many password hashes run at once (0: the
	// number of CPUs); HashWait is how long a request waits for a place
	// before it is turned away (0: 2 seconds; tests lengthen it so that a
	// busy machine does not turn their requests away).
	HashConcurrency int
	HashWait        time.Duration
	// SignUpLimit is how many sign-ups one client network may make in an
	// hour (0: DefaultSignUpLimit).
	SignUpLimit int
	// TwoFactorPolicy is the site's policy (an admin's settings): which
	// accounts beyond new admins are held until they set up a second
	// factor. nil: none.
	TwoFactorPolicy func(context.Context) (TwoFactorPolicy, error)
}

// TwoFactorPolicy is which accounts the site holds until they set up a
// second factor, beyond admins made after two-factor sign-in came.
type TwoFactorPolicy struct {
	AllAdmins  bool
	Registrars bool
}

// Service manages accounts and sessions.
type Service struct {
	db *db.DB
	// keys keep API keys unreadable at rest: sealed so the owner can see
	// the key again, and hashed for lookup.
	keys *sealer.Sealer
	// links make the tokens of mailed links (see linkToken).
	links *sealer.Sealer
	// twoFactor seals authenticator secrets and hashes recovery codes.
	twoFactor *sealer.Sealer
	// webauthn is the site's passkey relying party (from publicURL); nil
	// when passkeys are off, webauthnOff saying why.
	webauthn    *webauthn.WebAuthn
	webauthnOff string
	sessionTTL  time.Duration
	now         func() time.Time
	publicURL   string
	// hashes bounds the password hashes running at once.
	hashes      *hashPool
	signUpLimit int
	// twoFactorPolicy is the site's two-factor policy
	// (Options.TwoFactorPolicy).
	twoFactorPolicy func(context.Context) (TwoFactorPolicy, error)
	// byAPIKey is the query of /v1 requests (see ByAPIKey), apiKeys what
	// it found lately, and keyUses the keys' uses on their way to the
	// database.
	byAPIKey *db.Statement
	apiKeys  keyCache
	keyUses  *keyUses
}

// NewService returns an account service over d.
func NewService(d *db.DB, opts Options) (*Service, error) {
	keys, err := sealer.New(opts.Secret, "api-key")
	if err != nil {
		return nil, err
	}
	links, err := sealer.New(opts.Secret, "mail-link")
	if err != nil {
		return nil, err
	}
	twoFactor, err := sealer.New(opts.Secret, "two-factor")
	if err != nil {
		return nil, err
	}
	if opts.SessionTTL <= 0 {
		opts.SessionTTL = 7 * 24 * time.Hour
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.HashConcurrency <= 0 {
		opts.HashConcurrency = runtime.NumCPU()
	}
	if opts.HashWait <= 0 {
		opts.HashWait = 2 * time.Second
	}
	if opts.SignUpLimit <= 0 {
		opts.SignUpLimit = DefaultSignUpLimit
	}
	s := &Service{db: d, keys: keys, links: links, twoFactor: twoFactor, sessionTTL: opts.SessionTTL, now: opts.Now,
		publicURL: strings.TrimRight(opts.PublicURL, "/"), hashes: newHashPool(opts.HashConcurrency, opts.HashWait),
		signUpLimit: opts.SignUpLimit, byAPIKey: d.Statement(byAPIKeyQuery), keyUses: newKeyUses(),
		twoFactorPolicy: opts.TwoFactorPolicy}
	if s.twoFactorPolicy == nil {
		s.twoFactorPolicy = func(context.Context) (TwoFactorPolicy, error) { return TwoFactorPolicy{}, nil }
	}
	// Passkeys are off, not the server, when the public address cannot be
	// a relying party (an IP address): the rest works without them.
	if s.webauthn, err = newRelyingParty(opts.PublicURL); err != nil {
		s.webauthn, s.webauthnOff = nil, err.Error()
	}
	return s, nil
}

// clock returns the current time as stored: UTC, microsecond precision (what
// both engines keep).
func (s *Service) clock() time.Time { return s.now().UTC().Truncate(time.Microsecond) }

// SignUp is what the registration form sends.
type SignUp struct {
	Username        string
	Email           string
	Password        string
	ConfirmPassword string
	FullName        string
	UserType        string
	Tier            string
	// Client is where the sign-up comes from: sign-ups are throttled per
	// client network. Empty for accounts made by the platform itself
	// (demo data), which are not throttled.
	Client Client
}

// Register creates an end-user or registrar account. A registrar gets the
// basic tier and an API key; asking for premium or enterprise files a
// pending tier application that an admin decides. Returns invalid for bad input and
// conflict when the username or email is taken.
func (s *Service) Register(ctx context.Context, in SignUp) (*User, error) {
	in.Username = strings.TrimSpace(in.Username)
	in.Email = strings.TrimSpace(in.Email)
	in.FullName = strings.TrimSpace(in.FullName)
	if in.UserType == "" {
		in.UserType = TypeUser
	}
	if err := validateSignUp(in); err != nil {
		return nil, err
	}
	if in.Client.IP != "" {
		if err := s.reserveSignUp(ctx, in.Client.IP); err != nil {
			return nil, err
		}
	}
	u := &User{Username: in.Username, Email: in.Email, FullName: in.FullName, UserType: in.UserType}
	if in.UserType == TypeRegistrar {
		// Every registrar starts on basic; a higher tier asked for becomes
		// an application an admin decides (see tier.go).
		u.Tier = TierBasic
		if in.Tier != "" && in.Tier != TierBasic {
			u.appliesFor = in.Tier
		}
	}
	if err := s.create(ctx, u, in.Password); err != nil {
		return nil, fmt.Errorf("account: register %s: %w", in.Username, err)
	}
	return u, nil
}

// CreateAdmin creates an admin account (for operators, not the web). It
// must set up two-factor sign-in before admin operations (see
// NeedsTwoFactorSetup).
func (s *Service) CreateAdmin(ctx context.Context, username, email, password string) (*User, error) {
	return s.createAdmin(ctx, username, email, password, true)
}

// CreateDemoAdmin creates the admin of the demo data, whose password is
// published: two-factor sign-in is asked of it, not required, so that a
// demo can be walked through (and tested) without an authenticator.
func (s *Service) CreateDemoAdmin(ctx context.Context, username, email, password string) (*User, error) {
	return s.createAdmin(ctx, username, email, password, false)
}

func (s *Service) createAdmin(ctx context.Context, username, email, password string, requireTwoFactor bool) (*User, error) {
	in := SignUp{Username: strings.TrimSpace(username), Email: strings.TrimSpace(email), Password: password,
		ConfirmPassword: password, FullName: "Administrator", UserType: TypeUser}
	if err := validateSignUp(in); err != nil {
		return nil, err
	}
	// An operator vouches for the address.
	u := &User{Username: in.Username, Email: in.Email, FullName: in.FullName, UserType: TypeAdmin, EmailVerifiedAt: s.clock(),
		TwoFactorRequired: requireTwoFactor}
	if err := s.create(ctx, u, password); err != nil {
		return nil, fmt.Errorf("account: create admin %s: %w", username, err)
	}
	return u, nil
}

func (s *Service) create(ctx context.Context, u *User, password string) error {
	// Taken names are refused before the (costly) hash runs.
	if err := s.checkTaken(ctx, u.Username, u.Email); err != nil {
		return err
	}
	hash, err := s.hash(ctx, password)
	if err != nil {
		return err
	}
	u.PasswordHash = hash
	u.CreatedAt = s.clock()
	u.UpdatedAt = u.CreatedAt
	var key *APIKey
	if u.IsRegistrar() {
		if key, err = s.newPrimaryKey(u); err != nil {
			return err
		}
	}

	// What comes with a new account (a pending tier application…) commits
	// with it: see afterCreate.
	if err := s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		if _, err := tx.NewInsert().Model(u).Exec(ctx); err != nil {
			return err
		}
		if key != nil {
			key.UserID = u.ID
			if _, err := tx.NewInsert().Model(key).Exec(ctx); err != nil {
				return fmt.Errorf("api key: %w", err)
			}
		}
		return s.afterCreate(ctx, tx, u)
	}); err != nil {
		// Two sign-ups raced past checkTaken: the unique index decides.
		if detail, ok := db.UniqueViolation(err); ok {
			if strings.Contains(detail, "email") {
				return errEmailTaken
			}
			return errUsernameTaken
		}
		return err
	}
	return nil
}

var (
	errUsernameTaken = apperr.New(apperr.Conflict, "Username is already taken")
	errEmailTaken    = apperr.New(apperr.Conflict, "An account with this email already exists")
)

func (s *Service) checkTaken(ctx context.Context, username, email string) error {
	var taken []User
	err := s.db.Bun.NewSelect().Model(&taken).Column("username", "email").
		Where("lower(username) = lower(?)", username).WhereOr("lower(email) = lower(?)", email).Scan(ctx)
	if err != nil {
		return err
	}
	for _, t := range taken {
		if strings.EqualFold(t.Username, username) {
			return errUsernameTaken
		}
	}
	if len(taken) > 0 {
		return errEmailTaken
	}
	return nil
}

// ByID returns the account with id; not_found if there is none.
func (s *Service) ByID(ctx context.Context, id int64) (*User, error) {
	u := new(User)
	err := s.db.Bun.NewSelect().Model(u).Where("id = ?", id).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "Account not found")
	}
	if err != nil {
		return nil, fmt.Errorf("account: load %d: %w", id, err)
	}
	return u, nil
}
