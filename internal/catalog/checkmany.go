package catalog

import (
	"context"
	"fmt"
)

// NameQuery is one name of a batch check: a label under an extension.
type NameQuery struct {
	Name, Extension string
}

// batchRegistrations is a Registrations that answers many names at once
// (registration.Names): one look-up for a batch instead of one a name.
type batchRegistrations interface {
	AreRegistered(ctx context.Context, names []NameQuery) ([]bool, error)
}

// CheckMany is Check for many names at once, for bulk tools: the same
// validation, reserved names and prices (from the snapshot in memory), and
// whether each name is taken asked in one batch. errs[i] is the error Check
// would return for names[i] (invalid, with the product's messages), and
// then out[i] is empty; err is for the batch as a whole (the database).
func (s *Service) CheckMany(ctx context.Context, names []NameQuery, buyer Buyer) (out []Availability, errs []error, err error) {
	out = make([]Availability, len(names))
	errs = make([]error, len(names))
	var ask []NameQuery
	var at []int
	for i, n := range names {
		a, err := s.Offer(n.Name, n.Extension, buyer)
		if err != nil {
			errs[i] = err
			continue
		}
		out[i] = a
		if a.Available {
			ask = append(ask, NameQuery{a.Name, a.Extension})
			at = append(at, i)
		}
	}
	if len(ask) == 0 {
		return out, errs, nil
	}
	taken := make([]bool, len(ask))
	if batch, ok := s.registrations.(batchRegistrations); ok {
		if taken, err = batch.AreRegistered(ctx, ask); err != nil {
			return nil, nil, fmt.Errorf("catalog: check %d names: %w", len(ask), err)
		}
	} else {
		for i, n := range ask {
			if taken[i], err = s.registrations.IsRegistered(ctx, n.Name, n.Extension); err != nil {
				return nil, nil, fmt.Errorf("catalog: check %s: %w", describeName(n.Name, n.Extension), err)
			}
		}
	}
	for j, i := range at {
		if taken[j] {
			out[i].Available, out[i].Reason = false, ReasonRegistered
		}
	}
	return out, errs, nil
}
