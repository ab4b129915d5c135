// Package webhook owns registrars' webhooks: the endpoints they add (a URL,
// the events it wants, a signing secret shown once), the events the other
// services emit inside the transactions of their changes, and the delivery
// of each event to each endpoint by a River job, signed, retried with
// backoff for three days and logged.
//
// The services whose changes are events (registration, billing, zone) call
// Emit; this package imports none of them.
package webhook

import (
	"context"
	"crypto/rand"
	"database/sql"
	"database/sql/driver"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/riverqueue/river"
	"github.com/uptrace/bun"

	"github.com/nameport/nameport/internal/account"
	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/sealer"
)

// Event types an endpoint may subscribe to.
const (
	DomainRegistered       = "domain.registered"
	DomainRenewed          = "domain.renewed"
	DomainExpiring         = "domain.expiring"
	DomainExpired          = "domain.expired"
	DomainReleased         = "domain.released"
	WalletDepositCompleted = "wallet.deposit_completed"
	DNSChanged             = "dns.changed"
	// Test is the event "Send test event" sends to one endpoint, whatever
	// it subscribes to.
	Test = "webhook.test"
)

// EventTypes are the events an endpoint may subscribe to, in the order
// the dashboard lists them.
var EventTypes = []string{DomainRegistered, DomainRenewed, DomainExpiring, DomainExpired, DomainReleased,
	WalletDepositCompleted, DNSChanged}

// Limits.
const (
	// MaxEndpoints is how many endpoints one registrar may have.
	MaxEndpoints = 10
	// MaxURLLength bounds an endpoint's URL.
	MaxURLLength = 2000
	// MaxPage bounds a page of the delivery log.
	MaxPage = 100
)

// SecretPrefix starts every signing secret, so leaked ones are recognised.
const SecretPrefix = "whsec_"

// Endpoint is where a registrar wants events POSTed.
type Endpoint struct {
	bun.BaseModel `bun:"table:webhook_endpoints"`

	ID     int64  `bun:"id,pk,autoincrement"`
	UserID int64  `bun:"user_id"`
	URL    string `bun:"url"`
	// Events are the subscribed event types, stored comma-separated.
	Events       EventList `bun:"events"`
	SecretSealed string    `bun:"secret_sealed"`
	CreatedAt    time.Time `bun:"created_at"`
	DisabledAt   time.Time `bun:"disabled_at,nullzero"`

	// LastDelivery is the newest delivery to the endpoint, for the list
	// (not a column).
	LastDelivery *Delivery `bun:"-"`
}

// Enabled reports whether e gets new events.
func (e *Endpoint) Enabled() bool { return e.DisabledAt.IsZero() }

// Wants reports whether e subscribes to eventType.
func (e *Endpoint) Wants(eventType string) bool { return slices.Contains(e.Events, eventType) }

// Delivery states.
const (
	StatePending   = "pending"   // being tried, perhaps waiting for a retry
	StateSucceeded = "succeeded" // a 2xx answer
	StateFailed    = "failed"    // every attempt failed
)

// Delivery is one event sent to one endpoint, with how its attempts went.
type Delivery struct {
	bun.BaseModel `bun:"table:webhook_deliveries"`

	ID         int64  `bun:"id,pk,autoincrement"`
	EndpointID int64  `bun:"endpoint_id"`
	UserID     int64  `bun:"user_id"`
	EventID    string `bun:"event_id"`
	EventType  string `bun:"event_type"`
	// Payload is the body every attempt sends, byte for byte.
	Payload       string    `bun:"payload"`
	State         string    `bun:"state"`
	Attempts      int       `bun:"attempts"`
	LastStatus    int       `bun:"last_status,nullzero"`
	LastLatencyMs int64     `bun:"last_latency_ms,nullzero"`
	LastError     string    `bun:"last_error"`
	CreatedAt     time.Time `bun:"created_at"`
	NextAttemptAt time.Time `bun:"next_attempt_at,nullzero"`
	DeliveredAt   time.Time `bun:"delivered_at,nullzero"`
}

var _ bun.AfterScanRowHook = (*Delivery)(nil)

// AfterScanRow keeps times in UTC (SQLite gives local time).
func (d *Delivery) AfterScanRow(context.Context) error {
	d.CreatedAt, d.NextAttemptAt, d.DeliveredAt = d.CreatedAt.UTC(), d.NextAttemptAt.UTC(), d.DeliveredAt.UTC()
	return nil
}

// Options configure a Service.
type Options struct {
	// Secret is the server secret: signing secrets are sealed with a key
	// derived from it.
	Secret []byte
	// AllowPrivateTargets lets endpoints be http:// URLs and reach
	// loopback and private addresses: for tests and development only
	// (--webhooks-allow-private-targets).
	AllowPrivateTargets bool
	// Now is the clock; tests inject their own.
	Now func() time.Time
}

