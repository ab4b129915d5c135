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

// CheckViolation reports whether err is the refusal of a CHECK constraint:
// on PostgreSQL the one named name, on SQLite the one whose expression is
// expr (SQLite names an unnamed constraint by its expression).
func CheckViolation(err error, name, expr string) bool {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code == "23514" && pgErr.ConstraintName == name
	}
	return err != nil && strings.Contains(err.Error(), "CHECK constraint failed: "+expr)
}
