package api

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/nameport/nameport/internal/account"
	"github.com/nameport/nameport/internal/webhook"
	"github.com/nameport/nameport/sdk"
)

// A registrar's webhooks: the dashboard's Webhooks tab (/api, session) and
// /v1/webhooks (API key), the same operations and wire types. The rules
// (URLs, events, limits, delivery) are internal/webhook's.

type WebhookListOutput struct {
	Body envelope[sdk.WebhookEndpointList]
}

type WebhookCreateInput struct {
	Body sdk.WebhookEndpointRequest
}

type WebhookNewOutput struct {
	Body envelope[sdk.NewWebhookEndpoint]
}

type WebhookInput struct {
	ID int64 `path:"id" doc:"The endpoint's id"`
}

type WebhookUpdateInput struct {
	ID   int64 `path:"id" doc:"The endpoint's id"`
	Body sdk.WebhookEndpointUpdate
}

type WebhookEndpointOutput struct {
	Body envelope[sdk.WebhookEndpoint]
}

type V1WebhookEndpointOutput struct {
	Body sdk.WebhookEndpoint
}

type WebhookDeliveryOutput struct {
	Body envelope[sdk.WebhookDelivery]
}

type WebhookDeliveriesInput struct {
	ID     int64  `path:"id" doc:"The endpoint's id"`
	Limit  int    `query:"limit" minimum:"1" maximum:"100" default:"50" doc:"Deliveries per page"`
	Cursor string `query:"cursor" doc:"nextCursor of the previous page"`
}

type WebhookDeliveriesOutput struct {
	Body envelope[sdk.WebhookDeliveryPage]
}

type V1WebhookListOutput struct {
	Body sdk.WebhookEndpointList
}

type V1WebhookNewOutput struct {
	Body sdk.NewWebhookEndpoint
}

type V1WebhookDeliveryOutput struct {
	Body sdk.WebhookDelivery
}

type V1WebhookDeliveriesOutput struct {
	Body sdk.WebhookDeliveryPage
}

// webhookOps describe each operation once, for /api and /v1.
var webhookOps = struct{ list, create, update, remove, test, deliveries huma.Operation }{
	list: huma.Operation{Method: http.MethodGet, Summary: "List your webhook endpoints",
		Description: "Your endpoints, oldest first, each with its newest delivery, and every event an endpoint may subscribe to. Secrets are never listed."},
	create: huma.Operation{Method: http.MethodPost, Summary: "Add a webhook endpoint", DefaultStatus: http.StatusCreated,
		Description: "Adds an endpoint: an https:// URL of a public host and the events to send to it. The answer holds its " +
			"signing secret, shown this once. Every delivery is a POST of {id, type, created, data} signed in the " +
			"Nameport-Signature header (t=<unix seconds>,v1=<hex HMAC-SHA256 of \"<t>.<body>\" keyed by the secret); " +
			"a 2xx answer within 10 seconds delivers it, anything else is retried with backoff for 3 days. " +
			fmt10Endpoints,
		Errors: []int{http.StatusConflict, http.StatusUnprocessableEntity}},
	update: huma.Operation{Method: http.MethodPatch, Summary: "Change a webhook endpoint",
		Description: "Changes the events sent to the endpoint, or turns it on or off (the fields given, at least one). " +
			"A disabled endpoint gets no new events, and its deliveries still pending end failed at their next attempt; " +
			"its URL and secret stay.",
		Errors: []int{http.StatusNotFound, http.StatusUnprocessableEntity}},
	remove: huma.Operation{Method: http.MethodDelete, Summary: "Delete a webhook endpoint",
		Description: "Deletes the endpoint and its delivery log; deliveries not yet made are dropped.",
		Errors:      []int{http.StatusNotFound, http.StatusUnprocessableEntity}},
	test: huma.Operation{Method: http.MethodPost, Summary: "Send a test event",
		Description: "Sends a webhook.test event to the endpoint now, signed and retried like every event, and answers its delivery (pending): follow it in the delivery log.",
		Errors:      []int{http.StatusNotFound, http.StatusUnprocessableEntity}},
	deliveries: huma.Operation{Method: http.MethodGet, Summary: "An endpoint's delivery log",
		Description: "The endpoint's deliveries, newest first, a page at a time: event, state, attempts, the last attempt's status code, latency and error.",
		Errors:      []int{http.StatusNotFound, http.StatusUnprocessableEntity}},
}

const fmt10Endpoints = "An account may have 10 endpoints (409 beyond)."

// withRoute is op at path with its id and tags.
func withRoute(op huma.Operation, id, path string, tags []string) huma.Operation {
	op.OperationID, op.Path, op.Tags = id, path, tags
	return op
}

type webhookHandlers struct{ hooks *webhook.Service }

