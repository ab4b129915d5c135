package requestlog_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/requestlog"
)

// bundle is a request log over a fresh database with two registrars, each
// with a key, and a running recorder.
type bundle struct {
	logs         *requestlog.Service
	d            *db.DB
	alice, bob   int64 // users
	aliceKey     int64
	aliceOther   int64 // a second key of alice's
	bobKey       int64
	now          time.Time
	stopRecorder func()
}

func setup(t *testing.T, d *db.DB, o requestlog.Options) *bundle {
	t.Helper()
	b := &bundle{d: d, now: time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)}
	if o.Now == nil {
		o.Now = func() time.Time { return b.now }
	}
	b.logs = requestlog.NewService(d, o)
	b.alice, b.aliceKey = insertRegistrar(t, d, "alice", "Default")
	b.aliceOther = insertKey(t, d, b.alice, "=HYPERLINK(\"evil\")")
	b.bob, b.bobKey = insertRegistrar(t, d, "bob", "Default")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		b.logs.Run(ctx, nil)
	}()
	b.stopRecorder = func() {
		cancel()
		<-done
	}
	t.Cleanup(b.stopRecorder)
	return b
}

func insertRegistrar(t *testing.T, d *db.DB, name, keyName string) (user, key int64) {
	t.Helper()
	now := time.Now().UTC()
	require.NoError(t, d.Bun.NewRaw(`INSERT INTO users
		(username, email, full_name, password_hash, user_type, tier, created_at, updated_at)
		VALUES (?, ?, 'Test', 'x', 'registrar', 'basic', ?, ?) RETURNING id`, name, name+"@example.com", now, now).
		Scan(context.Background(), &user))
	return user, insertKey(t, d, user, keyName)
}

func insertKey(t *testing.T, d *db.DB, user int64, name string) (key int64) {
	t.Helper()
	require.NoError(t, d.Bun.NewRaw(`INSERT INTO api_keys (user_id, name, hash, scopes, created_at)
		VALUES (?, ?, ?, 'read', ?) RETURNING id`, user, name, fmt.Sprintf("hash-%d-%s", user, name), time.Now().UTC()).
		Scan(context.Background(), &key))
	return key
}

func (b *bundle) entry(user, key int64, method, path string, status int, at time.Time) requestlog.Entry {
	return requestlog.Entry{CreatedAt: at, UserID: user, KeyID: key, Method: method, Path: path, Status: status,
		LatencyMicros: 1500, RequestID: "req-" + path}
}

func (b *bundle) flush(t *testing.T) {
	t.Helper()
	require.NoError(t, b.logs.Flush(context.Background()))
}

func (b *bundle) list(t *testing.T, user int64, f requestlog.Filter) []requestlog.Entry {
	t.Helper()
	list, err := b.logs.List(context.Background(), user, f, 0, 100)
	require.NoError(t, err)
	return list
}

func paths(list []requestlog.Entry) []string {
	out := make([]string, len(list))
	for i, e := range list {
		out[i] = e.Path
	}
	return out
}

func TestRecordsInBatchesAndListsNewestFirst(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		// Batches of 3: 7 entries make two full batches and a flushed rest.
		b := setup(t, d, requestlog.Options{BatchSize: 3, FlushEvery: time.Hour})
		for i := range 7 {
			b.logs.Record(b.entry(b.alice, b.aliceKey, "GET", fmt.Sprintf("/v1/domains/%d", i), 200, b.now.Add(time.Duration(i)*time.Second)))
		}
		b.flush(t)
		list := b.list(t, b.alice, requestlog.Filter{})
		require.Len(t, list, 7)
		require.Equal(t, "/v1/domains/6", list[0].Path, "newest first")
		require.Equal(t, "Default", list[0].KeyName)
		require.Equal(t, 1500*time.Microsecond, list[0].Latency())
		require.Equal(t, "req-/v1/domains/6", list[0].RequestID)
		require.True(t, b.now.Add(6*time.Second).Equal(list[0].CreatedAt), list[0].CreatedAt)
		require.Equal(t, requestlog.Stats{Written: 7}, b.logs.Stats())
		require.Empty(t, b.list(t, b.bob, requestlog.Filter{}), "bob sees none of alice's requests")
	})
}

