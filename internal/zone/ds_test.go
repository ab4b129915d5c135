package zone_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/zone"
)

const sha256Digest = "1F987CC6583E92DF0890718C42C8E1C8E1C8E1C8E1C8E1C8E1C8E1C8E1C8E1C8"

// DS records: validated (key tag, algorithm, digest type and length, hex),
// only for a delegated domain; refused ones store nothing; they stay out of
// the record list and edits, and go when the delegation goes.
func TestDS(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		good := zone.DSInput{KeyTag: 2371, Algorithm: 13, DigestType: 2, Digest: strings.ToLower(sha256Digest)}

		// Not delegated: Nameport serves the domain.
		_, err := b.svc.AddDS(ctx, b.dom, good)
		requireCode(t, err, apperr.Invalid, "example.inf.nz is not delegated: DS records are for a domain whose NS records point to other name servers. Nameport signs the domains it serves itself")

		create(t, b, zone.TypeNS, "@", "ns1.other.net")
		create(t, b, zone.TypeNS, "@", "ns2.other.net")
		version := zoneVersion(t, d)

		for _, c := range []struct {
			in   zone.DSInput
			want string
		}{
			{zone.DSInput{KeyTag: -1, Algorithm: 13, DigestType: 2, Digest: sha256Digest}, "Key tag must be from 0 to 65535"},
			{zone.DSInput{KeyTag: 65536, Algorithm: 13, DigestType: 2, Digest: sha256Digest}, "Key tag must be from 0 to 65535"},
			{zone.DSInput{KeyTag: 1, Algorithm: 5, DigestType: 2, Digest: sha256Digest}, "Algorithm 5 (RSASHA1) is deprecated (RFC 8624): sign the domain with algorithm 13 (ECDSAP256SHA256) or another of 8, 10, 13, 14, 15, 16"},
			{zone.DSInput{KeyTag: 1, Algorithm: 1, DigestType: 2, Digest: sha256Digest}, "Algorithm 1 (RSAMD5) is deprecated (RFC 8624): sign the domain with algorithm 13 (ECDSAP256SHA256) or another of 8, 10, 13, 14, 15, 16"},
			{zone.DSInput{KeyTag: 1, Algorithm: 99, DigestType: 2, Digest: sha256Digest}, "Algorithm 99 is not a DNSSEC signing algorithm validators support: use 8, 10, 13, 14, 15 or 16"},
			{zone.DSInput{KeyTag: 1, Algorithm: 13, DigestType: 1, Digest: sha256Digest[:40]}, "Digest type 1 (SHA-1) is deprecated (RFC 8624): give the digest of type 2 (SHA-256)"},
			{zone.DSInput{KeyTag: 1, Algorithm: 13, DigestType: 3, Digest: sha256Digest}, "Digest type must be 2 (SHA-256) or 4 (SHA-384)"},
			{zone.DSInput{KeyTag: 1, Algorithm: 13, DigestType: 2, Digest: sha256Digest[:62]}, "A digest of type 2 is 64 hexadecimal characters long, not 62"},
			{zone.DSInput{KeyTag: 1, Algorithm: 13, DigestType: 4, Digest: sha256Digest}, "A digest of type 4 is 96 hexadecimal characters long, not 64"},
			{zone.DSInput{KeyTag: 1, Algorithm: 13, DigestType: 2, Digest: "ZZ" + sha256Digest[2:]}, "Digest must be hexadecimal (0-9, A-F)"},
			{zone.DSInput{KeyTag: 1, Algorithm: 13, DigestType: 2, Digest: "  "}, "Digest is required"},
		} {
			_, err := b.svc.AddDS(ctx, b.dom, c.in)
			requireCode(t, err, apperr.Invalid, c.want)
		}
		list, err := b.svc.ListDS(ctx, b.dom)
		require.NoError(t, err)
		require.Empty(t, list, "refused DS records store nothing")
		require.Equal(t, version, zoneVersion(t, d))

		// Spaces in the digest are dropped, the hex is upper-cased.
		in := good
		in.Digest = good.Digest[:32] + " " + good.Digest[32:]
		ds, err := b.svc.AddDS(ctx, b.dom, in)
		require.NoError(t, err)
		require.Equal(t, zone.DS{ID: ds.ID, KeyTag: 2371, Algorithm: 13, DigestType: 2, Digest: sha256Digest, TTL: zone.DefaultTTL}, *ds)
		require.Greater(t, zoneVersion(t, d), version)
		_, err = b.svc.AddDS(ctx, b.dom, good)
		requireCode(t, err, apperr.Conflict, "This DS record already exists")
		_, err = b.svc.AddDS(ctx, b.dom, zone.DSInput{KeyTag: 7, Algorithm: 15, DigestType: 4, Digest: strings.Repeat("AB", 48)})
		require.NoError(t, err)
		list, err = b.svc.ListDS(ctx, b.dom)
		require.NoError(t, err)
		require.Len(t, list, 2)

		// Not among the records, not exported.
		records, err := b.svc.List(ctx, b.dom)
		require.NoError(t, err)
		for _, r := range records {
			require.NotEqual(t, zone.TypeDS, r.Type)
		}
		text, err := b.svc.Export(ctx, b.dom)
		require.NoError(t, err)
		require.NotContains(t, text, "DS")
		// Nor a type the record paths take.
		_, err = b.svc.Create(ctx, b.dom, zone.Input{Type: "DS", Name: "@", Content: "2371 13 2 " + sha256Digest})
		require.Equal(t, apperr.Invalid, apperr.Code(err))

		requireCode(t, b.svc.DeleteDS(ctx, b.dom, 999999), apperr.NotFound, "DS record not found")
		require.NoError(t, b.svc.DeleteDS(ctx, b.dom, ds.ID))
		list, err = b.svc.ListDS(ctx, b.dom)
		require.NoError(t, err)
		require.Len(t, list, 1)

		// Another domain cannot delete it.
		other := registerDomain(t, d, "other", ".inf.nz", b.now.AddDate(1, 0, 0))
		requireCode(t, b.svc.DeleteDS(ctx, other, list[0].ID), apperr.NotFound, "DS record not found")

		// The delegation's end takes its DS records with it.
		require.NoError(t, b.svc.DeleteSet(ctx, b.dom, "@", zone.TypeNS))
		list, err = b.svc.ListDS(ctx, b.dom)
		require.NoError(t, err)
		require.Empty(t, list)
	})
}

// The DS records reach the DNS server's stream as DS resource records.
func TestDSRR(t *testing.T) {
	r := zone.Record{Name: "@", Type: zone.TypeDS, Content: "2371 13 2 " + sha256Digest, TTL: 3600}
	rr, err := r.RR("example.inf.nz.")
	require.NoError(t, err)
	require.Equal(t, "example.inf.nz.\t3600\tIN\tDS\t2371 13 2 "+sha256Digest, rr.String())
}
