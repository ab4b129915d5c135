package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"

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
	// last are the statements Finally queued.
	last []lastStatement
}

type lastStatement struct {
	query     string // formatted: the values written into the text
	translate func(error) error
	into      *int64 // FinallyReturning's
}

// Finally queues query (with Bun's ? placeholders) to run after everything
// else in the transaction, just before it commits. It is for the updates of
// rows every writer of some kind waits for (a wallet, the zone version): on
// PostgreSQL the queued statements and the COMMIT reach the server as one
// message, so the locks they take are held for no round trip to this
// process. They return nothing to the caller; one that fails (a constraint)
// rolls the whole transaction back, and InTx returns its error passed
// through translate (when not nil) to say what it means.
func (tx *Tx) Finally(translate func(error) error, query string, args ...any) {
	tx.last = append(tx.last, lastStatement{query: tx.db.Bun.QueryGen().FormatQuery(query, args...), translate: translate})
}

// FinallyReturning is Finally for a statement that returns one integer (an
// UPDATE … RETURNING): into receives it once the transaction has committed
// (and is left as it was if the statement returned no row).
func (tx *Tx) FinallyReturning(into *int64, translate func(error) error, query string, args ...any) {
	tx.last = append(tx.last, lastStatement{query: tx.db.Bun.QueryGen().FormatQuery(query, args...),
		translate: translate, into: into})
}

// runLast runs the statements Finally queued, one by one (SQLite).
func (tx *Tx) runLast(ctx context.Context) error {
	for _, s := range tx.last {
		var err error
		if s.into != nil {
			var v int64
			if err = tx.QueryRowContext(ctx, s.query).Scan(&v); err == nil {
				*s.into = v
			} else if errors.Is(err, sql.ErrNoRows) {
				err = nil
			}
		} else {
			_, err = tx.ExecContext(ctx, s.query)
		}
		if err != nil {
			return s.failed(err)
		}
	}
	return nil
}

func (s lastStatement) failed(err error) error {
	if s.translate != nil {
		return s.translate(err)
	}
	return fmt.Errorf("db: %w", err)
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

// EnqueueMany inserts River jobs inside the transaction in one statement,
// for callers that queue many at once (a batch of accepted mail).
func (tx *Tx) EnqueueMany(ctx context.Context, jobs []river.InsertManyParams) error {
	if len(jobs) == 0 {
		return nil
	}
	if tx.db.jobs == nil {
		return errors.New("db: enqueue: the job queue is not set up")
	}
	if err := tx.db.jobs.insertManyTx(ctx, tx.driverTx, jobs); err != nil {
		return fmt.Errorf("db: enqueue %d %s jobs: %w", len(jobs), jobs[0].Args.Kind(), err)
	}
	return nil
}

// InTx runs fn in a transaction that commits when fn returns nil and rolls
// back when it returns an error or panics.
func (d *DB) InTx(ctx context.Context, fn func(ctx context.Context, tx *Tx) error) error {
	if d.Engine == SQLite {
		return d.Bun.RunInTx(ctx, nil, func(ctx context.Context, btx bun.Tx) error {
			tx := &Tx{IDB: btx, db: d, driverTx: btx.Tx}
			if err := fn(ctx, tx); err != nil {
				return err
			}
			return tx.runLast(ctx)
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
	var pc *pgx.Conn
	if err := conn.Raw(func(driverConn any) error {
		var err error
		if pc, err = pgxConn(driverConn); err != nil {
			return err
		}
		ptx, err = pc.Begin(ctx)
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
	tx := &Tx{IDB: conn, db: d, driverTx: ptx}
	if err := fn(ctx, tx); err != nil {
		return err
	}
	if len(tx.last) > 0 {
		if err := commitWithLast(ctx, pc, tx.last); err != nil {
			return err
		}
		// Committed on the server; the pgx transaction is over too (a
		// Commit would only be told there is no transaction).
		committed = true
		return nil
	}
	if err := ptx.Commit(ctx); err != nil {
		return fmt.Errorf("db: commit: %w", err)
	}
	committed = true
	return nil
}

// commitWithLast sends the last statements and COMMIT as one simple-protocol
// message: PostgreSQL runs them in order and stops at the first error,
// which leaves the transaction aborted (and the caller rolls it back).
func commitWithLast(ctx context.Context, c *pgx.Conn, last []lastStatement) error {
	var b strings.Builder
	for _, s := range last {
		b.WriteString(s.query)
		b.WriteString(";\n")
	}
	b.WriteString("COMMIT")
	results, err := c.PgConn().Exec(ctx, b.String()).ReadAll()
	// Each statement that succeeds has a result; the first that fails ends
	// the message (its error may come as its result or only at the end).
	done := 0
	for _, r := range results {
		if r.Err != nil {
			err = r.Err
			break
		}
		done++
	}
	if err != nil && done < len(last) {
		return last[done].failed(err)
	}
	if err == nil && c.PgConn().TxStatus() != 'I' {
		err = errors.New("the transaction is still open") // e.g. COMMIT answered ROLLBACK
	}
	if err != nil {
		return fmt.Errorf("db: commit: %w", err)
	}
	for i, s := range last {
		if s.into == nil || len(results[i].Rows) == 0 || len(results[i].Rows[0]) == 0 {
			continue
		}
		// Committed already, so nothing here may report a failure: a value
		// that is not an integer (a mistake of the query) is left unread.
		if v, perr := strconv.ParseInt(string(results[i].Rows[0][0]), 10, 64); perr == nil {
			*s.into = v
		}
	}
	return nil
}
