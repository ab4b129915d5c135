// Package api is Nameport's HTTP API: the huma operations of /api (the web
// app's calls, answered in the spec's {"success":…} envelope) and
// /v1 (the registrar API, answered with the SDK's wire types and RFC 9457
// problem details), in one OpenAPI 3.1 document. Handlers are thin:
// decode, call a capability service, encode.
package api

import (
	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humachi"
	"github.com/go-chi/chi/v5"

	"github.com/nameport/nameport/internal/account"
	"github.com/nameport/nameport/internal/audit"
	"github.com/nameport/nameport/internal/billing"
	"github.com/nameport/nameport/internal/catalog"
	"github.com/nameport/nameport/internal/idempotency"
	"github.com/nameport/nameport/internal/notify"
	"github.com/nameport/nameport/internal/ratelimit"
	"github.com/nameport/nameport/internal/registration"
	"github.com/nameport/nameport/internal/settings"
	"github.com/nameport/nameport/internal/stats"
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
	// RateLimits is the one rate-limit policy of /api and /v1; nil means
	// ratelimit.DefaultLimits.
	RateLimits *ratelimit.Policy
}

// New registers every operation on r and serves the OpenAPI document at
// /openapi.json and its reference at /docs.
func New(r chi.Router, svc Services) huma.API {
	cfg := huma.DefaultConfig("Nameport API", Version)
	cfg.Info.Description = "Domain registration, DNS and wallet API of Nameport. " +
		"The web app uses /api with a session cookie; registrars automate with /v1 and an API key."
	cfg.CreateHooks = nil // no $schema links in bodies: the SPA and SDK read plain JSON
	cfg.DocsPath = ""     // huma's page loads its renderer from a CDN; ours is self-contained
	cfg.Formats = map[string]huma.Format{"application/json": jsonFormat, "json": jsonFormat}
	a := humachi.New(r, cfg)
	addRoutes(a, svc)
	r.Get("/docs", docsHandler(a))
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
	addPasswordResetRoutes(a, svc.Accounts)
	addRegistrarRoutes(a, svc.Accounts)
	addDomainRoutes(a, svc.Domains)
	addWalletRoutes(a, svc.Wallets)
	addDepositRoutes(a, svc.Accounts, svc.Wallets, svc.Settings)
	addPaymentRoutes(a, svc.Wallets)
	addCatalogRoutes(a, svc.Catalog)
	addDNSRoutes(a, svc.Domains, svc.Catalog, svc.Records)
	addNotifyRoutes(a, svc.Mail)
	addAdminUserRoutes(a, svc.Accounts, svc.Audit)
	addTierApplicationRoutes(a, svc.Accounts)
	addEmailVerificationRoutes(a, svc.Accounts)
	addStatsRoutes(a, svc.Stats)
	addRuleRoutes(a)
	addSettingRoutes(a, svc.Settings)

	v := newV1(a, svc.Accounts, svc.Requests, svc.RateLimits)
	addV1DomainRoutes(v, svc.Domains, svc.Catalog, svc.Records)
	addV1DNSRoutes(v, svc.Domains, svc.Catalog, svc.Records)
	addV1WalletRoutes(v, svc.Wallets)
	mustDeclareAccess(a)
}