func addWebhookRoutes(a huma.API, hooks *webhook.Service) {
	h := webhookHandlers{hooks}
	who := accessRegistrar("Only registrar accounts have webhooks")
	tags := []string{"Webhooks"}
	register(a, who, withRoute(webhookOps.list, "registrar-webhooks-list", "/api/registrar/webhooks", tags), h.list)
	register(a, who, withRoute(webhookOps.create, "registrar-webhooks-create", "/api/registrar/webhooks", tags), h.create)
	register(a, who, withRoute(webhookOps.update, "registrar-webhooks-update", "/api/registrar/webhooks/{id}", tags), h.update)
	register(a, who, withRoute(webhookOps.remove, "registrar-webhooks-delete", "/api/registrar/webhooks/{id}", tags), h.remove)
	register(a, who, withRoute(webhookOps.test, "registrar-webhooks-test", "/api/registrar/webhooks/{id}/test", tags), h.test)
	register(a, who, withRoute(webhookOps.deliveries, "registrar-webhooks-deliveries", "/api/registrar/webhooks/{id}/deliveries", tags), h.deliveries)
}

// The /api handlers.

func (h webhookHandlers) list(ctx context.Context, _ *struct{}) (*WebhookListOutput, error) {
	out, err := listWebhooks(ctx, h.hooks, sessionUser(ctx))
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &WebhookListOutput{Body: ok(out)}, nil
}

func (h webhookHandlers) create(ctx context.Context, in *WebhookCreateInput) (*WebhookNewOutput, error) {
	out, err := createWebhook(ctx, h.hooks, sessionUser(ctx), in.Body)
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &WebhookNewOutput{Body: ok(out)}, nil
}

func (h webhookHandlers) update(ctx context.Context, in *WebhookUpdateInput) (*WebhookEndpointOutput, error) {
	out, err := updateWebhook(ctx, h.hooks, sessionUser(ctx), in)
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &WebhookEndpointOutput{Body: ok(out)}, nil
}

func (h webhookHandlers) remove(ctx context.Context, in *WebhookInput) (*DoneOutput, error) {
	if err := h.hooks.DeleteEndpoint(ctx, sessionUser(ctx), in.ID); err != nil {
		return nil, fail(ctx, err)
	}
	return done(), nil
}

func (h webhookHandlers) test(ctx context.Context, in *WebhookInput) (*WebhookDeliveryOutput, error) {
	d, err := h.hooks.SendTest(ctx, sessionUser(ctx), in.ID)
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &WebhookDeliveryOutput{Body: ok(toWireDelivery(d))}, nil
}

func (h webhookHandlers) deliveries(ctx context.Context, in *WebhookDeliveriesInput) (*WebhookDeliveriesOutput, error) {
	page, err := webhookDeliveries(ctx, h.hooks, sessionUser(ctx), in)
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &WebhookDeliveriesOutput{Body: ok(page)}, nil
}

// /v1: managing webhooks takes a key with every scope, as managing keys
// does: an endpoint receives what happens to every domain of the account.

type v1WebhookHandlers struct{ hooks *webhook.Service }

func addV1WebhookRoutes(v *v1, hooks *webhook.Service) {
	h := v1WebhookHandlers{hooks}
	tags := []string{"Registrar API"}
	remove := webhookOps.remove
	remove.DefaultStatus = http.StatusNoContent
	registerV1(v, account.AllScopes, withRoute(webhookOps.list, "v1-webhooks-list", "/v1/webhooks", tags), nil, h.list)
	create := webhookOps.create
	create.Description += " The secret is not kept for a replay, so this call takes no Idempotency-Key."
	registerV1(v, account.AllScopes, withRoute(create, "v1-webhooks-create", "/v1/webhooks", tags), nil, h.create)
	registerV1(v, account.AllScopes, withRoute(webhookOps.update, "v1-webhooks-update", "/v1/webhooks/{id}", tags), nil, h.update)
	registerV1(v, account.AllScopes, withRoute(remove, "v1-webhooks-delete", "/v1/webhooks/{id}", tags), nil, h.remove)
	registerV1(v, account.AllScopes, withRoute(webhookOps.test, "v1-webhooks-test", "/v1/webhooks/{id}/test", tags), nil, h.test)
	registerV1(v, account.AllScopes, withRoute(webhookOps.deliveries, "v1-webhooks-deliveries", "/v1/webhooks/{id}/deliveries", tags), nil, h.deliveries)
}

func (h v1WebhookHandlers) list(ctx context.Context, _ *struct{}) (*V1WebhookListOutput, error) {
	out, err := listWebhooks(ctx, h.hooks, keyUser(ctx))
	if err != nil {
		return nil, problem(ctx, err)
	}
	return &V1WebhookListOutput{Body: out}, nil
}

func (h v1WebhookHandlers) create(ctx context.Context, in *WebhookCreateInput) (*V1WebhookNewOutput, error) {
	out, err := createWebhook(ctx, h.hooks, keyUser(ctx), in.Body)
	if err != nil {
		return nil, problem(ctx, err)
	}
	return &V1WebhookNewOutput{Body: out}, nil
}

