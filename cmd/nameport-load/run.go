package main

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// options of one run.
type options struct {
	Bin       string
	AdminURL  string
	Duration  time.Duration
	Clients   int
	Kills     int
	Think     time.Duration
	DNSSample int
	KeepDB    bool
	Seed      uint64
	// Rescue lets River's rescue window pass for the jobs the kills left
	// running, restarts the server and expects every one of them to finish.
	Rescue bool
	// FreshAfter is how long after its acknowledgement a DNS change must
	// be answered (0: defaultFreshAfter).
	FreshAfter time.Duration
}

// restart is one SIGKILL and the server coming back.
type restart struct {
	At   time.Duration // since the start of the load
	Down time.Duration // until /readyz answered again
}

// report is the result of a run.
type report struct {
	Stats      *stats
	Restarts   []restart
	Violations []string
	Notes      []string
	DNS        dnsChecks
	Elapsed    time.Duration
}

// serverFlags are the flags of `nameport serve` besides addresses and
// storage: the demo catalog (extensions to sell), and a lifecycle scan every
// two seconds that renews ahead of a year, so that every new one-year
// domain is also renewed by a River job racing the clients' renewals. Every
// client signs up from 127.0.0.1, one network to the sign-up throttle.
var serverFlags = []string{"--demo", "--renew-interval", "2s", "--renew-ahead", "8784h", "--log-level", "warn",
	"--signup-limit", "100000"}

