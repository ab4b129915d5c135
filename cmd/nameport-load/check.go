package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
)

// riverRescueAfter is how long River leaves a job 'running' before its
// rescuer takes it back: River's default (an hour) plus its default job
// timeout. A job in 'running' for longer is stuck for good.
const riverRescueAfter = time.Hour + time.Minute

// checker collects invariant violations (the run fails) and notes (worth
// reading, not failures).
type checker struct {
	db         *sql.DB
	violations []string
	notes      []string
}

func (c *checker) violate(format string, args ...any) {
	c.violations = append(c.violations, fmt.Sprintf(format, args...))
}

func (c *checker) note(format string, args ...any) {
	c.notes = append(c.notes, fmt.Sprintf(format, args...))
}

// rows runs a query and calls scan for each row; a failing query is itself
// a violation (the schema is not what the checks expect).
func (c *checker) rows(ctx context.Context, query string, scan func(*sql.Rows) error, args ...any) {
	rs, err := c.db.QueryContext(ctx, query, args...)
	if err != nil {
		c.violate("query failed: %v: %s", err, strings.Join(strings.Fields(query), " "))
		return
	}
	defer rs.Close()
	for rs.Next() {
		if err := scan(rs); err != nil {
			c.violate("scan failed: %v", err)
			return
		}
	}
	if err := rs.Err(); err != nil {
		c.violate("query failed: %v", err)
	}
}

type dbDomain struct {
	ID           int64
	UserID       int64
	Full         string
	Extension    string
	PriceCents   int64
	RegisteredAt time.Time
	ExpiresAt    time.Time
}

type dbTransaction struct {
	ID          int64
	UserID      int64
	Type        string
	AmountCents int64
	Status      string
	DomainID    sql.NullInt64
}

// checkDatabase runs every check by SQL: the ledger, charges, premium
// names, idempotency keys, jobs and mail, and (when a is not nil) what
// clients were told. Jobs running since lastStart belong to the last server.
func (c *checker) checkDatabase(ctx context.Context, lastStart time.Time, a *acks) {
	c.checkLedger(ctx)
	domains, txs := c.checkCharges(ctx)
	c.checkPremium(ctx)
	c.checkIdempotency(ctx, domains, txs)
	c.checkJobs(ctx, lastStart, txs, domains)
	if a != nil {
		c.checkAcks(ctx, a, domains, txs)
	}
	c.note("%d domains, %d transactions in the database", len(domains), len(txs))
}

// checkLedger: invariant 1. Every wallet's balance is the sum of its
// completed transactions and not negative; money has the right sign.
func (c *checker) checkLedger(ctx context.Context) {
	c.rows(ctx, `SELECT w.user_id, w.balance_cents,
			COALESCE(SUM(t.amount_cents) FILTER (WHERE t.status = 'completed'), 0)
		FROM wallets w LEFT JOIN transactions t ON t.user_id = w.user_id
		GROUP BY w.user_id, w.balance_cents`, func(r *sql.Rows) error {
		var user, balance, ledger int64
		if err := r.Scan(&user, &balance, &ledger); err != nil {
			return err
		}
		if balance != ledger {
			c.violate("ledger: wallet of user %d holds %d cents but its completed transactions sum to %d", user, balance, ledger)
		}
		if balance < 0 {
			c.violate("ledger: wallet of user %d is negative (%d cents)", user, balance)
		}
		return nil
	})
	c.rows(ctx, `SELECT t.user_id, SUM(t.amount_cents) FROM transactions t
		LEFT JOIN wallets w ON w.user_id = t.user_id
		WHERE w.user_id IS NULL AND t.status = 'completed' GROUP BY t.user_id`, func(r *sql.Rows) error {
		var user, sum int64
		if err := r.Scan(&user, &sum); err != nil {
			return err
		}
		c.violate("ledger: user %d has completed transactions (sum %d cents) but no wallet", user, sum)
		return nil
	})
	c.rows(ctx, `SELECT id, type, amount_cents, status FROM transactions
		WHERE (type = 'deposit' AND amount_cents <= 0)
		   OR (type IN ('domain_purchase', 'domain_renewal') AND (amount_cents >= 0 OR status <> 'completed'))`,
		func(r *sql.Rows) error {
			var id, amount int64
			var typ, status string
			if err := r.Scan(&id, &typ, &amount, &status); err != nil {
				return err
			}
			c.violate("ledger: transaction %d (%s, %s) has amount %d", id, typ, status, amount)
			return nil
		})
	var pending int
	_ = c.db.QueryRowContext(ctx, `SELECT count(*) FROM transactions WHERE status = 'pending'`).Scan(&pending)
	if pending > 0 {
		c.violate("ledger: %d deposits are pending although deposits complete at once without a payment provider", pending)
	}
}