// Service manages endpoints, emits events and delivers them.
type Service struct {
	db           *db.DB
	sealer       *sealer.Sealer
	allowPrivate bool
	now          func() time.Time
	client       *Client
}

// NewService returns the webhook service over d.
func NewService(d *db.DB, opts Options) (*Service, error) {
	seal, err := sealer.New(opts.Secret, "webhooks")
	if err != nil {
		return nil, err
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Service{db: d, sealer: seal, allowPrivate: opts.AllowPrivateTargets, now: opts.Now,
		client: NewClient(opts.AllowPrivateTargets)}, nil
}

func (s *Service) clock() time.Time { return s.now().UTC().Truncate(time.Microsecond) }

var (
	errNotRegistrar     = apperr.New(apperr.Forbidden, "Only registrar accounts have webhooks")
	errEndpointNotFound = apperr.New(apperr.NotFound, "Webhook endpoint not found")
)

// NewEndpoint is what a registrar asks for when it adds an endpoint.
type NewEndpoint struct {
	URL    string
	Events []string
}

// Endpoints returns registrar u's endpoints, oldest first, each with its
// newest delivery. Returns forbidden for accounts that are not registrars.
func (s *Service) Endpoints(ctx context.Context, u *account.User) ([]Endpoint, error) {
	if !u.IsRegistrar() {
		return nil, errNotRegistrar
	}
	endpoints := []Endpoint{}
	if err := s.db.Bun.NewSelect().Model(&endpoints).Where("user_id = ?", u.ID).Order("id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("webhook: endpoints of %s: %w", u.Username, err)
	}
	if len(endpoints) == 0 {
		return endpoints, nil
	}
	// The newest delivery of each: at most MaxEndpoints small lookups by
	// the (endpoint_id, id) index.
	for i := range endpoints {
		d := new(Delivery)
		err := s.db.Bun.NewSelect().Model(d).ExcludeColumn("payload").Where("endpoint_id = ?", endpoints[i].ID).
			Order("id DESC").Limit(1).Scan(ctx)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("webhook: last delivery of endpoint %d: %w", endpoints[i].ID, err)
		}
		endpoints[i].LastDelivery = d
	}
	return endpoints, nil
}

// CreateEndpoint adds an endpoint for registrar u and returns it with its
// signing secret, shown this once. Returns invalid for a bad URL (see
// CheckURL) or event list, conflict when u has MaxEndpoints already, and
// forbidden for accounts that are not registrars.
func (s *Service) CreateEndpoint(ctx context.Context, u *account.User, in NewEndpoint) (*Endpoint, string, error) {
	if !u.IsRegistrar() {
		return nil, "", errNotRegistrar
	}
	target, err := CheckURL(in.URL, s.allowPrivate)
	if err != nil {
		return nil, "", err
	}
	events, err := ParseEvents(in.Events)
	if err != nil {
		return nil, "", err
	}
	secret, err := newToken(SecretPrefix, 24)
	if err != nil {
		return nil, "", err
	}
	sealed, err := s.sealer.Seal(secret)
	if err != nil {
		return nil, "", err
	}
	e := &Endpoint{UserID: u.ID, URL: target, Events: events, SecretSealed: sealed, CreatedAt: s.clock()}
	err = s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		// Counted under the account's row lock (SQLite's one writer is
		// lock enough), so that racing requests cannot pass the limit.
		if s.db.Engine == db.Postgres {
			if _, err := tx.NewSelect().Model((*account.User)(nil)).Column("id").Where("id = ?", u.ID).For("UPDATE").Exec(ctx); err != nil {
				return err
			}
		}
		n, err := tx.NewSelect().Model((*Endpoint)(nil)).Where("user_id = ?", u.ID).Count(ctx)
		if err != nil {
			return err
		}
		if n >= MaxEndpoints {
			return apperr.New(apperr.Conflict, "You have %d webhook endpoints, the most an account may have: delete one first", MaxEndpoints)
		}
		_, err = tx.NewInsert().Model(e).Exec(ctx)
		return err
	})
	if err != nil {
		if apperr.Code(err) != apperr.Internal {
			return nil, "", err
		}
		return nil, "", fmt.Errorf("webhook: create endpoint of %s: %w", u.Username, err)
	}
	return e, secret, nil
}

// endpoint returns registrar u's endpoint id; not_found when u has none
// such (another account's included, so that ids reveal nothing).
func (s *Service) endpoint(ctx context.Context, q bun.IDB, u *account.User, id int64) (*Endpoint, error) {
	if !u.IsRegistrar() {
		return nil, errNotRegistrar
	}
	e := new(Endpoint)
	err := q.NewSelect().Model(e).Where("id = ?", id).Where("user_id = ?", u.ID).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errEndpointNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("webhook: endpoint %d: %w", id, err)
	}
	return e, nil
}

