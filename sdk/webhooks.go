package sdk

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Webhook event types.
const (
	EventDomainRegistered       = "domain.registered"
	EventDomainRenewed          = "domain.renewed"
	EventDomainExpiring         = "domain.expiring"
	EventDomainExpired          = "domain.expired"
	EventDomainReleased         = "domain.released"
	EventWalletDepositCompleted = "wallet.deposit_completed"
	EventDNSChanged             = "dns.changed"
	// EventWebhookTest is what WebhooksService.Test sends.
	EventWebhookTest = "webhook.test"
)

// WebhookSignatureHeader is the header that signs every delivery:
// "t=<unix seconds>,v1=<hex HMAC-SHA256>" (see VerifyWebhookSignature).
const WebhookSignatureHeader = "Nameport-Signature"

// WebhookEndpoint is a URL events are POSTed to.
type WebhookEndpoint struct {
	ID        int64     `json:"id"`
	URL       string    `json:"url" example:"https://example.com/hooks/nameport"`
	Events    []string  `json:"events" nullable:"false" doc:"The events sent to the endpoint" example:"[\"domain.registered\",\"dns.changed\"]"`
	Enabled   bool      `json:"enabled" doc:"Whether new events are sent to the endpoint"`
	CreatedAt time.Time `json:"createdAt"`
	// LastDelivery is the newest delivery to the endpoint; nil before the
	// first.
	LastDelivery *WebhookDelivery `json:"lastDelivery,omitempty" doc:"The newest delivery to the endpoint; absent before the first"`
}

// WebhookEndpointList is your webhook endpoints, oldest first, and the
// events an endpoint may subscribe to.
type WebhookEndpointList struct {
	Endpoints  []WebhookEndpoint `json:"endpoints" nullable:"false"`
	EventTypes []string          `json:"eventTypes" nullable:"false" doc:"Every event an endpoint may subscribe to"`
}

// WebhookEndpointRequest adds a webhook endpoint.
type WebhookEndpointRequest struct {
	URL    string   `json:"url" maxLength:"2000" doc:"Where to POST events: an https:// URL of a public host" example:"https://example.com/hooks/nameport"`
	Events []string `json:"events" nullable:"false" minItems:"1" maxItems:"7" doc:"The events to send (at least one): domain.registered, domain.renewed, domain.expiring, domain.expired, domain.released, wallet.deposit_completed, dns.changed" example:"[\"domain.registered\"]"`
}

// WebhookEndpointUpdate changes an endpoint: the fields given, at least
// one.
type WebhookEndpointUpdate struct {
	Events []string `json:"events,omitempty" minItems:"1" maxItems:"7" doc:"The events to send from now on (at least one); absent keeps them" example:"[\"domain.registered\",\"dns.changed\"]"`
	// Enabled turns the endpoint on or off; nil leaves it as it is.
	Enabled *bool `json:"enabled,omitempty" doc:"Whether new events are sent to the endpoint; turning it off also ends its pending deliveries (failed) at their next attempt. Absent keeps it"`
}

// NewWebhookEndpoint is an endpoint just added, with its signing secret:
// shown this once.
type NewWebhookEndpoint struct {
	Endpoint WebhookEndpoint `json:"endpoint"`
	Secret   string          `json:"secret" doc:"The signing secret (whsec_…): shown this once; keep it to verify the Nameport-Signature header" example:"whsec_5f0c…"`
}

// WebhookDelivery is one event sent to one endpoint, and how its attempts
// went.
type WebhookDelivery struct {
	ID         int64  `json:"id"`
	EndpointID int64  `json:"endpointId"`
	EventID    string `json:"eventId" doc:"The event's id (the same in every attempt, for receivers to skip repeats)" example:"evt_3f9a…"`
	EventType  string `json:"eventType" example:"domain.registered"`
	// State is pending (being tried, perhaps waiting for a retry),
	// succeeded (a 2xx answer) or failed (every attempt failed).
	State    string `json:"state" enum:"pending,succeeded,failed" doc:"pending (being tried, or waiting to retry), succeeded (a 2xx answer), failed (retries over)"`
	Attempts int    `json:"attempts" doc:"Attempts made so far"`
	// StatusCode is the HTTP status of the last attempt; nil when it got
	// no answer (see Error).
	StatusCode    *int       `json:"statusCode,omitempty" doc:"HTTP status the last attempt got; absent when it got no answer"`
	LatencyMs     *int64     `json:"latencyMs,omitempty" doc:"How long the last attempt took, in milliseconds"`
	Error         string     `json:"error,omitempty" doc:"Why the last attempt got no answer (a refused address, a timeout…)"`
	CreatedAt     time.Time  `json:"createdAt"`
	NextAttemptAt *time.Time `json:"nextAttemptAt,omitempty" doc:"When the next attempt is due, while pending"`
	DeliveredAt   *time.Time `json:"deliveredAt,omitempty" doc:"When a 2xx answer came"`
}

// WebhookDeliveryPage is a page of an endpoint's delivery log, newest
// first.
type WebhookDeliveryPage struct {
	Deliveries []WebhookDelivery `json:"deliveries" nullable:"false"`
	NextCursor string            `json:"nextCursor,omitempty" doc:"Pass as cursor for the next page; absent on the last"`
}

// WebhookEvent is the body of every delivery.
type WebhookEvent struct {
	ID      string          `json:"id"`
	Type    string          `json:"type"`
	Created time.Time       `json:"created"`
	Data    json.RawMessage `json:"data"`
}