func run(ctx context.Context, o options, out io.Writer) (_ *report, err error) {
	if o.Clients < 2 {
		o.Clients = 2
	}
	if o.Seed == 0 {
		o.Seed = uint64(time.Now().UnixNano())
	}
	if o.DNSSample <= 0 {
		o.DNSSample = 2000
	}
	if o.FreshAfter <= 0 {
		o.FreshAfter = defaultFreshAfter
	}
	rng := rand.New(rand.NewPCG(o.Seed, 0x10ad))
	dataDir, err := os.MkdirTemp("", "nameport-load-")
	if err != nil {
		return nil, err
	}
	keep := o.KeepDB
	defer func() {
		if err != nil && ctx.Err() == nil {
			keep = true // the server's log says why
		}
		if !keep {
			os.RemoveAll(dataDir)
		}
	}()
	if o.Bin == "" {
		if o.Bin, err = buildNameport(ctx, filepath.Join(dataDir, "bin")); err != nil {
			return nil, err
		}
	}
	if o.Bin, err = filepath.Abs(o.Bin); err != nil {
		return nil, err
	}
	dbURL, drop, err := createDatabase(ctx, o.AdminURL)
	if err != nil {
		return nil, err
	}
	defer func() {
		if keep {
			fmt.Fprintf(out, "kept: database %s, data directory %s\n", dbURL, dataDir)
			return
		}
		if err := drop(); err != nil {
			fmt.Fprintln(out, "drop database:", err)
		}
	}()
	srv, err := newServer(o.Bin, dbURL, dataDir, serverFlags)
	if err != nil {
		return nil, err
	}
	defer srv.close()
	if err := srv.startFirst(ctx); err != nil {
		return nil, err
	}
	sqlDB, err := sql.Open("pgx", dbURL)
	if err != nil {
		return nil, err
	}
	defer sqlDB.Close()

	exts, err := fetchExtensions(ctx, srv.baseURL())
	if err != nil {
		return nil, err
	}
	const alnum = "abcdefghijklmnopqrstuvwxyz0123456789"
	runID := ""
	for range 4 {
		runID += string(alnum[rng.IntN(len(alnum))])
	}
	w := &world{baseURL: srv.baseURL(), runID: runID, extensions: exts, stats: newStats(), acks: newAcks(), think: o.Think, db: sqlDB}

	fmt.Fprintf(out, "nameport-load: run %s (seed %d), %d clients for %s, %d kill(s); server %s (DNS %s), log %s\n",
		runID, o.Seed, o.Clients, o.Duration, o.Kills, srv.baseURL(), srv.dnsAddr, srv.logPath)
	clients := make([]*client, o.Clients)
	var wg sync.WaitGroup
	signUpErrs := make([]error, o.Clients)
	for i := range clients {
		clients[i] = newClient(w, i, i%2 == 1, rng.Uint64())
		wg.Go(func() { signUpErrs[i] = clients[i].signUp(ctx) })
	}
	wg.Wait()
	for _, err := range signUpErrs {
		if err != nil {
			return nil, err
		}
	}

	rep := &report{Stats: w.stats}
	start := time.Now()
	w.start = start
	loadCtx, cancelLoad := context.WithTimeout(ctx, o.Duration)
	defer cancelLoad()
	for _, c := range clients {
		wg.Go(func() { c.run(loadCtx) })
	}
	probe := &soaProbe{}
	var zones []string
	for _, e := range exts {
		zones = append(zones, strings.TrimPrefix(e, ".")+".")
	}
	probeCtx, stopProbe := context.WithCancel(ctx)
	probeDone := make(chan struct{})
	fresh := &freshnessProbe{after: o.FreshAfter}
	var probes sync.WaitGroup
	probes.Go(func() { probe.run(probeCtx, srv.dnsAddr, zones) })
	probes.Go(func() { fresh.run(probeCtx, srv.dnsAddr, w.acks, rng.Uint64()) })
	go func() { defer close(probeDone); probes.Wait() }()
	var killErr error
	var lastStart time.Time
	for i := 1; i <= o.Kills; i++ {
		// Evenly spread, each moved by up to a quarter of the spacing, so
		// that kills land in every phase of the clients' requests.
		spacing := o.Duration / time.Duration(o.Kills+1)
		at := start.Add(spacing*time.Duration(i) + time.Duration(rng.Int64N(int64(spacing)/2+1)) - spacing/4)
		select {
		case <-loadCtx.Done():
		case <-time.After(time.Until(at)):
		}
		if loadCtx.Err() != nil {
			break
		}
		killed := time.Now()
		if killErr = srv.kill(); killErr != nil {
			break
		}
		// The new server's jobs are those attempted after it was spawned: a
		// fetch the killed one sent just before dying may still be carried
		// out by PostgreSQL after the kill signal, and its jobs are orphans.
		restarted := time.Now()
		if killErr = srv.start(ctx); killErr != nil {
			break
		}
		lastStart = restarted
		rep.Restarts = append(rep.Restarts, restart{At: killed.Sub(start), Down: time.Since(killed)})
		fmt.Fprintf(out, "  SIGKILL at %s, ready again after %s\n", killed.Sub(start).Round(time.Millisecond), time.Since(killed).Round(time.Millisecond))
	}
	if killErr != nil {
		cancelLoad()
		stopProbe()
		wg.Wait()
		return nil, fmt.Errorf("kill and restart: %w", killErr)
	}
	<-loadCtx.Done()
	fmt.Fprintf(out, "  load over after %s; waiting for operations in flight\n", time.Since(start).Round(time.Millisecond))
	wg.Wait()
	rep.Elapsed = time.Since(start)
	stopProbe()
	<-probeDone
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}

	chk := &checker{db: sqlDB}
	chk.violations = append(chk.violations, probe.violations...)
	chk.violations = append(chk.violations, fresh.violations...)
	chk.note("DNS answers checked live against acknowledged changes: %d", fresh.checked)
	chk.note("SOA serials probed %d times during the run; other answers: %v", probe.answers, probe.otherCodes)
	// Quiet: DNS nodes notice changes within a second; River drains what
	// the last server queued (jobs orphaned by the kill wait for rescue).
	time.Sleep(1500 * time.Millisecond)
	if lastStart.IsZero() {
		lastStart = start.Add(-time.Hour) // no kill: every running job is the live server's
	}
	waitForJobs(ctx, sqlDB, lastStart, 20*time.Second)
	rep.DNS = chk.checkDNS(ctx, srv.dnsAddr, zones, w.acks, o.DNSSample, rng)

	stopAt := time.Now()
	if err := srv.stop(30 * time.Second); err != nil {
		chk.violate("graceful stop: %v", err)
	}
	chk.note("graceful stop took %s", time.Since(stopAt).Round(time.Millisecond))
	if o.Rescue {
		if rescuedAt, ok := chk.rescueOrphans(ctx, srv, lastStart, out); ok {
			lastStart = rescuedAt
		}
	}
	chk.checkDatabase(ctx, lastStart, w.acks)
	rep.Violations, rep.Notes = chk.violations, chk.notes
	if len(rep.Violations) > 0 {
		keep = true
	}
	printReport(out, o, rep)
	return rep, nil
}

// rescueTimeout bounds how long the rescued jobs may take: River's rescuer
// runs every 30 seconds on the leader (elected within seconds of the
// start), a rescued job waits for its retry back-off, then for a worker.
// Measured: 6 s to a minute.
const rescueTimeout = 3 * time.Minute

