package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/binary"
	"fmt"
	mathrand "math/rand/v2"
	"net/netip"
	"os"
	"path/filepath"
	"time"

	"github.com/uptrace/bun"

	"github.com/nameport/nameport/internal/catalog"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/registration"
	"github.com/nameport/nameport/internal/zone"
)

// The zone of the benchmark: .inf.nz, whose domains are domain1 … domainN,
// each with five records.
const (
	extension = ".inf.nz"
	origin    = "inf.nz."
)

type prepareOptions struct {
	dir     string
	domains int
	queries int
	nx      float64
	seed    uint64
}

// prepare writes dir/nameport.db and dir/queries.txt.
func prepare(ctx context.Context, o prepareOptions) error {
	if o.domains < 1 || o.queries < 1 || o.nx < 0 || o.nx >= 1 {
		return fmt.Errorf("prepare: need -domains ≥ 1, -queries ≥ 1 and 0 ≤ -nx < 1")
	}
	if err := os.MkdirAll(o.dir, 0o750); err != nil {
		return err
	}
	path := filepath.Join(o.dir, "nameport.db")
	if _, err := os.Stat(path); err == nil {
		return fmt.Errorf("prepare: %s exists; the benchmark wants a fresh database", path)
	}
	start := time.Now()
	if err := createDatabase(ctx, "sqlite://"+path, o.domains); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "dnsbench: %s: %d domains, %d records, in %s\n", path, o.domains, 5*o.domains,
		time.Since(start).Round(time.Millisecond))
	qpath := filepath.Join(o.dir, "queries.txt")
	if err := writeQueries(qpath, o); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "dnsbench: %s: %d queries, %.0f%% for names that do not exist\n", qpath, o.queries, 100*o.nx)
	return nil
}

// createDatabase migrates a new database through the real code, adds the
// extension through the catalog service, then the user, the domains and
// their records in one transaction that bumps the zone version, as a
// registration or a record change does.
func createDatabase(ctx context.Context, url string, domains int) error {
	d, err := db.Open(ctx, url)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Migrate(ctx); err != nil {
		return err
	}
	secret := make([]byte, 32) // seals DNS provider credentials, of which there are none
	if _, err := rand.Read(secret); err != nil {
		return err
	}
	cat, err := catalog.NewService(d, registration.NewNames(d, nil), catalog.Options{Secret: secret})
	if err != nil {
		return err
	}
	if err := cat.Load(ctx); err != nil {
		return err
	}
	ext, desc := extension, "Benchmark zone"
	nameservers := []string{"ns1.nameport.net", "ns2.nameport.net"}
	if _, err := cat.CreateExtension(ctx, catalog.ExtensionInput{Extension: &ext, Description: &desc,
		DNSNameservers: &nameservers}, nil); err != nil {
		return err
	}

	now := time.Now().UTC().Truncate(time.Microsecond)
	return d.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		owner := &benchUser{Username: "bench", Email: "bench@example.com", FullName: "Benchmark",
			PasswordHash: "!", UserType: "user", CreatedAt: now, UpdatedAt: now}
		if _, err := tx.NewInsert().Model(owner).Exec(ctx); err != nil {
			return fmt.Errorf("prepare: user: %w", err)
		}
		const batch = 1000
		for first := 1; first <= domains; first += batch {
			numbers := make([]int, 0, batch)
			for i := first; i < first+batch && i <= domains; i++ {
				numbers = append(numbers, i)
			}
			if _, err := insertDomains(ctx, tx, owner.ID, now, numbers, domainLabel); err != nil {
				return fmt.Errorf("prepare: %w", err)
			}
		}
		return zone.BumpVersion(ctx, tx, now)
	})
}

// insertDomains inserts the domains numbered numbers, each named label(i)
// in .inf.nz and owned by ownerID, with their five records (domainRecords),
// and returns their rows. The caller bumps the zone version in the same
// transaction (prepare and churn -db do).
func insertDomains(ctx context.Context, tx bun.IDB, ownerID int64, now time.Time, numbers []int, label func(int) string) ([]benchDomain, error) {
	rows := make([]benchDomain, len(numbers))
	for j, i := range numbers {
		rows[j] = benchDomain{UserID: ownerID, Name: label(i), Extension: extension,
			PriceCents: 800, AutoRenew: true, RegisteredAt: now, ExpiresAt: now.AddDate(1, 0, 0),
			CreatedAt: now, UpdatedAt: now}
	}
	if _, err := tx.NewInsert().Model(&rows).Returning("id").Exec(ctx); err != nil {
		return nil, fmt.Errorf("domains: %w", err)
	}
	records := make([]zone.Record, 0, 5*len(rows))
	for j, row := range rows {
		records = append(records, domainRecords(row.ID, numbers[j], row.Name, now)...)
	}
	if _, err := tx.NewInsert().Model(&records).Exec(ctx); err != nil {
		return nil, fmt.Errorf("records: %w", err)
	}
	return rows, nil
}