// checkCharges: invariant 2. Each domain has exactly one registration
// charge of its price × years, no registration charge lacks its domain, and
// each domain's expiry is its registration term plus one renewal period per
// renewal charge.
func (c *checker) checkCharges(ctx context.Context) (map[int64]*dbDomain, map[int64]*dbTransaction) {
	periods := map[string]int{}
	c.rows(ctx, `SELECT extension, renewal_period_days FROM extensions`, func(r *sql.Rows) error {
		var ext string
		var days int
		if err := r.Scan(&ext, &days); err != nil {
			return err
		}
		periods[ext] = days
		return nil
	})
	domains := map[int64]*dbDomain{}
	c.rows(ctx, `SELECT id, user_id, name || extension, extension, price_cents, registered_at, expires_at FROM domains`,
		func(r *sql.Rows) error {
			d := new(dbDomain)
			if err := r.Scan(&d.ID, &d.UserID, &d.Full, &d.Extension, &d.PriceCents, &d.RegisteredAt, &d.ExpiresAt); err != nil {
				return err
			}
			d.RegisteredAt, d.ExpiresAt = d.RegisteredAt.UTC(), d.ExpiresAt.UTC()
			domains[d.ID] = d
			return nil
		})
	txs := map[int64]*dbTransaction{}
	c.rows(ctx, `SELECT id, user_id, type, amount_cents, status, domain_id FROM transactions`, func(r *sql.Rows) error {
		t := new(dbTransaction)
		if err := r.Scan(&t.ID, &t.UserID, &t.Type, &t.AmountCents, &t.Status, &t.DomainID); err != nil {
			return err
		}
		txs[t.ID] = t
		return nil
	})

	purchases := map[int64][]*dbTransaction{}
	renewals := map[int64]int{}
	for _, t := range txs {
		switch t.Type {
		case "domain_purchase", "domain_renewal":
		default:
			continue
		}
		if !t.DomainID.Valid {
			// Only a release after the grace period detaches charges from
			// their domain, and nothing in this run is that old.
			c.violate("charges: %s transaction %d of user %d has no domain", t.Type, t.ID, t.UserID)
			continue
		}
		d := domains[t.DomainID.Int64]
		if d == nil {
			c.violate("charges: %s transaction %d points at domain %d, which does not exist", t.Type, t.ID, t.DomainID.Int64)
			continue
		}
		if d.UserID != t.UserID {
			c.violate("charges: %s transaction %d was paid by user %d for %s, which user %d holds", t.Type, t.ID, t.UserID, d.Full, d.UserID)
		}
		if t.Type == "domain_purchase" {
			purchases[d.ID] = append(purchases[d.ID], t)
		} else {
			renewals[d.ID]++
		}
	}
	for _, d := range domains {
		ps := purchases[d.ID]
		if len(ps) != 1 {
			c.violate("charges: %s (domain %d) has %d registration charges, want exactly 1", d.Full, d.ID, len(ps))
			continue
		}
		paid := -ps[0].AmountCents
		if d.PriceCents <= 0 || paid%d.PriceCents != 0 || paid/d.PriceCents < 1 || paid/d.PriceCents > 10 {
			c.violate("charges: %s was charged %d cents at a yearly price of %d cents", d.Full, paid, d.PriceCents)
			continue
		}
		years := int(paid / d.PriceCents)
		want := d.RegisteredAt.AddDate(years, 0, 0)
		period := periods[d.Extension]
		for range renewals[d.ID] {
			if period > 0 && period%365 == 0 {
				want = want.AddDate(period/365, 0, 0)
			} else {
				want = want.AddDate(0, 0, period)
			}
		}
		if !want.Equal(d.ExpiresAt) {
			c.violate("charges: %s expires %s, but %d year(s) registered on %s plus %d paid renewal(s) of %d days end %s",
				d.Full, d.ExpiresAt.Format(time.RFC3339Nano), years, d.RegisteredAt.Format(time.RFC3339Nano),
				renewals[d.ID], period, want.Format(time.RFC3339Nano))
		}
	}
	return domains, txs
}

