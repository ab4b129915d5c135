package account

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/audit"
	"github.com/nameport/nameport/internal/db"
)

// lastSeenEvery bounds how often a session's "last seen" is written: a
// busy browser's requests stay reads, and a minute is as fine as a person
// reading the list of sessions can tell.
const lastSeenEvery = time.Minute

// SessionInfo is one active session as its owner sees it.
type SessionInfo struct {
	ID         string
	CreatedAt  time.Time
	LastSeenAt time.Time
	ClientIP   string
	UserAgent  string
	// Browser is the User-Agent in words ("Chrome 131 on Linux").
	Browser string
	// Current marks the session the list was asked from.
	Current bool
}

func newPublicID() (string, error) {
	raw := make([]byte, 16)
	if _, err := rand.Read(raw); err != nil {
		return "", fmt.Errorf("account: session id: %w", err)
	}
	return hex.EncodeToString(raw), nil
}

// Sessions lists u's active sessions, the most recently seen first;
// currentToken's is marked Current.
func (s *Service) Sessions(ctx context.Context, u *User, currentToken string) ([]SessionInfo, error) {
	var rows []session
	if err := s.db.Bun.NewSelect().Model(&rows).Where("user_id = ?", u.ID).Where("expires_at > ?", s.clock()).
		OrderExpr("last_seen_at DESC, created_at DESC").Scan(ctx); err != nil {
		return nil, fmt.Errorf("account: sessions of %s: %w", u.Username, err)
	}
	current := hashToken(currentToken)
	out := make([]SessionInfo, 0, len(rows))
	for _, r := range rows {
		seen := r.LastSeenAt
		if seen.IsZero() {
			seen = r.CreatedAt
		}
		out = append(out, SessionInfo{ID: r.PublicID, CreatedAt: r.CreatedAt, LastSeenAt: seen, ClientIP: r.ClientIP,
			UserAgent: r.UserAgent, Browser: BrowserOf(r.UserAgent), Current: currentToken != "" && r.TokenHash == current})
	}
	return out, nil
}

var errSessionNotFound = apperr.New(apperr.NotFound, "Session not found")

// EndSession signs u's session id out. Returns not_found when u has no
// such session (another account's sessions are not found either).
func (s *Service) EndSession(ctx context.Context, u *User, id string) error {
	if len(id) != 32 || strings.Trim(id, "0123456789abcdef") != "" {
		return errSessionNotFound
	}
	return s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		res, err := tx.NewDelete().Model((*session)(nil)).Where("user_id = ?", u.ID).Where("public_id = ?", id).Exec(ctx)
		if err != nil {
			return fmt.Errorf("account: end session: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return errSessionNotFound
		}
		return recordSecurity(ctx, tx, u, audit.ActionSessionEnd, map[string]any{"session": id}, nil)
	})
}

// EndOtherSessions signs out every session of u but keepToken's and
// returns how many ended.
func (s *Service) EndOtherSessions(ctx context.Context, u *User, keepToken string) (int64, error) {
	var n int64
	err := s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		var err error
		if n, err = endOtherSessions(ctx, tx, u, keepToken); err != nil {
			return err
		}
		return recordSecurity(ctx, tx, u, audit.ActionSessionEndOthers, nil, map[string]any{"sessionsEnded": n})
	})
	if err != nil {
		return 0, fmt.Errorf("account: end other sessions of %s: %w", u.Username, err)
	}
	return n, nil
}

func endOtherSessions(ctx context.Context, idb bun.IDB, u *User, keepToken string) (int64, error) {
	res, err := idb.NewDelete().Model((*session)(nil)).Where("user_id = ?", u.ID).
		Where("token_hash <> ?", hashToken(keepToken)).Exec(ctx)
	if err != nil {
		return 0, err
	}
	n, _ := res.RowsAffected()
	return n, nil
}

// recordSecurity writes the audit entry of a change u made to its own
// account's security, in the change's transaction. before and after are
// what changed (the admins' audit log shows the difference), each with
// the account's username.
func recordSecurity(ctx context.Context, idb bun.IDB, u *User, action string, before, after map[string]any) error {
	named := func(m map[string]any) map[string]any {
		out := map[string]any{"username": u.Username}
		for k, v := range m {
			out[k] = v
		}
		return out
	}
	return audit.Record(ctx, idb, audit.Entry{ActorID: u.ID, Action: action, TargetType: "user",
		TargetID: audit.ID(u.ID), Before: named(before), After: named(after)})
}

var (
	browserPatterns = []struct {
		name string
		re   *regexp.Regexp
	}{
		// Order matters: Edge and Opera also say Chrome, Chrome also says Safari.
		{"Edge", regexp.MustCompile(`Edg(?:e|A|iOS)?/(\d+)`)},
		{"Opera", regexp.MustCompile(`OPR/(\d+)`)},
		{"Firefox", regexp.MustCompile(`(?:Firefox|FxiOS)/(\d+)`)},
		{"Chrome", regexp.MustCompile(`(?:Chrome|CriOS)/(\d+)`)},
		{"Safari", regexp.MustCompile(`Version/(\d+)[.\d]* (?:Mobile/\S+ )?Safari/`)},
		{"curl", regexp.MustCompile(`^curl/(\d+)`)},
	}
	systems = []struct{ name, marker string }{
		{"Android", "Android"}, {"iOS", "iPhone"}, {"iPadOS", "iPad"}, {"Windows", "Windows"},
		{"macOS", "Mac OS X"}, {"ChromeOS", "CrOS"}, {"Linux", "Linux"},
	}
)

// BrowserOf names the browser and system of a User-Agent for a person
// ("Chrome 131 on Linux"); "Unknown browser" when it says nothing we know.
func BrowserOf(userAgent string) string {
	browser := ""
	for _, p := range browserPatterns {
		if m := p.re.FindStringSubmatch(userAgent); m != nil {
			browser = p.name + " " + m[1]
			break
		}
	}
	if strings.Contains(userAgent, "HeadlessChrome") && browser != "" {
		browser = "Headless " + browser
	}
	system := ""
	for _, sys := range systems {
		if strings.Contains(userAgent, sys.marker) {
			system = sys.name
			break
		}
	}
	switch {
	case browser == "" && system == "":
		return "Unknown browser"
	case browser == "":
		return "Unknown browser on " + system
	case system == "":
		return browser
	}
	return browser + " on " + system
}
