package db

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// Statement is a query of a hot path, prepared once per connection and
// then run with its arguments: Bun writes values into the SQL text, so
// each of its queries is parsed (SQLite) or parsed and planned
// (PostgreSQL) anew, which for a query run on every request costs more
// than running it.
type Statement struct {
	d     *DB
	query string

	mu   sync.Mutex
	stmt *sql.Stmt
}

// Statement returns query, written with ? for its arguments (and no ?
// anywhere else), as a Statement prepared on first use.
func (d *DB) Statement(query string) *Statement {
	if d.Engine == Postgres {
		var b strings.Builder
		n := 0
		for _, r := range query {
			if r == '?' {
				n++
				b.WriteString("$" + strconv.Itoa(n))
				continue
			}
			b.WriteRune(r)
		}
		query = b.String()
	}
	return &Statement{d: d, query: query}
}

func (s *Statement) prepared(ctx context.Context) (*sql.Stmt, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stmt == nil {
		stmt, err := s.d.sqlDB.PrepareContext(ctx, s.query)
		if err != nil {
			return nil, fmt.Errorf("db: prepare %q: %w", s.query, err)
		}
		s.stmt = stmt
	}
	return s.stmt, nil
}

// QueryRow runs the statement outside any transaction and scans its one
// row into dest; sql.ErrNoRows when there is none.
func (s *Statement) QueryRow(ctx context.Context, args []any, dest ...any) error {
	stmt, err := s.prepared(ctx)
	if err != nil {
		return err
	}
	return stmt.QueryRowContext(ctx, args...).Scan(dest...)
}

// Query runs the statement outside any transaction; the caller closes the
// rows (Bun's ScanRow reads a row into a model).
func (s *Statement) Query(ctx context.Context, args ...any) (*sql.Rows, error) {
	stmt, err := s.prepared(ctx)
	if err != nil {
		return nil, err
	}
	return stmt.QueryContext(ctx, args...)
}
