// Package requestlog keeps the log of a registrar's /v1 requests: every
// request made with a valid API key (time, key, method, path, status,
// latency, Idempotency-Key, request id; never bodies, queries or secrets),
// for KeepFor. Requests hand their entries to a Recorder, which writes them
// in batches off the request path; the registrar reads them newest first,
// filtered and a page at a time, or as CSV.
package requestlog

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/db"
)

// KeepFor is how long entries are kept; the prune job deletes older ones.
const KeepFor = 30 * 24 * time.Hour

// Bounds of what an entry keeps of what the client sent: a path or an
// Idempotency-Key may be as long as the headers allow (64 KiB), and the log
// need not be.
const (
	maxPath           = 1024
	maxIdempotencyKey = 255
)

// Entry is one logged request.
type Entry struct {
	ID        int64
	CreatedAt time.Time
	UserID    int64
	KeyID     int64
	Method    string
	// Path is the request's path as the client sent it (escaped), without
	// the query string.
	Path           string
	Status         int
	LatencyMicros  int64
	IdempotencyKey string
	RequestID      string
	// KeyName is the key's name when the entry is read (List, Export).
	KeyName string
}

// row is an entry as the table holds it: the time in microseconds since
// 1970 (UTC), an integer, which costs each insert less than a time would
// (on SQLite a time is text).
type row struct {
	bun.BaseModel `bun:"table:request_logs,alias:rl"`

	ID             int64  `bun:"id,pk,autoincrement"`
	CreatedMicros  int64  `bun:"created_us"`
	UserID         int64  `bun:"user_id"`
	KeyID          int64  `bun:"key_id"`
	Method         string `bun:"method"`
	Path           string `bun:"path"`
	Status         int    `bun:"status"`
	LatencyMicros  int64  `bun:"latency_us"`
	IdempotencyKey string `bun:"idempotency_key"`
	RequestID      string `bun:"request_id"`
	KeyName        string `bun:"key_name,scanonly"`
}

func (r *row) entry() Entry {
	return Entry{ID: r.ID, CreatedAt: time.UnixMicro(r.CreatedMicros).UTC(), UserID: r.UserID, KeyID: r.KeyID,
		Method: r.Method, Path: r.Path, Status: r.Status, LatencyMicros: r.LatencyMicros,
		IdempotencyKey: r.IdempotencyKey, RequestID: r.RequestID, KeyName: r.KeyName}
}

// Latency is how long the request took.
func (e *Entry) Latency() time.Duration { return time.Duration(e.LatencyMicros) * time.Microsecond }

// clean bounds what came from the client and makes it text both engines
// store (PostgreSQL refuses invalid UTF-8): one bad entry must not fail the
// batch it is written with.
func (e *Entry) clean() {
	e.Path = clip(e.Path, maxPath)
	e.IdempotencyKey = clip(e.IdempotencyKey, maxIdempotencyKey)
	e.RequestID = clip(e.RequestID, 64)
	e.Method = clip(e.Method, 16)
}

func clip(s string, n int) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	s = strings.ReplaceAll(s, "\x00", "")
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// Filter narrows a listing; its zero value lists everything.
type Filter struct {
	// KeyID, when not 0, is the one key whose requests are listed.
	KeyID int64
	// Status is a status class (2xx, 3xx, 4xx, 5xx) or one status code
	// (e.g. 404); empty: any.
	Status string
	// Path, when not empty, must occur in the request's path.
	Path string
	// Since and Until, when not zero, bound the request's time: Since
	// included, Until excluded.
	Since, Until time.Time
}

// statusRange returns the statuses f.Status names, lo to hi included.
// Returns invalid for anything but a class or a code.
func (f Filter) statusRange() (lo, hi int, err error) {
	s := strings.ToLower(strings.TrimSpace(f.Status))
	switch {
	case s == "":
		return 0, 0, nil
	case len(s) == 3 && s[1:] == "xx" && s[0] >= '1' && s[0] <= '5':
		lo = int(s[0]-'0') * 100
		return lo, lo + 99, nil
	}
	if code, err := strconv.Atoi(s); err == nil && code >= 100 && code <= 599 {
		return code, code, nil
	}
	return 0, 0, apperr.New(apperr.Invalid, "status must be a class (2xx, 3xx, 4xx, 5xx) or a status code such as 404")
}

// Check returns invalid when f cannot be used.
func (f Filter) Check() error {
	if _, _, err := f.statusRange(); err != nil {
		return err
	}
	if f.KeyID < 0 {
		return apperr.New(apperr.Invalid, "key must be the id of one of your API keys")
	}
	if len(f.Path) > maxPath {
		return apperr.New(apperr.Invalid, "path must be at most %d characters", maxPath)
	}
	if !f.Since.IsZero() && !f.Until.IsZero() && !f.Since.Before(f.Until) {
		return apperr.New(apperr.Invalid, "since must be before until")
	}
	return nil
}

