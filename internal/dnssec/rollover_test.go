package dnssec_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/dnssec"
	"github.com/nameport/nameport/internal/zone"
)

// Workers on several nodes run the rollover job at once: each step is
// taken once (one new ZSK, then one swap), and each step moves the serial
// of the zone's extension, naming the zone as rekeyed for the DNS servers.
// Without a lifetime nothing is scheduled.
func TestRolloverStepsTakenOnceByConcurrentWorkers(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		var mu sync.Mutex
		now := time.Now().UTC()
		clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
		stores := make([]*dnssec.Store, 4)
		for i := range stores {
			s, err := dnssec.NewStore(d, secret, dnssec.ECDSAP256SHA256)
			require.NoError(t, err)
			stores[i] = s.WithZSKLifetime(30 * 24 * time.Hour).WithClock(clock)
		}
		_, err := stores[0].Keys(ctx, []string{"inf.nz."})
		require.NoError(t, err)
		before, err := zone.LoadChanges(ctx, d, zone.Versions{}, nil, now)
		require.NoError(t, err)

		never, err := dnssec.NewStore(d, secret, dnssec.ECDSAP256SHA256)
		require.NoError(t, err)
		never.WithClock(func() time.Time { return now.AddDate(10, 0, 0) })
		steps, err := never.Advance(ctx)
		require.NoError(t, err)
		require.Zero(t, steps, "no lifetime: no ZSK rollover")

		race := func() int {
			var wg sync.WaitGroup
			taken := make([]int, len(stores))
			for i, s := range stores {
				wg.Go(func() {
					n, err := s.Advance(ctx)
					require.NoError(t, err)
					taken[i] = n
				})
			}
			wg.Wait()
			sum := 0
			for _, n := range taken {
				sum += n
			}
			return sum
		}
		mu.Lock()
		now = now.Add(30 * 24 * time.Hour)
		mu.Unlock()
		require.Equal(t, 1, race(), "one new ZSK")
		mu.Lock()
		now = now.Add(dnssec.PublishWait)
		mu.Unlock()
		require.Equal(t, 1, race(), "one swap")
		require.Equal(t, 0, race(), "nothing more due")

		st, err := stores[0].Status(ctx, "inf.nz.")
		require.NoError(t, err)
		require.Len(t, st.Keys, 2)
		require.Equal(t, []string{"KSK", "active"}, []string{st.Keys[0].Role, st.Keys[0].State})
		require.Equal(t, []string{"ZSK", "active"}, []string{st.Keys[1].Role, st.Keys[1].State})

		c, err := zone.LoadChanges(ctx, d, before.Versions, []string{"inf.nz."}, now)
		require.NoError(t, err)
		require.Equal(t, []string{"inf.nz."}, c.Rekeyed)
		require.Empty(t, c.Domains)
		require.Greater(t, c.Versions.Zone, before.Versions.Zone)
	})
}
