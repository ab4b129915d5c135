package db

import (
	"errors"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
)

// UniqueViolation reports whether err is a unique-constraint violation on
// either engine, and names the index when the engine says (PostgreSQL gives
// the constraint name; SQLite gives the columns).
func UniqueViolation(err error) (detail string, ok bool) {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23505" {
		return pgErr.ConstraintName, true
	}
	if err != nil && strings.Contains(err.Error(), "UNIQUE constraint failed") {
		return err.Error(), true
	}
	return "", false
}
