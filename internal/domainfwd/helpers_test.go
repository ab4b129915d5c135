package domainfwd

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/zone"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// addExtension inserts the active extension ext, served by our DNS.
func addExtension(t testing.TB, d *db.DB, ext string) {
	t.Helper()
	now := time.Now().UTC()
	dbtest.MustExec(t, d, `INSERT INTO extensions (extension, base_price_cents, description, active, min_name_length,
		max_name_length, allowed_characters, renewal_period_days, grace_period_days, dns_nameservers, dns_provider,
		dns_api_key_sealed, dns_api_secret_sealed, dns_zone_id, requires_verification, verification_documents,
		verification_instructions, admin_email, technical_email, billing_email, whois_privacy_enabled,
		allows_subdomains, allows_dns_management, allows_email_forwarding, created_at, updated_at)
		VALUES (?, 800, 'test', TRUE, 1, 63, 'a-z0-9-', 365, 30, '["ns1.nameport.test"]', 'custom', '', '', '', FALSE, '[]', '', '', '', '',
		TRUE, TRUE, TRUE, TRUE, ?, ?)`, ext, now, now)
}

// addDomain registers label.inf.nz (the extension must exist), expiring at
// expires.
func addDomain(t testing.TB, d *db.DB, label string, expires time.Time) Domain {
	t.Helper()
	id := dbtest.Domain(t, d, label, ".inf.nz", expires)
	var owner int64
	require.NoError(t, d.Bun.NewSelect().Table("domains").Column("user_id").Where("id = ?", id).Scan(context.Background(), &owner))
	return Domain{ID: id, UserID: owner, Label: label, Extension: ".inf.nz"}
}

type bundle struct {
	d       *db.DB
	records *zone.Service
	rules   *Service
	domain  Domain
}

// setup gives d the extension .inf.nz and the domain label.inf.nz, and a
// rules service forwarding to 127.0.0.1 (and IPv6 if given).
func setup(t *testing.T, d *db.DB, label string, opts Options) bundle {
	t.Helper()
	addExtension(t, d, ".inf.nz")
	b := bundle{d: d, domain: addDomain(t, d, label, time.Now().AddDate(1, 0, 0))}
	if opts.Records == nil {
		opts.Records = zone.NewService(d, zone.Options{})
	}
	if opts.IPv4 == nil && opts.IPv6 == nil {
		opts.IPv4 = []string{"127.0.0.1"}
	}
	b.records = opts.Records
	var err error
	b.rules, err = NewService(d, opts)
	require.NoError(t, err)
	return b
}

// addressRecords lists the records of domain at host as "TYPE content".
func hostRecords(t *testing.T, b bundle, host string) []string {
	t.Helper()
	records, err := b.records.List(context.Background(), b.domain.zone())
	require.NoError(t, err)
	var out []string
	for _, r := range records {
		if r.Name == host {
			out = append(out, r.Type+" "+r.Content)
		}
	}
	slices.Sort(out)
	return out
}

// requireCode checks that err is an application error of code whose
// message holds contains; about says what was tried.
func requireCode(t *testing.T, err error, code, contains string, about ...any) {
	t.Helper()
	var appErr *apperr.Error
	require.True(t, errors.As(err, &appErr), "want a %s error, got %v (%v)", code, err, about)
	require.Equal(t, code, appErr.Code, "%s (%v)", appErr.Message, about)
	require.Contains(t, appErr.Message, contains, about...)
}