// EndpointChange is a change to an endpoint; nil fields stay as they are.
type EndpointChange struct {
	// Events replace the endpoint's events (ParseEvents' rules).
	Events []string
	// Enabled turns the endpoint on or off. An endpoint turned off gets no
	// new events, and its deliveries still pending end failed at their
	// next attempt.
	Enabled *bool
}

// UpdateEndpoint changes registrar u's endpoint id and returns it. Returns
// invalid for an unknown event, no events, or a change that names nothing;
// not_found when u has no such endpoint.
func (s *Service) UpdateEndpoint(ctx context.Context, u *account.User, id int64, c EndpointChange) (*Endpoint, error) {
	if c.Events == nil && c.Enabled == nil {
		return nil, apperr.New(apperr.Invalid, "Give the events to send or whether the endpoint is enabled")
	}
	var events EventList
	if c.Events != nil {
		var err error
		if events, err = ParseEvents(c.Events); err != nil {
			return nil, err
		}
	}
	var e *Endpoint
	err := s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		var err error
		if e, err = s.endpoint(ctx, tx, u, id); err != nil {
			return err
		}
		if events != nil {
			e.Events = events
		}
		switch {
		case c.Enabled == nil:
		case *c.Enabled:
			e.DisabledAt = time.Time{}
		case e.Enabled():
			e.DisabledAt = s.clock()
		}
		_, err = tx.NewUpdate().Model(e).Column("events", "disabled_at").WherePK().Exec(ctx)
		return err
	})
	if err != nil {
		if apperr.Code(err) != apperr.Internal {
			return nil, err
		}
		return nil, fmt.Errorf("webhook: update endpoint %d: %w", id, err)
	}
	return e, nil
}

// DeleteEndpoint removes registrar u's endpoint id with its delivery log;
// deliveries still pending are dropped. Returns not_found when u has no
// such endpoint.
func (s *Service) DeleteEndpoint(ctx context.Context, u *account.User, id int64) error {
	if !u.IsRegistrar() {
		return errNotRegistrar
	}
	res, err := s.db.Bun.NewDelete().Model((*Endpoint)(nil)).Where("id = ?", id).Where("user_id = ?", u.ID).Exec(ctx)
	if err != nil {
		return fmt.Errorf("webhook: delete endpoint %d: %w", id, err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return errEndpointNotFound
	}
	return nil
}

// SendTest queues a webhook.test event to registrar u's endpoint id now,
// through the same delivery as every event, and returns the delivery
// (pending). Returns not_found when u has no such endpoint.
func (s *Service) SendTest(ctx context.Context, u *account.User, id int64) (*Delivery, error) {
	var d *Delivery
	err := s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		e, err := s.endpoint(ctx, tx, u, id)
		if err != nil {
			return err
		}
		ev, err := s.newEvent(Test, map[string]any{"message": "This is a test event from Nameport.", "endpointId": e.ID})
		if err != nil {
			return err
		}
		ds, err := s.enqueue(ctx, tx, u.ID, []Endpoint{*e}, ev)
		if err != nil {
			return err
		}
		d = &ds[0]
		return nil
	})
	if err != nil {
		if apperr.Code(err) != apperr.Internal {
			return nil, err
		}
		return nil, fmt.Errorf("webhook: test endpoint %d: %w", id, err)
	}
	return d, nil
}

// Deliveries returns up to limit deliveries to registrar u's endpoint id
// with ids below before (0: from the newest), newest first. Returns
// not_found when u has no such endpoint and invalid for a bad limit.
func (s *Service) Deliveries(ctx context.Context, u *account.User, id, before int64, limit int) ([]Delivery, error) {
	if limit < 1 || limit > MaxPage+1 {
		return nil, apperr.New(apperr.Invalid, "limit must be between 1 and %d", MaxPage)
	}
	if _, err := s.endpoint(ctx, s.db.Bun, u, id); err != nil {
		return nil, err
	}
	out := []Delivery{}
	q := s.db.Bun.NewSelect().Model(&out).Where("endpoint_id = ?", id).Order("id DESC").Limit(int64(limit))
	if before > 0 {
		q = q.Where("id < ?", before)
	}
	if err := q.Scan(ctx); err != nil {
		return nil, fmt.Errorf("webhook: deliveries of endpoint %d: %w", id, err)
	}
	return out, nil
}

// Event is what every attempt of a delivery POSTs.
type Event struct {
	ID      string    `json:"id"`
	Type    string    `json:"type"`
	Created time.Time `json:"created"`
	Data    any       `json:"data"`
}

