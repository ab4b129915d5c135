package dnssec

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/miekg/dns"
	"github.com/riverqueue/river"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/zone"
)

// Key rollovers (RFC 6781 4.1, RFC 7583), one at a time per zone:
//
//   - ZSK, pre-publish, on a schedule (--dnssec-zsk-lifetime): once the
//     zone's data signer has signed for the lifetime, a new ZSK is
//     published; after PublishWait (every cached DNSKEY set holds it) it
//     signs the data and the old ZSK retires; after RetireWait (no cached
//     signature is the old key's) the old one is removed. A zone signed by
//     a CSK gets its first ZSK this way: the CSK stays, as its KSK.
//   - KSK (or CSK), double-KSK, started by an admin: a new secure entry
//     point is published and signs the DNSKEY set beside the old one, and
//     the zone publishes its CDS and CDNSKEY (RFC 7344) for the parent to
//     follow. The admin confirms, once the parent registry (.nz, .ee, .uk)
//     publishes the new DS, and no sooner than PublishWait; the new key
//     becomes active (a CSK's successor signs the data too) and the old
//     one retires, still signing the DNSKEY set for the resolvers that
//     cached the old DS, until RetireWait.
//
// Every step moves the zones' serial (zone.BumpKeys), so that the DNS
// servers read the keys again and secondaries transfer them. A periodic
// job (Advance) takes the steps that are due.

// Rollover waits: PublishWait lets every cached DNSKEY set (KeyTTL) expire
// before a new key signs, RetireWait every cached record and signature
// (the longest TTL a record may have, and a DS at the parent) before a
// retired key goes. Both leave an hour for secondaries to follow.
const (
	propagation = time.Hour
	PublishWait = KeyTTL*time.Second + propagation
	RetireWait  = zone.MaxTTL*time.Second + propagation
)

// Rollover kinds and phases, as Status tells them.
const (
	RolloverZSK = "ZSK"
	RolloverKSK = "KSK"

	// PhasePublishing: the new key is published, waiting for PublishWait.
	PhasePublishing = "publishing"
	// PhaseAwaitingDS: a new KSK published long enough; the admin confirms
	// once the parent publishes its DS.
	PhaseAwaitingDS = "awaiting-ds"
	// PhaseRetiring: the old key retired, waiting for RetireWait.
	PhaseRetiring = "retiring"
)

// Rollover is a zone's rollover under way.
type Rollover struct {
	Kind  string // RolloverZSK or RolloverKSK
	Phase string
	// NextStepAt is when the next step may be taken: by the job (publishing
	// a ZSK, retiring), or by the admin's confirmation (a KSK's DS).
	NextStepAt time.Time
}

// ZoneStatus is what an admin sees of a zone's keys.
type ZoneStatus struct {
	Keys     []KeyInfo
	Rollover *Rollover // nil: none under way
	// NextRollover is when the next scheduled ZSK rollover starts; zero:
	// none scheduled (no lifetime, no key yet, or one under way).
	NextRollover time.Time
}

// KeyInfo is what an admin sees of a zone's key: never its private half.
type KeyInfo struct {
	Zone   string
	DNSKEY *dns.DNSKEY
	// Role: KSK or CSK for a secure entry point (257), a CSK when no ZSK
	// signs the zone's data; ZSK (256) signs the data only.
	Role        string
	State       string
	CreatedAt   time.Time
	ActivatedAt *time.Time
	RetiredAt   *time.Time
	RemovedAt   *time.Time
}

// DS is the record the parent zone publishes for the key (SHA-256 digest,
// what registries ask for).
func (k KeyInfo) DS() *dns.DS { return k.DNSKEY.ToDS(dns.SHA256) }

