package catalog_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/nameport/nameport/internal/catalog"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
)

// BenchmarkQuote prices names from the in-memory snapshot alone.
func BenchmarkQuote(b *testing.B) {
	d := dbtest.Open(b, db.SQLite)
	svc := setupBench(b, d)
	premium := svc.PremiumDomains(false)
	buyer := catalog.Buyer{Tier: "premium"}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		svc.QuotePremium(premium[i%len(premium)], buyer)
	}
}

// BenchmarkCheck is a whole availability check: validation, snapshot lookups,
// the quote, and the one indexed query for a registered name.
func BenchmarkCheck(b *testing.B) {
	for _, engine := range dbtest.Engines() {
		b.Run(string(engine), func(b *testing.B) {
			d := dbtest.Open(b, engine)
			svc := setupBench(b, d)
			ctx := context.Background()
			names := make([]string, 64)
			for i := range names {
				names[i] = fmt.Sprintf("bench-name-%d", i)
			}
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				if _, err := svc.Check(ctx, names[i%len(names)], ".inf.nz", catalog.Buyer{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func setupBench(b *testing.B, d *db.DB) *catalog.Service {
	b.Helper()
	svc, err := catalog.NewService(d, registrationsOf(d), catalog.Options{Secret: secret})
	if err != nil {
		b.Fatal(err)
	}
	if err := svc.Load(context.Background()); err != nil {
		b.Fatal(err)
	}
	if err := svc.SeedDemo(context.Background()); err != nil {
		b.Fatal(err)
	}
	return svc
}
