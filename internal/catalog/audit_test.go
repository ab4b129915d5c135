package catalog_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/audit"
	"github.com/nameport/nameport/internal/catalog"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
)

// describeAs returns a Describe that records action, and one whose entry
// cannot be written (a value JSON cannot encode), which must undo the change.
func describeAs[T any](action string) (ok, broken audit.Describe[T]) {
	ok = func(_, _ T) audit.Entry { return audit.Entry{Action: action, TargetType: "test"} }
	broken = func(_, _ T) audit.Entry { return audit.Entry{Action: action, TargetType: "test", After: func() {}} }
	return ok, broken
}

// TestAuditEntriesShareTheChangesTransaction: every admin change to the
// catalog and its audit entry commit together or not at all.
func TestAuditEntriesShareTheChangesTransaction(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b, ctx := setup(t, d), context.Background()
		entries := func(action string) int {
			return dbtest.Count(t, d, "SELECT count(*) FROM audit_log WHERE action = ?", action)
		}
		extOK, extBroken := describeAs[*catalog.Extension]("ext")
		premOK, premBroken := describeAs[*catalog.PremiumDomain]("prem")
		bulkOK, bulkBroken := describeAs[*catalog.BulkChange]("bulk")

		// A failed audit write leaves no extension behind, in the database or the catalog.
		_, err := b.svc.CreateExtension(ctx, validExtension(".gone.nz"), extBroken)
		require.Error(t, err)
		require.Zero(t, dbtest.Count(t, d, "SELECT count(*) FROM extensions"))
		require.Empty(t, b.svc.Extensions(true))
		require.Zero(t, entries("ext"))

		e, err := b.svc.CreateExtension(ctx, validExtension(".inf.nz"), extOK)
		require.NoError(t, err)
		require.Equal(t, 1, entries("ext"))

		_, err = b.svc.UpdateExtension(ctx, e.ID, catalog.ExtensionInput{Description: ptr("Changed")}, extBroken)
		require.Error(t, err)
		require.Equal(t, 1, dbtest.Count(t, d, "SELECT count(*) FROM extensions WHERE description = 'A test extension'"))
		_, err = b.svc.UpdateExtension(ctx, e.ID, catalog.ExtensionInput{Description: ptr("Changed")}, extOK)
		require.NoError(t, err)
		require.Equal(t, 2, entries("ext"))

		_, err = b.svc.CreatePremium(ctx, catalog.PremiumInput{Name: ptr("gold"), Extension: ptr(".inf.nz"), PriceCents: ptr[int64](5000)}, premBroken)
		require.Error(t, err)
		require.Zero(t, dbtest.Count(t, d, "SELECT count(*) FROM premium_domains"))
		p, err := b.svc.CreatePremium(ctx, catalog.PremiumInput{Name: ptr("gold"), Extension: ptr(".inf.nz"), PriceCents: ptr[int64](5000)}, premOK)
		require.NoError(t, err)

		_, err = b.svc.UpdatePremium(ctx, p.ID, catalog.PremiumInput{Featured: ptr(true)}, premBroken)
		require.Error(t, err)
		require.Zero(t, dbtest.Count(t, d, "SELECT count(*) FROM premium_domains WHERE featured"))

		_, err = b.svc.BulkPremium(ctx, catalog.BulkFeature, []int64{p.ID}, bulkBroken)
		require.Error(t, err)
		require.Zero(t, dbtest.Count(t, d, "SELECT count(*) FROM premium_domains WHERE featured"))
		require.Zero(t, entries("bulk"))
		n, err := b.svc.BulkPremium(ctx, catalog.BulkFeature, []int64{p.ID}, bulkOK)
		require.NoError(t, err)
		require.Equal(t, 1, n)
		require.Equal(t, 1, entries("bulk"))

		require.Error(t, b.svc.DeletePremium(ctx, p.ID, premBroken))
		require.Equal(t, 1, dbtest.Count(t, d, "SELECT count(*) FROM premium_domains"))
		require.Equal(t, 1, entries("prem"))
		require.NoError(t, b.svc.DeletePremium(ctx, p.ID, premOK))
		require.Zero(t, dbtest.Count(t, d, "SELECT count(*) FROM premium_domains"))
		require.Equal(t, 2, entries("prem"))

		require.Error(t, b.svc.DeleteExtension(ctx, e.ID, extBroken))
		require.Len(t, b.svc.Extensions(true), 1)
		require.NoError(t, b.svc.DeleteExtension(ctx, e.ID, extOK))
		require.Zero(t, dbtest.Count(t, d, "SELECT count(*) FROM extensions"))
		require.Equal(t, 3, entries("ext"))

		// A refused change records nothing.
		require.Error(t, b.svc.DeleteExtension(ctx, e.ID, extOK))
		require.Equal(t, 3, entries("ext"))
	})
}