// Status returns every key of zone (an origin, any case) whatever its
// state, oldest first, and its rollover; no keys when the zone has not
// been signed yet (its key is made when a DNS server first serves it
// signed).
func (s *Store) Status(ctx context.Context, zoneName string) (ZoneStatus, error) {
	zoneName = strings.ToLower(dns.Fqdn(zoneName))
	var rows []keyRow
	if err := s.db.Bun.NewSelect().Model(&rows).ExcludeColumn("private_sealed").
		Where("zone = ?", zoneName).Order("id").Scan(ctx); err != nil {
		return ZoneStatus{}, fmt.Errorf("dnssec: keys of %s: %w", zoneName, err)
	}
	zskActive := false
	for _, r := range rows {
		zskActive = zskActive || (!r.sep() && r.State == StateActive)
	}
	var st ZoneStatus
	for _, r := range rows {
		role := "ZSK"
		if r.sep() {
			role = "CSK"
			if zskActive {
				role = "KSK"
			}
		}
		st.Keys = append(st.Keys, KeyInfo{Zone: r.Zone, DNSKEY: r.dnskey(), Role: role, State: r.State,
			CreatedAt: r.CreatedAt.UTC(), ActivatedAt: utc(r.ActivatedAt), RetiredAt: utc(r.RetiredAt), RemovedAt: utc(r.RemovedAt)})
	}
	plan := s.plan(live(rows))
	st.Rollover = plan.rollover
	if plan.rollover == nil && plan.signer != nil && s.zskLifetime > 0 {
		st.NextRollover = plan.signer.activeSince().Add(s.zskLifetime)
	}
	return st, nil
}

func utc(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// live returns the rows of keys still published.
func live(rows []keyRow) []keyRow {
	var out []keyRow
	for _, r := range rows {
		if r.State != StateRemoved {
			out = append(out, r)
		}
	}
	return out
}

// plan is a zone's keys read for rollovers.
type plan struct {
	signer    *keyRow // the data signer: the active ZSK, else the active SEP key
	sep       *keyRow // the active secure entry point
	published *keyRow // a new key under way
	retired   *keyRow
	rollover  *Rollover
}

func (s *Store) plan(rows []keyRow) plan {
	var p plan
	var zsk *keyRow
	for i := range rows {
		r := &rows[i]
		switch r.State {
		case StateActive:
			if r.sep() {
				p.sep = r
			} else {
				zsk = r
			}
		case StatePublished:
			p.published = r
		case StateRetired:
			p.retired = r
		}
	}
	p.signer = zsk
	if p.signer == nil {
		p.signer = p.sep
	}
	switch {
	case p.published != nil && p.published.sep():
		p.rollover = &Rollover{Kind: RolloverKSK, Phase: PhasePublishing, NextStepAt: p.published.CreatedAt.UTC().Add(PublishWait)}
		if !s.clock().Before(p.rollover.NextStepAt) {
			p.rollover.Phase = PhaseAwaitingDS
		}
	case p.published != nil:
		p.rollover = &Rollover{Kind: RolloverZSK, Phase: PhasePublishing, NextStepAt: p.published.CreatedAt.UTC().Add(PublishWait)}
	case p.retired != nil:
		kind := RolloverZSK
		if p.retired.sep() {
			kind = RolloverKSK
		}
		p.rollover = &Rollover{Kind: kind, Phase: PhaseRetiring, NextStepAt: p.retired.RetiredAt.UTC().Add(RetireWait)}
	}
	return p
}

// Advance takes the rollover steps that are due in every zone (see the
// top of this file) and returns how many it took. Run on several workers
// at once, each step is taken once: a key changes state only from the
// state it was read in, and the unique indexes refuse a second new key.
func (s *Store) Advance(ctx context.Context) (int, error) {
	rows, err := liveRows(ctx, s.db.Bun, nil)
	if err != nil {
		return 0, err
	}
	byZone := map[string][]keyRow{}
	var zones []string
	for _, r := range rows {
		if byZone[r.Zone] == nil {
			zones = append(zones, r.Zone)
		}
		byZone[r.Zone] = append(byZone[r.Zone], r)
	}
	steps := 0
	for _, z := range zones {
		took, err := s.advance(ctx, z, byZone[z])
		if err != nil {
			return steps, err
		}
		if took {
			steps++
		}
	}
	return steps, nil
}

// errRaced says another worker took the step first.
var errRaced = errors.New("dnssec: step taken by another worker")

// advance takes the one step due in zoneName, if any.
func (s *Store) advance(ctx context.Context, zoneName string, rows []keyRow) (bool, error) {
	now := s.clock().UTC()
	p := s.plan(rows)
	var step func(ctx context.Context, tx *db.Tx) error
	switch {
	case p.signer == nil:
		return false, nil
	case p.rollover == nil:
		if s.zskLifetime <= 0 || now.Before(p.signer.activeSince().Add(s.zskLifetime)) {
			return false, nil
		}
		step = func(ctx context.Context, tx *db.Tx) error {
			_, err := s.insertKey(ctx, tx, zoneName, uint8(p.signer.Algorithm), flagsZSK, rows)
			return err
		}
	case p.rollover.Kind == RolloverZSK && p.rollover.Phase == PhasePublishing && !now.Before(p.rollover.NextStepAt):
		step = func(ctx context.Context, tx *db.Tx) error {
			if p.signer.sep() {
				// The CSK keeps signing the key set, as the KSK.
				return setState(ctx, tx, p.published, StatePublished, StateActive, now)
			}
			return swap(ctx, tx, p.signer, p.published, now)
		}
	case p.rollover.Phase == PhaseRetiring && !now.Before(p.rollover.NextStepAt):
		step = func(ctx context.Context, tx *db.Tx) error {
			return setState(ctx, tx, p.retired, StateRetired, StateRemoved, now)
		}
	default:
		return false, nil
	}
	return s.take(ctx, zoneName, step)
}

// take runs step in a transaction that moves the zone's serial.
func (s *Store) take(ctx context.Context, zoneName string, step func(ctx context.Context, tx *db.Tx) error) (bool, error) {
	err := s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		if err := step(ctx, tx); err != nil {
			return err
		}
		return zone.BumpKeys(ctx, tx, s.clock().UTC(), "."+strings.TrimSuffix(zoneName, "."))
	})
	if errors.Is(err, errRaced) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("dnssec: rollover of %s: %w", zoneName, err)
	}
	return true, nil
}

