// Package dbtest gives tests real, fresh, migrated databases: a SQLite file
// always, and a PostgreSQL database too when NAMEPORT_TEST_DATABASE_URL names
// a server (for example postgres://postgres@127.0.0.1:5432/postgres).
package dbtest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/zone"
)

// EnvURL names the PostgreSQL server tests create their databases on.
const EnvURL = "NAMEPORT_TEST_DATABASE_URL"

// Engines lists the engines under test: sqlite, and postgres when EnvURL is set.
func Engines() []db.Engine {
	if os.Getenv(EnvURL) != "" {
		return []db.Engine{db.SQLite, db.Postgres}
	}
	return []db.Engine{db.SQLite}
}

// Each runs fn as one subtest per engine under test, each with a fresh
// migrated database.
func Each(t *testing.T, fn func(t *testing.T, d *db.DB)) {
	t.Helper()
	for _, engine := range Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			fn(t, Open(t, engine))
		})
	}
}

// Open returns a fresh migrated database of engine, removed when t ends.
func Open(t testing.TB, engine db.Engine) *db.DB {
	t.Helper()
	d, err := db.Open(context.Background(), URL(t, engine))
	require.NoError(t, err)
	t.Cleanup(func() { d.Close() })
	require.NoError(t, d.Migrate(context.Background()))
	return d
}

// Connect opens the existing database at url (a test server's, say) for
// setup and checks from outside; it is closed when t ends.
func Connect(t testing.TB, url string) *db.DB {
	t.Helper()
	d, err := db.Open(context.Background(), url)
	require.NoError(t, err)
	t.Cleanup(func() { d.Close() })
	return d
}

// URL creates an empty database of engine and returns its URL; the database
// is dropped when t ends.
func URL(t testing.TB, engine db.Engine) string {
	t.Helper()
	if engine == db.SQLite {
		return "sqlite://" + filepath.Join(t.TempDir(), "test.db")
	}
	server := os.Getenv(EnvURL)
	if server == "" {
		t.Fatalf("dbtest: %s is not set", EnvURL)
	}
	admin, err := sql.Open("pgx", server)
	require.NoError(t, err)
	defer admin.Close()

	var suffix [6]byte
	_, _ = rand.Read(suffix[:])
	name := "nameport_test_" + hex.EncodeToString(suffix[:])
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err = admin.ExecContext(ctx, "CREATE DATABASE "+name)
	require.NoError(t, err, "dbtest: create database on %s", EnvURL)
	t.Cleanup(func() {
		admin, err := sql.Open("pgx", server)
		if err != nil {
			return
		}
		defer admin.Close()
		_, _ = admin.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)")
	})

	u, err := url.Parse(server)
	require.NoError(t, err)
	u.Path = "/" + name
	// Many servers run at once in a test run against one PostgreSQL, whose
	// default is 100 connections in all: each test database gets a few.
	if q := u.Query(); q.Get("pool_max_conns") == "" {
		q.Set("pool_max_conns", "4")
		u.RawQuery = q.Encode()
	}
	return u.String()
}

// MustExec runs a statement for test setup.
func MustExec(t testing.TB, d *db.DB, query string, args ...any) {
	t.Helper()
	_, err := d.Bun.ExecContext(context.Background(), query, args...)
	require.NoError(t, err, fmt.Sprintf("exec %s", query))
}

// Count runs a query that returns one number (SELECT count(*) …) and returns it.
func Count(t testing.TB, d *db.DB, query string, args ...any) int {
	t.Helper()
	var n int
	require.NoError(t, d.Bun.NewRaw(query, args...).Scan(context.Background(), &n), "count %s", query)
	return n
}

// User inserts an account (userType user, registrar or admin) named
// username, with the address username@example.com and no usable password,
// and returns its id: the one fixture every package's tests start from.
func User(t testing.TB, d *db.DB, username, userType string) int64 {
	t.Helper()
	now := time.Now().UTC().Truncate(time.Microsecond)
	var id int64
	err := d.Bun.NewRaw(`INSERT INTO users (username, email, full_name, password_hash, user_type, created_at, updated_at)
		VALUES (?, ?, ?, 'x', ?, ?, ?) RETURNING id`, username, username+"@example.com", username, userType, now, now).
		Scan(context.Background(), &id)
	require.NoError(t, err, "dbtest: user %s", username)
	return id
}

// Domain inserts the registered domain name+ext, owned by a new account named
// after it, expiring at expires, and returns the domain's id.
func Domain(t testing.TB, d *db.DB, name, ext string, expires time.Time) int64 {
	t.Helper()
	owner := User(t, d, name+ext, "user")
	now := time.Now().UTC().Truncate(time.Microsecond)
	var id int64
	err := d.Bun.NewRaw(`INSERT INTO domains (user_id, name, extension, price_cents, registered_at, expires_at, created_at, updated_at)
		VALUES (?, ?, ?, 800, ?, ?, ?, ?) RETURNING id`, owner, name, ext, now, expires.UTC(), now, now).
		Scan(context.Background(), &id)
	require.NoError(t, err, "dbtest: domain %s%s", name, ext)
	// As registration does: the zone version moves and the name joins the
	// journal that API processes follow (registration.Names).
	require.NoError(t, zone.BumpVersion(context.Background(), d.Bun, now, zone.NameChange{Name: name, Extension: ext, Kind: zone.Registered}))
	return id
}
