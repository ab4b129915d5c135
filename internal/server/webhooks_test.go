package server_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/config"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/sdk"
)

// hookReceiver is a real HTTP server the test starts, where a running
// server's workers deliver webhook events.
type hookReceiver struct {
	*httptest.Server
	events chan hookDelivery
}

type hookDelivery struct {
	body      []byte
	signature string
	event     sdk.WebhookEvent
}

func newHookReceiver(t *testing.T) *hookReceiver {
	t.Helper()
	r := &hookReceiver{events: make(chan hookDelivery, 100)}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		var ev sdk.WebhookEvent
		_ = json.Unmarshal(body, &ev)
		r.events <- hookDelivery{body: body, signature: req.Header.Get(sdk.WebhookSignatureHeader), event: ev}
	}))
	t.Cleanup(r.Close)
	return r
}

// next waits for the next delivery (the workers poll their queue).
func (r *hookReceiver) next(t *testing.T) hookDelivery {
	t.Helper()
	select {
	case d := <-r.events:
		return d
	case <-time.After(time.Minute):
		t.Fatal("no webhook delivery came")
		return hookDelivery{}
	}
}

// Registrations, deposits, record changes and renewals made through the
// API reach a registrar's endpoint as signed events, delivered by the
// server's own workers; the delivery log shows them delivered.
func TestWebhookEventsOverHTTP(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := startWith(t, engine, func(c *config.Config) { c.WebhooksAllowPrivateTargets = true })
			seedCatalog(t, ts)
			web, key := registrar(t, ts, "hookreg")
			rcv := newHookReceiver(t)

			r := web.do("POST", "/api/registrar/webhooks", map[string]any{"url": rcv.URL + "/hooks",
				"events": []string{"domain.registered", "domain.renewed", "wallet.deposit_completed", "dns.changed"}})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			created := data(t, r)
			secret := created["secret"].(string)
			endpointID := idOf(t, created["endpoint"].(map[string]any)["id"])

			expect := func(eventType string) sdk.WebhookEvent {
				t.Helper()
				d := rcv.next(t)
				require.NoError(t, sdk.VerifyWebhookSignature(d.body, d.signature, secret, time.Minute))
				require.Equal(t, eventType, d.event.Type, string(d.body))
				return d.event
			}

			r = web.do("POST", "/api/wallet/deposit", map[string]any{"amount": 100})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			ev := expect("wallet.deposit_completed")
			require.Contains(t, string(ev.Data), `"amountCents":10000`)

			r = web.do("POST", "/api/domains", map[string]any{"name": "hooked", "extension": ".inf.nz"})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			domainID := idOf(t, data(t, r)["domain"].(map[string]any)["id"])
			ev = expect("domain.registered")
			require.Contains(t, string(ev.Data), `"domain":"hooked.inf.nz"`)

			r = web.do("POST", "/api/domains/"+domainID+"/dns", map[string]any{"type": "A", "name": "www", "content": "192.0.2.1"})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			ev = expect("dns.changed")
			require.Contains(t, string(ev.Data), `"names":["www"]`)

			// A refused change emits nothing: the next event is the renewal.
			r = web.do("POST", "/api/domains/"+domainID+"/dns", map[string]any{"type": "A", "name": "www", "content": "not an address"})
			require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)
			r = web.do("POST", "/api/domains/"+domainID+"/renew", nil)
			require.Equal(t, http.StatusOK, r.status, r.raw)
			expect("domain.renewed")

			// The test event through /v1, and the log.
			r = v1(t, ts, key, "POST", "/v1/webhooks/"+endpointID+"/test", nil)
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Equal(t, "pending", r.body["state"])
			expect("webhook.test")
			var page map[string]any
			require.Eventually(t, func() bool {
				r = v1(t, ts, key, "GET", "/v1/webhooks/"+endpointID+"/deliveries", nil)
				page = r.body
				ds := page["deliveries"].([]any)
				return len(ds) == 5 && ds[0].(map[string]any)["state"] == "succeeded"
			}, time.Minute, 50*time.Millisecond)
			newest := page["deliveries"].([]any)[0].(map[string]any)
			require.Equal(t, "webhook.test", newest["eventType"])
			require.EqualValues(t, 200, newest["statusCode"])
			require.EqualValues(t, 1, newest["attempts"])

			r = web.do("GET", "/api/registrar/webhooks", nil)
			require.Equal(t, http.StatusOK, r.status, r.raw)
			list := data(t, r)
			require.Len(t, list["endpoints"], 1)
			require.Contains(t, list["eventTypes"], "dns.changed")
			require.NotContains(t, r.raw, secret, "the secret is shown once")
		})
	}
}

// Without --webhooks-allow-private-targets a loopback receiver is refused
// with a message that says why, on /api and on /v1.
func TestWebhookPrivateTargetRefused(t *testing.T) {
	t.Parallel()
	ts := start(t, dbtest.Engines()[0])
	web, key := registrar(t, ts, "hookpriv")
	r := web.do("POST", "/api/registrar/webhooks", map[string]any{"url": "https://127.0.0.1:9/hooks", "events": []string{"dns.changed"}})
	require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)
	require.Contains(t, r.body["error"], "cannot point at loopback, private")
	r = v1(t, ts, key, "POST", "/v1/webhooks", map[string]any{"url": "http://hooks.example.com/", "events": []string{"dns.changed"}})
	require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)
	require.True(t, strings.Contains(r.raw, "https://"), r.raw)
}
