package api

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/apperr"
)

func TestFetchPageWalksEveryItemOnce(t *testing.T) {
	t.Parallel()
	type item struct{ ID int64 }
	all := []item{{2}, {3}, {5}, {7}, {11}}
	asked := 0
	fetch := func(from int64, n int) ([]item, error) {
		asked = n
		var out []item
		for _, it := range all {
			if it.ID > from && len(out) < n {
				out = append(out, it)
			}
		}
		return out, nil
	}
	id := func(it *item) int64 { return it.ID }

	for _, tt := range []struct {
		limit int
		pages [][]item
	}{
		{2, [][]item{{{2}, {3}}, {{5}, {7}}, {{11}}}},
		{5, [][]item{all}}, // exactly a page: no empty page after it
		{9, [][]item{all}},
	} {
		var got [][]item
		cursor := ""
		for {
			page, next, err := fetchPage(cursor, tt.limit, id, fetch)
			require.NoError(t, err)
			require.Equal(t, tt.limit+1, asked, "one more than a page tells whether another follows")
			got = append(got, page)
			if next == "" {
				break
			}
			require.Less(t, len(got), 10, "paging does not end")
			cursor = next
		}
		require.Equal(t, tt.pages, got, "limit %d", tt.limit)
	}

	_, _, err := fetchPage("", 0, id, fetch)
	require.NoError(t, err)
	require.Equal(t, defaultPageSize+1, asked)
	for _, bad := range []string{"2", "c", "c-5", "c0", "czzzzzzzzzzzzzzzzzz", "x1"} {
		_, _, err := fetchPage(bad, 2, id, fetch)
		require.Equal(t, apperr.Invalid, apperr.Code(err), bad)
	}
}
