package mailfwd

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestGroupWritesEveryItemOnceAndTellsEachCallerItsBatchOutcome(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	written := map[int]int{}
	batches := 0
	release := make(chan struct{})
	failure := errors.New("disk full")
	g := &group[int]{write: func(_ context.Context, items []int) error {
		if items[0] == 0 {
			<-release // the first batch holds the writer while the others queue up
		}
		mu.Lock()
		defer mu.Unlock()
		batches++
		for _, it := range items {
			written[it]++
			if it < 0 {
				return failure
			}
		}
		return nil
	}}
	first := make(chan error)
	go func() { first <- g.do(context.Background(), 0) }()
	// Wait until the first item is being written.
	require.Eventually(t, func() bool {
		g.mu.Lock()
		defer g.mu.Unlock()
		return g.running && len(g.pending) == 0
	}, 5*time.Second, time.Millisecond)

	const n = 40
	errs := make([]error, n+1)
	var wg sync.WaitGroup
	for i := 1; i <= n; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = g.do(context.Background(), i) }()
	}
	require.Eventually(t, func() bool {
		g.mu.Lock()
		defer g.mu.Unlock()
		return len(g.pending) == n
	}, 5*time.Second, time.Millisecond)
	close(release)
	require.NoError(t, <-first)
	wg.Wait()
	for i := 1; i <= n; i++ {
		require.NoError(t, errs[i])
		require.Equal(t, 1, written[i])
	}
	require.Equal(t, 2, batches, "the items that waited went in one batch")

	// A failed batch fails its callers, and the group goes on.
	require.ErrorIs(t, g.do(context.Background(), -1), failure)
	require.NoError(t, g.do(context.Background(), 99))
}
