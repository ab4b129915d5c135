// Command dnsbench prepares and checks the DNS benchmarks that
// scripts/bench-dns.sh (make bench-dns) and scripts/bench.sh (make bench)
// run: nameport against NSD under dnsperf, on the same zone and the same
// queries, and how soon a change made through the API is answered.
//
//	dnsbench prepare -dir DIR [-domains 10000] [-queries 200000]
//	    a fresh SQLite database (DIR/nameport.db) with the .inf.nz
//	    extension, one user and N domains of five records each, and the
//	    dnsperf query file (DIR/queries.txt)
//	dnsbench export -server ADDR -zone inf.nz -out FILE
//	    the zone as a server transfers it (AXFR), as a BIND zone file
//	dnsbench wait -server ADDR -zone inf.nz [-timeout 60s]
//	    waits until the server answers the zone's SOA
//	dnsbench verify -a ADDR -b ADDR -queries FILE [-sample 5000]
//	    asks both servers the same questions and compares the answers
//	dnsbench churn -url URL -key KEY -server ADDR [-changes N] [-duration D] [-rate 0]
//	    registers a domain with the registrar's key, adds A records to it
//	    through /v1 one after another (or -rate a second), N of them or
//	    for D, and asks the server over UDP every -poll until each is
//	    answered; prints one line: changes=… answered=… failed=… timed=…
//	    p50_ms=… p99_ms=… max_ms=… api_p50_ms=… api_p99_ms=… api_errors=…
//	    rate=…
//	dnsbench churn -db URL -server ADDR [-changes N] [-duration D] [-rate 0]
//	    the same, written straight into the DNS server's database (one
//	    dnsbench prepare made) through the record service, as another
//	    process of the product writes: registers a domain there, adds and
//	    removes A records of it (it holds at most two), and the server sees
//	    them only by polling the database. One after another, each change
//	    is awaited over DNS (-spread D waits a random time below D before
//	    each, out of step with the polls); at -rate, only the last, at the
//	    end. Prints
//	    the line with db_p50_ms and db_p99_ms (the writes) instead of api_…
//	dnsbench ports N
//	    prints N loopback ports free for both UDP and TCP
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "dnsbench:", err)
		os.Exit(1)
	}
}

const usage = `usage:
  dnsbench prepare -dir DIR [-domains 10000] [-queries 200000] [-nx 0.10] [-seed 1]
  dnsbench export  -server ADDR [-zone inf.nz] -out FILE
  dnsbench wait    -server ADDR [-zone inf.nz] [-timeout 60s]
  dnsbench verify  -a ADDR -b ADDR -queries FILE [-sample 5000] [-names A,B]
  dnsbench churn   -url URL -key KEY -server ADDR [-changes N] [-duration D] [-rate 0] [-await-at-end] [-do] [-poll 1ms] [-deadline 30s]
  dnsbench churn   -db URL -server ADDR [-changes N] [-duration D] [-rate 0] [-spread 0] [-poll 1ms] [-deadline 30s]
  dnsbench ports   N`