func TestStoppingWritesWhatIsQueued(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d, requestlog.Options{BatchSize: 100, FlushEvery: time.Hour})
		b.logs.Record(b.entry(b.alice, b.aliceKey, "POST", "/v1/domains", 201, b.now))
		b.logs.Record(b.entry(b.alice, b.aliceKey, "GET", "/v1/wallet", 200, b.now))
		b.stopRecorder() // as the server does once HTTP has shut down
		require.Equal(t, []string{"/v1/wallet", "/v1/domains"}, paths(b.list(t, b.alice, requestlog.Filter{})))
	})
}

func TestFullQueueDropsAndCounts(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		// No recorder runs: the queue of 2 fills and Record still returns.
		logs := requestlog.NewService(d, requestlog.Options{Buffer: 2})
		for range 5 {
			logs.Record(requestlog.Entry{Path: "/v1/wallet"})
		}
		require.Equal(t, requestlog.Stats{Dropped: 3}, logs.Stats())
	})
}

func TestOffRecordsNothing(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d, requestlog.Options{Off: true})
		require.False(t, b.logs.Recording())
		b.logs.Record(b.entry(b.alice, b.aliceKey, "GET", "/v1/wallet", 200, b.now))
		b.flush(t)
		require.Empty(t, b.list(t, b.alice, requestlog.Filter{}))
	})
}

func TestClientTextIsBoundedAndStorable(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d, requestlog.Options{})
		e := b.entry(b.alice, b.aliceKey, "GET", "/v1/"+string(bytes.Repeat([]byte("a"), 5000)), 404, b.now)
		e.IdempotencyKey = "bad\xff\x00utf8"
		b.logs.Record(e)
		b.logs.Record(b.entry(b.alice, b.aliceKey, "GET", "/v1/wallet", 200, b.now))
		b.flush(t)
		list := b.list(t, b.alice, requestlog.Filter{})
		require.Len(t, list, 2, "one odd entry does not fail its batch")
		require.Len(t, list[1].Path, 1024)
		require.Equal(t, "bad\uFFFDutf8", list[1].IdempotencyKey)
	})
}

func TestFilters(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d, requestlog.Options{})
		at := func(min int) time.Time { return b.now.Add(time.Duration(min) * time.Minute) }
		b.logs.Record(b.entry(b.alice, b.aliceKey, "GET", "/v1/domains", 200, at(0)))
		b.logs.Record(b.entry(b.alice, b.aliceKey, "POST", "/v1/domains/check", 429, at(1)))
		b.logs.Record(b.entry(b.alice, b.aliceOther, "PUT", "/v1/domains/a.inf.nz/records", 403, at(2)))
		b.logs.Record(b.entry(b.alice, b.aliceOther, "GET", "/v1/wallet", 500, at(3)))
		b.logs.Record(b.entry(b.alice, b.aliceKey, "GET", "/v1/100%_done", 200, at(4)))
		b.logs.Record(b.entry(b.bob, b.bobKey, "GET", "/v1/domains", 200, at(5)))
		b.flush(t)

		for _, c := range []struct {
			name string
			f    requestlog.Filter
			want []string
		}{
			{"all", requestlog.Filter{}, []string{"/v1/100%_done", "/v1/wallet", "/v1/domains/a.inf.nz/records", "/v1/domains/check", "/v1/domains"}},
			{"key", requestlog.Filter{KeyID: b.aliceOther}, []string{"/v1/wallet", "/v1/domains/a.inf.nz/records"}},
			{"another's key", requestlog.Filter{KeyID: b.bobKey}, []string{}},
			{"2xx", requestlog.Filter{Status: "2xx"}, []string{"/v1/100%_done", "/v1/domains"}},
			{"4XX", requestlog.Filter{Status: "4XX"}, []string{"/v1/domains/a.inf.nz/records", "/v1/domains/check"}},
			{"5xx", requestlog.Filter{Status: "5xx"}, []string{"/v1/wallet"}},
			{"code", requestlog.Filter{Status: "429"}, []string{"/v1/domains/check"}},
			{"path", requestlog.Filter{Path: "domains"}, []string{"/v1/domains/a.inf.nz/records", "/v1/domains/check", "/v1/domains"}},
			{"path is not a pattern", requestlog.Filter{Path: "%_"}, []string{"/v1/100%_done"}},
			{"since", requestlog.Filter{Since: at(3)}, []string{"/v1/100%_done", "/v1/wallet"}},
			{"until", requestlog.Filter{Until: at(1)}, []string{"/v1/domains"}},
			{"together", requestlog.Filter{Since: at(1), Until: at(4), Status: "4xx", Path: "records"}, []string{"/v1/domains/a.inf.nz/records"}},
		} {
			require.Equal(t, c.want, append([]string{}, paths(b.list(t, b.alice, c.f))...), c.name)
		}
		for _, bad := range []requestlog.Filter{{Status: "6xx"}, {Status: "ok"}, {Status: "99"}, {KeyID: -1},
			{Since: at(2), Until: at(1)}, {Path: string(bytes.Repeat([]byte("a"), 1025))}} {
			_, err := b.logs.List(context.Background(), b.alice, bad, 0, 10)
			require.Equal(t, apperr.Invalid, apperr.Code(err), "%+v", bad)
		}
	})
}

