// Command nameport-load checks Nameport's invariants under load and crashes.
//
// It starts `nameport serve` on a fresh PostgreSQL database and free ports,
// runs concurrent clients against it (end users on the web app's /api,
// registrars on /v1 through the Go SDK) that deposit, register names (many
// competing for the same ones), renew, and change DNS records, retrying
// failures with the same Idempotency-Key. Midway it kills the server with
// SIGKILL and starts it again on the same database; the clients carry on.
// At the end it stops the server gracefully and checks, in the database and
// with real DNS queries:
//
//  1. every wallet's balance is the sum of its completed transactions, and
//     not negative;
//  2. every domain has exactly one registration charge and every charge its
//     domain, and each expiry is the term bought plus one period per
//     renewal charge;
//  3. no job is lost or stuck: each ledger entry has its mail job, each
//     delivered mail its outbox row, nothing discarded, nothing left
//     running by the last server;
//  4. DNS answers exactly what the database holds;
//
// and that everything the server acknowledged survived the kills. It prints
// a summary and exits 1 with the list of violations when any invariant
// fails (2 when the run itself could not be done).
//
//	go run ./cmd/nameport-load --duration 5m --clients 50
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"
)

func main() {
	var o options
	flag.StringVar(&o.Bin, "bin", "", "nameport binary to run; empty: build ./cmd/nameport of this module into a temporary directory")
	flag.StringVar(&o.AdminURL, "database-url", defaultAdminURL(),
		"PostgreSQL server to create the run's fresh database on (default: $NAMEPORT_TEST_DATABASE_URL or a local server)")
	flag.DurationVar(&o.Duration, "duration", 30*time.Second, "how long clients keep starting operations")
	flag.IntVar(&o.Clients, "clients", 10, "concurrent clients, half end users (/api) and half registrars (/v1)")
	flag.IntVar(&o.Kills, "kills", 1, "how many times to SIGKILL and restart the server, evenly spread over the run")
	flag.DurationVar(&o.Think, "think", 10*time.Millisecond, "average pause of a client between operations")
	flag.IntVar(&o.DNSSample, "dns-sample", 2000, "at most this many record sets (and as many empty names) are queried by DNS at the end")
	flag.BoolVar(&o.KeepDB, "keep", false, "keep the database and data directory (always kept when an invariant fails)")
	flag.Uint64Var(&o.Seed, "seed", 0, "random seed (0: from the clock)")
	flag.DurationVar(&o.FreshAfter, "fresh-after", defaultFreshAfter, "DNS must answer an acknowledged record change within this long")
	flag.BoolVar(&o.Rescue, "rescue", true, "at the end, age the jobs the kills left running past River's rescue window, restart, and expect them all to finish")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rep, err := run(ctx, o, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "nameport-load:", err)
		os.Exit(2)
	}
	if len(rep.Violations) > 0 {
		os.Exit(1)
	}
}

func defaultAdminURL() string {
	if u := os.Getenv("NAMEPORT_TEST_DATABASE_URL"); u != "" {
		return u
	}
	return "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"
}
