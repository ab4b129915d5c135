package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/zone"
)

// churnDB is churn with -db: as another process of the product (an API
// node) would, it writes the changes into the DNS server's database through
// the record service, which journals each, and the server learns of them
// only by polling the database (--dns-poll-interval): nothing pokes it. It
// registers a domain of its own the way dnsbench prepare makes domains, then
// adds and removes A records of it one change at a time. Changes are written
// in order, one after another; with a rate they start on that schedule (or
// at once when the writes fall behind) and are not awaited one by one, but
// the last is checked over DNS at the end.
func churnDB(ctx context.Context, o churnOptions, out io.Writer) error {
	switch {
	case o.db == "" || o.server == "":
		return errors.New("churn: -db and -server are required")
	case o.url != "" || o.key != "":
		return errors.New("churn: -db writes to the database; -url and -key are for writing through the API")
	case o.awaitAtEnd:
		return errors.New("churn: -await-at-end is for the API; with -db and -rate only the last change is awaited anyway")
	case o.changes < 1 && o.duration <= 0:
		return errors.New("churn: give -changes, -duration or both")
	case o.poll <= 0 || o.deadline <= 0:
		return errors.New("churn: -poll and -deadline must be above 0")
	}
	d, err := db.Open(ctx, o.db)
	if err != nil {
		return err
	}
	defer d.Close()
	domain, err := registerBenchDomain(ctx, d)
	if err != nil {
		return err
	}
	// No Changed hook: no DNS server runs in this process.
	w := &dbChurn{records: zone.NewService(d, zone.Options{}), domain: domain}
	// The first change also waits for the registration to be served; it
	// is not counted.
	first, err := w.change(ctx, 0)
	if err == nil {
		_, err = w.await(ctx, o, first)
	}
	if err != nil {
		return fmt.Errorf("churn: %s is not served: %w", domain, err)
	}
	// scripts/bench.sh starts dnsperf on this line, once changes flow.
	fmt.Fprintf(os.Stderr, "dnsbench: churn: %s is served; changing it\n", domain)
	res := w.run(ctx, o)
	if err := ctx.Err(); err != nil {
		return err
	}
	fmt.Fprintln(out, res.line())
	if len(res.failures) > 0 {
		return fmt.Errorf("churn: %d of %d changes failed; the first: %w", len(res.failures), res.started, res.failures[0])
	}
	return nil
}

// registerBenchDomain adds a domain of its own (churn-<hex>.inf.nz, so that
// no record of an earlier run can answer for this one) to a database that
// dnsbench prepare made, owned by its user and with the five records of
// every prepared domain, and journals it as a registration, so that DNS
// servers load it as a delta.
func registerBenchDomain(ctx context.Context, d *db.DB) (zone.Domain, error) {
	label, err := churnLabel()
	if err != nil {
		return zone.Domain{}, err
	}
	var ownerID int64
	err = d.Bun.NewSelect().Table("users").Column("id").Where("username = ?", "bench").Scan(ctx, &ownerID)
	if errors.Is(err, sql.ErrNoRows) {
		return zone.Domain{}, errors.New("churn: the database has no user bench: -db wants a database of dnsbench prepare")
	}
	if err != nil {
		return zone.Domain{}, fmt.Errorf("churn: the owner: %w", err)
	}
	now := time.Now().UTC().Truncate(time.Microsecond)
	domain := zone.Domain{Name: label, Extension: extension}
	err = d.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		rows, err := insertDomains(ctx, tx, ownerID, now, []int{0}, func(int) string { return label })
		if err != nil {
			return err
		}
		domain.ID = rows[0].ID
		return zone.BumpVersion(ctx, tx, now, zone.NameChange{Name: label, Extension: extension, Kind: zone.Registered})
	})
	if err != nil {
		return zone.Domain{}, fmt.Errorf("churn: register %s: %w", domain, err)
	}
	return domain, nil
}

// dbChurn changes one domain through the record service. The domain holds
// at most two records of the run, c<i> with churnAddress(i): a change adds
// one while it holds fewer, and otherwise removes the older. So adds and
// removals alternate, the domain stays small however long the run, and the
// newest record added is still there after the last change: its answer
// shows that every change before it was applied (a server applies the
// journal in order), which a removal alone cannot show.
type dbChurn struct {
	records *zone.Service
	domain  zone.Domain
	held    []heldRecord // oldest first
}