// rescueOrphans makes the jobs the kills left 'running' look an hour older
// than they are, as if River's rescue window had passed, starts the server
// again, waits until River's rescuer has taken every one of them back and
// they have finished, and stops the server gracefully. It returns when that
// server started; false when there was nothing to rescue or it failed (a
// violation).
func (c *checker) rescueOrphans(ctx context.Context, srv *server, liveSince time.Time, out io.Writer) (time.Time, bool) {
	// A job the last server left running despite its graceful stop is a
	// violation checkJobs reports; only the kills' orphans age here.
	rs, err := c.db.QueryContext(ctx, `UPDATE river_job SET attempted_at = attempted_at - $2::interval
		WHERE state = 'running' AND attempted_at < $1 RETURNING id`, liveSince, "2 hours")
	if err != nil {
		c.violate("rescue: age orphaned jobs: %v", err)
		return time.Time{}, false
	}
	var ids []int64
	for rs.Next() {
		var id int64
		if err := rs.Scan(&id); err == nil {
			ids = append(ids, id)
		}
	}
	rs.Close()
	if len(ids) == 0 {
		return time.Time{}, false
	}
	started := time.Now()
	fmt.Fprintf(out, "  rescue: %d job(s) orphaned by the kills, aged past River's rescue window; server started again\n", len(ids))
	if err := srv.start(ctx); err != nil {
		c.violate("rescue: restart: %v", err)
		return time.Time{}, false
	}
	deadline := time.Now().Add(rescueTimeout)
	var pending []string
	for {
		pending = pending[:0]
		err := func() error {
			// Done: finished, or worked again since the restart and now
			// waiting for a later time of its own (snoozed, or a retry
			// after an error). Not done: running, not yet worked again,
			// or due and not worked.
			rs, err := c.db.QueryContext(ctx, `SELECT id, kind, state FROM river_job WHERE id = ANY($1)
				AND (state = 'running'
				  OR (state NOT IN ('completed', 'cancelled', 'discarded') AND attempted_at < $2)
				  OR (state IN ('available', 'retryable', 'scheduled') AND scheduled_at <= now()))`, ids, started)
			if err != nil {
				return err
			}
			defer rs.Close()
			for rs.Next() {
				var id int64
				var kind, state string
				if err := rs.Scan(&id, &kind, &state); err != nil {
					return err
				}
				pending = append(pending, fmt.Sprintf("%s job %d (%s)", kind, id, state))
			}
			return rs.Err()
		}()
		if err != nil {
			c.violate("rescue: %v", err)
			break
		}
		if len(pending) == 0 || time.Now().After(deadline) || ctx.Err() != nil {
			break
		}
		time.Sleep(500 * time.Millisecond)
	}
	if len(pending) > 0 {
		c.violate("rescue: %d of %d orphaned jobs were not worked within %s of the restart: %s", len(pending), len(ids),
			rescueTimeout, strings.Join(pending[:min(len(pending), 10)], ", "))
	} else {
		c.note("rescue: all %d orphaned jobs were worked again %s after the restart", len(ids), time.Since(started).Round(time.Millisecond))
	}
	waitForJobs(ctx, c.db, started, 20*time.Second)
	if err := srv.stop(30 * time.Second); err != nil {
		c.violate("graceful stop after the rescue: %v", err)
	}
	return started, true
}

// waitForJobs waits until no job is available to work or being worked by
// the live server (started at liveSince), or timeout.
func waitForJobs(ctx context.Context, d *sql.DB, liveSince time.Time, timeout time.Duration) {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) && ctx.Err() == nil {
		var n int
		err := d.QueryRowContext(ctx, `SELECT count(*) FROM river_job
			WHERE (state = 'available' AND scheduled_at <= now()) OR (state = 'running' AND attempted_at >= $1)`, liveSince).Scan(&n)
		if err != nil || n == 0 {
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func printReport(out io.Writer, o options, rep *report) {
	fmt.Fprintf(out, "\nload: %d clients for %s (%s with operations in flight), %d restart(s) after SIGKILL",
		o.Clients, o.Duration, rep.Elapsed.Round(time.Millisecond), len(rep.Restarts))
	for _, r := range rep.Restarts {
		fmt.Fprintf(out, " [at %s, down %s]", r.At.Round(time.Millisecond), r.Down.Round(time.Millisecond))
	}
	fmt.Fprintln(out)
	rep.Stats.print(out)
	fmt.Fprintf(out, "DNS queries checked: %d record sets, %d empty names/types, %d unregistered names\n",
		rep.DNS.Sets, rep.DNS.Empty, rep.DNS.Absent)
	for _, n := range rep.Notes {
		fmt.Fprintln(out, "note:", n)
	}
	if len(rep.Violations) == 0 {
		fmt.Fprintln(out, "invariants: all hold (ledger, charges, jobs and mail, DNS, acknowledged effects)")
		return
	}
	fmt.Fprintf(out, "invariants: %d VIOLATION(S):\n", len(rep.Violations))
	for _, v := range rep.Violations {
		fmt.Fprintln(out, "  -", v)
	}
}

// buildNameport builds ./cmd/nameport of the module around the working
// directory into dir. (Never into the module root: a file named nameport
// there is read by viper as its configuration.)
func buildNameport(ctx context.Context, dir string) (string, error) {
	root, err := moduleRoot()
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "nameport")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/nameport")
	cmd.Dir = root
	if outp, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./cmd/nameport: %w\n%s", err, outp)
	}
	return bin, nil
}

// moduleRoot is the nearest directory upwards holding Nameport's go.mod.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil &&
			strings.Contains(string(b), "module github.com/nameport/nameport\n") {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("not inside the nameport module; pass --bin")
		}
		dir = parent
	}
}
