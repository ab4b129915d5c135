package db

import (
	"context"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivermigrate"

	"github.com/nameport/nameport/migrations"
)

// migrationLockID serialises migrations of several nodes on one PostgreSQL.
const migrationLockID = 7_140_411_000_001

// Migrate applies River's migrations and then the pending schema migrations
// of this engine, each file once, in name order. It is safe to run from
// several processes at once on PostgreSQL.
func (d *DB) Migrate(ctx context.Context) error {
	if err := d.migrateRiver(ctx); err != nil {
		return err
	}
	files, err := fs.Glob(migrations.FS, string(d.Engine)+"/*.sql")
	if err != nil {
		return fmt.Errorf("db: list migrations: %w", err)
	}
	slices.Sort(files)

	return d.Bun.RunInTx(ctx, nil, func(ctx context.Context, tx bunTx) error {
		if d.Engine == Postgres {
			if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock(?)", migrationLockID); err != nil {
				return fmt.Errorf("db: lock migrations: %w", err)
			}
		}
		if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
			version TEXT PRIMARY KEY, applied_at TIMESTAMP NOT NULL)`); err != nil {
			return fmt.Errorf("db: create schema_migrations: %w", err)
		}
		var applied []string
		if err := tx.NewSelect().Table("schema_migrations").Column("version").Scan(ctx, &applied); err != nil {
			return fmt.Errorf("db: read applied migrations: %w", err)
		}
		for _, file := range files {
			version := strings.TrimSuffix(file[strings.LastIndex(file, "/")+1:], ".sql")
			if slices.Contains(applied, version) {
				continue
			}
			body, err := fs.ReadFile(migrations.FS, file)
			if err != nil {
				return fmt.Errorf("db: read migration %s: %w", file, err)
			}
			if _, err := tx.ExecContext(ctx, string(body)); err != nil {
				return fmt.Errorf("db: apply migration %s: %w", file, err)
			}
			if _, err := tx.ExecContext(ctx, "INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)",
				version, time.Now().UTC()); err != nil {
				return fmt.Errorf("db: record migration %s: %w", file, err)
			}
		}
		return nil
	})
}

func (d *DB) migrateRiver(ctx context.Context) error {
	var err error
	switch d.Engine {
	case SQLite:
		var m *rivermigrate.Migrator[*sqlTx]
		if m, err = rivermigrate.New(riversqlite.New(d.sqlDB), nil); err == nil {
			_, err = m.Migrate(ctx, rivermigrate.DirectionUp, nil)
		}
	case Postgres:
		var m *rivermigrate.Migrator[pgx.Tx]
		if m, err = rivermigrate.New(riverpgxv5.New(d.pgPool), nil); err == nil {
			_, err = m.Migrate(ctx, rivermigrate.DirectionUp, nil)
		}
	}
	if err != nil {
		return fmt.Errorf("db: river migrations: %w", err)
	}
	return nil
}
