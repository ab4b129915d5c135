package webhook

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/riverqueue/river"
)

// Queue is the River queue of deliveries: a slow receiver waits up to
// Timeout, so deliveries get workers of their own rather than hold up
// renewals and mail.
const (
	Queue        = "webhooks"
	QueueWorkers = 10
)

// SignatureHeader carries a delivery's signature, as Stripe's:
// "t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" keyed by the
// endpoint's secret>". Receivers check it (sdk.VerifyWebhookSignature)
// and refuse old timestamps, so a captured delivery cannot be replayed.
const SignatureHeader = "Nameport-Signature"

// userAgent names the sender to receivers.
const userAgent = "Nameport-Webhooks/1.0"

// retryDelays are the waits after each failed attempt: quick retries for a
// blip, then ever longer ones, 72 hours in all from the first attempt to
// the last. The attempts are len(retryDelays)+1.
var retryDelays = []time.Duration{
	time.Minute, 5 * time.Minute, 30 * time.Minute, time.Hour, 3 * time.Hour, 6 * time.Hour,
	12 * time.Hour, 12 * time.Hour, 12 * time.Hour, 12 * time.Hour, 13*time.Hour + 24*time.Minute,
}

// MaxAttempts is how many times a delivery is tried.
var MaxAttempts = len(retryDelays) + 1

// RetrySpan is the time from a delivery's first attempt to its last.
func RetrySpan() time.Duration {
	var sum time.Duration
	for _, d := range retryDelays {
		sum += d
	}
	return sum
}

// RetryDelay is the wait after failed attempt n (1-based).
func RetryDelay(attempt int) time.Duration {
	if attempt < 1 {
		attempt = 1
	}
	if attempt > len(retryDelays) {
		return retryDelays[len(retryDelays)-1]
	}
	return retryDelays[attempt-1]
}

// Sign returns the signature header value of body sent at t with secret.
func Sign(secret string, t time.Time, body []byte) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(ts))
	m.Write([]byte("."))
	m.Write(body)
	return "t=" + ts + ",v1=" + hex.EncodeToString(m.Sum(nil))
}

// DeliverArgs are a delivery's job: the delivery row holds the rest, so
// that no payload or secret sits in the job table.
type DeliverArgs struct {
	DeliveryID int64 `json:"delivery_id"`
}

// Kind names the job.
func (DeliverArgs) Kind() string { return "webhook_deliver" }

func deliverOpts() river.InsertOpts {
	return river.InsertOpts{Queue: Queue, MaxAttempts: MaxAttempts}
}

// InsertOpts: every delivery job goes to Queue with MaxAttempts.
func (DeliverArgs) InsertOpts() river.InsertOpts { return deliverOpts() }

// DeliverWorker makes one attempt of a delivery and records it; a failed
// attempt returns an error, so River tries again after RetryDelay until
// MaxAttempts.
type DeliverWorker struct {
	river.WorkerDefaults[DeliverArgs]
	Webhooks *Service
}

// NextRetry follows retryDelays rather than River's default backoff.
func (w *DeliverWorker) NextRetry(job *river.Job[DeliverArgs]) time.Time {
	return time.Now().Add(RetryDelay(job.Attempt))
}

// Timeout leaves the HTTP client's own timeout room to fire first.
func (w *DeliverWorker) Timeout(*river.Job[DeliverArgs]) time.Duration {
	return Timeout + 20*time.Second
}

// Work makes the attempt.
func (w *DeliverWorker) Work(ctx context.Context, job *river.Job[DeliverArgs]) error {
	return w.Webhooks.Attempt(ctx, job.Args.DeliveryID, job.Attempt, job.MaxAttempts)
}

// AddWorkers registers the delivery worker.
func (s *Service) AddWorkers(workers *river.Workers) []*river.PeriodicJob {
	river.AddWorker(workers, &DeliverWorker{Webhooks: s})
	return nil
}

// errAttempt is a failed attempt, for River's log; the delivery row has
// the details the registrar sees.
type errAttempt struct{ msg string }

func (e errAttempt) Error() string { return "webhook delivery: " + e.msg }

