package registration

import (
	"context"
	"database/sql"
	"fmt"
	"hash/maphash"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/uptrace/bun"

	"github.com/nameport/nameport/internal/db"
)

// Names tells which names are taken. The catalog asks it on every
// availability check, and the registration service needs the catalog, so it
// stands apart.
//
// Once Watch has loaded it, a process answers from memory: every registered
// name, followed through the name_changes journal (written by
// zone.BumpVersion). A change
// made by this process is applied before its request returns (CatchUp); one
// made by another process within a poll interval. When the journal has not
// been read for staleAfter (the database is unreachable, Watch is not
// running) the database answers again. Registration never relies on this:
// the unique index decides, in the registering transaction.
type Names struct {
	db *db.DB
	// isRegistered is the query of a check when the index cannot answer.
	isRegistered *db.Statement
	changesSince *db.Statement
	now          func() time.Time

	poll     sync.Mutex // one reader of the journal at a time
	watching atomic.Bool

	mu sync.RWMutex
	// taken counts registered names by their hash: memory stays at a few
	// bytes a name at a million names. Two names sharing a 64-bit hash
	// (odds about n/2⁶⁴ per check, and the seed is random per process, so
	// no one can aim for one) would show the second as taken while the
	// first is; a registration would still find it free.
	taken   map[uint64]uint32
	version int64     // the last zone version applied
	polled  time.Time // the last time the journal was read to its end; zero before the first load
	loaded  time.Time // the last time every name was read
}

// The journal's bounds: rows are kept journalKeep (pruned by Scan), and a
// process that has not read it for reloadAfter loads every name again. It
// also does every reloadAfter in any case, so that a name written to the
// domains table by other means than this package (an operator's SQL) is
// seen within that time.
const (
	journalKeep = time.Hour
	reloadAfter = journalKeep / 2
	// staleAfter is how long the index answers after its last read of the
	// journal: a few poll intervals.
	staleAfter = 5 * time.Second
)

var nameSeed = maphash.MakeSeed()

func nameKey(name, extension string) uint64 {
	var h maphash.Hash
	h.SetSeed(nameSeed)
	h.WriteString(name)
	h.WriteString(extension)
	return h.Sum64()
}

// NewNames returns the lookup of registered names over d; now may be nil
// (the real clock).
func NewNames(d *db.DB, now func() time.Time) *Names {
	if now == nil {
		now = time.Now
	}
	return &Names{db: d, now: now,
		isRegistered: d.Statement("SELECT EXISTS (SELECT 1 FROM domains WHERE name = ? AND extension = ?)"),
		changesSince: d.Statement("SELECT version, name, extension, registered FROM name_changes WHERE version > ? ORDER BY version")}
}

// IsRegistered reports whether name (lower case) is registered under
// extension.
func (n *Names) IsRegistered(ctx context.Context, name, extension string) (bool, error) {
	key := nameKey(name, extension)
	n.mu.RLock()
	fresh := !n.polled.IsZero() && n.now().Sub(n.polled) < staleAfter
	taken := n.taken[key] > 0
	n.mu.RUnlock()
	if fresh {
		return taken, nil
	}
	var exists bool
	if err := n.isRegistered.QueryRow(ctx, []any{name, extension}, &exists); err != nil {
		return false, fmt.Errorf("registration: is %s%s registered: %w", name, extension, err)
	}
	return exists, nil
}

// Watch loads every registered name, then follows the journal every
// interval until ctx ends.
func (n *Names) Watch(ctx context.Context, interval time.Duration, logger *slog.Logger) {
	n.watching.Store(true)
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		if err := n.refresh(ctx, true); err != nil && ctx.Err() == nil {
			logger.Warn("registration: follow registered names", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// CatchUp applies the changes committed since the last read of the
// journal: a process calls it after its own registrations and releases so
// that its next check sees them. It never loads every name (a request must
// not wait for that): before Watch's first load, or when a reload is due,
// it leaves the work to Watch. Without Watch it does nothing.
func (n *Names) CatchUp(ctx context.Context) error {
	if !n.watching.Load() {
		return nil
	}
	return n.refresh(ctx, false)
}

// refresh follows the journal, or loads every name when that is due
// (before the first load, and every reloadAfter) and mayLoad.
func (n *Names) refresh(ctx context.Context, mayLoad bool) error {
	n.poll.Lock()
	defer n.poll.Unlock()
	n.mu.RLock()
	polled, loaded := n.polled, n.loaded
	n.mu.RUnlock()
	if now := n.now(); polled.IsZero() || now.Sub(polled) >= reloadAfter || now.Sub(loaded) >= reloadAfter {
		if !mayLoad {
			return nil
		}
		return n.load(ctx)
	}
	return n.follow(ctx)
}

// load reads every registered name and the zone version they are current
// at, in one snapshot.
func (n *Names) load(ctx context.Context) error {
	start := n.now()
	taken := map[uint64]uint32{}
	var version int64
	opts := &sql.TxOptions{ReadOnly: true}
	if n.db.Engine == db.Postgres {
		opts.Isolation = sql.LevelRepeatableRead
	}
	err := n.db.Bun.RunInTx(ctx, opts, func(ctx context.Context, tx bun.Tx) error {
		if err := tx.QueryRowContext(ctx, "SELECT version FROM zone_version WHERE id = 1").Scan(&version); err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, "SELECT name, extension FROM domains")
		if err != nil {
			return err
		}
		defer rows.Close()
		var name, extension string
		for rows.Next() {
			if err := rows.Scan(&name, &extension); err != nil {
				return err
			}
			taken[nameKey(name, extension)]++
		}
		return rows.Err()
	})
	if err != nil {
		return fmt.Errorf("registration: load registered names: %w", err)
	}
	n.mu.Lock()
	n.taken, n.version, n.polled, n.loaded = taken, version, start, start
	n.mu.Unlock()
	return nil
}

// follow applies the journal's rows after the last version applied.
func (n *Names) follow(ctx context.Context) error {
	start := n.now()
	rows, err := n.changesSince.Query(ctx, n.version)
	if err != nil {
		return fmt.Errorf("registration: read name changes: %w", err)
	}
	defer rows.Close()
	type change struct {
		version    int64
		key        uint64
		registered bool
	}
	var changes []change
	for rows.Next() {
		var c change
		var name, extension string
		if err := rows.Scan(&c.version, &name, &extension, &c.registered); err != nil {
			return fmt.Errorf("registration: read name changes: %w", err)
		}
		c.key = nameKey(name, extension)
		changes = append(changes, c)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("registration: read name changes: %w", err)
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, c := range changes {
		switch {
		case c.registered:
			n.taken[c.key]++
		case n.taken[c.key] > 1:
			n.taken[c.key]--
		default:
			delete(n.taken, c.key)
		}
		n.version = c.version
	}
	n.polled = start
	return nil
}

// pruneNames drops the journal's rows older than journalKeep.
func pruneNames(ctx context.Context, q bun.IDB, now time.Time) error {
	if _, err := q.NewDelete().Table("name_changes").Where("created_at < ?", now.Add(-journalKeep)).Exec(ctx); err != nil {
		return fmt.Errorf("registration: prune name changes: %w", err)
	}
	return nil
}
