package zone

import (
	"context"

	"github.com/uptrace/bun"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/db"
)

// Change is an edit of several records of one domain made at once, for a
// service that manages records of its own (email forwarding's MX and SPF):
// Remove picks existing records to delete, Add gives records to add, and
// Also runs in the same transaction, so the records and the service's own
// state commit together or not at all.
type Change struct {
	Remove func(Record) bool
	Add    []Input
	Also   func(ctx context.Context, tx *db.Tx, before []Record) error
}

// Apply makes c to d, with the checks of Create for each added record
// (against the records that remain) and of Delete for those removed. Also
// sees the records as they were before and may refuse the change with an
// error of its own; nothing is written then.
func (s *Service) Apply(ctx context.Context, d Domain, c Change) error {
	adds := make([]Record, 0, len(c.Add))
	for _, in := range c.Add {
		rec, err := normalize(d, in)
		if err != nil {
			return apperr.WithoutField(err) // the caller's input is not a record form
		}
		adds = append(adds, rec)
	}
	var names []string
	err := s.write(ctx, d, &names, func(ctx context.Context, tx *db.Tx) error {
		existing, err := listRecords(ctx, tx, d.ID)
		if err != nil {
			return err
		}
		if c.Also != nil {
			if err := c.Also(ctx, tx, existing); err != nil {
				return err
			}
		}
		var after []Record
		var removed []int64
		for _, r := range existing {
			if c.Remove != nil && c.Remove(r) {
				removed = append(removed, r.ID)
				names = append(names, r.Name)
				continue
			}
			after = append(after, r)
		}
		now := s.clock()
		for i := range adds {
			if err := checkSet(after, adds[i], 0); err != nil {
				return err
			}
			if others := setOf(after, adds[i].Name, adds[i].Type, 0); len(others) > 0 && c.Add[i].TTL == nil {
				adds[i].TTL, _ = ttlRange(others)
			}
			adds[i].CreatedAt, adds[i].UpdatedAt = now, now
			after = append(after, adds[i])
			names = append(names, adds[i].Name)
		}
		if len(after) > MaxRecordsPerDomain {
			return invalid("A domain can have at most %d DNS records", MaxRecordsPerDomain)
		}
		if err := checkChange(ctx, tx, d, existing, after); err != nil {
			return err
		}
		if len(removed) > 0 {
			if _, err := tx.NewDelete().Model((*Record)(nil)).Where("id IN (?)", bun.In(removed)).Where("domain_id = ?", d.ID).Exec(ctx); err != nil {
				return err
			}
		}
		for i := range adds {
			adds[i].DomainID = d.ID
			if _, err := tx.NewInsert().Model(&adds[i]).Exec(ctx); err != nil {
				return err
			}
		}
		return nil
	})
	return wrap("change records of", d, err)
}
