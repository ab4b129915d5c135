package webhook_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/account"
	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/webhook"
	"github.com/nameport/nameport/sdk"
)

var secret = []byte("0123456789abcdef0123456789abcdef-webhook-tests")

// bundle is a webhook service over a fresh database, with jobs set up for
// enqueueing only: the tests make each attempt themselves (Attempt is what
// the River worker runs), so retries need no waiting.
type bundle struct {
	db    *db.DB
	hooks *webhook.Service
}

func setup(t *testing.T, d *db.DB, allowPrivate bool) bundle {
	t.Helper()
	require.NoError(t, d.SetupJobs(db.JobsConfig{}))
	hooks, err := webhook.NewService(d, webhook.Options{Secret: secret, AllowPrivateTargets: allowPrivate})
	require.NoError(t, err)
	return bundle{db: d, hooks: hooks}
}

func (b bundle) registrar(t *testing.T, name string) *account.User {
	t.Helper()
	return &account.User{ID: dbtest.User(t, b.db, name, account.TypeRegistrar), Username: name, UserType: account.TypeRegistrar}
}

func (b bundle) emit(t *testing.T, userID int64, eventType string, data any) {
	t.Helper()
	require.NoError(t, b.db.InTx(context.Background(), func(ctx context.Context, tx *db.Tx) error {
		return b.hooks.Emit(ctx, tx, userID, eventType, data)
	}))
}

func (b bundle) deliveries(t *testing.T, u *account.User, endpointID int64) []webhook.Delivery {
	t.Helper()
	ds, err := b.hooks.Deliveries(context.Background(), u, endpointID, 0, webhook.MaxPage)
	require.NoError(t, err)
	return ds
}

// receiver is a real HTTP server that answers each delivery with the next
// of its statuses (the last one from then on) and keeps what it got.
type receiver struct {
	*httptest.Server
	mu       sync.Mutex
	statuses []int
	got      []received
}

type received struct {
	body   []byte
	header http.Header
}

func newReceiver(t *testing.T, statuses ...int) *receiver {
	t.Helper()
	r := &receiver{statuses: statuses}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		defer r.mu.Unlock()
		r.got = append(r.got, received{body: body, header: req.Header.Clone()})
		status := r.statuses[min(len(r.got), len(r.statuses))-1]
		w.WriteHeader(status)
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *receiver) received() []received {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]received(nil), r.got...)
}

