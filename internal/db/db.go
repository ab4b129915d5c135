// Package db opens Nameport's database (SQLite or PostgreSQL) through Bun,
// applies migrations, and runs transactions in which Bun writes and River job
// inserts commit or roll back together on both engines.
package db

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
	"github.com/uptrace/bun/dialect/sqlitedialect"
	_ "modernc.org/sqlite" // registers the "sqlite" database/sql driver
)

// Engine names a supported database engine.
type Engine string

const (
	SQLite   Engine = "sqlite"
	Postgres Engine = "postgres"
)

// DB is an open database: Bun for queries, plus the job queue once SetupJobs
// has run.
type DB struct {
	Bun    *bun.DB
	Engine Engine

	sqlDB  *sql.DB
	pgPool *pgxpool.Pool // PostgreSQL only: River's driver wants the pgx pool
	jobs   jobQueue
}

// Open connects to url: sqlite://PATH (the file and its folder are created)
// or postgres://… (also postgresql://…).
func Open(ctx context.Context, url string) (*DB, error) {
	switch {
	case strings.HasPrefix(url, "sqlite://"):
		return openSQLite(strings.TrimPrefix(url, "sqlite://"))
	case strings.HasPrefix(url, "postgres://"), strings.HasPrefix(url, "postgresql://"):
		return openPostgres(ctx, url)
	default:
		return nil, fmt.Errorf("db: unsupported database url %q (want sqlite://PATH or postgres://…)", redact(url))
	}
}

func openSQLite(path string) (*DB, error) {
	if path == "" {
		return nil, errors.New("db: sqlite:// needs a file path")
	}
	// The database holds password hashes and sealed secrets: its folder and
	// files are the owner's alone. SQLite gives the -wal and -shm files the
	// mode of the database file, so creating that one 0600 is enough.
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("db: create folder for %s: %w", path, err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("db: create %s: %w", path, err)
	}
	f.Close()
	dsn := "file:" + path + "?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)" +
		"&_pragma=foreign_keys(1)&_pragma=synchronous(NORMAL)&_txlock=immediate"
	sqlDB, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("db: open sqlite %s: %w", path, err)
	}
	// SQLite allows one writer at a time; River and Bun share one connection
	// so that neither ever meets SQLITE_BUSY (see riversqlite's package doc).
	sqlDB.SetMaxOpenConns(1)
	if err := sqlDB.Ping(); err != nil {
		sqlDB.Close()
		return nil, fmt.Errorf("db: open sqlite %s: %w", path, err)
	}
	return &DB{Bun: bun.NewDB(sqlDB, sqlitedialect.New()), Engine: SQLite, sqlDB: sqlDB}, nil
}

// defaultPoolSize is how many connections a process keeps to PostgreSQL
// unless the URL says (pool_max_conns=N). pgx's own default is the number of
// CPUs (at least 4), which on a small API machine queues concurrent
// requests for a connection while the database server has room.
const defaultPoolSize = 20

func openPostgres(ctx context.Context, url string) (*DB, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("db: open postgres %s: %w", redact(url), err)
	}
	if !strings.Contains(url, "pool_max_conns") {
		cfg.MaxConns = defaultPoolSize
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("db: open postgres %s: %w", redact(url), err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("db: connect to postgres %s: %w", redact(url), err)
	}
	// Bun runs over database/sql on the same pgx pool that River uses, so a
	// transaction begun on one pgx connection serves both (see InTx).
	sqlDB := sql.OpenDB(oneTripQueries{stdlib.GetPoolConnector(pool)})
	return &DB{Bun: bun.NewDB(sqlDB, pgdialect.New()), Engine: Postgres, sqlDB: sqlDB, pgPool: pool}, nil
}

// oneTripQueries connects database/sql to PostgreSQL so that a query
// without arguments takes one round trip. Bun writes every value into the
// SQL text, so almost every query it sends is new to the server; pgx's
// default for queries (not Exec) prepares each new text as a named
// statement first, a second round trip (and a cache entry that only
// evicts others), inside transactions too, where it lengthens how long row
// locks (a wallet, the zone version) are held. Queries with arguments, as
// River sends, keep pgx's prepared statements.
type oneTripQueries struct{ driver.Connector }

func (c oneTripQueries) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return oneTripConn{conn.(*stdlib.Conn)}, nil
}

// oneTripConn is a pgx connection of database/sql that sends queries without
// arguments in the simple protocol, as pgx already does for Exec.
type oneTripConn struct{ *stdlib.Conn }

func (c oneTripConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	if len(args) == 0 {
		args = []driver.NamedValue{{Ordinal: 1, Value: pgx.QueryExecModeSimpleProtocol}}
	}
	return c.Conn.QueryContext(ctx, query, args)
}

// pgxConn is the pgx connection under a database/sql driver connection.
func pgxConn(driverConn any) (*pgx.Conn, error) {
	switch c := driverConn.(type) {
	case oneTripConn:
		return c.Conn.Conn(), nil
	case *stdlib.Conn:
		return c.Conn(), nil
	}
	return nil, fmt.Errorf("db: unexpected driver connection %T", driverConn)
}

// Ping reports whether the database answers.
func (d *DB) Ping(ctx context.Context) error { return d.sqlDB.PingContext(ctx) }

// ProbeWrite reports whether the database can write: it commits an upsert
// of node's row in write_probes, which reaches the disk (SQLite's WAL,
// PostgreSQL's) like any other write, and fails as they would (disk full,
// a read-only file or server, a write lock held elsewhere until ctx ends).
func (d *DB) ProbeWrite(ctx context.Context, node string) error {
	_, err := d.Bun.ExecContext(ctx, `INSERT INTO write_probes (node, probed_at) VALUES (?, ?)
		ON CONFLICT (node) DO UPDATE SET probed_at = excluded.probed_at`, node, time.Now().UTC())
	if err != nil {
		return fmt.Errorf("db: write probe: %w", err)
	}
	return nil
}

// Close stops nothing but the connections: stop the job queue first.
func (d *DB) Close() error {
	err := d.Bun.Close()
	if d.pgPool != nil {
		d.pgPool.Close()
	}
	return err
}

// redact hides the password of a database URL in messages.
func redact(url string) string {
	scheme, rest, ok := strings.Cut(url, "://")
	if !ok {
		return url
	}
	at := strings.LastIndex(rest, "@")
	if at < 0 {
		return url
	}
	user, _, hasPassword := strings.Cut(rest[:at], ":")
	if !hasPassword {
		return url
	}
	return scheme + "://" + user + ":***" + rest[at:]
}
