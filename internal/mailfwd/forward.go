package mailfwd

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/textproto"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/riverqueue/river"
	"github.com/uptrace/bun"

	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/notify"
)

// LogKeep is how many log entries a domain keeps, newest first.
const LogKeep = 100

// Log outcomes.
const (
	OutcomeForwarded = "forwarded"
	OutcomeFailed    = "failed"
	OutcomeRefused   = "refused"
)

// Relay sends a message on, bytes unchanged (notify.Service in production).
type Relay interface {
	Relay(ctx context.Context, envelopeFrom, to string, msg []byte) error
}

// Forwarder takes messages from the SMTP server and forwards them.
type Forwarder struct {
	db      *db.DB
	relay   Relay
	srs     *SRS
	host    string // --mail-host; "" is "mx" + the extension
	allowed func(extension string) error
	now     func() time.Time
	logger  *slog.Logger

	accepts  *group[[]acceptedCopy]
	finishes *group[delivery]
}

// ForwarderOptions configure a Forwarder.
type ForwarderOptions struct {
	Relay Relay
	SRS   *SRS
	// MailHost names this mail server (--mail-host): the greeting, Received
	// headers and the domain of rewritten senders. Empty: "mx." and the
	// zone of the recipient's extension ("mx.inf.nz").
	MailHost string
	// Allowed refuses forwarding for an extension that no longer allows it
	// (catalog.Service.CheckEmailForwarding); nil allows every extension.
	Allowed func(extension string) error
	Now     func() time.Time
	Logger  *slog.Logger
}

// NewForwarder returns the forwarding pipeline over d.
func NewForwarder(d *db.DB, opts ForwarderOptions) *Forwarder {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Allowed == nil {
		opts.Allowed = func(string) error { return nil }
	}
	f := &Forwarder{db: d, relay: opts.Relay, srs: opts.SRS, host: strings.TrimSuffix(opts.MailHost, "."),
		allowed: opts.Allowed, now: opts.Now, logger: opts.Logger}
	f.accepts = &group[[]acceptedCopy]{write: f.store}
	f.finishes = &group[delivery]{write: f.finish}
	return f
}

func (f *Forwarder) clock() time.Time { return f.now().UTC().Truncate(time.Microsecond) }

// MailHost is the mail server's name for a domain of extension (".inf.nz").
func (f *Forwarder) MailHost(extension string) string { return MailHost(f.host, extension) }

// Refusal is why a recipient or message is refused, as SMTP says it.
type Refusal struct {
	Code     int
	Enhanced [3]int
	Message  string
	Reason   string // the metrics label: relay, unknown, size, rate, recipients
}

func (r *Refusal) Error() string {
	return fmt.Sprintf("%d %d.%d.%d %s", r.Code, r.Enhanced[0], r.Enhanced[1], r.Enhanced[2], r.Message)
}

var (
	refuseRelay   = &Refusal{550, [3]int{5, 7, 1}, "Relaying denied: this server only takes mail for domains that forward through it", "relay"}
	refuseUnknown = &Refusal{550, [3]int{5, 1, 1}, "No such mailbox here", "unknown"}
	refuseSyntax  = &Refusal{501, [3]int{5, 1, 3}, "Bad recipient address syntax", "syntax"}
)

// plainAddress tells whether an address is printable ASCII without spaces,
// of a length a path may have: anything else (control characters, NUL,
// UTF-8 without SMTPUTF8, which this server does not offer) is refused
// before it reaches a query.
func plainAddress(a string) bool {
	if a == "" || len(a) > MaxAddressLength {
		return false
	}
	for i := 0; i < len(a); i++ {
		if a[i] < 0x21 || a[i] > 0x7e {
			return false
		}
	}
	return true
}

// Target is a recipient that forwards: its domain and the confirmed
// addresses its mail goes to.
type Target struct {
	Rcpt         string
	DomainID     int64
	Extension    string
	Destinations []string
}

