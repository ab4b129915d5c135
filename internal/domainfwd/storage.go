package domainfwd

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/caddyserver/certmagic"
	"github.com/uptrace/bun"

	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/sealer"
)

// Lock timing of Storage.
const (
	// lockTTL is how long a lock outlives the last sign of its holder: a
	// node that dies holding one blocks the others this long at most.
	lockTTL = time.Minute
	// lockRefresh is how often a holder extends its lock.
	lockRefresh = lockTTL / 3
	// lockPoll is how often a waiter tries again.
	lockPoll = time.Second
)

// Storage is certmagic's storage in the database: certificates, their
// private keys and the ACME account, sealed with the server secret
// (sealer.New(secret, "acme")), and locks with an expiry so that several
// nodes share certificates and never obtain the same one twice at once.
// The storefronts' certificates can use it too.
type Storage struct {
	db     *db.DB
	sealer *sealer.Sealer
	now    func() time.Time
	logger *slog.Logger

	mu   sync.Mutex
	held map[string]*heldLock // the locks this process holds, by name
}

type heldLock struct {
	token string
	stop  context.CancelFunc
	done  chan struct{}
}

var (
	_ certmagic.Storage          = (*Storage)(nil)
	_ certmagic.TryLocker        = (*Storage)(nil)
	_ certmagic.LockLeaseRenewer = (*Storage)(nil)
)

type storageRow struct {
	bun.BaseModel `bun:"table:acme_storage"`
	Key           string    `bun:"key,pk"`
	Value         string    `bun:"value"`
	ModifiedAt    time.Time `bun:"modified_at"`
}

// NewStorage returns the storage over d, sealing values with s.
func NewStorage(d *db.DB, s *sealer.Sealer, logger *slog.Logger) *Storage {
	if logger == nil {
		logger = slog.Default()
	}
	return &Storage{db: d, sealer: s, now: time.Now, logger: logger, held: map[string]*heldLock{}}
}

func (s *Storage) clock() time.Time { return s.now().UTC().Truncate(time.Microsecond) }

// Store puts value at key.
func (s *Storage) Store(ctx context.Context, key string, value []byte) error {
	sealed, err := s.sealer.Seal(string(value))
	if err != nil {
		return err
	}
	_, err = s.db.Bun.NewInsert().Model(&storageRow{Key: key, Value: sealed, ModifiedAt: s.clock()}).
		On("CONFLICT (key) DO UPDATE").Set("value = EXCLUDED.value, modified_at = EXCLUDED.modified_at").Exec(ctx)
	if err != nil {
		return fmt.Errorf("domainfwd: store %s: %w", key, err)
	}
	return nil
}

// Load returns the value at key, fs.ErrNotExist when there is none.
func (s *Storage) Load(ctx context.Context, key string) ([]byte, error) {
	row := new(storageRow)
	err := s.db.Bun.NewSelect().Model(row).Where("key = ?", key).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fs.ErrNotExist
	}
	if err != nil {
		return nil, fmt.Errorf("domainfwd: load %s: %w", key, err)
	}
	plain, err := s.sealer.Open(row.Value)
	if err != nil {
		return nil, fmt.Errorf("domainfwd: load %s: %w", key, err)
	}
	return []byte(plain), nil
}

// below is the condition of the keys below the directory dir, and its
// arguments. substr rather than LIKE: keys hold underscores, a LIKE
// wildcard.
func below(dir string) (string, []any) {
	return "substr(key, 1, ?) = ?", []any{len(dir) + 1, dir + "/"}
}

// Delete removes key and, when it is a directory, every key below it.
func (s *Storage) Delete(ctx context.Context, key string) error {
	cond, args := below(key)
	q := s.db.Bun.NewDelete().Model((*storageRow)(nil)).Where("key = ? OR "+cond, append([]any{key}, args...)...)
	if _, err := q.Exec(ctx); err != nil {
		return fmt.Errorf("domainfwd: delete %s: %w", key, err)
	}
	return nil
}

// Exists tells whether key is a value or a directory of values.
func (s *Storage) Exists(ctx context.Context, key string) bool {
	_, err := s.Stat(ctx, key)
	return err == nil
}

