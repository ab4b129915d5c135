package registration

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"

	"github.com/nameport/nameport/internal/catalog"
)

// namesPerQuery bounds the labels of one look-up of AreRegistered, well
// under either engine's limit of bound parameters.
const namesPerQuery = 500

// AreRegistered is IsRegistered for many names (lower case) at once, for
// the catalog's batch checks: from memory while the index is fresh, else
// one query a few hundred names.
func (n *Names) AreRegistered(ctx context.Context, names []catalog.NameQuery) ([]bool, error) {
	out := make([]bool, len(names))
	n.mu.RLock()
	fresh := !n.polled.IsZero() && n.now().Sub(n.polled) < staleAfter
	if fresh {
		for i, q := range names {
			out[i] = n.taken[nameKey(q.Name, q.Extension)] > 0
		}
	}
	n.mu.RUnlock()
	if fresh {
		return out, nil
	}
	for start := 0; start < len(names); start += namesPerQuery {
		chunk := names[start:min(start+namesPerQuery, len(names))]
		labels := make([]string, len(chunk))
		for i, q := range chunk {
			labels[i] = q.Name
		}
		var rows []struct {
			Name      string `bun:"name"`
			Extension string `bun:"extension"`
		}
		if err := n.db.Bun.NewSelect().Table("domains").Column("name", "extension").
			Where("name IN (?)", bun.In(labels)).Scan(ctx, &rows); err != nil {
			return nil, fmt.Errorf("registration: are %d names registered: %w", len(chunk), err)
		}
		taken := make(map[catalog.NameQuery]bool, len(rows))
		for _, r := range rows {
			taken[catalog.NameQuery{Name: r.Name, Extension: r.Extension}] = true
		}
		for i, q := range chunk {
			out[start+i] = taken[q]
		}
	}
	return out, nil
}