// A delivery is POSTed as JSON, signed so that the SDK's verifier accepts
// it; a receiver that fails the first attempts gets the same event again
// at each retry, and every attempt is logged on the delivery.
func TestDeliverySignedAndRetried(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		b := setup(t, d, true)
		u := b.registrar(t, "hooked")
		rcv := newReceiver(t, 500, 503, 200)
		e, whsec, err := b.hooks.CreateEndpoint(ctx, u, webhook.NewEndpoint{URL: rcv.URL + "/hook",
			Events: []string{webhook.DomainRegistered, webhook.DNSChanged}})
		require.NoError(t, err)
		require.True(t, strings.HasPrefix(whsec, webhook.SecretPrefix))

		b.emit(t, u.ID, webhook.DomainRegistered, map[string]any{"domain": "hooked.inf.nz"})
		ds := b.deliveries(t, u, e.ID)
		require.Len(t, ds, 1)
		id := ds[0].ID
		require.Equal(t, webhook.StatePending, ds[0].State)

		// Attempts 1 and 2 fail: logged, still pending, a retry due.
		for attempt, status := range []int{500, 503} {
			require.Error(t, b.hooks.Attempt(ctx, id, attempt+1, webhook.MaxAttempts))
			got := b.deliveries(t, u, e.ID)[0]
			require.Equal(t, webhook.StatePending, got.State)
			require.Equal(t, attempt+1, got.Attempts)
			require.Equal(t, status, got.LastStatus)
			require.False(t, got.NextAttemptAt.IsZero())
		}
		// Attempt 3 succeeds.
		require.NoError(t, b.hooks.Attempt(ctx, id, 3, webhook.MaxAttempts))
		got := b.deliveries(t, u, e.ID)[0]
		require.Equal(t, webhook.StateSucceeded, got.State)
		require.Equal(t, 3, got.Attempts)
		require.Equal(t, 200, got.LastStatus)
		require.False(t, got.DeliveredAt.IsZero())
		// A job run again after success sends nothing.
		require.NoError(t, b.hooks.Attempt(ctx, id, 4, webhook.MaxAttempts))

		reqs := rcv.received()
		require.Len(t, reqs, 3)
		for _, r := range reqs {
			require.Equal(t, string(reqs[0].body), string(r.body), "every attempt sends the same event")
			require.Equal(t, "application/json", r.header.Get("Content-Type"))
			require.NotEmpty(t, r.header.Get("User-Agent"))
			sig := r.header.Get(sdk.WebhookSignatureHeader)
			require.NoError(t, sdk.VerifyWebhookSignature(r.body, sig, whsec, time.Minute))
			require.ErrorIs(t, sdk.VerifyWebhookSignature(append(r.body, ' '), sig, whsec, time.Minute), sdk.ErrWebhookSignatureInvalid)
			require.ErrorIs(t, sdk.VerifyWebhookSignature(r.body, sig, "whsec_other", time.Minute), sdk.ErrWebhookSignatureInvalid)
			require.ErrorIs(t, sdk.VerifyWebhookSignature(r.body, "", whsec, time.Minute), sdk.ErrWebhookSignatureMissing)
		}
		require.Contains(t, string(reqs[0].body), `"type":"domain.registered"`)
		require.Contains(t, string(reqs[0].body), `"id":"evt_`)
		require.Contains(t, string(reqs[0].body), `"domain":"hooked.inf.nz"`)
	})
}

// A receiver that never answers 2xx: after the last attempt the delivery
// is failed, and the retries span three days.
func TestDeliveryFailsAfterLastAttempt(t *testing.T) {
	t.Parallel()
	require.Equal(t, 72*time.Hour, webhook.RetrySpan())
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		b := setup(t, d, true)
		u := b.registrar(t, "down")
		rcv := newReceiver(t, 502)
		e, _, err := b.hooks.CreateEndpoint(ctx, u, webhook.NewEndpoint{URL: rcv.URL, Events: []string{webhook.DNSChanged}})
		require.NoError(t, err)
		d1, err := b.hooks.SendTest(ctx, u, e.ID)
		require.NoError(t, err)
		require.Equal(t, webhook.Test, d1.EventType)
		require.Error(t, b.hooks.Attempt(ctx, d1.ID, webhook.MaxAttempts-1, webhook.MaxAttempts))
		require.Equal(t, webhook.StatePending, b.deliveries(t, u, e.ID)[0].State)
		require.Error(t, b.hooks.Attempt(ctx, d1.ID, webhook.MaxAttempts, webhook.MaxAttempts))
		got := b.deliveries(t, u, e.ID)[0]
		require.Equal(t, webhook.StateFailed, got.State)
		require.Equal(t, 502, got.LastStatus)
		require.True(t, got.NextAttemptAt.IsZero())
	})
}