// List returns the keys in the directory prefix: its direct children
// (values and directories), or every key and directory below it when
// recursive.
func (s *Storage) List(ctx context.Context, prefix string, recursive bool) ([]string, error) {
	prefix = strings.Trim(prefix, "/")
	var keys []string
	q := s.db.Bun.NewSelect().Model((*storageRow)(nil)).Column("key")
	if prefix != "" {
		cond, args := below(prefix)
		q = q.Where(cond, args...)
	}
	if err := q.Scan(ctx, &keys); err != nil {
		return nil, fmt.Errorf("domainfwd: list %s: %w", prefix, err)
	}
	if len(keys) == 0 {
		return nil, fs.ErrNotExist
	}
	seen := map[string]bool{}
	var out []string
	add := func(k string) {
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	base := prefix
	if base != "" {
		base += "/"
	}
	for _, k := range keys {
		rest := strings.TrimPrefix(k, base)
		parts := strings.Split(rest, "/")
		if !recursive {
			add(base + parts[0])
			continue
		}
		for i := range parts {
			add(base + strings.Join(parts[:i+1], "/"))
		}
	}
	slices.Sort(out)
	return out, nil
}

// Stat describes key: a value, or a directory of values.
func (s *Storage) Stat(ctx context.Context, key string) (certmagic.KeyInfo, error) {
	row := new(storageRow)
	err := s.db.Bun.NewSelect().Model(row).Column("key", "value", "modified_at").Where("key = ?", key).Scan(ctx)
	if err == nil {
		// The size of the sealed value: close enough, and what is stored.
		return certmagic.KeyInfo{Key: key, Modified: row.ModifiedAt, Size: int64(len(row.Value)), IsTerminal: true}, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return certmagic.KeyInfo{}, fmt.Errorf("domainfwd: stat %s: %w", key, err)
	}
	// A directory was modified when the newest value below it was (what
	// certmagic reads to pick the most recent ACME account).
	cond, args := below(key)
	newest := new(storageRow)
	err = s.db.Bun.NewSelect().Model(newest).Column("key", "modified_at").Where(cond, args...).
		Order("modified_at DESC").Limit(1).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return certmagic.KeyInfo{}, fs.ErrNotExist
	}
	if err != nil {
		return certmagic.KeyInfo{}, fmt.Errorf("domainfwd: stat %s: %w", key, err)
	}
	return certmagic.KeyInfo{Key: key, Modified: newest.ModifiedAt, IsTerminal: false}, nil
}

// Lock takes the lock name, waiting while another holder (here or on
// another node) has it and it has not expired.
func (s *Storage) Lock(ctx context.Context, name string) error {
	for {
		ok, err := s.TryLock(ctx, name)
		if err != nil || ok {
			return err
		}
		t := time.NewTimer(lockPoll)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
}

// TryLock takes the lock name if it is free or expired, and says whether
// it did. The lock is extended in the background until Unlock.
func (s *Storage) TryLock(ctx context.Context, name string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.held[name] != nil {
		return false, nil // another goroutine of this process holds it
	}
	token, err := newToken()
	if err != nil {
		return false, err
	}
	now := s.clock()
	// One statement takes a free lock or one whose holder stopped
	// extending it; a live lock makes it change nothing.
	res, err := s.db.Bun.NewRaw(`INSERT INTO acme_locks (name, token, expires_at) VALUES (?, ?, ?)
		ON CONFLICT (name) DO UPDATE SET token = EXCLUDED.token, expires_at = EXCLUDED.expires_at
		WHERE acme_locks.expires_at < ?`, name, token, now.Add(lockTTL), now).Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("domainfwd: lock %s: %w", name, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return false, nil
	}
	refresh, stop := context.WithCancel(context.Background())
	held := &heldLock{token: token, stop: stop, done: make(chan struct{})}
	s.held[name] = held
	go s.keepFresh(refresh, name, held)
	return true, nil
}

// keepFresh extends the lock until stopped.
func (s *Storage) keepFresh(ctx context.Context, name string, held *heldLock) {
	defer close(held.done)
	t := time.NewTicker(lockRefresh)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := s.extend(ctx, name, held.token, lockTTL); err != nil && ctx.Err() == nil {
				s.logger.Warn("domainfwd: extend a certificate lock", "lock", name, "err", err)
			}
		}
	}
}

func (s *Storage) extend(ctx context.Context, name, token string, d time.Duration) error {
	_, err := s.db.Bun.NewUpdate().Table("acme_locks").Set("expires_at = ?", s.clock().Add(d)).
		Where("name = ? AND token = ?", name, token).Exec(ctx)
	return err
}

// RenewLockLease extends a lock this process holds by at least d (certmagic
// asks before each retry of a long obtain).
func (s *Storage) RenewLockLease(ctx context.Context, name string, d time.Duration) error {
	s.mu.Lock()
	held := s.held[name]
	s.mu.Unlock()
	if held == nil {
		return fmt.Errorf("domainfwd: lock %s is not held here", name)
	}
	return s.extend(ctx, name, held.token, max(d, lockTTL))
}

// Unlock releases a lock this process holds.
func (s *Storage) Unlock(ctx context.Context, name string) error {
	s.mu.Lock()
	held := s.held[name]
	delete(s.held, name)
	s.mu.Unlock()
	if held == nil {
		return fmt.Errorf("domainfwd: lock %s is not held here", name)
	}
	held.stop()
	<-held.done
	// The holder's token in the condition: a lock that expired and was
	// taken over is the new holder's to release.
	if _, err := s.db.Bun.NewDelete().Table("acme_locks").Where("name = ? AND token = ?", name, held.token).Exec(ctx); err != nil {
		return fmt.Errorf("domainfwd: unlock %s: %w", name, err)
	}
	return nil
}

func newToken() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return hex.EncodeToString(b[:]), nil
}