func TestPagesFollowEachOther(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d, requestlog.Options{})
		for i := range 5 {
			b.logs.Record(b.entry(b.alice, b.aliceKey, "GET", fmt.Sprintf("/v1/p%d", i), 200, b.now))
		}
		b.flush(t)
		var got []string
		var before int64
		for {
			page, err := b.logs.List(context.Background(), b.alice, requestlog.Filter{}, before, 2)
			require.NoError(t, err)
			got = append(got, paths(page)...)
			if len(page) < 2 {
				break
			}
			before = page[len(page)-1].ID
		}
		require.Equal(t, []string{"/v1/p4", "/v1/p3", "/v1/p2", "/v1/p1", "/v1/p0"}, got)
	})
}

func TestExportIsCSVWithoutFormulas(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d, requestlog.Options{})
		e := b.entry(b.alice, b.aliceOther, "POST", "/v1/domains", 201, b.now)
		e.IdempotencyKey = "=cmd|' /C calc'!A0"
		b.logs.Record(e)
		b.logs.Record(b.entry(b.alice, b.aliceKey, "GET", "/v1/wallet", 404, b.now.Add(time.Second)))
		b.logs.Record(b.entry(b.bob, b.bobKey, "GET", "/v1/bob", 200, b.now))
		b.flush(t)

		var out bytes.Buffer
		require.NoError(t, b.logs.Export(context.Background(), b.alice, requestlog.Filter{}, &out))
		rows, err := csv.NewReader(&out).ReadAll()
		require.NoError(t, err)
		require.Equal(t, [][]string{
			requestlog.CSVHeader,
			{"2026-03-10T12:00:01.000Z", fmt.Sprint(b.aliceKey), "Default", "GET", "/v1/wallet", "404", "1.500", "", "req-/v1/wallet"},
			{"2026-03-10T12:00:00.000Z", fmt.Sprint(b.aliceOther), `'=HYPERLINK("evil")`, "POST", "/v1/domains", "201", "1.500",
				"'=cmd|' /C calc'!A0", "req-/v1/domains"},
		}, rows)

		out.Reset()
		require.NoError(t, b.logs.Export(context.Background(), b.alice, requestlog.Filter{Status: "2xx"}, &out))
		rows, err = csv.NewReader(&out).ReadAll()
		require.NoError(t, err)
		require.Len(t, rows, 2)
		require.Equal(t, apperr.Invalid, apperr.Code(b.logs.Export(context.Background(), b.alice, requestlog.Filter{Status: "x"}, &out)))
	})
}

func TestSafeCell(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"": "", "/v1/x": "/v1/x", "=1+1": "'=1+1", "+1": "'+1", "-1": "'-1",
		"@SUM(A1)": "'@SUM(A1)", "\tx": "'\tx", "\rx": "'\rx", "a=b": "a=b"} {
		require.Equal(t, want, requestlog.SafeCell(in), in)
	}
}

func TestPruneDeletesWhatIsOlderThan30Days(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d, requestlog.Options{})
		// Entries come in time order.
		b.logs.Record(b.entry(b.bob, b.bobKey, "GET", "/v1/bob-old", 200, b.now.Add(-40*24*time.Hour)))
		b.logs.Record(b.entry(b.alice, b.aliceKey, "GET", "/v1/old", 200, b.now.Add(-requestlog.KeepFor-time.Minute)))
		b.logs.Record(b.entry(b.alice, b.aliceKey, "GET", "/v1/kept", 200, b.now.Add(-requestlog.KeepFor+time.Minute)))
		b.flush(t)
		n, err := b.logs.Prune(context.Background())
		require.NoError(t, err)
		require.EqualValues(t, 2, n)
		require.Equal(t, []string{"/v1/kept"}, paths(b.list(t, b.alice, requestlog.Filter{})))
		require.Empty(t, b.list(t, b.bob, requestlog.Filter{}))
		n, err = b.logs.Prune(context.Background())
		require.NoError(t, err)
		require.Zero(t, n, "nothing more to prune")
	})
}