type heldRecord struct {
	i  int // the change that added it
	id int64
}

// dbChange is change i, written to the database.
type dbChange struct {
	i      int
	record int  // the change whose record it added or removed
	added  bool // or removed
	start  time.Time
	write  time.Duration // until the write committed
}

func (w *dbChurn) change(ctx context.Context, i int) (dbChange, error) {
	c := dbChange{i: i, start: time.Now()}
	if len(w.held) < 2 {
		ttl := 300
		rec, err := w.records.Create(ctx, w.domain, zone.Input{Type: zone.TypeA, Name: churnRecordLabel(i),
			Content: churnAddress(i).String(), TTL: &ttl})
		if err != nil {
			return c, fmt.Errorf("change %d: add %s: %w", i, churnRecordLabel(i), err)
		}
		w.held = append(w.held, heldRecord{i: i, id: rec.ID})
		c.record, c.added = i, true
	} else {
		oldest := w.held[0]
		if err := w.records.Delete(ctx, w.domain, oldest.id); err != nil {
			return c, fmt.Errorf("change %d: remove %s: %w", i, churnRecordLabel(oldest.i), err)
		}
		w.held = w.held[1:]
		c.record = oldest.i
	}
	c.write = time.Since(c.start)
	return c, nil
}

func churnRecordLabel(i int) string { return fmt.Sprintf("c%d", i) }

// await asks DNS until an answer shows change c applied, and returns when.
func (w *dbChurn) await(ctx context.Context, o churnOptions, c dbChange) (time.Time, error) {
	name := churnRecordLabel(c.record) + "." + w.domain.FQDN()
	await := awaitGone
	if c.added {
		await = awaitRecord
		if o.signed {
			await = awaitSigned
		}
	}
	at, err := await(ctx, o.server, name, churnAddress(c.record), o.poll, o.deadline)
	if err != nil {
		return at, fmt.Errorf("change %d: %w", c.i, err)
	}
	return at, nil
}

// awaitLast asks DNS until its answers show the last change c applied: the
// newest record is there (so every change before it was applied) and, when
// c removed one, that one is gone.
func (w *dbChurn) awaitLast(ctx context.Context, o churnOptions, c dbChange) (time.Time, error) {
	newest := w.held[len(w.held)-1].i
	at, err := w.await(ctx, o, dbChange{i: newest, record: newest, added: true})
	if err != nil || c.added {
		return at, err
	}
	return w.await(ctx, o, c)
}

func (w *dbChurn) run(ctx context.Context, o churnOptions) churnResult {
	res := churnResult{writer: "db"}
	start := time.Now()
	lastAnswer := start
	var last dbChange
	for i := 1; o.changes < 1 || i <= o.changes; i++ {
		at := o.nextChange(start, i)
		if o.duration > 0 && at.Sub(start) >= o.duration || !sleepUntil(ctx, at) {
			break
		}
		res.started++
		c, err := w.change(ctx, i)
		if err != nil {
			res.failures = append(res.failures, err)
			break
		}
		res.writes = append(res.writes, c.write)
		last = c
		if o.rate > 0 {
			continue
		}
		answeredAt, err := w.await(ctx, o, c)
		if err != nil {
			res.failures = append(res.failures, err)
			break
		}
		lastAnswer = answeredAt
		res.answered++
		res.latencies = append(res.latencies, answeredAt.Sub(c.start))
	}
	if o.rate > 0 && last.i > 0 && len(res.failures) == 0 {
		at, err := w.awaitLast(ctx, o, last)
		if err != nil {
			res.failures = append(res.failures, err)
		} else {
			// Applied in order: the last answered means all are.
			lastAnswer = at
			res.answered = res.started
			res.latencies = append(res.latencies, at.Sub(last.start))
		}
	}
	res.elapsed = lastAnswer.Sub(start)
	slices.Sort(res.latencies)
	slices.Sort(res.writes)
	return res
}
