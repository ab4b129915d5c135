package main

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestInvariantsHoldUnderLoadAndAKill is the short form of the load run: a
// real `nameport serve` on PostgreSQL, eight clients for 16 seconds, one
// SIGKILL and restart halfway, then every invariant check. The long form is
// `make load` or `go run ./cmd/nameport-load --duration 5m --clients 50`.
func TestInvariantsHoldUnderLoadAndAKill(t *testing.T) {
	t.Parallel()
	adminURL, bin := setup(t)

	var log bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	rep, err := run(ctx, options{Bin: bin, AdminURL: adminURL, Duration: 16 * time.Second, Clients: 8, Kills: 1,
		Think: 10 * time.Millisecond, Rescue: true, FreshAfter: 5 * time.Second}, &log)
	t.Log("\n" + log.String())
	require.NoError(t, err)
	require.Empty(t, rep.Violations)
	require.Len(t, rep.Restarts, 1, "the server was killed and restarted once")
	require.Positive(t, rep.Stats.total(outcomeOK))
	for _, kind := range []string{"deposit", "register", "register_contest", "renew", "dns_add", "dns_upsert"} {
		require.Positive(t, rep.Stats.ops[kind][outcomeOK], "some %s operations succeed", kind)
	}
	require.Positive(t, rep.DNS.Sets, "record sets were checked by DNS")
}

// TestChecksFindViolations breaks each invariant by hand in a migrated
// database and expects the checks to say so: they are not vacuous.
func TestChecksFindViolations(t *testing.T) {
	t.Parallel()
	adminURL, bin := setup(t)
	ctx := context.Background()
	dbURL, drop, err := createDatabase(ctx, adminURL)
	require.NoError(t, err)
	t.Cleanup(func() { _ = drop() })
	migrate := exec.Command(bin, "migrate", "--database-url", dbURL, "--data-dir", t.TempDir())
	migrate.Dir = t.TempDir()
	out, err := migrate.CombinedOutput()
	require.NoError(t, err, "nameport migrate:\n%s", out)

	d, err := sql.Open("pgx", dbURL)
	require.NoError(t, err)
	defer d.Close()
	for _, q := range []string{
		`INSERT INTO users (id, username, email, full_name, password_hash, user_type, created_at, updated_at)
			VALUES (1, 'u', 'u@x.test', 'U', 'x', 'user', now(), now())`,
		// 1: a balance the ledger does not explain.
		`INSERT INTO wallets (user_id, balance_cents, updated_at) VALUES (1, 500, now())`,
		`INSERT INTO transactions (user_id, type, amount_cents, status, created_at) VALUES (1, 'deposit', 400, 'completed', now())`,
		// 2: a domain nobody paid for, and a charge without its domain.
		`INSERT INTO domains (id, user_id, name, extension, price_cents, registered_at, expires_at, created_at, updated_at)
			VALUES (7, 1, 'free', '.inf.nz', 800, now(), now() + interval '1 year', now(), now())`,
		`INSERT INTO transactions (user_id, type, amount_cents, status, created_at) VALUES (1, 'domain_purchase', -800, 'completed', now())`,
		// 3: a mail job that completed without its outbox row, and one stuck.
		`INSERT INTO river_job (args, kind, max_attempts, queue, state, attempt, attempted_at, finalized_at)
			VALUES ('{"userId":1,"kind":"deposit_receipt","data":{"amount":"400","balance":"400"}}', 'notify.send', 8, 'default',
				'completed', 1, now(), now())`,
		`INSERT INTO river_job (args, kind, max_attempts, queue, state, attempt, attempted_at)
			VALUES ('{}', 'registration.renew', 400, 'default', 'running', 1, now() - interval '3 hours')`,
	} {
		_, err := d.Exec(q)
		require.NoError(t, err, q)
	}
	c := &checker{db: d}
	c.checkDatabase(ctx, time.Now(), nil)
	all := strings.Join(c.violations, "\n")
	for _, want := range []string{
		"wallet of user 1 holds 500 cents but its completed transactions sum to -400",
		"free.inf.nz (domain 7) has 0 registration charges",
		"domain_purchase transaction 2 of user 1 has no domain",
		"mail job 1 completed without an outbox row",
		"past River's rescue window",
	} {
		require.Contains(t, all, want)
	}
	require.NotContains(t, all, "deposit_receipt", "the deposit has its receipt job")
}

// setup returns the PostgreSQL server to create databases on and a freshly
// built nameport binary; it skips without PostgreSQL.
func setup(t *testing.T) (adminURL, bin string) {
	t.Helper()
	adminURL = os.Getenv("NAMEPORT_TEST_DATABASE_URL")
	if adminURL == "" {
		t.Skip("NAMEPORT_TEST_DATABASE_URL is not set: the load run needs PostgreSQL")
	}
	if testing.Short() {
		t.Skip("the load run takes about half a minute")
	}
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "nameport-load-test-")
		if err != nil {
			buildErr = err
			return
		}
		builtBin = filepath.Join(dir, "nameport")
		build := exec.Command("go", "build", "-o", builtBin, "./cmd/nameport")
		build.Dir = filepath.Join("..", "..")
		if out, err := build.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build ./cmd/nameport: %w\n%s", err, out)
		}
	})
	require.NoError(t, buildErr)
	return adminURL, builtBin
}

var (
	buildOnce sync.Once
	builtBin  string
	buildErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if builtBin != "" {
		os.RemoveAll(filepath.Dir(builtBin))
	}
	os.Exit(code)
}
