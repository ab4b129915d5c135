package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/uptrace/bun"
)

type (
	sqlTx = sql.Tx
	bunTx = bun.Tx
)

// Tx is a database transaction: Bun queries through the embedded bun.IDB, and
// Enqueue for River jobs that must exist exactly when the transaction commits.
type Tx struct {
	bun.IDB
	db *DB
	// driverTx is what River's InsertTx wants: *sql.Tx on SQLite, pgx.Tx on
	// PostgreSQL.
	driverTx any
}

// Enqueue inserts a River job inside the transaction: it exists only if the
// transaction commits.
func (tx *Tx) Enqueue(ctx context.Context, args river.JobArgs, opts *river.InsertOpts) error {
	if tx.db.jobs == nil {
		return errors.New("db: enqueue: the job queue is not set up")
	}
	if err := tx.db.jobs.insertTx(ctx, tx.driverTx, args, opts); err != nil {
		return fmt.Errorf("db: enqueue %s: %w", args.Kind(), err)
	}
	return nil
}

// InTx runs fn in a transaction that commits when fn returns nil and rolls
// back when it returns an error or panics.
func (d *DB) InTx(ctx context.Context, fn func(ctx context.Context, tx *Tx) error) error {
	if d.Engine == SQLite {
		return d.Bun.RunInTx(ctx, nil, func(ctx context.Context, btx bun.Tx) error {
			return fn(ctx, &Tx{IDB: btx, db: d, driverTx: btx.Tx})
		})
	}
	return d.inPgxTx(ctx, fn)
}

// inPgxTx takes one pooled connection, begins a pgx transaction on it for
// River, and runs Bun over the same connection, so both share the
// transaction. database/sql does not know a transaction is open, which is
// fine: we hold the connection until the transaction ends.
func (d *DB) inPgxTx(ctx context.Context, fn func(ctx context.Context, tx *Tx) error) (err error) {
	conn, err := d.Bun.Conn(ctx)
	if err != nil {
		return fmt.Errorf("db: take connection: %w", err)
	}
	defer conn.Close()

	var ptx pgx.Tx
	if err := conn.Raw(func(driverConn any) error {
		c, err := pgxConn(driverConn)
		if err != nil {
			return err
		}
		ptx, err = c.Begin(ctx)
		return err
	}); err != nil {
		return fmt.Errorf("db: begin: %w", err)
	}

	committed := false
	defer func() {
		if !committed {
			// A fresh context: the caller's may be cancelled, and a connection
			// must never return to the pool inside a transaction.
			_ = ptx.Rollback(context.WithoutCancel(ctx))
		}
	}()
	if err := fn(ctx, &Tx{IDB: conn, db: d, driverTx: ptx}); err != nil {
		return err
	}
	if err := ptx.Commit(ctx); err != nil {
		return fmt.Errorf("db: commit: %w", err)
	}
	committed = true
	return nil
}
