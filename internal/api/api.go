// Package api is Nameport's HTTP API: the huma operations of /api (the web
// app's calls, answered in the spec's {"success":…} envelope) and
// /v1 (the registrar API, answered with the SDK's wire types and RFC 9457
// problem details), in one OpenAPI 3.1 document. Handlers are thin:
// decode, call a capability service, encode.
package api

import (
	"fmt"
	"net/http"
	"reflect"
	"strconv"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humachi"
	"github.com/go-chi/chi/v5"

	"github.com/nameport/nameport/internal/account"
	"github.com/nameport/nameport/internal/audit"
	"github.com/nameport/nameport/internal/billing"
	"github.com/nameport/nameport/internal/bulk"
	"github.com/nameport/nameport/internal/catalog"
	"github.com/nameport/nameport/internal/contact"
	"github.com/nameport/nameport/internal/dnssec"
	"github.com/nameport/nameport/internal/domainfwd"
	"github.com/nameport/nameport/internal/idempotency"
	"github.com/nameport/nameport/internal/mailfwd"
	"github.com/nameport/nameport/internal/notify"
	"github.com/nameport/nameport/internal/pages"
	"github.com/nameport/nameport/internal/ratelimit"
	"github.com/nameport/nameport/internal/registration"
	"github.com/nameport/nameport/internal/reports"
	"github.com/nameport/nameport/internal/requestlog"
	"github.com/nameport/nameport/internal/settings"
	"github.com/nameport/nameport/internal/stats"
	"github.com/nameport/nameport/internal/updatekey"
	"github.com/nameport/nameport/internal/webhook"
	"github.com/nameport/nameport/internal/zone"
)

// Version of the API document.
const Version = "0.1.0"

// Services are the capability services the operations call.
type Services struct {
	Accounts *account.Service
	Domains  *registration.Service
	Wallets  *billing.Service
	Catalog  *catalog.Service
	Records  *zone.Service
	// Requests keeps the answers of /v1 requests sent with an
	// Idempotency-Key.
	Requests *idempotency.Store
	// Mail is the outgoing mail and its outbox.
	Mail *notify.Service
	// Settings are the site settings and payment gateways.
	Settings *settings.Service
	// Audit is the log of admins' changes.
	Audit *audit.Service
	// Stats are the figures of the admin Statistics tab.
	Stats *stats.Service
	// Reports are the figures of a registrar's Reports tab.
	Reports *reports.Service
	// Forwarding owns the email forwarding of domains.
	Forwarding *mailfwd.Service
	// WebForwarding owns the domain forwarding of domains; nil when this
	// server has no forwarding address.
	WebForwarding *domainfwd.Service
	// RequestLogs is the registrar's log of /v1 requests; nil records
	// nothing.
	RequestLogs *requestlog.Service
	// Webhooks owns the registrar's webhook endpoints and deliveries.
	Webhooks *webhook.Service
	// Bulk runs registrars' bulk checks and jobs and keeps their DNS
	// templates.
	Bulk *bulk.Service
	// DNSSEC holds the zones' signing keys; nil when the server does not
	// sign (--dnssec=false).
	DNSSEC *dnssec.Store
	// UpdateKeys are domains' keys for RFC 2136 dynamic updates.
	UpdateKeys *updatekey.Service
	// RateLimits is the one rate-limit policy of /api and /v1; nil means
	// ratelimit.DefaultLimits.
	RateLimits *ratelimit.Policy
	// Contact is the contact form's inbox.
	Contact *contact.Service
	// Pages are the pages admins publish.
	Pages *pages.Service
}

// New registers every operation on r and serves the OpenAPI document at
// /openapi.json and its reference at /docs, and the registrar API's alone at
// /v1/openapi.json and /docs/v1.
func New(r chi.Router, svc Services) huma.API {
	cfg := huma.DefaultConfig("Nameport API", Version)
	// What the two APIs are (docs.go).
	cfg.Info.Description = apiOverview
	cfg.CreateHooks = nil // no $schema links in bodies: the SPA and SDK read plain JSON
	cfg.DocsPath = ""     // huma's page loads its renderer from a CDN; ours is self-contained
	cfg.Formats = map[string]huma.Format{"application/json": jsonFormat, "json": jsonFormat}
	// Relative: the API is served by the same process, on the same origin,
	// as this document (/openapi.json) and the web app, whatever address
	// the operator publishes it at.
	cfg.Servers = []*huma.Server{{URL: "/", Description: "The server this document comes from"}}
	a := humachi.New(r, cfg)
	addRoutes(a, svc)
	orderTags(a.OpenAPI())
	site := siteOf(svc.Settings)
	r.Get("/docs", docsHandler(site, "API Reference", "/openapi.json"))
	r.Get("/docs/v1", docsHandler(site, "Registrar API Reference", V1DocumentPath))
	r.Get(V1DocumentPath, v1DocumentHandler(a))
	return a
}

