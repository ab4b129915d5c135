package account

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/crypto/argon2"

	"github.com/nameport/nameport/internal/apperr"
)

// argon2id parameters: OWASP's recommended minimum (19 MiB, 2 passes, 1 lane).
const (
	argonMemoryKiB = 19 * 1024
	argonTime      = 2
	argonThreads   = 1
	argonKeyLen    = 32
	argonSaltLen   = 16
)

// hashPassword returns the argon2id hash of password in the PHC string format,
// which records its parameters so they can be raised later.
func hashPassword(password string) (string, error) {
	salt := make([]byte, argonSaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("account: salt: %w", err)
	}
	key := argon2.IDKey([]byte(password), salt, argonTime, argonMemoryKiB, argonThreads, argonKeyLen)
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, argonMemoryKiB, argonTime, argonThreads,
		base64.RawStdEncoding.EncodeToString(salt), base64.RawStdEncoding.EncodeToString(key)), nil
}

// verifyPassword reports whether password matches an argon2id PHC hash.
func verifyPassword(encoded, password string) (bool, error) {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false, errors.New("account: unknown password hash format")
	}
	var version int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return false, errors.New("account: unsupported argon2 version")
	}
	var memory, time uint32
	var threads uint8
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &memory, &time, &threads); err != nil {
		return false, fmt.Errorf("account: argon2 parameters: %w", err)
	}
	salt, err := base64.RawStdEncoding.DecodeString(parts[4])
	if err != nil {
		return false, fmt.Errorf("account: argon2 salt: %w", err)
	}
	want, err := base64.RawStdEncoding.DecodeString(parts[5])
	if err != nil {
		return false, fmt.Errorf("account: argon2 key: %w", err)
	}
	got := argon2.IDKey([]byte(password), salt, time, memory, threads, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}

// dummyHash is verified against when a username does not exist, so that a
// login takes as long for unknown names as for wrong passwords.
var dummyHash = func() string {
	h, err := hashPassword("nameport-dummy-password")
	if err != nil {
		panic(err)
	}
	return h
}()

// hashPool bounds how many password hashes run at once. Each argon2id run
// takes 19 MiB and a core for tens of milliseconds, and login and sign-up
// are open to anyone: unbounded, a flood of them takes the process's memory
// and CPU from everything else. A request waits briefly for a place, then
// is turned away with 503 and Retry-After.
type hashPool struct {
	slots chan struct{}
	wait  time.Duration

	inFlight, peak, total, refused atomic.Int64
}

// HashStats are counts of the password hash pool, for metrics and tests.
type HashStats struct {
	// Limit is how many hashes may run at once; InFlight how many run now;
	// Peak the most that ever ran at once.
	Limit, InFlight, Peak int64
	// Total counts hashes run (hashing and verifying); Refused requests
	// turned away because no place came free in time.
	Total, Refused int64
}

func newHashPool(limit int, wait time.Duration) *hashPool {
	return &hashPool{slots: make(chan struct{}, limit), wait: wait}
}

var errHashBusy = &apperr.Error{Code: apperr.Unavailable, RetryAfter: 2 * time.Second,
	Message: "The server is busy. Please try again in a few seconds."}

// run runs fn when a place is free; unavailable when none comes free within
// the pool's wait or before ctx ends.
func (p *hashPool) run(ctx context.Context, fn func()) error {
	select {
	case p.slots <- struct{}{}:
	default:
		timer := time.NewTimer(p.wait)
		defer timer.Stop()
		select {
		case p.slots <- struct{}{}:
		case <-timer.C:
			p.refused.Add(1)
			return errHashBusy
		case <-ctx.Done():
			p.refused.Add(1)
			return errHashBusy
		}
	}
	defer func() { <-p.slots }()
	n := p.inFlight.Add(1)
	defer p.inFlight.Add(-1)
	for peak := p.peak.Load(); n > peak && !p.peak.CompareAndSwap(peak, n); peak = p.peak.Load() {
	}
	p.total.Add(1)
	fn()
	return nil
}

func (p *hashPool) stats() HashStats {
	return HashStats{Limit: int64(cap(p.slots)), InFlight: p.inFlight.Load(), Peak: p.peak.Load(),
		Total: p.total.Load(), Refused: p.refused.Load()}
}

// HashStats returns the counts of the service's password hash pool.
func (s *Service) HashStats() HashStats { return s.hashes.stats() }

// hash hashes password in the pool; unavailable when the pool is full.
func (s *Service) hash(ctx context.Context, password string) (string, error) {
	var hash string
	var err error
	if perr := s.hashes.run(ctx, func() { hash, err = hashPassword(password) }); perr != nil {
		return "", perr
	}
	return hash, err
}

// verify checks password against encoded in the pool; unavailable when the
// pool is full.
func (s *Service) verify(ctx context.Context, encoded, password string) (bool, error) {
	var ok bool
	var err error
	if perr := s.hashes.run(ctx, func() { ok, err = verifyPassword(encoded, password) }); perr != nil {
		return false, perr
	}
	return ok, err
}