// checkPremium: a premium name is sold once, at its premium price, and is
// off sale exactly when someone holds it.
func (c *checker) checkPremium(ctx context.Context) {
	c.rows(ctx, `SELECT p.name || p.extension, p.is_available, d.id, d.is_premium
		FROM premium_domains p LEFT JOIN domains d ON d.name = p.name AND d.extension = p.extension`,
		func(r *sql.Rows) error {
			var full string
			var available bool
			var domainID sql.NullInt64
			var isPremium sql.NullBool
			if err := r.Scan(&full, &available, &domainID, &isPremium); err != nil {
				return err
			}
			switch {
			case domainID.Valid && available:
				c.violate("premium: %s is registered (domain %d) and still on sale", full, domainID.Int64)
			case domainID.Valid && !isPremium.Bool:
				c.violate("premium: %s was registered as an ordinary name", full)
			}
			return nil
		})
}

// checkIdempotency: every claimed key points at what it made, and every
// saved /v1 answer names a transaction that exists.
func (c *checker) checkIdempotency(ctx context.Context, domains map[int64]*dbDomain, txs map[int64]*dbTransaction) {
	c.rows(ctx, `SELECT user_id, idem_key, operation, result_id FROM idempotency_keys`, func(r *sql.Rows) error {
		var user int64
		var key, op string
		var result sql.NullInt64
		if err := r.Scan(&user, &key, &op, &result); err != nil {
			return err
		}
		if !result.Valid {
			c.violate("idempotency: key %q (%s) of user %d was claimed without a result", key, op, user)
			return nil
		}
		switch op {
		case "domain.register":
			if d := domains[result.Int64]; d == nil || d.UserID != user {
				c.violate("idempotency: registration key %q of user %d names domain %d, which is not theirs or gone", key, user, result.Int64)
			}
		case "domain.renew", "wallet.deposit":
			want := map[string]string{"domain.renew": "domain_renewal", "wallet.deposit": "deposit"}[op]
			if t := txs[result.Int64]; t == nil || t.UserID != user || t.Type != want {
				c.violate("idempotency: %s key %q of user %d names transaction %d, which is not their %s", op, key, user, result.Int64, want)
			}
		}
		return nil
	})
	inFlight := 0
	c.rows(ctx, `SELECT user_id, idem_key, status, body FROM idempotent_requests`, func(r *sql.Rows) error {
		var user int64
		var key, body string
		var status int
		if err := r.Scan(&user, &key, &status, &body); err != nil {
			return err
		}
		if status == 0 {
			inFlight++
			return nil
		}
		var saved struct {
			Transaction *struct {
				ID int64 `json:"id"`
			} `json:"transaction"`
		}
		if json.Unmarshal([]byte(body), &saved) == nil && saved.Transaction != nil {
			if t := txs[saved.Transaction.ID]; t == nil || t.UserID != user {
				c.violate("idempotency: the saved answer of key %q (user %d) names transaction %d, which is not theirs or gone",
					key, user, saved.Transaction.ID)
			}
		}
		return nil
	})
	if inFlight > 0 {
		c.note("%d /v1 idempotency claims are still 'in progress': requests cut off by SIGKILL and not retried after the 2-minute lease", inFlight)
	}
}