// Events exist exactly when the change commits, only for subscribed
// events and only for the account's own endpoints.
func TestEmitFollowsTheTransaction(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		b := setup(t, d, true)
		u, other := b.registrar(t, "owner"), b.registrar(t, "other")
		e, _, err := b.hooks.CreateEndpoint(ctx, u, webhook.NewEndpoint{URL: "https://hooks.example.com/x",
			Events: []string{webhook.DomainRenewed}})
		require.NoError(t, err)

		rollback := errors.New("rolled back")
		err = d.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
			require.NoError(t, b.hooks.Emit(ctx, tx, u.ID, webhook.DomainRenewed, map[string]any{"domain": "a.inf.nz"}))
			return rollback
		})
		require.ErrorIs(t, err, rollback)
		require.Empty(t, b.deliveries(t, u, e.ID), "a rolled back change has no event")

		b.emit(t, u.ID, webhook.DomainExpired, nil)     // not subscribed
		b.emit(t, other.ID, webhook.DomainRenewed, nil) // another account
		require.Empty(t, b.deliveries(t, u, e.ID))

		b.emit(t, u.ID, webhook.DomainRenewed, map[string]any{"domain": "a.inf.nz"})
		require.Len(t, b.deliveries(t, u, e.ID), 1)

		// Another registrar's endpoint is not found, whatever the call.
		_, err = b.hooks.Deliveries(ctx, other, e.ID, 0, 10)
		require.Equal(t, apperr.NotFound, apperr.Code(err))
		_, err = b.hooks.SendTest(ctx, other, e.ID)
		require.Equal(t, apperr.NotFound, apperr.Code(err))
		require.Equal(t, apperr.NotFound, apperr.Code(b.hooks.DeleteEndpoint(ctx, other, e.ID)))
		// End users have none.
		user := &account.User{ID: other.ID, UserType: account.TypeUser}
		_, err = b.hooks.Endpoints(ctx, user)
		require.Equal(t, apperr.Forbidden, apperr.Code(err))

		require.NoError(t, b.hooks.DeleteEndpoint(ctx, u, e.ID))
		_, err = b.hooks.Deliveries(ctx, u, e.ID, 0, 10)
		require.Equal(t, apperr.NotFound, apperr.Code(err))
	})
}

// An endpoint's events change and it turns off and on; a disabled one gets
// no new events, and the pending delivery it had ends failed at its next
// attempt. Another registrar's endpoint is not found; bad changes change
// nothing.
func TestUpdateEndpoint(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		b := setup(t, d, true)
		u, other := b.registrar(t, "owner"), b.registrar(t, "other")
		e, _, err := b.hooks.CreateEndpoint(ctx, u, webhook.NewEndpoint{URL: "https://hooks.example.com/x",
			Events: []string{webhook.DomainRenewed}})
		require.NoError(t, err)

		_, err = b.hooks.UpdateEndpoint(ctx, other, e.ID, webhook.EndpointChange{Enabled: new(false)})
		require.Equal(t, apperr.NotFound, apperr.Code(err))
		_, err = b.hooks.UpdateEndpoint(ctx, u, e.ID, webhook.EndpointChange{})
		require.Equal(t, apperr.Invalid, apperr.Code(err))
		_, err = b.hooks.UpdateEndpoint(ctx, u, e.ID, webhook.EndpointChange{Events: []string{}})
		require.Equal(t, "Choose at least one event", apperr.Message(err))
		_, err = b.hooks.UpdateEndpoint(ctx, u, e.ID, webhook.EndpointChange{Events: []string{"domain.stolen"}})
		require.Equal(t, apperr.Invalid, apperr.Code(err))

		got, err := b.hooks.UpdateEndpoint(ctx, u, e.ID, webhook.EndpointChange{Events: []string{webhook.DNSChanged, webhook.DomainExpired}})
		require.NoError(t, err)
		require.Equal(t, []string{webhook.DomainExpired, webhook.DNSChanged}, []string(got.Events), "in EventTypes' order")
		require.True(t, got.Enabled())
		b.emit(t, u.ID, webhook.DomainRenewed, nil) // no longer subscribed
		require.Empty(t, b.deliveries(t, u, e.ID))
		b.emit(t, u.ID, webhook.DNSChanged, map[string]any{"domain": "a.inf.nz"})
		require.Len(t, b.deliveries(t, u, e.ID), 1)

		got, err = b.hooks.UpdateEndpoint(ctx, u, e.ID, webhook.EndpointChange{Enabled: new(false)})
		require.NoError(t, err)
		require.False(t, got.Enabled())
		require.Equal(t, []string{webhook.DomainExpired, webhook.DNSChanged}, []string(got.Events), "events kept")
		b.emit(t, u.ID, webhook.DNSChanged, nil)
		pending := b.deliveries(t, u, e.ID)
		require.Len(t, pending, 1, "a disabled endpoint gets no new events")
		_ = b.hooks.Attempt(ctx, pending[0].ID, 1, webhook.MaxAttempts)
		ended := b.deliveries(t, u, e.ID)[0]
		require.Equal(t, webhook.StateFailed, ended.State, "its pending delivery ends at its next attempt")
		require.Equal(t, "the endpoint is disabled", ended.LastError)
		list, err := b.hooks.Endpoints(ctx, u)
		require.NoError(t, err)
		require.False(t, list[0].Enabled())

		got, err = b.hooks.UpdateEndpoint(ctx, u, e.ID, webhook.EndpointChange{Enabled: new(true)})
		require.NoError(t, err)
		require.True(t, got.Enabled())
		b.emit(t, u.ID, webhook.DNSChanged, nil)
		require.Len(t, b.deliveries(t, u, e.ID), 2)
	})
}