// addRoutes is the route table: one call per area.
func addRoutes(a huma.API, svc Services) {
	if svc.RateLimits == nil {
		svc.RateLimits = ratelimit.NewPolicy(ratelimit.DefaultLimits, nil)
	}
	useAuthorization(a, svc.Accounts, svc.RateLimits)
	addAuthRoutes(a, svc.Accounts)
	addPasswordRoutes(a, svc.Accounts)
	addSessionRoute(a, svc.Accounts)
	addAccountSecurityRoutes(a, svc.Accounts)
	addPasskeyRoutes(a, svc.Accounts)
	addPasswordResetRoutes(a, svc.Accounts)
	addRegistrarRoutes(a, svc.Accounts)
	addRegistrarKeyRoutes(a, svc.Accounts)
	addBulkRoutes(a, svc.Bulk)
	addWebhookRoutes(a, svc.Webhooks)
	addDomainRoutes(a, svc.Domains)
	addWalletRoutes(a, svc.Wallets)
	addDepositRoutes(a, svc.Accounts, svc.Wallets, svc.Settings)
	addPaymentRoutes(a, svc.Wallets)
	addCatalogRoutes(a, svc.Catalog)
	addDNSSECRoutes(a, svc.Catalog, svc.DNSSEC)
	addDNSRoutes(a, svc.Domains, svc.Catalog, svc.Records)
	addDSRoutes(a, svc.Domains, svc.Catalog, svc.Records)
	addUpdateKeyRoutes(a, svc.Domains, svc.Catalog, svc.Records, svc.UpdateKeys)
	addForwardingRoutes(a, svc.Domains, svc.Catalog, svc.Records, svc.Forwarding)
	addWebForwardingRoutes(a, svc.Domains, svc.Catalog, svc.Records, svc.WebForwarding)
	addNotifyRoutes(a, svc.Mail)
	addAdminUserRoutes(a, svc.Accounts, svc.Audit)
	addTierApplicationRoutes(a, svc.Accounts)
	addAllowanceRoutes(a, svc.Domains)
	addReportRoutes(a, svc.Reports)
	addEmailVerificationRoutes(a, svc.Accounts)
	addStatsRoutes(a, svc.Stats)
	addRuleRoutes(a)
	addSettingRoutes(a, svc.Settings)
	addTwoFactorPolicyRoutes(a, svc.Settings)
	addContactRoutes(a, svc.Contact)
	addPageRoutes(a, svc.Pages)

	v := newV1(a, svc.Accounts, svc.Requests, svc.RateLimits)
	addV1DomainRoutes(v, svc.Domains, svc.Catalog, svc.Records)
	addV1DNSRoutes(v, svc.Domains, svc.Catalog, svc.Records)
	addV1DSRoutes(v, svc.Domains, svc.Catalog, svc.Records)
	addV1UpdateKeyRoutes(v, svc.Domains, svc.Catalog, svc.Records, svc.UpdateKeys)
	addV1ForwardingRoutes(v, svc.Domains, svc.Catalog, svc.Records, svc.Forwarding)
	addV1WebForwardingRoutes(v, svc.Domains, svc.Catalog, svc.Records, svc.WebForwarding)
	addV1WalletRoutes(v, svc.Wallets)
	addV1KeyRoutes(v, svc.Accounts)
	addV1BulkRoutes(v, svc.Bulk)
	addV1WebhookRoutes(v, svc.Webhooks)
	addRequestLogRoutes(a, v, svc.RequestLogs)
	addV1AllowanceRoutes(v, svc.Domains)
	addV1ReportRoutes(v, svc.Reports)
	mustDeclareAccess(a)
}

// bodyErrors are the statuses huma answers itself, before the handler
// runs, to an operation whose input type is in: a body it parses (a Body
// field) that is not JSON, or missing where one is required (400), larger
// than maxBodyBytes (413), or sent as another content type (415). A body
// the handler reads raw (RawBody) can only be too large.
func bodyErrors(in reflect.Type) []int {
	if in.Kind() != reflect.Struct {
		return nil
	}
	if _, ok := in.FieldByName("Body"); ok {
		return []int{http.StatusBadRequest, http.StatusRequestEntityTooLarge, http.StatusUnsupportedMediaType}
	}
	if _, ok := in.FieldByName("RawBody"); ok {
		return []int{http.StatusRequestEntityTooLarge}
	}
	return nil
}

// bodyErrorDescriptions say when bodyErrors' statuses are answered.
var bodyErrorDescriptions = map[int]string{
	http.StatusBadRequest:            "The body is not valid JSON, or is missing",
	http.StatusRequestEntityTooLarge: fmt.Sprintf("The body is larger than %d MiB", maxBodyBytes>>20),
	http.StatusUnsupportedMediaType:  "The body is not sent as JSON (Content-Type application/json, or another +json type)",
}

// describeBodyErrors replaces the status text of op's body errors with
// what causes them.
func describeBodyErrors(op *huma.Operation, statuses []int) {
	for _, status := range statuses {
		if r := op.Responses[strconv.Itoa(status)]; r != nil {
			r.Description = bodyErrorDescriptions[status]
		}
	}
}

// registered returns the operation of the document at method and path.
func registered(a huma.API, method, path string) *huma.Operation {
	item := a.OpenAPI().Paths[path]
	if item == nil {
		panic("api: no operation at " + path)
	}
	op := map[string]*huma.Operation{http.MethodGet: item.Get, http.MethodPost: item.Post, http.MethodPut: item.Put,
		http.MethodPatch: item.Patch, http.MethodDelete: item.Delete}[method]
	if op == nil {
		panic("api: no operation " + method + " " + path)
	}
	return op
}
