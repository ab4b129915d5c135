package requestlog

import (
	"context"
	"testing"
	"time"

	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
)

// BenchmarkInsert measures what writing one entry costs on SQLite, where
// the writer runs in the API process: every /v1 request pays it.
func BenchmarkInsert(b *testing.B) {
	d := dbtest.Open(b, db.SQLite)
	ctx := context.Background()
	var user, key int64
	now := time.Now().UTC()
	if err := d.Bun.NewRaw(`INSERT INTO users (username, email, full_name, password_hash, user_type, created_at, updated_at)
		VALUES ('bench', 'bench@example.com', 'Bench', 'x', 'registrar', ?, ?) RETURNING id`, now, now).Scan(ctx, &user); err != nil {
		b.Fatal(err)
	}
	if err := d.Bun.NewRaw(`INSERT INTO api_keys (user_id, name, hash, scopes, created_at)
		VALUES (?, 'Default', 'hash', 'read', ?) RETURNING id`, user, now).Scan(ctx, &key); err != nil {
		b.Fatal(err)
	}
	r := newRecorder(d, Options{})
	batch := make([]Entry, r.batchSize)
	b.ResetTimer()
	for range b.N {
		for j := range batch {
			batch[j] = Entry{CreatedAt: now, UserID: user, KeyID: key, Method: "POST", Path: "/v1/domains/check",
				Status: 200, LatencyMicros: 100, RequestID: "0123456789abcdef"}
		}
		if err := r.insert(ctx, batch); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(batch))/1000, "us/entry")
}
