package api

import (
	"strconv"
	"strings"

	"github.com/nameport/nameport/internal/apperr"
)

// Cursor paging, as /api and /v1 lists do it: a page's nextCursor is the
// opaque id to continue from, absent on the last page.

// defaultPageSize is the size of a page whose caller asked for none.
const defaultPageSize = 50

// fetchPage returns one page of at most limit items and the cursor of the
// next page, "" on the last. fetch returns up to n items that follow the
// item with id from (0 for the first page), in the list's order; fetchPage
// asks it for one more than limit to know whether another page follows.
// id is an item's id. Returns invalid for a malformed cursor.
func fetchPage[T any](cursor string, limit int, id func(*T) int64, fetch func(from int64, n int) ([]T, error)) ([]T, string, error) {
	from, err := decodeCursor(cursor)
	if err != nil {
		return nil, "", err
	}
	if limit < 1 {
		limit = defaultPageSize
	}
	items, err := fetch(from, limit+1)
	if err != nil {
		return nil, "", err
	}
	if len(items) <= limit {
		return items, "", nil
	}
	items = items[:limit]
	return items, encodeCursor(id(&items[limit-1])), nil
}

// Cursors are opaque to clients: the id to continue from, encoded.
func encodeCursor(id int64) string {
	return "c" + strconv.FormatInt(id, 36)
}

func decodeCursor(cursor string) (int64, error) {
	if cursor == "" {
		return 0, nil
	}
	id, err := strconv.ParseInt(strings.TrimPrefix(cursor, "c"), 36, 64)
	if err != nil || !strings.HasPrefix(cursor, "c") || id <= 0 {
		return 0, apperr.New(apperr.Invalid, "cursor is not valid: pass the nextCursor of the previous page")
	}
	return id, nil
}