// Resolve tells where mail for rcpt goes: a Refusal for a domain that does
// not forward here (never an open relay) or an address without a rule
// whose destinations someone confirmed (refused now, so no bounce is ever
// sent to a forged sender later). "alias+tag" falls back to "alias", then
// to the catch-all.
func (f *Forwarder) Resolve(ctx context.Context, rcpt string) (*Target, error) {
	if !plainAddress(rcpt) {
		return nil, refuseSyntax
	}
	local, host, ok := strings.Cut(rcpt, "@")
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	label, extension, dotted := strings.Cut(host, ".")
	if !ok || local == "" || !dotted || label == "" {
		return nil, refuseRelay
	}
	extension = "." + extension
	if srsLocal(local) && host == f.MailHost(extension) {
		return f.resolveSRS(ctx, rcpt, extension)
	}
	if f.allowed(extension) != nil {
		return nil, refuseRelay
	}
	var dom struct {
		ID      int64 `bun:"id"`
		Enabled bool  `bun:"enabled"`
	}
	err := f.db.Bun.NewSelect().Table("domains").
		ColumnExpr("id, EXISTS (SELECT 1 FROM mail_domains m WHERE m.domain_id = domains.id) AS enabled").
		Where("name = ? AND extension = ?", label, extension).Scan(ctx, &dom)
	if errors.Is(err, errNoRows) || err == nil && !dom.Enabled {
		return nil, refuseRelay
	}
	if err != nil {
		return nil, fmt.Errorf("mailfwd: resolve %s: %w", host, err)
	}
	local = strings.ToLower(local)
	aliases := []string{local}
	if base, _, plus := strings.Cut(local, "+"); plus && base != "" {
		aliases = append(aliases, base)
	}
	aliases = append(aliases, CatchAll)
	var rows []struct {
		Alias   string `bun:"alias"`
		Address string `bun:"address"`
	}
	err = f.db.Bun.NewSelect().TableExpr("mail_rules AS r").
		Join("JOIN mail_rule_destinations AS rd ON rd.rule_id = r.id").
		Join("JOIN mail_destinations AS dst ON dst.id = rd.destination_id").
		ColumnExpr("r.alias, dst.address").
		Where("r.domain_id = ? AND r.alias IN (?) AND dst.verified_at IS NOT NULL", dom.ID, bun.In(aliases)).
		Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("mailfwd: resolve %s: %w", rcpt, err)
	}
	// The most specific alias with a confirmed destination wins.
	for _, alias := range aliases {
		var to []string
		for _, r := range rows {
			if r.Alias == alias {
				to = append(to, r.Address)
			}
		}
		if len(to) > 0 {
			return &Target{Rcpt: rcpt, DomainID: dom.ID, Extension: extension, Destinations: to}, nil
		}
	}
	return nil, &unknownAlias{domainID: dom.ID}
}

// unknownAlias is refuseUnknown for an address of a domain of ours that no
// rule takes: the refusal goes in that domain's log.
type unknownAlias struct{ domainID int64 }

func (u *unknownAlias) Error() string { return refuseUnknown.Error() }
func (u *unknownAlias) Unwrap() error { return refuseUnknown }

// logRefusal puts a refused recipient in its domain's log, best effort: the
// refusal stands without it.
func (f *Forwarder) logRefusal(ctx context.Context, sender, rcpt string, u *unknownAlias) {
	_ = f.log(ctx, f.db.Bun, logEntry{DomainID: u.domainID, MailFrom: sender, RcptTo: rcpt, Outcome: OutcomeRefused,
		Detail: "no rule with a confirmed address for this alias"})
}

// srsLocal tells whether a local part is a rewritten (SRS) sender.
func srsLocal(local string) bool {
	l := strings.ToLower(local)
	return strings.HasPrefix(l, "srs0=") || strings.HasPrefix(l, "srs1=")
}

// resolveSRS takes mail for one of the senders this server rewrote: the
// bounces and replies that destinations send to forwarded mail go back to
// the original sender. Only addresses this server made (their hash checks
// out, within their age) are taken, so nobody can use it as a relay.
func (f *Forwarder) resolveSRS(ctx context.Context, rcpt, extension string) (*Target, error) {
	if f.host == "" {
		// mx.<zone>: the zone must be one of ours.
		ours, err := f.db.Bun.NewSelect().Table("extensions").Where("extension = ?", extension).Exists(ctx)
		if err != nil {
			return nil, fmt.Errorf("mailfwd: resolve %s: %w", rcpt, err)
		}
		if !ours {
			return nil, refuseRelay
		}
	}
	original, err := f.srs.Reverse(rcpt)
	if err != nil {
		return nil, refuseUnknown
	}
	return &Target{Rcpt: rcpt, Extension: extension, Destinations: []string{original}}, nil
}

// Envelope is one message as the SMTP server received it.
type Envelope struct {
	From    string // "" for the null sender
	Helo    string
	Remote  string // the client's address
	Targets []*Target
	Data    []byte
}

