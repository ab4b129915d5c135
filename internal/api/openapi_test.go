package api

import (
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/zone"
)

// The document names every schema after a declared type and lists every
// field the server sends: huma leaves out the fields of an unexported
// embedded struct and names an anonymous struct after its Go source.
func TestOpenAPISchemasAreComplete(t *testing.T) {
	t.Parallel()
	schemas := New(chi.NewRouter(), Services{}).OpenAPI().Components.Schemas.Map()
	for name := range schemas {
		require.False(t, strings.ContainsAny(name, " {}\"`"), "schema %q is named after an anonymous struct", name)
	}
	fields := func(name string) []string {
		s, ok := schemas[name]
		require.True(t, ok, "no schema %s", name)
		var out []string
		for f := range s.Properties {
			out = append(out, f)
		}
		return out
	}
	// A pending deposit is a transaction plus its account.
	require.Subset(t, fields("PendingDepositBody"), []string{"id", "amount", "status", "paymentMethod", "createdAt", "userId", "username", "email"})
	// An application as admins see it is the application plus its applicant.
	require.Subset(t, fields("AdminTierApplicationBody"), []string{"id", "requestedTier", "status", "createdAt", "userId", "username", "currentTier"})
	require.Subset(t, fields("BulkResultBody"), []string{"changed"})
}

// The zone file limit the document states is the one import applies.
func TestZoneFileLimitIsTheSchemas(t *testing.T) {
	t.Parallel()
	found := 0
	for name, s := range New(chi.NewRouter(), Services{}).OpenAPI().Components.Schemas.Map() {
		if f, ok := s.Properties["zoneFile"]; ok && f.MaxLength != nil { // a request's, not an export's
			require.Equal(t, zone.MaxZoneFile, *f.MaxLength, name)
			found++
		}
	}
	require.NotZero(t, found, "no schema has a zoneFile")
}
