package zone_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/zone"
)

func ptr[T any](v T) *T { return &v }

type bundle struct {
	svc *zone.Service
	db  *db.DB
	dom zone.Domain
	now time.Time
}

// setup returns the record service over d and one registered domain,
// example.inf.nz.
func setup(t *testing.T, d *db.DB) bundle {
	t.Helper()
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	svc := zone.NewService(d, zone.Options{Now: func() time.Time { return now }})
	return bundle{svc: svc, db: d, dom: registerDomain(t, d, "example", ".inf.nz", now.AddDate(1, 0, 0)), now: now}
}

// registerDomain inserts a domain (and its owner) expiring at expires.
func registerDomain(t *testing.T, d *db.DB, name, ext string, expires time.Time) zone.Domain {
	t.Helper()
	return zone.Domain{ID: dbtest.Domain(t, d, name, ext, expires), Name: name, Extension: ext}
}

// addExtension inserts an active (or not) extension with nameservers.
func addExtension(t *testing.T, d *db.DB, ext string, active bool, nameservers string) {
	t.Helper()
	now := time.Now().UTC()
	dbtest.MustExec(t, d, `INSERT INTO extensions (extension, base_price_cents, description, active, min_name_length,
		max_name_length, allowed_characters, renewal_period_days, grace_period_days, dns_nameservers, dns_provider,
		dns_api_key_sealed, dns_api_secret_sealed, dns_zone_id, requires_verification, verification_documents,
		verification_instructions, admin_email, technical_email, billing_email, whois_privacy_enabled,
		allows_subdomains, allows_dns_management, allows_email_forwarding, created_at, updated_at)
		VALUES (?, 800, 'test', ?, 1, 63, 'a-z0-9-', 365, 30, ?, 'custom', '', '', '', FALSE, '[]', '', '', '', '',
		TRUE, TRUE, TRUE, TRUE, ?, ?)`, ext, active, nameservers, now, now)
}

func requireCode(t *testing.T, err error, code, msg string) {
	t.Helper()
	require.Error(t, err)
	require.Equal(t, code, apperr.Code(err), "%v", err)
	require.Equal(t, msg, apperr.Message(err))
}

func zoneVersion(t *testing.T, d *db.DB) int64 {
	t.Helper()
	v, err := zone.ReadVersions(context.Background(), d.Bun)
	require.NoError(t, err)
	return v.Zone
}

func create(t *testing.T, b bundle, typ, name, content string) *zone.Record {
	t.Helper()
	in := zone.Input{Type: typ, Name: name, Content: content}
	if typ == zone.TypeMX || typ == zone.TypeSRV {
		in.Priority = ptr(10)
	}
	rec, err := b.svc.Create(context.Background(), b.dom, in)
	require.NoError(t, err, "%s %s %s", typ, name, content)
	return rec
}

// withoutText returns notes without the lines they quote, for tests about
// what the notes say (TestImportReadsPastWhatItCannotRead checks the text).
func withoutText(notes []zone.Note) []zone.Note {
	out := make([]zone.Note, len(notes))
	for i, n := range notes {
		n.Text = ""
		out[i] = n
	}
	return out
}