// checkJobs: invariant 3. No job is lost or stuck, and every ledger entry
// has its mail, every mail job its outbox row.
func (c *checker) checkJobs(ctx context.Context, lastStart time.Time, txs map[int64]*dbTransaction, domains map[int64]*dbDomain) {
	states := map[string]int{}
	c.rows(ctx, `SELECT kind || ' ' || state, count(*) FROM river_job GROUP BY kind, state`, func(r *sql.Rows) error {
		var ks string
		var n int
		if err := r.Scan(&ks, &n); err != nil {
			return err
		}
		states[ks] = n
		return nil
	})
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(states)) {
		parts = append(parts, fmt.Sprintf("%s=%d", k, states[k]))
	}
	c.note("River jobs: %s", strings.Join(parts, ", "))

	now := time.Now()
	orphans := 0
	c.rows(ctx, `SELECT id, kind, attempted_at FROM river_job WHERE state = 'running'`, func(r *sql.Rows) error {
		var id int64
		var kind string
		var at sql.NullTime
		if err := r.Scan(&id, &kind, &at); err != nil {
			return err
		}
		switch {
		case !at.Valid:
			c.violate("jobs: %s job %d is running but was never attempted", kind, id)
		case now.Sub(at.Time) > riverRescueAfter:
			c.violate("jobs: %s job %d has been running since %s, past River's rescue window", kind, id, at.Time.Format(time.RFC3339))
		case !at.Time.Before(lastStart):
			c.violate("jobs: %s job %d started at %s by the last server, which stopped gracefully, and is still running",
				kind, id, at.Time.Format(time.RFC3339Nano))
		default:
			orphans++
		}
		return nil
	})
	if orphans > 0 {
		var done int
		_ = c.db.QueryRowContext(ctx, `SELECT count(*) FROM river_job j JOIN mail_outbox o ON o.job_id = j.id
			WHERE j.state = 'running' AND j.attempted_at < $1`, lastStart).Scan(&done)
		c.note("%d job(s) were running when the server was killed (%d of them mail already in the outbox: done, only "+
			"their completion was lost); River's rescuer takes them back within %s", orphans, done, riverRescueAfter)
	}
	c.rows(ctx, `SELECT id, kind, errors::text FROM river_job WHERE state = 'discarded'`, func(r *sql.Rows) error {
		var id int64
		var kind string
		var errs sql.NullString
		if err := r.Scan(&id, &kind, &errs); err != nil {
			return err
		}
		c.violate("jobs: %s job %d was discarded after failing every attempt: %.300s", kind, id, errs.String)
		return nil
	})
	c.rows(ctx, `SELECT id, kind, errors::text FROM river_job WHERE state = 'retryable'`, func(r *sql.Rows) error {
		var id int64
		var kind string
		var errs sql.NullString
		if err := r.Scan(&id, &kind, &errs); err != nil {
			return err
		}
		c.note("jobs: %s job %d is waiting to retry: %.300s", kind, id, errs.String)
		return nil
	})

	// Each ledger entry enqueues its mail in its own database transaction:
	// the multisets must be equal.
	type mailKey struct {
		User int64
		Kind string
		What string
	}
	want := map[mailKey]int{}
	for _, t := range txs {
		if t.Status != "completed" {
			continue
		}
		switch t.Type {
		case "deposit":
			want[mailKey{t.UserID, "deposit_receipt", fmt.Sprint(t.AmountCents)}]++
		case "domain_purchase", "domain_renewal":
			kind := map[string]string{"domain_purchase": "registration_receipt", "domain_renewal": "renewal_succeeded"}[t.Type]
			name := "?"
			if d := domains[t.DomainID.Int64]; d != nil {
				name = d.Full
			}
			want[mailKey{t.UserID, kind, name}]++
		}
	}
	got := map[mailKey]int{}
	c.rows(ctx, `SELECT args::text FROM river_job WHERE kind = 'notify.send'`, func(r *sql.Rows) error {
		var raw string
		if err := r.Scan(&raw); err != nil {
			return err
		}
		var a struct {
			UserID int64             `json:"userId"`
			Kind   string            `json:"kind"`
			Data   map[string]string `json:"data"`
		}
		if err := json.Unmarshal([]byte(raw), &a); err != nil {
			return err
		}
		switch a.Kind {
		case "deposit_receipt":
			got[mailKey{a.UserID, a.Kind, a.Data["amount"]}]++
		case "registration_receipt", "renewal_succeeded":
			got[mailKey{a.UserID, a.Kind, a.Data["domain"]}]++
		}
		return nil
	})
	for k, n := range want {
		if got[k] < n {
			c.violate("mail: user %d has %d %s ledger entries for %s but %d %s jobs", k.User, n, k.Kind, k.What, got[k], k.Kind)
		}
	}
	for k, n := range got {
		if want[k] < n {
			c.violate("mail: user %d has %d %s jobs for %s but %d ledger entries", k.User, n, k.Kind, k.What, want[k])
		}
	}

	// The outbox: one 'logged' row (no SMTP server) per delivered mail job.
	c.rows(ctx, `SELECT o.job_id, o.status, j.kind, j.state FROM mail_outbox o LEFT JOIN river_job j ON j.id = o.job_id`,
		func(r *sql.Rows) error {
			var jobID int64
			var status string
			var kind, state sql.NullString
			if err := r.Scan(&jobID, &status, &kind, &state); err != nil {
				return err
			}
			switch {
			case !kind.Valid:
				c.violate("outbox: a message of job %d, which does not exist", jobID)
			case kind.String != "notify.send":
				c.violate("outbox: a message of job %d, a %s job", jobID, kind.String)
			case status != "logged":
				c.violate("outbox: the message of job %d is %q; without an SMTP server it is only logged", jobID, status)
			case state.String == "discarded" || state.String == "cancelled":
				c.violate("outbox: job %d delivered its message but is %s", jobID, state.String)
			}
			return nil
		})
	c.rows(ctx, `SELECT j.id FROM river_job j LEFT JOIN mail_outbox o ON o.job_id = j.id
		WHERE j.kind = 'notify.send' AND j.state = 'completed' AND o.id IS NULL`, func(r *sql.Rows) error {
		var id int64
		if err := r.Scan(&id); err != nil {
			return err
		}
		c.violate("outbox: mail job %d completed without an outbox row", id)
		return nil
	})
}