// Accept stores msg with a Received header of its own on top and queues one
// delivery per destination, all in one transaction: once it returns nil the
// message is ours to forward. Messages that several sessions have ready
// at once share the transaction (group commit).
func (f *Forwarder) Accept(ctx context.Context, env Envelope) error {
	now := f.clock()
	id := newID()
	msgs := make([]acceptedCopy, len(env.Targets))
	for i, t := range env.Targets {
		data := append(received(env, t, f.MailHost(t.Extension), id, now), env.Data...)
		msgs[i] = acceptedCopy{
			row:    &messageRow{DomainID: t.DomainID, MailFrom: env.From, Data: data, Pending: len(t.Destinations), CreatedAt: now},
			target: t,
		}
	}
	if err := f.accepts.do(ctx, msgs); err != nil {
		return fmt.Errorf("mailfwd: accept a message from %q: %w", env.From, err)
	}
	counters.accepted.Add(1)
	return nil
}

// acceptedCopy is the copy of a message that goes to one recipient.
type acceptedCopy struct {
	row    *messageRow
	target *Target
}

// store writes the messages of several sessions and their delivery jobs in
// one transaction. Each row is its own INSERT, so that its RETURNING id is
// certainly its own (neither engine promises the order of a multi-row
// RETURNING); the jobs go in one statement.
func (f *Forwarder) store(ctx context.Context, batch [][]acceptedCopy) error {
	return f.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		var jobs []river.InsertManyParams
		for _, msgs := range batch {
			for _, m := range msgs {
				if _, err := tx.NewInsert().Model(m.row).Returning("id").Exec(ctx); err != nil {
					return err
				}
				for _, to := range m.target.Destinations {
					jobs = append(jobs, river.InsertManyParams{Args: DeliverArgs{MessageID: m.row.ID, Rcpt: m.target.Rcpt, To: to}})
				}
			}
		}
		return tx.EnqueueMany(ctx, jobs)
	})
}

type messageRow struct {
	bun.BaseModel `bun:"table:mail_messages"`
	ID            int64     `bun:"id,pk,autoincrement"`
	DomainID      int64     `bun:"domain_id,nullzero"` // 0: a bounce to an SRS sender
	MailFrom      string    `bun:"mail_from"`
	Data          []byte    `bun:"data"`
	Pending       int       `bun:"pending"`
	CreatedAt     time.Time `bun:"created_at"`
}

// received is the trace header this server adds (RFC 5321 4.4).
func received(env Envelope, t *Target, host, id string, now time.Time) []byte {
	helo := sanitize(env.Helo)
	if helo == "" {
		helo = "unknown"
	}
	return fmt.Appendf(nil, "Received: from %s (%s)\r\n\tby %s (Nameport) with ESMTP id %s\r\n\tfor <%s>; %s\r\n",
		helo, sanitize(env.Remote), host, id, sanitize(t.Rcpt), now.Format(time.RFC1123Z))
}

// sanitize keeps what a client said to printable ASCII without the
// characters that would end or break a header.
func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x21 || r > 0x7e || r == '<' || r == '>' || r == '(' || r == ')' || r == ';' {
			return -1
		}
		return r
	}, s)
}

func newID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return strings.ToUpper(hex.EncodeToString(b[:]))
}

// DeliverArgs is the job of forwarding one message to one destination.
type DeliverArgs struct {
	MessageID int64  `json:"messageId"`
	Rcpt      string `json:"rcpt"` // the address the message came for
	To        string `json:"to"`
}

// Kind identifies the job.
func (DeliverArgs) Kind() string { return "mailfwd.deliver" }

// InsertOpts: a destination's server that refuses for a while (greylisting,
// an outage) is tried again with River's growing back-off, about 4 hours in
// all, as mail servers do. Forwarding has a queue of its own (Queue).
func (DeliverArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{MaxAttempts: 10, Queue: Queue}
}

// Queue is the River queue of forwarding jobs, and QueueWorkers how many run
// at once in a worker process: mail comes in bursts, each job mostly waits
// on another server, and River fetches at most that many jobs at a time,
// every 100 ms without LISTEN/NOTIFY (SQLite): with 50, forwarding stopped
// at 500 messages a second. The relay's sessions are bounded on their own
// (notify), so many jobs at once do not mean many connections.
const (
	Queue        = "mail"
	QueueWorkers = 200
)

// DeliverWorker works DeliverArgs jobs.
type DeliverWorker struct {
	river.WorkerDefaults[DeliverArgs]
	Forwarder *Forwarder
}