// insertKey adds a published key to zoneName and returns it; errRaced when
// another worker added one first.
func (s *Store) insertKey(ctx context.Context, tx *db.Tx, zoneName string, algorithm uint8, flags uint16, taken []keyRow) (*keyRow, error) {
	row, err := s.newRow(zoneName, algorithm, flags, StatePublished, taken)
	if err != nil {
		return nil, err
	}
	if _, err := tx.NewInsert().Model(row).Exec(ctx); err != nil {
		if _, dup := db.UniqueViolation(err); dup {
			return nil, errRaced
		}
		return nil, err
	}
	return row, nil
}

// setState moves r from state from to state to at now; errRaced when r is
// no longer in from.
func setState(ctx context.Context, tx *db.Tx, r *keyRow, from, to string, now time.Time) error {
	q := tx.NewUpdate().Model((*keyRow)(nil)).Set("state = ?", to).Where("id = ?", r.ID).Where("state = ?", from)
	switch to {
	case StateActive:
		q = q.Set("activated_at = ?", now)
	case StateRetired:
		q = q.Set("retired_at = ?", now)
	case StateRemoved:
		q = q.Set("removed_at = ?", now)
	}
	res, err := q.Exec(ctx)
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err == nil && n != 1 {
		err = errRaced
	}
	return err
}

// swap retires old and activates published in its place (the unique index
// allows one active key per zone and role: old goes first).
func swap(ctx context.Context, tx *db.Tx, old, published *keyRow, now time.Time) error {
	if err := setState(ctx, tx, old, StateActive, StateRetired, now); err != nil {
		return err
	}
	return setState(ctx, tx, published, StatePublished, StateActive, now)
}