func (s *Service) newEvent(eventType string, data any) (*Event, error) {
	id, err := newToken("evt_", 12)
	if err != nil {
		return nil, err
	}
	return &Event{ID: id, Type: eventType, Created: s.now().UTC().Truncate(time.Second), Data: data}, nil
}

// Emit records event eventType with data (a JSON-encodable value) for
// every enabled endpoint of userID that subscribes to it, inside tx, the
// transaction of the change the event tells about: the event exists if
// and only if the change commits. An account without endpoints costs one
// indexed query. A nil *Service emits nothing.
func (s *Service) Emit(ctx context.Context, tx *db.Tx, userID int64, eventType string, data any) error {
	if s == nil {
		return nil
	}
	var endpoints []Endpoint
	if err := tx.NewSelect().Model(&endpoints).Column("id", "events").Where("user_id = ?", userID).
		Where("disabled_at IS NULL").Scan(ctx); err != nil {
		return fmt.Errorf("webhook: emit %s: %w", eventType, err)
	}
	endpoints = slices.DeleteFunc(endpoints, func(e Endpoint) bool { return !e.Wants(eventType) })
	if len(endpoints) == 0 {
		return nil
	}
	ev, err := s.newEvent(eventType, data)
	if err != nil {
		return err
	}
	if _, err := s.enqueue(ctx, tx, userID, endpoints, ev); err != nil {
		return fmt.Errorf("webhook: emit %s: %w", eventType, err)
	}
	return nil
}

// enqueue records a delivery of ev to each endpoint and queues its job,
// in tx.
func (s *Service) enqueue(ctx context.Context, tx *db.Tx, userID int64, endpoints []Endpoint, ev *Event) ([]Delivery, error) {
	body, err := json.Marshal(ev)
	if err != nil {
		return nil, fmt.Errorf("webhook: encode %s: %w", ev.Type, err)
	}
	now := s.clock()
	deliveries := make([]Delivery, len(endpoints))
	jobs := make([]river.InsertManyParams, len(endpoints))
	for i, e := range endpoints {
		deliveries[i] = Delivery{EndpointID: e.ID, UserID: userID, EventID: ev.ID, EventType: ev.Type,
			Payload: string(body), State: StatePending, CreatedAt: now, NextAttemptAt: now}
		if _, err := tx.NewInsert().Model(&deliveries[i]).Exec(ctx); err != nil {
			return nil, err
		}
		jobs[i] = river.InsertManyParams{Args: DeliverArgs{DeliveryID: deliveries[i].ID}, InsertOpts: new(deliverOpts())}
	}
	if err := tx.EnqueueMany(ctx, jobs); err != nil {
		return nil, err
	}
	return deliveries, nil
}

// ParseEvents reads an endpoint's event list: known names, at least one,
// in EventTypes' order. Returns invalid otherwise.
func ParseEvents(names []string) (EventList, error) {
	var out EventList
	for _, n := range names {
		n = strings.ToLower(strings.TrimSpace(n))
		if !slices.Contains(EventTypes, n) {
			return nil, apperr.New(apperr.Invalid, "Unknown event %s: the events are %s", clipQuoted(n),
				strings.Join(EventTypes, ", "))
		}
	}
	for _, t := range EventTypes {
		if slices.ContainsFunc(names, func(n string) bool { return strings.ToLower(strings.TrimSpace(n)) == t }) {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return nil, apperr.New(apperr.Invalid, "Choose at least one event")
	}
	return out, nil
}

// EventList is an endpoint's events, stored comma-separated.
type EventList []string

// Value stores l comma-separated.
func (l EventList) Value() (driver.Value, error) { return strings.Join(l, ","), nil }

// Scan reads l from its stored text.
func (l *EventList) Scan(src any) error {
	var text string
	switch v := src.(type) {
	case nil:
	case string:
		text = v
	case []byte:
		text = string(v)
	default:
		return fmt.Errorf("webhook: cannot read %T as events", src)
	}
	*l = EventList{}
	for e := range strings.SplitSeq(text, ",") {
		if e != "" {
			*l = append(*l, e)
		}
	}
	return nil
}

func newToken(prefix string, n int) (string, error) {
	raw := make([]byte, n)
	if _, err := rand.Read(raw); err != nil {
		return "", fmt.Errorf("webhook: random: %w", err)
	}
	return prefix + hex.EncodeToString(raw), nil
}

// clipQuoted quotes what a person sent for a message, cut short.
func clipQuoted(s string) string {
	if r := []rune(s); len(r) > 40 {
		s = string(r[:40]) + "…"
	}
	return fmt.Sprintf("%q", s)
}

// EmitFunc is Emit as the services whose changes are events hold it: they
// call it inside the transaction of the change; nil emits nothing.
type EmitFunc func(ctx context.Context, tx *db.Tx, userID int64, eventType string, data any) error