// Timeout bounds one attempt.
func (w *DeliverWorker) Timeout(*river.Job[DeliverArgs]) time.Duration { return 5 * time.Minute }

// Work relays the message. A permanent refusal (5xx) or the last attempt
// ends it as failed; a temporary one is returned so that River retries.
func (w *DeliverWorker) Work(ctx context.Context, job *river.Job[DeliverArgs]) error {
	return w.Forwarder.deliver(ctx, job.Args, job.Attempt >= job.MaxAttempts)
}

// AddWorkers registers the forwarding job.
func (f *Forwarder) AddWorkers(workers *river.Workers) []*river.PeriodicJob {
	river.AddWorker(workers, &DeliverWorker{Forwarder: f})
	return nil
}

func (f *Forwarder) deliver(ctx context.Context, args DeliverArgs, last bool) error {
	var msg struct {
		DomainID sql.NullInt64 `bun:"domain_id"`
		MailFrom string        `bun:"mail_from"`
		Data     []byte        `bun:"data"`
	}
	err := f.db.Bun.NewSelect().Table("mail_messages").Column("domain_id", "mail_from", "data").
		Where("id = ?", args.MessageID).Scan(ctx, &msg)
	if errors.Is(err, errNoRows) {
		// Its domain was released, or an earlier attempt finished it and
		// only the job's completion was lost.
		return nil
	}
	if err != nil {
		return fmt.Errorf("mailfwd: read message %d: %w", args.MessageID, err)
	}
	entry := logEntry{DomainID: msg.DomainID.Int64, MailFrom: msg.MailFrom, RcptTo: args.Rcpt, ForwardTo: args.To, Size: int64(len(msg.Data))}
	_, extension, _ := strings.Cut(args.Rcpt[strings.LastIndexByte(args.Rcpt, '@')+1:], ".")
	from, err := f.srs.Forward(msg.MailFrom, f.MailHost("."+strings.ToLower(extension)))
	if err != nil {
		// A sender that SRS cannot rewrite gets no bounce either.
		from = ""
	}
	sendErr := f.relay.Relay(ctx, from, args.To, msg.Data)
	var reply *textproto.Error
	// Without a relay (no --smtp-url) nothing can leave, now or on a retry:
	// the log says so at once rather than after hours of retries.
	permanent := errors.As(sendErr, &reply) && reply.Code >= 500 || errors.Is(sendErr, notify.ErrNoRelay)
	switch {
	case sendErr == nil:
		entry.Outcome = OutcomeForwarded
		counters.forwarded.Add(1)
	case permanent || last:
		entry.Outcome, entry.Detail = OutcomeFailed, sendErr.Error()
		counters.failed.Add(1)
		f.logger.Warn("mail forwarding failed", "message", args.MessageID, "to", args.To, "err", sendErr)
	default:
		counters.deferred.Add(1)
		return fmt.Errorf("mailfwd: forward message %d to %s: %w", args.MessageID, args.To, sendErr)
	}
	if err := f.finishes.do(ctx, delivery{messageID: args.MessageID, entry: entry}); err != nil {
		return fmt.Errorf("mailfwd: finish message %d: %w", args.MessageID, err)
	}
	if entry.Outcome == OutcomeFailed {
		if !errors.Is(sendErr, notify.ErrNoRelay) { // a bounce could not leave either
			f.bounce(ctx, msg.MailFrom, args.Rcpt, "."+strings.ToLower(extension), msg.Data, sendErr)
		}
		return river.JobCancel(sendErr)
	}
	return nil
}

// delivery is the outcome of one delivery job: its message has one
// destination fewer to go, and the domain's log a line more.
type delivery struct {
	messageID int64
	entry     logEntry
}

// finish writes the outcomes of several delivery jobs in one transaction
// (group commit): each message loses one pending destination per outcome
// and goes once none is left; the log lines go in one statement.
func (f *Forwarder) finish(ctx context.Context, batch []delivery) error {
	done := map[int64]int{}
	var ids []int64
	entries := make([]logEntry, 0, len(batch))
	for _, d := range batch {
		if done[d.messageID] == 0 {
			ids = append(ids, d.messageID)
		}
		done[d.messageID]++
		if d.entry.DomainID != 0 {
			entries = append(entries, d.entry)
		}
	}
	byCount := map[int][]int64{}
	for _, id := range ids {
		byCount[done[id]] = append(byCount[done[id]], id)
	}
	return f.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		for n, ids := range byCount {
			if _, err := tx.NewUpdate().Table("mail_messages").Set("pending = pending - ?", n).Where("id IN (?)", bun.In(ids)).Exec(ctx); err != nil {
				return err
			}
		}
		if _, err := tx.NewDelete().Table("mail_messages").Where("id IN (?) AND pending <= 0", bun.In(ids)).Exec(ctx); err != nil {
			return err
		}
		return f.log(ctx, tx, entries...)
	})
}