func (h v1WebhookHandlers) update(ctx context.Context, in *WebhookUpdateInput) (*V1WebhookEndpointOutput, error) {
	out, err := updateWebhook(ctx, h.hooks, keyUser(ctx), in)
	if err != nil {
		return nil, problem(ctx, err)
	}
	return &V1WebhookEndpointOutput{Body: out}, nil
}

func (h v1WebhookHandlers) remove(ctx context.Context, in *WebhookInput) (*V1NoContentOutput, error) {
	if err := h.hooks.DeleteEndpoint(ctx, keyUser(ctx), in.ID); err != nil {
		return nil, problem(ctx, err)
	}
	return &V1NoContentOutput{}, nil
}

func (h v1WebhookHandlers) test(ctx context.Context, in *WebhookInput) (*V1WebhookDeliveryOutput, error) {
	d, err := h.hooks.SendTest(ctx, keyUser(ctx), in.ID)
	if err != nil {
		return nil, problem(ctx, err)
	}
	return &V1WebhookDeliveryOutput{Body: toWireDelivery(d)}, nil
}

func (h v1WebhookHandlers) deliveries(ctx context.Context, in *WebhookDeliveriesInput) (*V1WebhookDeliveriesOutput, error) {
	page, err := webhookDeliveries(ctx, h.hooks, keyUser(ctx), in)
	if err != nil {
		return nil, problem(ctx, err)
	}
	return &V1WebhookDeliveriesOutput{Body: page}, nil
}

// Shared by both.

func listWebhooks(ctx context.Context, hooks *webhook.Service, u *account.User) (sdk.WebhookEndpointList, error) {
	endpoints, err := hooks.Endpoints(ctx, u)
	if err != nil {
		return sdk.WebhookEndpointList{}, err
	}
	out := sdk.WebhookEndpointList{Endpoints: make([]sdk.WebhookEndpoint, len(endpoints)), EventTypes: webhook.EventTypes}
	for i := range endpoints {
		out.Endpoints[i] = toWireEndpoint(&endpoints[i])
	}
	return out, nil
}

func createWebhook(ctx context.Context, hooks *webhook.Service, u *account.User, req sdk.WebhookEndpointRequest) (sdk.NewWebhookEndpoint, error) {
	e, secret, err := hooks.CreateEndpoint(ctx, u, webhook.NewEndpoint{URL: req.URL, Events: req.Events})
	if err != nil {
		return sdk.NewWebhookEndpoint{}, err
	}
	return sdk.NewWebhookEndpoint{Endpoint: toWireEndpoint(e), Secret: secret}, nil
}

func updateWebhook(ctx context.Context, hooks *webhook.Service, u *account.User, in *WebhookUpdateInput) (sdk.WebhookEndpoint, error) {
	e, err := hooks.UpdateEndpoint(ctx, u, in.ID, webhook.EndpointChange{Events: in.Body.Events, Enabled: in.Body.Enabled})
	if err != nil {
		return sdk.WebhookEndpoint{}, err
	}
	return toWireEndpoint(e), nil
}

func webhookDeliveries(ctx context.Context, hooks *webhook.Service, u *account.User, in *WebhookDeliveriesInput) (sdk.WebhookDeliveryPage, error) {
	items, next, err := fetchPage(in.Cursor, in.Limit, func(d *webhook.Delivery) int64 { return d.ID },
		func(from int64, n int) ([]webhook.Delivery, error) { return hooks.Deliveries(ctx, u, in.ID, from, n) })
	if err != nil {
		return sdk.WebhookDeliveryPage{}, err
	}
	page := sdk.WebhookDeliveryPage{Deliveries: make([]sdk.WebhookDelivery, len(items)), NextCursor: next}
	for i := range items {
		page.Deliveries[i] = toWireDelivery(&items[i])
	}
	return page, nil
}

func toWireEndpoint(e *webhook.Endpoint) sdk.WebhookEndpoint {
	out := sdk.WebhookEndpoint{ID: e.ID, URL: e.URL, Events: []string(e.Events), Enabled: e.Enabled(), CreatedAt: e.CreatedAt.UTC()}
	if out.Events == nil {
		out.Events = []string{}
	}
	if e.LastDelivery != nil {
		out.LastDelivery = new(toWireDelivery(e.LastDelivery))
	}
	return out
}

func toWireDelivery(d *webhook.Delivery) sdk.WebhookDelivery {
	out := sdk.WebhookDelivery{ID: d.ID, EndpointID: d.EndpointID, EventID: d.EventID, EventType: d.EventType,
		State: d.State, Attempts: d.Attempts, Error: d.LastError, CreatedAt: d.CreatedAt}
	if d.LastStatus != 0 {
		out.StatusCode = new(d.LastStatus)
	}
	if d.Attempts > 0 {
		out.LatencyMs = new(d.LastLatencyMs)
	}
	if d.State == webhook.StatePending && !d.NextAttemptAt.IsZero() {
		out.NextAttemptAt = new(d.NextAttemptAt)
	}
	if !d.DeliveredAt.IsZero() {
		out.DeliveredAt = new(d.DeliveredAt)
	}
	return out
}
