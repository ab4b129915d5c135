package settings_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/audit"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/settings"
)

func ptr[T any](v T) *T { return &v }

// TestAuditEntriesShareTheChangesTransaction: a change to a site setting
// (the payment gateways included) and its audit entry commit together or not
// at all, and the entry shows gateway secrets masked.
func TestAuditEntriesShareTheChangesTransaction(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		svc, err := settings.NewService(d, settings.Options{Secret: []byte(strings.Repeat("s", 32))})
		require.NoError(t, err)
		value := func(key string) string {
			var v string
			err := d.Bun.NewRaw("SELECT value FROM site_settings WHERE key = ?", key).Scan(ctx, &v)
			if err != nil {
				return ""
			}
			return v
		}
		var seen []*settings.Setting
		ok := func(before, after *settings.Setting) audit.Entry {
			seen = append(seen, before, after)
			return audit.Entry{Action: "setting", TargetType: "site_setting"}
		}
		broken := func(_, _ *settings.Setting) audit.Entry {
			return audit.Entry{Action: "setting", TargetType: "site_setting", After: func() {}}
		}
		entries := func() int { return dbtest.Count(t, d, "SELECT count(*) FROM audit_log WHERE action = 'setting'") }

		_, err = svc.Create(ctx, settings.Input{Key: ptr("site_name"), Value: ptr("Nameport")}, broken)
		require.Error(t, err)
		require.Empty(t, value("site_name"))
		require.Zero(t, entries())
		s, err := svc.Create(ctx, settings.Input{Key: ptr("site_name"), Value: ptr("Nameport")}, ok)
		require.NoError(t, err)
		require.Equal(t, 1, entries())

		_, err = svc.Update(ctx, s.ID, settings.Input{Value: ptr("Nameport Ltd")}, broken)
		require.Error(t, err)
		require.Equal(t, "Nameport", value("site_name"))
		_, err = svc.Update(ctx, s.ID, settings.Input{Value: ptr("Nameport Ltd")}, ok)
		require.NoError(t, err)
		require.Equal(t, "Nameport Ltd", value("site_name"))
		require.Equal(t, 2, entries())

		require.Error(t, svc.Delete(ctx, s.ID, broken))
		require.Equal(t, "Nameport Ltd", value("site_name"))
		require.NoError(t, svc.Delete(ctx, s.ID, ok))
		require.Empty(t, value("site_name"))
		require.Equal(t, 3, entries())
		require.Error(t, svc.Delete(ctx, s.ID, ok), "a refused change records nothing")
		require.Equal(t, 3, entries())

		// The gateways' entry shows secrets masked, never sealed or plain.
		seen = nil
		gw := `[{"id":"paypal","enabled":false,"settings":{"client_id":"id","client_secret":"verysecret1234"}}]`
		_, err = svc.Create(ctx, settings.Input{Key: ptr(settings.GatewaysKey), Value: ptr(gw)}, ok)
		require.NoError(t, err)
		require.Nil(t, seen[0])
		require.Contains(t, seen[1].Value, "1234")
		require.NotContains(t, seen[1].Value, "verysecret")
		require.NotContains(t, value(settings.GatewaysKey), "verysecret", "sealed at rest")
	})
}