type benchUser struct {
	bun.BaseModel `bun:"table:users"`

	ID           int64     `bun:"id,pk,autoincrement"`
	Username     string    `bun:"username"`
	Email        string    `bun:"email"`
	FullName     string    `bun:"full_name"`
	PasswordHash string    `bun:"password_hash"` // "!": nobody logs in as it
	UserType     string    `bun:"user_type"`
	CreatedAt    time.Time `bun:"created_at"`
	UpdatedAt    time.Time `bun:"updated_at"`
}

type benchDomain struct {
	bun.BaseModel `bun:"table:domains"`

	ID           int64     `bun:"id,pk,autoincrement"`
	UserID       int64     `bun:"user_id"`
	Name         string    `bun:"name"`
	Extension    string    `bun:"extension"`
	IsPremium    bool      `bun:"is_premium"`
	PriceCents   int64     `bun:"price_cents"`
	AutoRenew    bool      `bun:"auto_renew"`
	RegisteredAt time.Time `bun:"registered_at"`
	ExpiresAt    time.Time `bun:"expires_at"`
	CreatedAt    time.Time `bun:"created_at"`
	UpdatedAt    time.Time `bun:"updated_at"`
}

func domainLabel(i int) string { return fmt.Sprintf("domain%d", i) }

// benchIPv6 returns the address of domain number i in 2001:db8::/32, in
// canonical form (as zone.Service stores it): its last 32 bits are i, so
// every domain up to four billion has its own valid address.
func benchIPv6(i int) string {
	a := [16]byte{0x20, 0x01, 0x0d, 0xb8}
	binary.BigEndian.PutUint32(a[12:], uint32(i))
	return netip.AddrFrom16(a).String()
}

// domainRecords are the five records of domain number i, named label
// (stored form, as zone.Service stores them): A, AAAA, MX and TXT at the
// apex, and www a CNAME to the apex.
func domainRecords(domainID int64, i int, label string, now time.Time) []zone.Record {
	prio := 10
	rec := func(name, typ, content string, p *int) zone.Record {
		return zone.Record{DomainID: domainID, Name: name, Type: typ, Content: content, TTL: zone.DefaultTTL,
			Priority: p, CreatedAt: now, UpdatedAt: now}
	}
	return []zone.Record{
		rec("@", zone.TypeA, fmt.Sprintf("198.51.%d.%d", 100+i/254%50, i%254+1), nil),
		rec("@", zone.TypeAAAA, benchIPv6(i), nil),
		rec("@", zone.TypeMX, "mail.example.com", &prio),
		rec("@", zone.TypeTXT, fmt.Sprintf("v=spf1 include:_spf.example.com ~all id=%d", i), nil),
		rec("www", zone.TypeCNAME, label+extension, nil),
	}
}

// writeQueries writes the dnsperf query file ("name TYPE" per line). The
// mix, of the names that exist: 35% A at the apex, 15% AAAA, 15% MX, 15%
// TXT, 20% A of www (a CNAME to the apex, followed); and a share nx of
// names that do not exist (A), each line a different name.
func writeQueries(path string, o prepareOptions) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	rng := mathrand.New(mathrand.NewPCG(o.seed, 0x6e616d65706f7274))
	for range o.queries {
		if rng.Float64() < o.nx {
			fmt.Fprintf(w, "nx%08x.%s A\n", rng.Uint32(), origin[:len(origin)-1])
			continue
		}
		name := domainLabel(1+rng.IntN(o.domains)) + "." + origin[:len(origin)-1]
		switch p := rng.IntN(100); {
		case p < 35:
			fmt.Fprintf(w, "%s A\n", name)
		case p < 50:
			fmt.Fprintf(w, "%s AAAA\n", name)
		case p < 65:
			fmt.Fprintf(w, "%s MX\n", name)
		case p < 80:
			fmt.Fprintf(w, "%s TXT\n", name)
		default:
			fmt.Fprintf(w, "www.%s A\n", name)
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