type logEntry struct {
	bun.BaseModel `bun:"table:mail_log"`
	ID            int64     `bun:"id,pk,autoincrement"`
	DomainID      int64     `bun:"domain_id"`
	MailFrom      string    `bun:"mail_from"`
	RcptTo        string    `bun:"rcpt_to"`
	ForwardTo     string    `bun:"forward_to"`
	Size          int64     `bun:"size"`
	Outcome       string    `bun:"outcome"`
	Detail        string    `bun:"detail"`
	CreatedAt     time.Time `bun:"created_at"`
}

// log records entries and keeps each domain's newest LogKeep (a message of
// no domain, a bounce to an SRS sender, has no log). A refusal's entry is
// best effort: the refusal stands without it.
func (f *Forwarder) log(ctx context.Context, q bun.IDB, entries ...logEntry) error {
	rows := make([]logEntry, 0, len(entries))
	var domains []int64
	now := f.clock()
	for _, e := range entries {
		if e.DomainID == 0 {
			continue
		}
		e.CreatedAt = now
		e.MailFrom, e.RcptTo, e.Detail = clipTo(e.MailFrom, 320), clipTo(e.RcptTo, 320), clipTo(e.Detail, 500)
		rows = append(rows, e)
		if !slices.Contains(domains, e.DomainID) {
			domains = append(domains, e.DomainID)
		}
	}
	if len(rows) == 0 {
		return nil
	}
	if _, err := q.NewInsert().Model(&rows).Exec(ctx); err != nil {
		return err
	}
	for _, domain := range domains {
		_, err := q.NewDelete().Table("mail_log").Where("domain_id = ?", domain).
			Where("id <= (SELECT id FROM mail_log WHERE domain_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?)", domain, LogKeep).
			Exec(ctx)
		if err != nil {
			return err
		}
	}
	return nil
}

func clipTo(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// LogEntry is one line of a domain's forwarding log.
type LogEntry struct {
	Time      time.Time `json:"time"`
	From      string    `json:"from"`
	To        string    `json:"to"`
	ForwardTo string    `json:"forwardTo,omitempty"`
	Size      int64     `json:"size"`
	Outcome   string    `json:"outcome"`
	Detail    string    `json:"detail,omitempty"`
}

// Log returns the domain's last LogKeep log entries, newest first.
func (s *Service) Log(ctx context.Context, d Domain) ([]LogEntry, error) {
	var rows []logEntry
	if err := s.db.Bun.NewSelect().Model(&rows).Where("domain_id = ?", d.ID).Order("id DESC").Limit(LogKeep).Scan(ctx); err != nil {
		return nil, wrap("read the log of", d, err)
	}
	out := make([]LogEntry, len(rows))
	for i, r := range rows {
		out[i] = LogEntry{Time: r.CreatedAt.UTC(), From: r.MailFrom, To: r.RcptTo, ForwardTo: r.ForwardTo, Size: r.Size, Outcome: r.Outcome, Detail: r.Detail}
	}
	return out, nil
}

// counters are the process's message counts, for the metrics.
var counters struct {
	accepted, forwarded, deferred, failed, bounced atomic.Uint64
}

// refusedCounts counts refusals by Refusal.Reason (a fixed set, so the map
// itself is only read).
var refusedCounts = map[string]*atomic.Uint64{
	"relay": {}, "unknown": {}, "syntax": {}, "size": {}, "recipients": {}, "sender": {}, "rate": {},
}

func countRefusal(reason string) {
	if c := refusedCounts[reason]; c != nil {
		c.Add(1)
	}
}

// Counts are the message counts since the process started.
type Counts struct {
	Accepted, Forwarded, Deferred, Failed, Bounced uint64
	Refused                                        map[string]uint64 // by reason
}

// Totals returns the counts so far.
func Totals() Counts {
	out := Counts{Accepted: counters.accepted.Load(), Forwarded: counters.forwarded.Load(),
		Deferred: counters.deferred.Load(), Failed: counters.failed.Load(), Bounced: counters.bounced.Load(), Refused: map[string]uint64{}}
	for reason, c := range refusedCounts {
		out.Refused[reason] = c.Load()
	}
	return out
}
