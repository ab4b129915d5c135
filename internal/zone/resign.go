package zone

import (
	"context"
	"fmt"
	"time"

	"github.com/riverqueue/river"
	"github.com/uptrace/bun/dialect"

	"github.com/nameport/nameport/internal/db"
)

// Signed zones need their SOA serial to move even when nothing in them
// changes. The DNS server signs a zone's transfer with signatures valid for
// a week and makes them anew once a day old (by default:
// --dnssec-signature-validity and --dnssec-signature-refresh), but a secondary only transfers the zone again when the
// serial moves: a signed zone left alone for a week would be served by its
// secondaries with expired signatures. So, as Knot and BIND do when they
// re-sign, the serial is moved forward once a day when zones are signed
// and nothing else has moved it: the journal, IXFR, NOTIFY and the
// secondaries follow as after any change, and the transfer that follows
// carries signatures made anew (those a day old or more), so that what
// secondaries hold always has several days of validity left.
//
// The SOA serial is one for every zone (SnapshotData.Serial), so the bump
// moves the unsigned zones' serial too (their IXFR is then empty); it
// happens only when some active extension is signed.

// ResignAfter is how long the serial may stay still while zones are
// signed: well inside the signatures' week, so that a secondary's copy,
// transferred at most this long plus the signatures' refresh age after
// they were made, keeps days of validity.
const ResignAfter = 24 * time.Hour

// resignName is the name a serial-only bump journals (one row per signed
// extension, as every bump journals at least one row): no domain is
// called "." , and LoadChanges skips it, so no domain is loaded again.
const resignName = "."

// BumpSigned moves the SOA serial forward, changing nothing else, when an
// active extension has DNSSEC on and nothing has moved the serial for
// ResignAfter; it reports whether it did. Run on every worker at once, it
// bumps once: the version row is locked first, and the next run finds the
// bump journaled within ResignAfter. The caller runs it only when the DNS
// servers sign (--dnssec).
func (s *Service) BumpSigned(ctx context.Context) (bool, error) {
	now := s.clock()
	bumped := false
	err := s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		var version int64
		sel := tx.NewSelect().Table("zone_version").Column("version").Where("id = 1")
		if tx.Dialect().Name() == dialect.PG {
			sel = sel.For("UPDATE")
		}
		if err := sel.Scan(ctx, &version); err != nil {
			return err
		}
		var signed []string
		if err := tx.NewSelect().Table("extensions").Column("extension").Where("active").Where("dnssec_enabled").
			Order("extension").Scan(ctx, &signed); err != nil {
			return err
		}
		if len(signed) == 0 {
			return nil
		}
		// Any bump journals its rows with its time; the journal keeps a
		// day (JournalKeep), so an empty window means a still serial.
		recent, err := tx.NewSelect().Table("zone_changes").Where("created_at > ?", now.Add(-ResignAfter)).Exists(ctx)
		if err != nil || recent {
			return err
		}
		changes := make([]NameChange, len(signed))
		for i, ext := range signed {
			changes[i] = NameChange{Name: resignName, Extension: ext}
		}
		bumped = true
		return BumpVersion(ctx, tx, now, changes...)
	})
	if err != nil {
		return false, fmt.Errorf("zone: bump signed zones: %w", err)
	}
	if bumped {
		s.changed()
	}
	return bumped, nil
}

// BumpKeys moves the SOA serial forward in tx for the extensions (".inf.nz")
// whose DNSSEC keys changed (internal/dnssec rollovers): the DNS servers
// read the zones' keys again (Changes.Rekeyed), and secondaries transfer
// the new DNSKEY set.
func BumpKeys(ctx context.Context, tx *db.Tx, now time.Time, extensions ...string) error {
	changes := make([]NameChange, len(extensions))
	for i, ext := range extensions {
		changes[i] = NameChange{Name: resignName, Extension: ext}
	}
	return BumpVersion(ctx, tx, now, changes...)
}

// ResignArgs asks for BumpSigned.
type ResignArgs struct{}

// Kind identifies the job.
func (ResignArgs) Kind() string { return "zone.resign" }

// ResignWorker runs ResignArgs jobs.
type ResignWorker struct {
	river.WorkerDefaults[ResignArgs]
	Records *Service
}

// Work bumps the signed zones' serial if it is due.
func (w *ResignWorker) Work(ctx context.Context, _ *river.Job[ResignArgs]) error {
	_, err := w.Records.BumpSigned(ctx)
	return err
}

// AddWorkers registers the re-signing job and returns its schedule:
// hourly, so that the serial moves within an hour of being ResignAfter
// still (BumpSigned does nothing before).
func (s *Service) AddWorkers(workers *river.Workers) []*river.PeriodicJob {
	river.AddWorker(workers, &ResignWorker{Records: s})
	return []*river.PeriodicJob{river.NewPeriodicJob(river.PeriodicInterval(time.Hour),
		func() (river.JobArgs, *river.InsertOpts) { return ResignArgs{}, nil },
		&river.PeriodicJobOpts{RunOnStart: true})}
}