// Without --webhooks-allow-private-targets, loopback and private targets
// are refused when the endpoint is added, and at connection time for a
// name that resolves to one.
func TestPrivateTargetsRefused(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		b := setup(t, d, false)
		u := b.registrar(t, "careful")
		for url, why := range map[string]string{
			"https://127.0.0.1:8443/hook":     "loopback, private",
			"https://10.1.2.3/hook":           "loopback, private",
			"https://[::1]/hook":              "loopback, private",
			"https://169.254.169.254/latest":  "loopback, private",
			"https://localhost/hook":          "loopback, private",
			"http://hooks.example.com/hook":   "https://",
			"https://me:pw@hooks.example.com": "user name or password",
			"ftp://hooks.example.com":         "https://",
			"hooks.example.com/hook":          "https://",
			"":                                "Enter the URL",
			"https://hooks.example.com/" + strings.Repeat("a", webhook.MaxURLLength): "longer than",
		} {
			_, _, err := b.hooks.CreateEndpoint(ctx, u, webhook.NewEndpoint{URL: url, Events: []string{webhook.DNSChanged}})
			require.Equal(t, apperr.Invalid, apperr.Code(err), url)
			require.Contains(t, apperr.Message(err), why, url)
		}
		_, _, err := b.hooks.CreateEndpoint(ctx, u, webhook.NewEndpoint{URL: "https://hooks.example.com/x", Events: []string{"domain.bought"}})
		require.Contains(t, apperr.Message(err), "Unknown event")
		_, _, err = b.hooks.CreateEndpoint(ctx, u, webhook.NewEndpoint{URL: "https://hooks.example.com/x"})
		require.Contains(t, apperr.Message(err), "at least one event")
		list, err := b.hooks.Endpoints(ctx, u)
		require.NoError(t, err)
		require.Empty(t, list, "nothing was added")
	})

	// The dial check: "localhost" resolves to loopback, which the client
	// refuses once resolved (a name may point anywhere after it was added).
	rcv := newReceiver(t, 200)
	port := rcv.URL[strings.LastIndex(rcv.URL, ":")+1:]
	req, err := http.NewRequest(http.MethodPost, "http://localhost:"+port+"/", nil)
	require.NoError(t, err)
	_, err = webhook.NewClient(false).Do(context.Background(), req)
	require.ErrorIs(t, err, webhook.ErrPrivateAddress)
	require.Empty(t, rcv.received())
	resp, err := webhook.NewClient(true).Do(context.Background(), req)
	require.NoError(t, err)
	resp.Body.Close()
}

// A registrar may have MaxEndpoints endpoints.
func TestEndpointLimit(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		b := setup(t, d, false)
		u := b.registrar(t, "many")
		for range webhook.MaxEndpoints {
			_, _, err := b.hooks.CreateEndpoint(ctx, u, webhook.NewEndpoint{URL: "https://hooks.example.com/x", Events: []string{webhook.DNSChanged}})
			require.NoError(t, err)
		}
		_, _, err := b.hooks.CreateEndpoint(ctx, u, webhook.NewEndpoint{URL: "https://hooks.example.com/x", Events: []string{webhook.DNSChanged}})
		require.Equal(t, apperr.Conflict, apperr.Code(err))
		require.Contains(t, apperr.Message(err), "10 webhook endpoints")
	})
}
