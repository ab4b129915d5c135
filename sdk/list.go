package sdk

import (
	"context"
	"iter"
	"net/url"
	"strconv"
)

// ListOptions selects one page of a list.
type ListOptions struct {
	// Limit is the page size, 1 to 100; 0 means the server's default (50).
	Limit int
	// Cursor is the NextCursor of the previous page; empty for the first.
	Cursor string
}

func (o ListOptions) query() url.Values {
	q := url.Values{}
	if o.Limit > 0 {
		q.Set("limit", strconv.Itoa(o.Limit))
	}
	if o.Cursor != "" {
		q.Set("cursor", o.Cursor)
	}
	return q
}

// all walks every page from opts on: fetch gets one page and its next
// cursor. The walk stops at the first error, which it yields with a zero T.
func all[T any](ctx context.Context, opts ListOptions, fetch func(context.Context, ListOptions) ([]T, string, error)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		for {
			items, next, err := fetch(ctx, opts)
			if err != nil {
				var zero T
				yield(zero, err)
				return
			}
			for _, item := range items {
				if !yield(item, nil) {
					return
				}
			}
			if next == "" || next == opts.Cursor {
				return
			}
			opts.Cursor = next
		}
	}
}