// Errors of the admin's rollover steps.
var (
	errUnderWay = apperr.New(apperr.Conflict, "A key rollover is already under way for this zone")
	errNoKey    = apperr.New(apperr.Conflict, "The zone has no key yet: it gets one when a DNS server first serves it signed")
	errNoKSK    = apperr.New(apperr.Conflict, "No KSK rollover is waiting for its DS")
)

// Record is told, in the transaction of an admin's rollover step, the tag
// of the key the step is about (the new KSK), for the audit log; nil: none.
type Record func(ctx context.Context, tx *db.Tx, keyTag int) error

// StartKeyRollover starts a KSK (or CSK) rollover of zoneName: its new
// key is published, with its CDS and CDNSKEY.
func (s *Store) StartKeyRollover(ctx context.Context, zoneName string, record Record) error {
	zoneName, rows, p, err := s.zonePlan(ctx, zoneName)
	if err != nil {
		return err
	}
	switch {
	case p.sep == nil:
		return errNoKey
	case p.rollover != nil:
		return errUnderWay
	}
	took, err := s.take(ctx, zoneName, func(ctx context.Context, tx *db.Tx) error {
		row, err := s.insertKey(ctx, tx, zoneName, uint8(p.sep.Algorithm), flagsSEP, rows)
		if err == nil && record != nil {
			err = record(ctx, tx, row.KeyTag)
		}
		return err
	})
	if err == nil && !took {
		return errUnderWay // another admin's, started meanwhile
	}
	return err
}

// zonePlan reads the live keys of zoneName (any case) for an admin's step.
func (s *Store) zonePlan(ctx context.Context, zoneName string) (string, []keyRow, plan, error) {
	zoneName = strings.ToLower(dns.Fqdn(zoneName))
	rows, err := liveRows(ctx, s.db.Bun, []string{zoneName})
	if err != nil {
		return "", nil, plan{}, err
	}
	return zoneName, rows, s.plan(rows), nil
}

// ConfirmDS takes a KSK rollover's step once the parent publishes the new
// key's DS: the new key becomes active, the old one retires.
func (s *Store) ConfirmDS(ctx context.Context, zoneName string, record Record) error {
	zoneName, _, p, err := s.zonePlan(ctx, zoneName)
	if err != nil {
		return err
	}
	switch {
	case p.rollover == nil || p.rollover.Kind != RolloverKSK || p.rollover.Phase == PhaseRetiring:
		return errNoKSK
	case p.rollover.Phase == PhasePublishing:
		return apperr.New(apperr.Conflict, "The new key is not yet in every resolver's cache: confirm its DS after %s",
			p.rollover.NextStepAt.Format("2 Jan 2006 15:04 MST"))
	}
	took, err := s.take(ctx, zoneName, func(ctx context.Context, tx *db.Tx) error {
		err := swap(ctx, tx, p.sep, p.published, s.clock().UTC())
		if err == nil && record != nil {
			err = record(ctx, tx, p.published.KeyTag)
		}
		return err
	})
	if err == nil && !took {
		return errNoKSK
	}
	return err
}

// RolloverArgs asks for Advance.
type RolloverArgs struct{}

// Kind identifies the job.
func (RolloverArgs) Kind() string { return "dnssec.rollover" }

// RolloverWorker runs RolloverArgs jobs.
type RolloverWorker struct {
	river.WorkerDefaults[RolloverArgs]
	Keys *Store
}

// Work takes the rollover steps that are due.
func (w *RolloverWorker) Work(ctx context.Context, _ *river.Job[RolloverArgs]) error {
	_, err := w.Keys.Advance(ctx)
	return err
}

// AddWorkers registers the rollover job and returns its schedule: hourly,
// well inside the waits (hours to a week) it follows.
func (s *Store) AddWorkers(workers *river.Workers) []*river.PeriodicJob {
	river.AddWorker(workers, &RolloverWorker{Keys: s})
	return []*river.PeriodicJob{river.NewPeriodicJob(river.PeriodicInterval(time.Hour),
		func() (river.JobArgs, *river.InsertOpts) { return RolloverArgs{}, nil },
		&river.PeriodicJobOpts{RunOnStart: true})}
}