// Attempt sends delivery id once (attempt of maxAttempts) and records how
// it went. It returns nil when the receiver answered 2xx, or when there is
// nothing to send (the endpoint was deleted or disabled, or the delivery
// is over); otherwise an error, so that River retries.
func (s *Service) Attempt(ctx context.Context, id int64, attempt, maxAttempts int) error {
	d := new(Delivery)
	err := s.db.Bun.NewSelect().Model(d).Where("id = ?", id).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil // its endpoint was deleted
	}
	if err != nil {
		return fmt.Errorf("webhook: delivery %d: %w", id, err)
	}
	if d.State != StatePending {
		return nil // done before (a job run twice)
	}
	e := new(Endpoint)
	if err := s.db.Bun.NewSelect().Model(e).Where("id = ?", d.EndpointID).Scan(ctx); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		return fmt.Errorf("webhook: endpoint of delivery %d: %w", id, err)
	}
	if !e.Enabled() {
		return s.record(ctx, d, attemptResult{err: "the endpoint is disabled"}, attempt, true)
	}
	secret, err := s.sealer.Open(e.SecretSealed)
	if err != nil {
		return fmt.Errorf("webhook: secret of endpoint %d: %w", e.ID, err)
	}
	res := s.send(ctx, e.URL, secret, d)
	if res.ok() {
		return s.record(ctx, d, res, attempt, false)
	}
	last := attempt >= maxAttempts
	if err := s.record(ctx, d, res, attempt, last); err != nil {
		return err
	}
	return errAttempt{res.describe()}
}

// attemptResult is how one attempt went.
type attemptResult struct {
	status  int
	latency time.Duration
	err     string
}

func (r attemptResult) ok() bool { return r.err == "" && r.status >= 200 && r.status < 300 }

func (r attemptResult) describe() string {
	if r.err != "" {
		return r.err
	}
	return fmt.Sprintf("the receiver answered %d", r.status)
}

// send POSTs d's payload to url, signed with secret.
func (s *Service) send(ctx context.Context, url, secret string, d *Delivery) attemptResult {
	body := []byte(d.Payload)
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return attemptResult{err: "the URL cannot be requested: " + err.Error()}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", userAgent)
	req.Header.Set(SignatureHeader, Sign(secret, s.now(), body))
	req.Header.Set("Nameport-Event-Id", d.EventID)
	req.Header.Set("Nameport-Event-Type", d.EventType)
	start := time.Now()
	resp, err := s.client.Do(ctx, req)
	latency := time.Since(start)
	if err != nil {
		msg := err.Error()
		if errors.Is(err, ErrPrivateAddress) {
			msg = errPrivateTarget
		}
		return attemptResult{latency: latency, err: clip(msg, 300)}
	}
	// Read a little of the answer, so the connection can be reused; what
	// it says is not ours to keep.
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	_ = resp.Body.Close()
	return attemptResult{status: resp.StatusCode, latency: latency}
}

// record writes attempt (1-based) of d: its status, latency and error, and
// the delivery's state (succeeded; failed when last; else pending until the
// next attempt).
func (s *Service) record(ctx context.Context, d *Delivery, r attemptResult, attempt int, last bool) error {
	now := s.clock()
	q := s.db.Bun.NewUpdate().Model((*Delivery)(nil)).Where("id = ?", d.ID).Where("state = ?", StatePending).
		Set("attempts = attempts + 1").Set("last_latency_ms = ?", r.latency.Milliseconds()).Set("last_error = ?", r.err)
	if r.status != 0 {
		q = q.Set("last_status = ?", r.status)
	} else {
		q = q.Set("last_status = NULL")
	}
	switch {
	case r.ok():
		q = q.Set("state = ?", StateSucceeded).Set("delivered_at = ?", now).Set("next_attempt_at = NULL")
	case last:
		q = q.Set("state = ?", StateFailed).Set("next_attempt_at = NULL")
	default:
		q = q.Set("next_attempt_at = ?", now.Add(RetryDelay(attempt)))
	}
	if _, err := q.Exec(ctx); err != nil {
		return fmt.Errorf("webhook: record attempt of delivery %d: %w", d.ID, err)
	}
	return nil
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