// WebhooksService manages your webhook endpoints. Reach it as
// Client.Webhooks. Every call needs a key with every scope, as managing
// keys does: an endpoint receives what happens to all your domains.
type WebhooksService struct{ c *Client }

// List returns your endpoints, oldest first, each with its newest delivery.
func (s *WebhooksService) List(ctx context.Context) (*WebhookEndpointList, error) {
	var out WebhookEndpointList
	if err := s.c.do(ctx, http.MethodGet, "/v1/webhooks", nil, nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Create adds an endpoint and returns it with its signing secret, shown
// this once (not kept for a replay: the call is never retried).
//
// Errors: CodeInvalid for a URL that is not https:// to a public host, or
// an unknown event; CodeConflict when you have the most endpoints an
// account may have.
func (s *WebhooksService) Create(ctx context.Context, req WebhookEndpointRequest) (*NewWebhookEndpoint, error) {
	var out NewWebhookEndpoint
	if err := s.c.once(ctx, http.MethodPost, "/v1/webhooks", req, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Update changes endpoint id's events or turns it on or off, and returns
// it.
//
// Errors: CodeInvalid for an unknown event, no events, or an update that
// names nothing; CodeNotFound when you have no such endpoint.
func (s *WebhooksService) Update(ctx context.Context, id int64, req WebhookEndpointUpdate) (*WebhookEndpoint, error) {
	var out WebhookEndpoint
	if err := s.c.do(ctx, http.MethodPatch, webhookPath(id), nil, req, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Delete removes endpoint id and its delivery log.
//
// Errors: CodeNotFound when you have no such endpoint.
func (s *WebhooksService) Delete(ctx context.Context, id int64) error {
	return s.c.do(ctx, http.MethodDelete, webhookPath(id), nil, nil, nil)
}

// Test sends a webhook.test event to endpoint id now and returns its
// delivery, pending: follow it with Deliveries.
func (s *WebhooksService) Test(ctx context.Context, id int64) (*WebhookDelivery, error) {
	var out WebhookDelivery
	if err := s.c.once(ctx, http.MethodPost, webhookPath(id)+"/test", nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Deliveries returns a page of endpoint id's delivery log, newest first;
// cursor is the previous page's NextCursor ("" for the first), limit 1 to
// 100 (0: 50).
func (s *WebhooksService) Deliveries(ctx context.Context, id int64, cursor string, limit int) (*WebhookDeliveryPage, error) {
	q := url.Values{}
	if cursor != "" {
		q.Set("cursor", cursor)
	}
	if limit > 0 {
		q.Set("limit", strconv.Itoa(limit))
	}
	var out WebhookDeliveryPage
	if err := s.c.do(ctx, http.MethodGet, webhookPath(id)+"/deliveries", q, nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

func webhookPath(id int64) string { return "/v1/webhooks/" + strconv.FormatInt(id, 10) }

// Errors of VerifyWebhookSignature.
var (
	ErrWebhookSignatureMissing = errors.New("nameport webhook: no Nameport-Signature header, or not t=…,v1=…")
	ErrWebhookSignatureOld     = errors.New("nameport webhook: the signature's timestamp is outside the tolerance")
	ErrWebhookSignatureInvalid = errors.New("nameport webhook: no signature matches the payload")
)

// DefaultWebhookTolerance is how far a signature's timestamp may be from
// now for VerifyWebhookSignature with tolerance 0.
const DefaultWebhookTolerance = 5 * time.Minute

// VerifyWebhookSignature checks that payload, the raw body of a delivery,
// was signed by Nameport with secret (the endpoint's whsec_… secret):
// header is the Nameport-Signature header, "t=<unix seconds>,v1=<hex
// HMAC-SHA256 of "<t>.<payload>">". A timestamp further than tolerance
// from now (0: DefaultWebhookTolerance) is refused, so a captured delivery
// cannot be replayed later. Read the body raw: parsing and encoding it
// again changes the bytes.
//
//	body, _ := io.ReadAll(r.Body)
//	if err := sdk.VerifyWebhookSignature(body, r.Header.Get(sdk.WebhookSignatureHeader), secret, 0); err != nil {
//		http.Error(w, "bad signature", http.StatusBadRequest)
//		return
//	}
func VerifyWebhookSignature(payload []byte, header, secret string, tolerance time.Duration) error {
	return verifyWebhookSignature(payload, header, secret, tolerance, time.Now())
}

func verifyWebhookSignature(payload []byte, header, secret string, tolerance time.Duration, now time.Time) error {
	var ts string
	var sigs [][]byte
	for _, part := range strings.Split(header, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			continue
		}
		switch k {
		case "t":
			ts = v
		case "v1":
			if sig, err := hex.DecodeString(v); err == nil {
				sigs = append(sigs, sig)
			}
		}
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || len(sigs) == 0 {
		return ErrWebhookSignatureMissing
	}
	if tolerance <= 0 {
		tolerance = DefaultWebhookTolerance
	}
	if d := now.Sub(time.Unix(sec, 0)); d > tolerance || d < -tolerance {
		return ErrWebhookSignatureOld
	}
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(ts))
	m.Write([]byte("."))
	m.Write(payload)
	want := m.Sum(nil)
	for _, sig := range sigs {
		if hmac.Equal(sig, want) {
			return nil
		}
	}
	return ErrWebhookSignatureInvalid
}