// Service reads, records and prunes the request log.
type Service struct {
	db  *db.DB
	now func() time.Time
	*Recorder
}

// Options configure a Service.
type Options struct {
	// Off turns recording off (--v1-request-log=false): Record does
	// nothing; what was logged before can still be read.
	Off bool
	// Buffer is how many entries may wait to be written; more are dropped
	// (and counted) rather than slowing requests. Default 16384.
	Buffer int
	// BatchSize is the most entries one insert writes. Default 1024 (one
	// commit for many entries).
	BatchSize int
	// FlushEvery bounds how long an entry waits for its batch to fill.
	// Default 500 ms.
	FlushEvery time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// NewService returns the request log over d. Entries are written only
// while Run runs.
func NewService(d *db.DB, o Options) *Service {
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Service{db: d, now: o.Now, Recorder: newRecorder(d, o)}
}

// List returns up to limit of userID's entries that match f, newest first,
// that come before the entry with id before (0: from the newest), each with
// its key's name. Returns invalid for a filter Check refuses.
func (s *Service) List(ctx context.Context, userID int64, f Filter, before int64, limit int) ([]Entry, error) {
	if err := f.Check(); err != nil {
		return nil, err
	}
	var rows []row
	q := s.db.Bun.NewSelect().Model(&rows).ColumnExpr("rl.*").ColumnExpr("k.name AS key_name").
		Join("JOIN api_keys AS k ON k.id = rl.key_id").
		Where("rl.user_id = ?", userID).OrderExpr("rl.id DESC").Limit(int64(limit))
	if before > 0 {
		q = q.Where("rl.id < ?", before)
	}
	if f.KeyID != 0 {
		q = q.Where("rl.key_id = ?", f.KeyID)
	}
	if lo, hi, _ := f.statusRange(); lo != 0 {
		q = q.Where("rl.status BETWEEN ? AND ?", lo, hi)
	}
	if p := strings.TrimSpace(f.Path); p != "" {
		q = q.Where(`rl.path LIKE ? ESCAPE '\'`, "%"+escapeLike(p)+"%")
	}
	if !f.Since.IsZero() {
		q = q.Where("rl.created_us >= ?", f.Since.UnixMicro())
	}
	if !f.Until.IsZero() {
		q = q.Where("rl.created_us < ?", f.Until.UnixMicro())
	}
	if err := q.Scan(ctx); err != nil {
		return nil, fmt.Errorf("requestlog: list for user %d: %w", userID, err)
	}
	list := make([]Entry, len(rows))
	for i := range rows {
		list[i] = rows[i].entry()
	}
	return list, nil
}

// escapeLike makes s match itself in a LIKE pattern with ESCAPE '\'.
func escapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// pruneChunk bounds one delete of Prune: on SQLite a delete holds the one
// writer, which requests wait for.
const pruneChunk = 5000

// Prune deletes the entries older than KeepFor and returns how many.
// Entries are written in time order (each process's batches in order, the
// processes within a flush interval of each other), so the old ones are
// the lowest ids: Prune reads the oldest ids a chunk at a time and deletes
// them up to the first entry that is kept, reading no further. That needs
// no index on the time, which would cost every request's insert, nor a
// scan of the entries kept; an entry a late batch wrote after a newer one
// goes at a later prune, once the entries before it have.
func (s *Service) Prune(ctx context.Context) (int64, error) {
	cutoff := s.now().Add(-KeepFor).UnixMicro()
	var total int64
	for {
		var oldest []struct {
			ID            int64 `bun:"id"`
			CreatedMicros int64 `bun:"created_us"`
		}
		if err := s.db.Bun.NewSelect().TableExpr("request_logs").Column("id", "created_us").
			OrderExpr("id").Limit(pruneChunk).Scan(ctx, &oldest); err != nil {
			return total, fmt.Errorf("requestlog: prune: %w", err)
		}
		old := 0
		for old < len(oldest) && oldest[old].CreatedMicros < cutoff {
			old++
		}
		if old == 0 {
			return total, nil
		}
		res, err := s.db.Bun.NewDelete().TableExpr("request_logs").Where("id <= ?", oldest[old-1].ID).Exec(ctx)
		if err != nil {
			return total, fmt.Errorf("requestlog: prune: %w", err)
		}
		n, _ := res.RowsAffected()
		total += n
		if old < pruneChunk {
			return total, nil
		}
	}
}