func run(ctx context.Context, args []string) error {
	if len(args) == 0 {
		return errors.New(usage)
	}
	cmd, args := args[0], args[1:]
	fs := flag.NewFlagSet("dnsbench "+cmd, flag.ContinueOnError)
	switch cmd {
	case "prepare":
		dir := fs.String("dir", "", "folder for nameport.db and queries.txt (created)")
		domains := fs.Int("domains", 10_000, "domains to create, five records each")
		queries := fs.Int("queries", 200_000, "lines of the query file")
		nx := fs.Float64("nx", 0.10, "share of queries for names that do not exist")
		seed := fs.Uint64("seed", 1, "seed of the query mix")
		if err := fs.Parse(args); err != nil {
			return err
		}
		if *dir == "" {
			return errors.New("prepare: -dir is required")
		}
		return prepare(ctx, prepareOptions{dir: *dir, domains: *domains, queries: *queries, nx: *nx, seed: *seed})
	case "export":
		server := fs.String("server", "", "server to transfer from, host:port")
		zoneName := fs.String("zone", "inf.nz", "zone")
		out := fs.String("out", "", "zone file to write")
		unsigned := fs.Bool("unsigned", false, "leave out the DNSSEC records (RRSIG, NSEC, DNSKEY, CDS, CDNSKEY): the zone's data alone, as a signing server holds it")
		if err := fs.Parse(args); err != nil {
			return err
		}
		if *server == "" || *out == "" {
			return errors.New("export: -server and -out are required")
		}
		return export(*server, *zoneName, *out, *unsigned)
	case "wait":
		server := fs.String("server", "", "server, host:port")
		zoneName := fs.String("zone", "inf.nz", "zone")
		timeout := fs.Duration("timeout", 60*time.Second, "give up after")
		if err := fs.Parse(args); err != nil {
			return err
		}
		return wait(ctx, *server, *zoneName, *timeout)
	case "verify":
		a := fs.String("a", "", "first server, host:port")
		b := fs.String("b", "", "second server, host:port")
		names := fs.String("names", "a,b", "names of the two servers in the report")
		queries := fs.String("queries", "", "dnsperf query file")
		sample := fs.Int("sample", 5000, "questions of the file to ask (0: all)")
		if err := fs.Parse(args); err != nil {
			return err
		}
		if *a == "" || *b == "" || *queries == "" {
			return errors.New("verify: -a, -b and -queries are required")
		}
		return verify(ctx, verifyOptions{a: *a, b: *b, names: *names, queries: *queries, sample: *sample})
	case "churn":
		var o churnOptions
		fs.StringVar(&o.url, "url", "", "the server's HTTP address, e.g. http://127.0.0.1:8080")
		fs.StringVar(&o.key, "key", "", "a registrar's API key with money for one domain")
		fs.StringVar(&o.db, "db", "", "instead of -url and -key: the DNS server's database (of dnsbench prepare), written through the record service")
		fs.StringVar(&o.server, "server", "", "the DNS server, host:port")
		fs.IntVar(&o.changes, "changes", 0, "changes to make (0: as many as -duration takes)")
		fs.Float64Var(&o.rate, "rate", 0, "changes started a second, answered or not (0: one after another)")
		fs.DurationVar(&o.duration, "duration", 0, "start no change after this (0: no limit)")
		fs.DurationVar(&o.spread, "spread", 0, "one after another, wait a random time below this before each change (out of step with a polling server)")
		fs.BoolVar(&o.awaitAtEnd, "await-at-end", false, "send every change first, then ask DNS for each (applied, not timed)")
		fs.BoolVar(&o.signed, "do", false, "ask with the DO bit and wait for each record signed (DNSSEC)")
		fs.DurationVar(&o.poll, "poll", time.Millisecond, "between DNS questions about one change")
		fs.DurationVar(&o.deadline, "deadline", 30*time.Second, "a change not answered this long after it was written fails")
		if err := fs.Parse(args); err != nil {
			return err
		}
		if o.db != "" {
			return churnDB(ctx, o, os.Stdout)
		}
		return churn(ctx, o, os.Stdout)
	case "ports":
		n := 1
		if len(args) > 0 {
			var err error
			if n, err = strconv.Atoi(args[0]); err != nil || n < 1 {
				return fmt.Errorf("ports: bad count %q", args[0])
			}
		}
		return ports(n)
	}
	return fmt.Errorf("unknown command %q\n%s", cmd, usage)
}

// ports prints n distinct loopback ports that are free for UDP and TCP now.
func ports(n int) error {
	seen := map[int]bool{}
	for tries := 0; len(seen) < n && tries < 100*n; tries++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return err
		}
		port := l.Addr().(*net.TCPAddr).Port
		pc, err := net.ListenPacket("udp", l.Addr().String())
		l.Close()
		if err != nil || seen[port] {
			continue
		}
		pc.Close()
		seen[port] = true
		fmt.Println(port)
	}
	if len(seen) < n {
		return errors.New("ports: not enough free ports")
	}
	return nil
}
