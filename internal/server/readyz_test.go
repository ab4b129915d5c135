package server_test

import (
	"context"
	"database/sql"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
)

// TestReadyzFailsWhenTheDatabaseCannotWrite: a database that answers but
// cannot write is not ready. On SQLite another process holds the write
// lock (a stuck backup or shell); on PostgreSQL the database turns
// read-only, as a demoted primary does.
func TestReadyzFailsWhenTheDatabaseCannotWrite(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := start(t, engine)
			b := newBrowser(t, ts)
			require.Equal(t, map[string]any{"database": "ok", "dns": "ok"}, b.do("GET", "/readyz", nil).body)

			ctx := context.Background()
			var release func()
			if engine == db.SQLite {
				other, err := sql.Open("sqlite", "file:"+strings.TrimPrefix(ts.dbURL, "sqlite://"))
				require.NoError(t, err)
				t.Cleanup(func() { other.Close() })
				conn, err := other.Conn(ctx)
				require.NoError(t, err)
				_, err = conn.ExecContext(ctx, "BEGIN EXCLUSIVE")
				require.NoError(t, err)
				release = func() {
					_, err := conn.ExecContext(ctx, "ROLLBACK")
					require.NoError(t, err)
					conn.Close()
				}
			} else {
				u, err := url.Parse(ts.dbURL)
				require.NoError(t, err)
				name := strings.TrimPrefix(u.Path, "/")
				q := u.Query()
				for k := range q {
					if strings.HasPrefix(k, "pool_") { // pgxpool's, not the server's
						q.Del(k)
					}
				}
				u.RawQuery = q.Encode()
				admin, err := sql.Open("pgx", u.String())
				require.NoError(t, err)
				t.Cleanup(func() { admin.Close() })
				setReadOnly := func(on string) {
					_, err := admin.ExecContext(ctx, "ALTER DATABASE "+name+" SET default_transaction_read_only = "+on)
					require.NoError(t, err)
					// The server's connections start again, with the setting.
					_, err = admin.ExecContext(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
						WHERE datname = $1 AND pid <> pg_backend_pid()`, name)
					require.NoError(t, err)
				}
				setReadOnly("on")
				release = func() { setReadOnly("off") }
			}

			// The pool may first meet a connection cut above ("unavailable");
			// then the database answers and cannot write.
			var r reply
			require.Eventually(t, func() bool {
				r = b.do("GET", "/readyz", nil)
				return r.body["database"] == "not writable"
			}, 20*time.Second, 50*time.Millisecond, "%+v", r)
			require.Equal(t, 503, r.status)

			release()
			require.Eventually(t, func() bool {
				r = b.do("GET", "/readyz", nil)
				return r.status == 200
			}, 20*time.Second, 50*time.Millisecond, "%+v", r)
		})
	}
}