// checkAcks: what the server acknowledged survived the kills.
func (c *checker) checkAcks(ctx context.Context, a *acks, domains map[int64]*dbDomain, txs map[int64]*dbTransaction) {
	byName := map[string]*dbDomain{}
	for _, d := range domains {
		byName[d.Full] = d
	}
	for name, users := range a.registrations {
		if len(users) > 1 {
			c.violate("acks: %s was acknowledged to %d different accounts %v", name, len(users), slices.Sorted(maps.Keys(users)))
		}
		for u := range users {
			if d := byName[name]; d == nil || d.UserID != u {
				c.violate("acks: the registration of %s acknowledged to user %d is not in the database", name, u)
			}
		}
	}
	for name, answer := range a.ownLost {
		holder := "nobody holds it"
		if d := byName[name]; d != nil {
			holder = fmt.Sprintf("user %d holds it", d.UserID)
		}
		c.violate("acks: %s, which only one client tried to register, was refused as taken (%s); %s", name, answer, holder)
	}
	for id, at := range a.transactions {
		t := txs[id]
		switch {
		case t == nil:
			c.violate("acks: acknowledged %s transaction %d of user %d is not in the database", at.Type, id, at.UserID)
		case t.UserID != at.UserID || t.Type != at.Type || t.AmountCents != at.AmountCents || t.Status != "completed":
			c.violate("acks: transaction %d is %s %d cents %s of user %d; acknowledged as %s %d cents of user %d",
				id, t.Type, t.AmountCents, t.Status, t.UserID, at.Type, at.AmountCents, at.UserID)
		case at.DomainID != 0 && t.DomainID.Int64 != at.DomainID:
			c.violate("acks: transaction %d paid for domain %d; acknowledged for domain %d", id, t.DomainID.Int64, at.DomainID)
		}
	}
	// Every deposit carries an Idempotency-Key (on /api as the web app
	// sends it, and on /v1), so each deposit operation made at most one.
	deposits := map[int64]int{}
	for _, t := range txs {
		if t.Type == "deposit" {
			deposits[t.UserID]++
		}
	}
	for user, n := range a.deposits {
		if deposits[user] > n {
			c.violate("acks: user %d made %d deposits, each with its own Idempotency-Key, but has %d", user, n, deposits[user])
		}
	}
	sets := c.recordSets(ctx)
	for k, values := range a.knownSets {
		if got := sets[k]; !slices.Equal(got, values) {
			c.violate("acks: record set %s %s of %s holds %v; its last acknowledged change left %v", k.Name, k.Type, k.Domain, got, values)
		}
	}
	for k := range a.deletedSets {
		if got := sets[k]; len(got) > 0 {
			c.violate("acks: record set %s %s of %s was deleted but holds %v", k.Name, k.Type, k.Domain, got)
		}
	}
}

// recordSets reads every record set, values sorted.
func (c *checker) recordSets(ctx context.Context) map[recordSetKey][]string {
	sets := map[recordSetKey][]string{}
	c.rows(ctx, `SELECT d.name || d.extension, r.name, r.type, r.content FROM dns_records r JOIN domains d ON d.id = r.domain_id`,
		func(r *sql.Rows) error {
			var k recordSetKey
			var content string
			if err := r.Scan(&k.Domain, &k.Name, &k.Type, &content); err != nil {
				return err
			}
			sets[k] = append(sets[k], content)
			return nil
		})
	for k := range sets {
		slices.Sort(sets[k])
	}
	return sets
}
