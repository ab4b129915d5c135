package server_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/config"
	"github.com/nameport/nameport/internal/dbtest"
)

// The authorization matrix: every operation of the OpenAPI document, tried
// by every kind of caller, with the caller's own ids and with other
// accounts' ids. An operation missing from authzOps fails the test, so a new
// operation cannot arrive without someone deciding who may call it.

// authzAccess is who may call an operation.
type authzAccess int

const (
	authzPublic    authzAccess = iota // anyone, visitors included
	authzAccount                      // any logged-in account (session cookie)
	authzRegistrar                    // a logged-in registrar
	authzAdmin                        // a logged-in admin
	authzAPIKey                       // /v1: a registrar's API key; a session is not enough
)

func (a authzAccess) String() string {
	return [...]string{"public", "any account", "registrar only", "admin only", "API key"}[a]
}

// schemes are the security schemes the OpenAPI document names for an
// operation of access a: the session cookie for /api operations that need
// an account, the API key (either header) for /v1, none for public ones.
func (a authzAccess) schemes() []string {
	switch a {
	case authzAccount, authzRegistrar, authzAdmin:
		return []string{"session"}
	case authzAPIKey:
		return []string{"apiKey", "bearer"}
	}
	return nil
}

// Phases order the matrix so that changes cannot spoil later checks.
const (
	phaseNormal  = iota // reads and additive writes
	phaseDelete         // deletes, each on a resource nothing later needs
	phaseReplace        // zone import: replaces every record of the domain
	phaseSession        // ends sessions or keys: password change, key rotation
)

// authzOp classifies one operation.
type authzOp struct {
	access authzAccess
	// owner names the path parameter (or body field) that refers to a
	// resource of one account. The runner tries the call with the caller's
	// own resource and with every other account's: another account's must
	// be 404, worded as for a resource that does not exist.
	owner string
	// mixed: also try the caller's own owner resource with another
	// account's values for the other parameters (a record of another
	// domain under my domain): 404.
	mixed bool
	// params maps each path parameter to the resource key it takes (see
	// authzFixture.resource).
	params  map[string]string
	query   string
	body    func(c authzCall) any
	headers []string
	phase   int
	// isolated runs the call in a new session of the caller, for calls that
	// replace or end the session they run in (login, logout, sign-up).
	isolated bool
	// answers, when set, are the only statuses an allowed caller may get
	// (instead of "anything but 401, 403, 404 and 5xx").
	answers []int
}

// How a call authenticates: as its access needs (a session for /api, the
// key for /v1), or, to prove the other does not count, with only the
// session or only the key.
const (
	viaUsual = iota
	viaSessionOnly
	viaKeyOnly
)

// authzCall is one attempt: as calls with of's resources.
type authzCall struct {
	f      *authzFixture
	as, of *authzActor
	n      int // unique per attempt, for names that must be new
}

func (c authzCall) res(key string) string { return c.f.resource(c.of, key) }

// authzOps is the classification table, keyed by "METHOD path" as in the
// OpenAPI document.
var authzOps = map[string]authzOp{
	// Auth: public, or the caller's own account.
	"POST /api/auth/register": {access: authzPublic, isolated: true, body: func(c authzCall) any {
		return signUp(fmt.Sprintf("authzsignup%d", c.n), "user")
	}},
	"POST /api/auth/login": {access: authzPublic, isolated: true, body: func(c authzCall) any {
		who := c.as
		if who.web == nil { // a visitor logs in as the spare account
			who = c.f.spare
		}
		return map[string]any{"username": who.username, "password": who.password}
	}},
	"POST /api/auth/logout":          {access: authzPublic, isolated: true},
	"GET /api/auth/me":               {access: authzAccount},
	"GET /api/me":                    {access: authzAccount},
	"GET /api/auth/session":          {access: authzPublic},
	"POST /api/auth/forgot-password": {access: authzPublic, body: func(authzCall) any { return map[string]any{"email": "nobody@example.com"} }},
	"POST /api/auth/reset-password": {access: authzPublic, body: func(authzCall) any {
		return map[string]any{"token": "not-a-token", "newPassword": "secret9", "confirmPassword": "secret9"}
	}},
	"POST /api/auth/change-password": {access: authzAccount, phase: phaseSession, body: func(c authzCall) any {
		return map[string]any{"currentPassword": c.as.password, "newPassword": "changed1", "confirmPassword": "changed1"}
	}},
	// Account security (issue 23): the caller's own second factors and
	// sessions; another account's session is 404.
	"POST /api/auth/login/two-factor": {access: authzPublic, answers: []int{http.StatusUnauthorized},
		body: func(authzCall) any {
			return map[string]any{"pendingToken": "not-a-token", "method": "totp", "code": "123456"}
		}},
	"GET /api/account/two-factor":       {access: authzAccount},
	"POST /api/account/two-factor/totp": {access: authzAccount},
	"POST /api/account/two-factor/totp/confirm": {access: authzAccount,
		body: func(authzCall) any { return map[string]any{"code": "12345"} }},
	"POST /api/account/two-factor/disable": {access: authzAccount,
		body: func(c authzCall) any { return map[string]any{"password": c.as.password} }},
	"POST /api/account/two-factor/recovery-codes": {access: authzAccount,
		body: func(authzCall) any { return map[string]any{"code": "123456"} }},
	"GET /api/account/sessions": {access: authzAccount},
	"DELETE /api/account/sessions/{id}": {access: authzAccount, owner: "id", phase: phaseDelete,
		params: map[string]string{"id": "session"}},
	"POST /api/account/sessions/end-others": {access: authzAccount, phase: phaseSession},
	// Passkeys: the caller's own (another account's is 404); the ceremonies'
	// answers are refused for a token that is none. An account's passkey
	// makes its password logins ask for it, so the actors get theirs after
	// the isolated calls (which log in): renaming comes in a later phase,
	// and removing (it ends the other sessions) with the calls that do.
	"GET /api/account/passkeys":          {access: authzAccount},
	"POST /api/account/passkeys/options": {access: authzAccount},
	"POST /api/account/passkeys": {access: authzAccount, body: func(authzCall) any {
		return map[string]any{"ceremonyToken": "not-a-token", "name": "Key", "credential": map[string]any{"id": "AAAA"}}
	}},
	"PATCH /api/account/passkeys/{id}": {access: authzAccount, owner: "id", phase: phaseReplace, params: map[string]string{"id": "passkey"},
		body: func(authzCall) any { return map[string]any{"name": "Renamed"} }},
	"DELETE /api/account/passkeys/{id}": {access: authzAccount, owner: "id", phase: phaseSession,
		params: map[string]string{"id": "passkey"},
		body:   func(c authzCall) any { return map[string]any{"password": c.as.password} }},
	"POST /api/auth/passkey/options": {access: authzPublic},
	"POST /api/auth/passkey": {access: authzPublic, answers: []int{http.StatusConflict, http.StatusUnprocessableEntity},
		body: func(authzCall) any {
			return map[string]any{"ceremonyToken": "not-a-token", "credential": map[string]any{"id": "AAAA"}}
		}},
	"POST /api/auth/login/two-factor/passkey-options": {access: authzPublic, answers: []int{http.StatusUnauthorized, http.StatusConflict},
		body: func(authzCall) any { return map[string]any{"pendingToken": "not-a-token"} }},
	"GET /api/registrar/api-key":          {access: authzRegistrar},
	"POST /api/registrar/api-key":         {access: authzRegistrar, phase: phaseSession},
	"GET /api/registrar/tier-application": {access: authzRegistrar},
	"GET /api/registrar/allowance":        {access: authzRegistrar},
	// Reports are the caller's own figures: nothing of another account's to ask for.
	"GET /api/registrar/reports":              {access: authzRegistrar},
	"GET /api/registrar/reports/{report}.csv": {access: authzRegistrar, params: map[string]string{"report": "report"}},
	"POST /api/auth/verify-email": {access: authzPublic, body: func(authzCall) any {
		return map[string]any{"token": "not-a-token"}
	}},
	"GET /api/auth/email-verification":         {access: authzAccount},
	"POST /api/auth/email-verification/resend": {access: authzAccount},
	"POST /api/registrar/tier-application": {access: authzRegistrar,
		body: func(authzCall) any { return map[string]any{"tier": "premium"} }},

	// Catalog: public reads, admin writes.
	"GET /api/domains/check":     {access: authzPublic, query: "?name=authz-free&extension=.inf.nz"},
	"GET /api/domain-extensions": {access: authzPublic},
	"POST /api/domain-extensions": {access: authzAdmin, body: func(c authzCall) any {
		return map[string]any{"extension": fmt.Sprintf(".authz%d.nz", c.n), "description": "Matrix"}
	}},
	"GET /api/domain-extensions/{id}/dnssec": {access: authzAdmin, params: map[string]string{"id": "extension"}},
	// Conflict: the zone has no key yet, or a rollover is under way; the
	// DS confirmed too early.
	"POST /api/domain-extensions/{id}/dnssec/ksk-rollover": {access: authzAdmin, params: map[string]string{"id": "extension"},
		answers: []int{http.StatusOK, http.StatusConflict}},
	"POST /api/domain-extensions/{id}/dnssec/ksk-rollover/ds-confirmed": {access: authzAdmin, params: map[string]string{"id": "extension"},
		answers: []int{http.StatusConflict}},
	"PATCH /api/domain-extensions/{id}": {access: authzAdmin, params: map[string]string{"id": "extension"},
		body: func(authzCall) any { return map[string]any{"description": "Changed by the matrix"} }},
	"DELETE /api/domain-extensions/{id}": {access: authzAdmin, params: map[string]string{"id": "extension"}, phase: phaseDelete},
	"GET /api/premium-domains":           {access: authzPublic},
	"POST /api/admin/premium-domains": {access: authzAdmin, body: func(c authzCall) any {
		return map[string]any{"name": fmt.Sprintf("authzprem%d", c.n), "extension": ".inf.nz", "price": 50}
	}},
	"PUT /api/admin/premium-domains/{id}": {access: authzAdmin, params: map[string]string{"id": "premium"},
		body: func(authzCall) any { return map[string]any{"description": "Changed by the matrix"} }},
	"DELETE /api/admin/premium-domains/{id}": {access: authzAdmin, params: map[string]string{"id": "premium"}, phase: phaseDelete},
	"POST /api/admin/premium-domains/bulk": {access: authzAdmin, body: func(c authzCall) any {
		id, _ := strconv.ParseInt(c.res("premium"), 10, 64)
		return map[string]any{"action": "feature", "ids": []int64{id}}
	}},

	// Site settings: public read, admin writes.
	"GET /api/site-settings": {access: authzPublic},
	"GET /api/site":          {access: authzPublic},
	"GET /api/rules":         {access: authzPublic},
	"POST /api/site-settings": {access: authzAdmin, body: func(c authzCall) any {
		return map[string]any{"key": fmt.Sprintf("authz_%d", c.n), "value": "v"}
	}},
	"PATCH /api/site-settings/{id}": {access: authzAdmin, params: map[string]string{"id": "setting"},
		body: func(authzCall) any { return map[string]any{"description": "Changed by the matrix"} }},
	"DELETE /api/site-settings/{id}": {access: authzAdmin, params: map[string]string{"id": "setting"}, phase: phaseDelete},
	// Registrars held: the matrix's registrar has no second factor, so the
	// policy is set back as it was (off), which changes nothing.
	"GET /api/admin/two-factor-policy": {access: authzAdmin},
	"PUT /api/admin/two-factor-policy": {access: authzAdmin, body: func(authzCall) any {
		return map[string]any{"requireAdmins": false, "requireRegistrars": false}
	}},

	// Pages: public read of published pages (admins preview drafts), admin writes.
	"GET /api/pages/{slug}": {access: authzPublic, params: map[string]string{"slug": "pageSlug"}},
	"GET /api/admin/pages":  {access: authzAdmin},
	"POST /api/admin/pages": {access: authzAdmin, body: func(c authzCall) any {
		return map[string]any{"slug": fmt.Sprintf("authz-%d", c.n), "title": "Matrix", "content": "Text"}
	}},
	"PATCH /api/admin/pages/{id}": {access: authzAdmin, params: map[string]string{"id": "page"},
		body: func(authzCall) any { return map[string]any{"metaDescription": "Changed by the matrix"} }},
	"DELETE /api/admin/pages/{id}": {access: authzAdmin, params: map[string]string{"id": "page"}, phase: phaseDelete},

	// My domains.
	"POST /api/domains": {access: authzAccount, body: func(c authzCall) any {
		return map[string]any{"name": fmt.Sprintf("authzreg%d", c.n), "extension": ".inf.nz"}
	}},
	"GET /api/domains":      {access: authzAccount},
	"GET /api/domains/{id}": {access: authzAccount, owner: "id", params: map[string]string{"id": "domain"}},
	"PATCH /api/domains/{id}": {access: authzAccount, owner: "id", params: map[string]string{"id": "domain"},
		body: func(authzCall) any { return map[string]any{"autoRenew": true} }},
	"POST /api/domains/{id}/renew": {access: authzAccount, owner: "id", params: map[string]string{"id": "domain"}},

	// DNS of my domains.
	"GET /api/domains/{id}/dns": {access: authzAccount, owner: "id", params: map[string]string{"id": "domain"}},
	"POST /api/domains/{id}/dns": {access: authzAccount, owner: "id", params: map[string]string{"id": "domain"},
		body: func(c authzCall) any {
			return map[string]any{"type": "A", "name": fmt.Sprintf("n%d", c.n), "content": "192.0.2.7"}
		}},
	"PUT /api/domains/{id}/dns/{recordId}": {access: authzAccount, owner: "id", mixed: true,
		params: map[string]string{"id": "domain", "recordId": "record"},
		body:   func(authzCall) any { return map[string]any{"type": "A", "name": "www", "content": "192.0.2.8"} }},
	"DELETE /api/domains/{id}/dns/{recordId}": {access: authzAccount, owner: "id", mixed: true, phase: phaseDelete,
		params: map[string]string{"id": "domain", "recordId": "record"}},
	"GET /api/domains/{id}/ds": {access: authzAccount, owner: "id", params: map[string]string{"id": "domain"}},
	"POST /api/domains/{id}/ds": {access: authzAccount, owner: "id", params: map[string]string{"id": "domain"},
		body: func(c authzCall) any { return authzDS(100 + c.n) }},
	"DELETE /api/domains/{id}/ds/{dsId}": {access: authzAccount, owner: "id", mixed: true, phase: phaseDelete,
		params: map[string]string{"id": "domain", "dsId": "ds"}},
	"GET /api/domains/{id}/update-keys": {access: authzAccount, owner: "id", params: map[string]string{"id": "domain"}},
	"POST /api/domains/{id}/update-keys": {access: authzAccount, owner: "id", params: map[string]string{"id": "domain"},
		body: func(c authzCall) any {
			return map[string]any{"name": fmt.Sprintf("matrix%d", c.n), "types": []string{"TXT"}}
		}},
	"DELETE /api/domains/{id}/update-keys/{keyId}": {access: authzAccount, owner: "id", mixed: true, phase: phaseDelete,
		params: map[string]string{"id": "domain", "keyId": "updateKey"}},
	"GET /api/domains/{id}/zone": {access: authzAccount, owner: "id", params: map[string]string{"id": "domain"}},
	"POST /api/domains/{id}/zone/preview": {access: authzAccount, owner: "id", params: map[string]string{"id": "domain"},
		body: func(authzCall) any { return map[string]any{"zoneFile": "matrix 3600 IN A 192.0.2.60\n"} }},
	"POST /api/domains/{id}/zone/import": {access: authzAccount, owner: "id", params: map[string]string{"id": "domain"},
		phase: phaseReplace, body: func(authzCall) any { return map[string]any{"zoneFile": "matrix 3600 IN A 192.0.2.60\n"} }},

	// Email forwarding of my domains. Confirming an address needs no
	// account: the reader of the link may have none.
	"GET /api/domains/{id}/email-forwarding": {access: authzAccount, owner: "id", params: map[string]string{"id": "domain"}},
	"PUT /api/domains/{id}/email-forwarding": {access: authzAccount, owner: "id", params: map[string]string{"id": "domain"},
		body: func(authzCall) any { return map[string]any{"enabled": true} }},
	"POST /api/domains/{id}/email-forwarding/rules": {access: authzAccount, owner: "id", params: map[string]string{"id": "domain"},
		body: func(c authzCall) any {
			return map[string]any{"alias": fmt.Sprintf("matrix%d", c.n), "destinations": []string{authzForwardTo}}
		}},
	"PUT /api/domains/{id}/email-forwarding/rules/{ruleId}": {access: authzAccount, owner: "id", mixed: true,
		params: map[string]string{"id": "domain", "ruleId": "rule"},
		body: func(c authzCall) any {
			return map[string]any{"alias": fmt.Sprintf("renamed%d", c.n), "destinations": []string{authzForwardTo}}
		}},
	"DELETE /api/domains/{id}/email-forwarding/rules/{ruleId}": {access: authzAccount, owner: "id", mixed: true, phase: phaseDelete,
		params: map[string]string{"id": "domain", "ruleId": "rule"}},
	// The link went out at setup: a second one so soon is a 429, or,
	// a minute later, sent.
	"POST /api/domains/{id}/email-forwarding/destinations/resend": {access: authzAccount, owner: "id",
		params: map[string]string{"id": "domain"},
		body:   func(authzCall) any { return map[string]any{"address": authzForwardTo} }},
	"GET /api/domains/{id}/email-forwarding/log": {access: authzAccount, owner: "id", params: map[string]string{"id": "domain"}},
	"POST /api/email-forwarding/confirm": {access: authzPublic, body: func(authzCall) any {
		return map[string]any{"token": "not-a-token"}
	}},

	// Domain forwarding of my domains: the host param is the same name for
	// every account, so only the domain says whose it is.
	"GET /api/domains/{id}/domain-forwarding": {access: authzAccount, owner: "id", params: map[string]string{"id": "domain"}},
	"GET /api/domains/{id}/domain-forwarding/{host}/preview": {access: authzAccount, owner: "id",
		params: map[string]string{"id": "domain", "host": "fwdHost"}},
	"PUT /api/domains/{id}/domain-forwarding/{host}": {access: authzAccount, owner: "id",
		params: map[string]string{"id": "domain", "host": "fwdHost"},
		body:   func(c authzCall) any { return map[string]any{"target": fmt.Sprintf("https://example.com/%d", c.n)} }},
	"DELETE /api/domains/{id}/domain-forwarding/{host}": {access: authzAccount, owner: "id", phase: phaseDelete,
		params: map[string]string{"id": "domain", "host": "fwdHost"}},

	// My wallet and payments.
	"GET /api/wallet":                 {access: authzAccount},
	"GET /api/transactions":           {access: authzAccount},
	"GET /api/wallet/deposit-options": {access: authzAccount},
	"POST /api/wallet/deposit":        {access: authzAccount, body: func(authzCall) any { return map[string]any{"amount": 5} }},
	"GET /api/payments/config":        {access: authzPublic},
	"POST /api/create-payment-intent": {access: authzAccount,
		body: func(authzCall) any { return map[string]any{"amount": 10, "productName": "Matrix"} }},
	"POST /api/payments/confirm-test": {access: authzAccount, owner: "paymentIntentId",
		body: func(c authzCall) any {
			return map[string]any{"paymentIntentId": c.res("intent"), "cardNumber": "4242424242424242"}
		}},
	// Stripe calls it, signed with the webhook secret, so it needs no
	// session. The test server runs without Stripe: the endpoint is not
	// configured and answers 404 to everyone alike.
	"POST /api/webhooks/stripe": {access: authzPublic, answers: []int{http.StatusNotFound},
		body: func(authzCall) any { return `{"id":"evt_matrix"}` }, headers: []string{"Stripe-Signature", "t=1,v1=00"}},

	// Admin.
	"GET /api/admin/users": {access: authzAdmin},
	"PATCH /api/admin/users/{id}": {access: authzAdmin, params: map[string]string{"id": "user"},
		body: func(authzCall) any { return map[string]any{"disabled": false} }},
	"GET /api/admin/audit-log": {access: authzAdmin},
	"GET /api/admin/deposits":  {access: authzAdmin},
	// The matrix runs demo payments: its deposits completed at once and no
	// admin may confirm or reject them.
	"POST /api/admin/deposits/{id}/confirm": {access: authzAdmin, params: map[string]string{"id": "deposit"},
		answers: []int{http.StatusConflict}},
	"POST /api/admin/deposits/{id}/reject": {access: authzAdmin, params: map[string]string{"id": "deposit"},
		answers: []int{http.StatusConflict}},
	"GET /api/admin/tier-applications": {access: authzAdmin},
	"POST /api/admin/tier-applications/{id}/approve": {access: authzAdmin,
		params: map[string]string{"id": "tierApplication"}},
	"POST /api/admin/tier-applications/{id}/decline": {access: authzAdmin,
		params: map[string]string{"id": "tierApplication"},
		body:   func(authzCall) any { return map[string]any{"reason": "Not now."} }},
	"GET /api/admin/stats":  {access: authzAdmin},
	"GET /api/admin/outbox": {access: authzAdmin},
	// The contact form (visitors and accounts alike) and the admins' inbox.
	"POST /api/contact": {access: authzPublic, body: func(c authzCall) any {
		return map[string]any{"company": fmt.Sprintf("Matrix %d", c.n), "email": "matrix@example.org", "interest": "api"}
	}},
	"GET /api/admin/contact-messages":      {access: authzAdmin},
	"GET /api/admin/contact-messages/{id}": {access: authzAdmin, params: map[string]string{"id": "contactMessage"}},
	"POST /api/admin/contact-messages/{id}/reply": {access: authzAdmin, params: map[string]string{"id": "contactMessage"},
		body: func(authzCall) any { return map[string]any{"message": "Answered by the matrix."} }},
	"DELETE /api/admin/contact-messages/{id}": {access: authzAdmin, params: map[string]string{"id": "contactMessage"},
		phase: phaseDelete},

	// A registrar's named API keys; another's key ids are not found.
	"GET /api/registrar/keys": {access: authzRegistrar},
	"POST /api/registrar/keys": {access: authzRegistrar, body: func(c authzCall) any {
		return map[string]any{"name": fmt.Sprintf("matrix%d", c.n), "scopes": []string{"read"}}
	}},
	"POST /api/registrar/keys/{id}/rotate": {access: authzRegistrar, owner: "id", params: map[string]string{"id": "apiKey"}},
	"DELETE /api/registrar/keys/{id}": {access: authzRegistrar, owner: "id", phase: phaseDelete,
		params: map[string]string{"id": "apiKey"}},

	// A registrar's request log holds its own keys' requests only (proven
	// in requestlog_test.go). Filtered to the log's own calls here: the
	// matrix's calls with other accounts' ids put their domain names in
	// the caller's own log, which the check of answers would flag.
	"GET /api/registrar/logs":     {access: authzRegistrar, query: "?path=/v1/logs"},
	"GET /api/registrar/logs.csv": {access: authzRegistrar, query: "?path=/v1/logs"},
	"GET /v1/logs":                {access: authzAPIKey, query: "?path=/v1/logs"},
	"GET /v1/logs.csv":            {access: authzAPIKey, query: "?path=/v1/logs"},

	// A registrar's webhooks; another's endpoint ids are not found.
	"GET /api/registrar/webhooks": {access: authzRegistrar},
	"POST /api/registrar/webhooks": {access: authzRegistrar, body: func(c authzCall) any {
		return map[string]any{"url": fmt.Sprintf("https://hooks.example.com/matrix%d", c.n), "events": []string{"dns.changed"}}
	}},
	"POST /api/registrar/webhooks/{id}/test":      {access: authzRegistrar, owner: "id", params: map[string]string{"id": "webhook"}},
	"GET /api/registrar/webhooks/{id}/deliveries": {access: authzRegistrar, owner: "id", params: map[string]string{"id": "webhook"}},
	"PATCH /api/registrar/webhooks/{id}": {access: authzRegistrar, owner: "id", params: map[string]string{"id": "webhook"},
		body: func(authzCall) any { return map[string]any{"events": []string{"dns.changed"}, "enabled": true} }},
	"DELETE /api/registrar/webhooks/{id}": {access: authzRegistrar, owner: "id", phase: phaseDelete,
		params: map[string]string{"id": "webhook"}},

	// The registrar API.
	"POST /v1/domains/check": {access: authzAPIKey, body: func(authzCall) any { return map[string]any{"domain": "authz-free.inf.nz"} }},
	"POST /v1/domains/register": {access: authzAPIKey, body: func(c authzCall) any {
		return map[string]any{"domain": fmt.Sprintf("authzv1reg%d.inf.nz", c.n)}
	}},
	"GET /v1/domains":          {access: authzAPIKey},
	"GET /v1/domains/{domain}": {access: authzAPIKey, owner: "domain", params: map[string]string{"domain": "domainName"}},
	"GET /v1/domains/{domain}/records": {access: authzAPIKey, owner: "domain",
		params: map[string]string{"domain": "domainName"}},
	"PUT /v1/domains/{domain}/records": {access: authzAPIKey, owner: "domain", params: map[string]string{"domain": "domainName"},
		body: func(authzCall) any {
			return map[string]any{"name": "authz", "type": "A", "values": []string{"192.0.2.51"}}
		}},
	"DELETE /v1/domains/{domain}/records/{type}/{name}": {access: authzAPIKey, owner: "domain", phase: phaseDelete,
		params: map[string]string{"domain": "domainName", "type": "setType", "name": "setName"}},
	"GET /v1/domains/{domain}/ds": {access: authzAPIKey, owner: "domain", params: map[string]string{"domain": "domainName"}},
	"POST /v1/domains/{domain}/ds": {access: authzAPIKey, owner: "domain", params: map[string]string{"domain": "domainName"},
		body: func(c authzCall) any { return authzDS(100 + c.n) }},
	"DELETE /v1/domains/{domain}/ds/{dsId}": {access: authzAPIKey, owner: "domain", mixed: true, phase: phaseDelete,
		params: map[string]string{"domain": "domainName", "dsId": "v1DS"}},
	"GET /v1/domains/{domain}/update-keys": {access: authzAPIKey, owner: "domain", params: map[string]string{"domain": "domainName"}},
	"POST /v1/domains/{domain}/update-keys": {access: authzAPIKey, owner: "domain", params: map[string]string{"domain": "domainName"},
		body: func(c authzCall) any { return map[string]any{"name": fmt.Sprintf("matrixv1%d", c.n)} }},
	"DELETE /v1/domains/{domain}/update-keys/{keyId}": {access: authzAPIKey, owner: "domain", mixed: true, phase: phaseDelete,
		params: map[string]string{"domain": "domainName", "keyId": "v1UpdateKey"}},
	"GET /v1/domains/{domain}/email-forwarding": {access: authzAPIKey, owner: "domain",
		params: map[string]string{"domain": "domainName"}},
	"PUT /v1/domains/{domain}/email-forwarding": {access: authzAPIKey, owner: "domain", params: map[string]string{"domain": "domainName"},
		body: func(authzCall) any { return map[string]any{"enabled": true} }},
	"POST /v1/domains/{domain}/email-forwarding/rules": {access: authzAPIKey, owner: "domain",
		params: map[string]string{"domain": "domainName"},
		body: func(c authzCall) any {
			return map[string]any{"alias": fmt.Sprintf("matrix%d", c.n), "destinations": []string{authzForwardTo}}
		}},
	"PUT /v1/domains/{domain}/email-forwarding/rules/{ruleId}": {access: authzAPIKey, owner: "domain", mixed: true,
		params: map[string]string{"domain": "domainName", "ruleId": "v1Rule"},
		body: func(c authzCall) any {
			return map[string]any{"alias": fmt.Sprintf("renamed%d", c.n), "destinations": []string{authzForwardTo}}
		}},
	"DELETE /v1/domains/{domain}/email-forwarding/rules/{ruleId}": {access: authzAPIKey, owner: "domain", mixed: true,
		phase: phaseDelete, params: map[string]string{"domain": "domainName", "ruleId": "v1Rule"}},
	"GET /v1/domains/{domain}/email-forwarding/log": {access: authzAPIKey, owner: "domain",
		params: map[string]string{"domain": "domainName"}},
	"GET /v1/domains/{domain}/domain-forwarding": {access: authzAPIKey, owner: "domain",
		params: map[string]string{"domain": "domainName"}},
	"GET /v1/domains/{domain}/domain-forwarding/{host}/preview": {access: authzAPIKey, owner: "domain",
		params: map[string]string{"domain": "domainName", "host": "v1FwdHost"}},
	"PUT /v1/domains/{domain}/domain-forwarding/{host}": {access: authzAPIKey, owner: "domain",
		params: map[string]string{"domain": "domainName", "host": "v1FwdHost"},
		body: func(c authzCall) any {
			return map[string]any{"target": fmt.Sprintf("https://example.com/%d", c.n), "status": 301}
		}},
	"DELETE /v1/domains/{domain}/domain-forwarding/{host}": {access: authzAPIKey, owner: "domain", phase: phaseDelete,
		params: map[string]string{"domain": "domainName", "host": "v1FwdHost"}},
	"GET /v1/wallet":           {access: authzAPIKey},
	"POST /v1/wallet/deposits": {access: authzAPIKey, body: func(authzCall) any { return map[string]any{"amount": 5} }},
	"GET /v1/transactions":     {access: authzAPIKey},
	"GET /v1/keys":             {access: authzAPIKey},
	"POST /v1/keys": {access: authzAPIKey, body: func(c authzCall) any {
		return map[string]any{"name": fmt.Sprintf("matrixv1%d", c.n), "scopes": []string{"read"}}
	}},
	"POST /v1/keys/{id}/rotate": {access: authzAPIKey, owner: "id", params: map[string]string{"id": "v1Key"}},
	"DELETE /v1/keys/{id}":      {access: authzAPIKey, owner: "id", phase: phaseDelete, params: map[string]string{"id": "v1Key"}},
	"GET /v1/webhooks":          {access: authzAPIKey},
	"POST /v1/webhooks": {access: authzAPIKey, body: func(c authzCall) any {
		return map[string]any{"url": fmt.Sprintf("https://hooks.example.com/matrixv1%d", c.n), "events": []string{"dns.changed"}}
	}},
	"POST /v1/webhooks/{id}/test":      {access: authzAPIKey, owner: "id", params: map[string]string{"id": "v1Webhook"}},
	"GET /v1/webhooks/{id}/deliveries": {access: authzAPIKey, owner: "id", params: map[string]string{"id": "v1Webhook"}},
	"PATCH /v1/webhooks/{id}": {access: authzAPIKey, owner: "id", params: map[string]string{"id": "v1Webhook"},
		body: func(authzCall) any { return map[string]any{"events": []string{"dns.changed"}, "enabled": true} }},
	"DELETE /v1/webhooks/{id}": {access: authzAPIKey, owner: "id", phase: phaseDelete, params: map[string]string{"id": "v1Webhook"}},
	// Bulk operations: another registrar's jobs and templates are not
	// found. Starting a job names no one's resource but a template: the
	// bodies below are refused for what they ask (a total that is not the
	// batch's, names that are not the caller's), which proves the caller
	// got through.
	"POST /api/registrar/bulk/check": {access: authzRegistrar, body: func(authzCall) any {
		return map[string]any{"names": []string{"authz-free.inf.nz", "bad_name"}}
	}},
	"POST /api/registrar/bulk/jobs": {access: authzRegistrar, body: func(c authzCall) any {
		return map[string]any{"kind": "register", "names": []string{fmt.Sprintf("authzbulk%d.inf.nz", c.n)}, "total": 0}
	}},
	"GET /api/registrar/bulk/jobs":      {access: authzRegistrar},
	"GET /api/registrar/bulk/jobs/{id}": {access: authzRegistrar, owner: "id", params: map[string]string{"id": "bulkJob"}},
	"GET /api/registrar/dns-templates":  {access: authzRegistrar},
	"POST /api/registrar/dns-templates": {access: authzRegistrar, body: func(c authzCall) any {
		return map[string]any{"name": fmt.Sprintf("matrix%d", c.n), "records": authzTemplateRecords}
	}},
	"PUT /api/registrar/dns-templates/{id}": {access: authzRegistrar, owner: "id", params: map[string]string{"id": "dnsTemplate"},
		body: func(c authzCall) any {
			return map[string]any{"name": fmt.Sprintf("matrixupd%d", c.n), "records": authzTemplateRecords}
		}},
	"DELETE /api/registrar/dns-templates/{id}": {access: authzRegistrar, owner: "id", phase: phaseDelete,
		params: map[string]string{"id": "dnsTemplate"}},
	"POST /v1/bulk/check": {access: authzAPIKey, body: func(authzCall) any {
		return map[string]any{"names": []string{"authz-free.inf.nz"}}
	}},
	"POST /v1/bulk/register": {access: authzAPIKey, body: func(c authzCall) any {
		return map[string]any{"names": []string{fmt.Sprintf("authzbulkv1%d.inf.nz", c.n)}, "total": 0}
	}},
	"POST /v1/bulk/renew": {access: authzAPIKey, body: func(authzCall) any {
		return map[string]any{"names": []string{"nobody-authz.inf.nz"}, "total": 0}
	}},
	"POST /v1/bulk/auto-renew": {access: authzAPIKey, body: func(authzCall) any {
		return map[string]any{"names": []string{"nobody-authz.inf.nz"}, "autoRenew": true}
	}},
	"POST /v1/bulk/dns-template": {access: authzAPIKey, owner: "templateId", body: func(c authzCall) any {
		id, _ := strconv.ParseInt(c.res("v1DnsTemplate"), 10, 64)
		return map[string]any{"names": []string{c.res("domainName")}, "templateId": id}
	}},
	"GET /v1/bulk/jobs":      {access: authzAPIKey},
	"GET /v1/bulk/jobs/{id}": {access: authzAPIKey, owner: "id", params: map[string]string{"id": "bulkJob"}},
	"GET /v1/dns-templates":  {access: authzAPIKey},
	"POST /v1/dns-templates": {access: authzAPIKey, body: func(c authzCall) any {
		return map[string]any{"name": fmt.Sprintf("matrixv1%d", c.n), "records": authzTemplateRecords}
	}},
	"PUT /v1/dns-templates/{id}": {access: authzAPIKey, owner: "id", params: map[string]string{"id": "v1DnsTemplate"},
		body: func(c authzCall) any {
			return map[string]any{"name": fmt.Sprintf("matrixv1upd%d", c.n), "records": authzTemplateRecords}
		}},
	"DELETE /v1/dns-templates/{id}": {access: authzAPIKey, owner: "id", phase: phaseDelete,
		params: map[string]string{"id": "v1DnsTemplate"}},
	// The key's own registrations this month: nothing of another account's to ask for.
	"GET /v1/account/allowance":    {access: authzAPIKey},
	"GET /v1/reports":              {access: authzAPIKey},
	"GET /v1/reports/{report}.csv": {access: authzAPIKey, params: map[string]string{"report": "report"}},
}

// authzTemplateRecords are the record sets of the matrix's DNS templates.
var authzTemplateRecords = []map[string]any{{"name": "matrixtpl", "type": "A", "values": []string{"192.0.2.9"}}}

// authzForwardTo is where every account's forwarding rules send mail.
const authzForwardTo = "matrix@example.org"

// authzActor is a caller: a visitor or an account with its session, its
// API key (registrars) and its own resources.
type authzActor struct {
	name               string
	kind               string // anonymous, user, registrar or admin
	username, password string
	web                *browser // the logged-in session; nil for the visitor
	key                string   // registrars only
	res                map[string]string
}

func (a *authzActor) account() bool { return a.web != nil }

// authzFixture is the running server and its actors.
type authzFixture struct {
	t      *testing.T
	ts     *testServer
	actors []*authzActor // anonymous first, then the accounts
	spare  *authzActor   // an account no attempt acts as: login and admin target
	nobody *authzActor   // the owner of ids that do not exist
	global map[string]string
	n      int
}

// resource is the value of key for of: of's own resource, else a resource
// that belongs to no account (catalog entries, settings).
func (f *authzFixture) resource(of *authzActor, key string) string {
	if v, ok := of.res[key]; ok {
		return v
	}
	if key == "passkey" && of.account() { // made when first asked: see authzOps
		of.res[key] = seedPasskey(f.t, f.ts, of.username)
		return of.res[key]
	}
	if v, ok := f.global[key]; ok {
		return v
	}
	f.t.Fatalf("no resource %q for %s", key, of.name)
	return ""
}

func idOf(t *testing.T, v any) string {
	t.Helper()
	n, ok := v.(float64)
	require.True(t, ok, "id %v", v)
	return strconv.FormatInt(int64(n), 10)
}

func setupAuthz(t *testing.T, ts *testServer) *authzFixture {
	t.Helper()
	seedCatalog(t, ts)
	f := &authzFixture{t: t, ts: ts, global: map[string]string{"setType": "A", "setName": "authz", "report": "renewals"}}
	anon := &authzActor{name: "anonymous", kind: "anonymous"}
	// nobody's resources do not exist: what another account's resource
	// answers must not differ from what they answer.
	f.nobody = &authzActor{name: "nobody", kind: "user", res: map[string]string{"domain": "999999", "record": "999999",
		"domainName": "nobody-authz.inf.nz", "intent": "pi_demo_nobody",
		"rule": "999999", "v1Rule": "999999", "fwdHost": "go", "v1FwdHost": "gov1", "apiKey": "999999", "v1Key": "999999",
		"bulkJob": "999999", "dnsTemplate": "999999", "v1DnsTemplate": "999999",
		"webhook": "999999", "v1Webhook": "999999", "ds": "999999", "v1DS": "999999",
		"updateKey": "999999", "v1UpdateKey": "999999", "passkey": "999999",
		"session": "0123456789abcdef0123456789abcdef"}}
	admin := &authzActor{name: "admin", kind: "admin", username: "root", password: "hunter22", web: loginAdmin2(t, ts)}
	account := func(name, kind string) *authzActor {
		a := &authzActor{name: name, kind: kind, username: name, password: "secret1"}
		if kind == "registrar" {
			a.web, a.key = registrar(t, ts, name)
		} else {
			a.web = signedUp(t, ts, name, kind)
		}
		return a
	}
	userA, userB := account("alice", "user"), account("bob", "user")
	regR1, regR2 := account("reseller1", "registrar"), account("reseller2", "registrar")
	f.spare = account("spare", "user")
	f.actors = []*authzActor{anon, userA, userB, regR1, regR2, admin}

	// Every account: money, a domain with a DNS record and a forwarding
	// rule, a payment intent; registrars also a record set and a rule made
	// through /v1.
	for _, a := range f.actors[1:] {
		a.res = map[string]string{}
		r := a.web.do("POST", "/api/wallet/deposit", map[string]any{"amount": 100})
		require.Equal(t, http.StatusCreated, r.status, "%s deposit: %s", a.name, r.raw)
		if f.global["deposit"] == "" {
			f.global["deposit"] = idOf(t, data(t, r)["transaction"].(map[string]any)["id"])
		}
		r = a.web.do("POST", "/api/domains", map[string]any{"name": a.name + "-authz", "extension": ".inf.nz"})
		require.Equal(t, http.StatusCreated, r.status, "%s register: %s", a.name, r.raw)
		a.res["domain"] = idOf(t, data(t, r)["domain"].(map[string]any)["id"])
		a.res["domainName"] = a.name + "-authz.inf.nz"
		r = a.web.do("POST", "/api/domains/"+a.res["domain"]+"/dns", map[string]any{"type": "A", "name": "www", "content": "192.0.2.1"})
		require.Equal(t, http.StatusCreated, r.status, "%s record: %s", a.name, r.raw)
		a.res["record"] = idOf(t, data(t, r)["id"])
		r = a.web.do("POST", "/api/domains/"+a.res["domain"]+"/email-forwarding/rules",
			map[string]any{"alias": "matrix", "destinations": []string{authzForwardTo}})
		require.Equal(t, http.StatusCreated, r.status, "%s forwarding rule: %s", a.name, r.raw)
		a.res["rule"] = idOf(t, data(t, r)["id"])
		// Accounts without a key have no rule of /v1's: theirs stands in,
		// as another account's rule.
		a.res["v1Rule"] = a.res["rule"]
		r = a.web.do("PUT", "/api/domains/"+a.res["domain"]+"/domain-forwarding/go", map[string]any{"target": "https://example.com/"})
		require.Equal(t, http.StatusOK, r.status, "%s forward: %s", a.name, r.raw)
		a.res["fwdHost"], a.res["v1FwdHost"] = "go", "go"
		r = a.web.do("POST", "/api/create-payment-intent", map[string]any{"amount": 10})
		require.Equal(t, http.StatusOK, r.status, "%s payment intent: %s", a.name, r.raw)
		a.res["intent"] = data(t, r)["paymentIntentId"].(string)
		// A second session of the account, to sign out.
		second := newBrowser(t, ts)
		r = second.do("POST", "/api/auth/login", map[string]any{"username": a.username, "password": a.password})
		require.Equal(t, http.StatusOK, r.status, "%s second login: %s", a.name, r.raw)
		r = second.do("GET", "/api/account/sessions", nil)
		require.Equal(t, http.StatusOK, r.status, "%s sessions: %s", a.name, r.raw)
		for _, s := range r.body["data"].([]any) {
			if s := s.(map[string]any); s["current"] == true {
				a.res["session"] = s["id"].(string)
			}
		}
		require.NotEmpty(t, a.res["session"], r.raw)
		// Accounts without keys: ids of none.
		a.res["apiKey"], a.res["v1Key"] = "999998", "999998"
		a.res["bulkJob"], a.res["dnsTemplate"], a.res["v1DnsTemplate"] = "999998", "999998", "999998"
		a.res["webhook"], a.res["v1Webhook"] = "999998", "999998"
		if a.key != "" {
			// A webhook endpoint each for /api and /v1 to test and delete.
			for _, res := range []string{"webhook", "v1Webhook"} {
				r = a.web.do("POST", "/api/registrar/webhooks", map[string]any{"url": "https://hooks.example.com/" + res,
					"events": []string{"dns.changed"}})
				require.Equal(t, http.StatusCreated, r.status, "%s webhook: %s", a.name, r.raw)
				a.res[res] = idOf(t, data(t, r)["endpoint"].(map[string]any)["id"])
			}
			// A key each to rotate and revoke through /api and through /v1
			// (not the one the matrix calls /v1 with).
			for _, res := range []string{"apiKey", "v1Key"} {
				r = a.web.do("POST", "/api/registrar/keys", map[string]any{"name": "matrix " + res, "scopes": []string{"read"}})
				require.Equal(t, http.StatusCreated, r.status, "%s key: %s", a.name, r.raw)
				a.res[res] = idOf(t, data(t, r)["key"].(map[string]any)["id"])
			}
			r = v1(t, ts, a.key, "PUT", "/v1/domains/"+a.res["domainName"]+"/records",
				map[string]any{"name": "authz", "type": "A", "values": []string{"192.0.2.50"}})
			require.Equal(t, http.StatusOK, r.status, "%s record set: %s", a.name, r.raw)
			// /v1 deletes a rule of its own: /api's is gone by then.
			r = v1(t, ts, a.key, "POST", "/v1/domains/"+a.res["domainName"]+"/email-forwarding/rules",
				map[string]any{"alias": "matrixv1", "destinations": []string{authzForwardTo}})
			require.Equal(t, http.StatusCreated, r.status, "%s forwarding rule: %s", a.name, r.raw)
			a.res["v1Rule"] = idOf(t, r.body["id"])
			r = v1(t, ts, a.key, "PUT", "/v1/domains/"+a.res["domainName"]+"/domain-forwarding/gov1",
				map[string]any{"target": "https://example.com/"})
			require.Equal(t, http.StatusOK, r.status, "%s forward: %s", a.name, r.raw)
			a.res["v1FwdHost"] = "gov1"
			// A bulk job and DNS templates (one for /api, one for /v1 to delete).
			r = a.web.do("POST", "/api/registrar/bulk/jobs", map[string]any{"kind": "auto_renew",
				"names": []string{a.res["domainName"]}, "autoRenew": true})
			require.Equal(t, http.StatusCreated, r.status, "%s bulk job: %s", a.name, r.raw)
			a.res["bulkJob"] = idOf(t, data(t, r)["id"])
			for _, res := range []string{"dnsTemplate", "v1DnsTemplate"} {
				r = a.web.do("POST", "/api/registrar/dns-templates", map[string]any{"name": "matrix " + res, "records": authzTemplateRecords})
				require.Equal(t, http.StatusCreated, r.status, "%s template: %s", a.name, r.raw)
				a.res[res] = idOf(t, data(t, r)["id"])
			}
		}
		// The domain delegated (last: forwarding refuses a delegated
		// name), with a DS record each for /api and /v1 to delete.
		r = a.web.do("POST", "/api/domains/"+a.res["domain"]+"/dns", map[string]any{"type": "NS", "name": "@", "content": "ns1.other.net"})
		require.Equal(t, http.StatusCreated, r.status, "%s NS: %s", a.name, r.raw)
		for i, res := range []string{"ds", "v1DS"} {
			r = a.web.do("POST", "/api/domains/"+a.res["domain"]+"/ds", authzDS(i))
			require.Equal(t, http.StatusCreated, r.status, "%s DS: %s", a.name, r.raw)
			a.res[res] = idOf(t, data(t, r)["id"])
		}
		// An update key each for /api and /v1 to revoke.
		for _, res := range []string{"updateKey", "v1UpdateKey"} {
			r = a.web.do("POST", "/api/domains/"+a.res["domain"]+"/update-keys", map[string]any{"name": res})
			require.Equal(t, http.StatusCreated, r.status, "%s update key: %s", a.name, r.raw)
			a.res[res] = idOf(t, data(t, r)["key"].(map[string]any)["id"])
		}
	}

	// Resources of no account, for the admin operations; deleted ones are
	// made for the purpose.
	r := admin.web.do("POST", "/api/domain-extensions", map[string]any{"extension": ".gone.nz", "description": "Deleted by the matrix",
		"dnsProvider": "cloudflare", "dnsApiKey": authzDNSKey})
	require.Equal(t, http.StatusCreated, r.status, r.raw)
	f.global["extension"] = idOf(t, data(t, r)["id"])
	r = admin.web.do("POST", "/api/admin/premium-domains", map[string]any{"name": "gone", "extension": ".inf.nz", "price": 50})
	require.Equal(t, http.StatusCreated, r.status, r.raw)
	f.global["premium"] = idOf(t, data(t, r)["id"])
	r = admin.web.do("POST", "/api/site-settings", map[string]any{"key": "authz_gone", "value": "x"})
	require.Equal(t, http.StatusCreated, r.status, r.raw)
	f.global["setting"] = idOf(t, data(t, r)["id"])
	r = admin.web.do("POST", "/api/admin/pages", map[string]any{"slug": "authz-gone", "title": "Gone", "content": "x"})
	require.Equal(t, http.StatusCreated, r.status, r.raw)
	f.global["page"], f.global["pageSlug"] = idOf(t, data(t, r)["id"]), "terms"
	r = admin.web.do("POST", "/api/site-settings", map[string]any{"key": "authz_hidden", "value": authzHiddenValue, "isPublic": false})
	require.Equal(t, http.StatusCreated, r.status, r.raw)
	f.global["user"] = idOf(t, data(t, f.spare.web.do("GET", "/api/auth/me", nil))["id"])
	// A registrar's pending tier application, for the admin to decide.
	applicant := signUp("applicant", "registrar")
	applicant["tier"] = "enterprise"
	r = newBrowser(t, ts).do("POST", "/api/auth/register", applicant)
	require.Equal(t, http.StatusCreated, r.status, r.raw)
	r = admin.web.do("GET", "/api/admin/tier-applications", nil)
	require.Equal(t, http.StatusOK, r.status, r.raw)
	require.Len(t, r.body["data"], 1, r.raw)
	f.global["tierApplication"] = idOf(t, r.body["data"].([]any)[0].(map[string]any)["id"])
	// A visitor's contact request, for the admin to read, answer and delete.
	r = newBrowser(t, ts).do("POST", "/api/contact", map[string]any{"company": "Matrix Ltd", "email": "matrix@example.org"})
	require.Equal(t, http.StatusCreated, r.status, r.raw)
	r = admin.web.do("GET", "/api/admin/contact-messages", nil)
	require.Equal(t, http.StatusOK, r.status, r.raw)
	f.global["contactMessage"] = idOf(t, data(t, r)["messages"].([]any)[0].(map[string]any)["id"])
	return f
}

// authzDocOp is an operation as the OpenAPI document lists it.
type authzDocOp struct {
	key, id string
	// schemes are the security schemes the document names, sorted.
	schemes  []string
	method   string
	template string
}

func documentOps(t *testing.T, ts *testServer) []authzDocOp {
	t.Helper()
	r := newBrowser(t, ts).do("GET", "/openapi.json", nil)
	require.Equal(t, http.StatusOK, r.status)
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.raw), &doc))
	var ops []authzDocOp
	for path, item := range doc.Paths {
		for method, raw := range item {
			switch method {
			case "get", "put", "post", "delete", "patch", "head", "options", "trace":
			default:
				continue // parameters, summary…
			}
			var op struct {
				OperationID string                `json:"operationId"`
				Security    []map[string][]string `json:"security"`
			}
			require.NoError(t, json.Unmarshal(raw, &op))
			if slices.ContainsFunc(op.Security, func(r map[string][]string) bool { return len(r) == 0 }) {
				// An empty requirement lets anyone in: the session of an
				// operation for visitors and accounts alike is optional.
				op.Security = nil
			}
			m := strings.ToUpper(method)
			var schemes []string
			for _, req := range op.Security {
				schemes = append(schemes, slices.Collect(maps.Keys(req))...)
			}
			slices.Sort(schemes)
			ops = append(ops, authzDocOp{key: m + " " + path, id: op.OperationID, schemes: schemes, method: m, template: path})
		}
	}
	return ops
}

func TestAuthorizationMatrix(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			// The matrix calls every operation many times for each account;
			// the rate limits are proven elsewhere (ratelimit_test.go).
			ts := startWith(t, engine, func(c *config.Config) { c.NoRateLimits = true })

			// Every operation of the document is classified, and every
			// classified operation still exists.
			ops := documentOps(t, ts)
			inDoc := map[string]bool{}
			for _, op := range ops {
				inDoc[op.key] = true
				c, ok := authzOps[op.key]
				if !ok {
					t.Errorf("operation %s (%s) is not classified: add it to authzOps in authz_test.go with who may call it", op.key, op.id)
					continue
				}
				if want := c.access.schemes(); !slices.Equal(op.schemes, want) {
					t.Errorf("%s (%s): the document names security schemes %v, the table says %s (%v)", op.key, op.id, op.schemes, c.access, want)
				}
			}
			for key := range authzOps {
				if !inDoc[key] {
					t.Errorf("authzOps classifies %s, which the OpenAPI document no longer has", key)
				}
			}
			require.False(t, t.Failed(), "the classification table must match the document")
			t.Logf("%d operations classified", len(ops))

			f := setupAuthz(t, ts)
			slices.SortFunc(ops, func(a, b authzDocOp) int {
				if pa, pb := authzOps[a.key].phase, authzOps[b.key].phase; pa != pb {
					return pa - pb
				}
				return strings.Compare(a.key, b.key)
			})
			for _, op := range ops {
				f.check(op, authzOps[op.key])
			}
		})
	}
}

var pathParam = regexp.MustCompile(`\{([^}]+)\}`)

// allowed reports whether a may call an operation of access.
func (a *authzActor) allowed(access authzAccess) bool {
	switch access {
	case authzPublic:
		return true
	case authzAccount:
		return a.account()
	case authzRegistrar:
		return a.kind == "registrar"
	case authzAdmin:
		return a.kind == "admin"
	case authzAPIKey:
		return a.key != ""
	}
	return false
}

// check runs one operation for every actor: first the callers who may not
// call it, then other accounts' resources, then each caller's own, so that
// a refused call that changed something shows up as a failing own call.
func (f *authzFixture) check(op authzDocOp, c authzOp) {
	others := func(as *authzActor) []*authzActor {
		var out []*authzActor
		for _, o := range f.actors {
			if o != as && o.account() {
				out = append(out, o)
			}
		}
		return out
	}

	// Refused callers, with their own resources (a visitor: the first
	// account's).
	for _, a := range f.actors {
		of := a
		if !a.account() && c.owner != "" {
			of = f.actors[1]
		}
		if !a.allowed(c.access) {
			want := http.StatusForbidden
			if !a.account() || c.access == authzAPIKey {
				want = http.StatusUnauthorized
			}
			f.expect(op, c, authzCall{f: f, as: a, of: of}, false, viaUsual, func(status int) bool { return status == want },
				fmt.Sprintf("%d (%s)", want, c.access))
		} else if c.access == authzAPIKey && a.web != nil {
			// A registrar's session without its key is not enough.
			f.expect(op, c, authzCall{f: f, as: a, of: a}, false, viaSessionOnly, func(status int) bool { return status == http.StatusUnauthorized },
				"401 (a session without an API key)")
		}
		if a.key != "" && c.access != authzPublic && c.access != authzAPIKey {
			// An API key is for /v1 only: it logs nobody in to /api.
			f.expect(op, c, authzCall{f: f, as: a, of: a}, false, viaKeyOnly, func(status int) bool { return status == http.StatusUnauthorized },
				"401 (an API key without a session)")
		}
	}
	// Other accounts' resources: not found, in the very words used for
	// ids that do not exist.
	if c.owner != "" {
		notFound := func(status int) bool { return status == http.StatusNotFound }
		for _, a := range f.actors {
			if !a.allowed(c.access) {
				continue
			}
			for _, mixed := range []bool{false, true} {
				if mixed && !c.mixed {
					continue
				}
				what := "404 (another account's " + c.owner + ")"
				if mixed {
					what = "404 (my " + c.owner + ", another account's other ids)"
				}
				missing := f.expect(op, c, authzCall{f: f, as: a, of: f.nobody}, mixed, viaUsual, notFound, what)
				for _, o := range others(a) {
					r := f.expect(op, c, authzCall{f: f, as: a, of: o}, mixed, viaUsual, notFound, what)
					if r.status == http.StatusNotFound && missing.status == http.StatusNotFound && comparable(r) != comparable(missing) {
						f.t.Errorf("%s (%s) as %s: %s's resource answers %s, a missing one %s: the difference tells that it exists",
							op.key, op.id, a.name, o.name, comparable(r), comparable(missing))
					}
				}
			}
		}
	}
	// Own resources: served, or refused for a business reason.
	for _, a := range f.actors {
		if !a.allowed(c.access) {
			continue
		}
		f.expect(op, c, authzCall{f: f, as: a, of: a}, false, viaUsual, func(status int) bool {
			if c.answers != nil {
				return slices.Contains(c.answers, status)
			}
			return status < 500 && status != http.StatusUnauthorized && status != http.StatusForbidden && status != http.StatusNotFound
		}, "not 401/403/404/5xx (allowed, own resources)")
	}
}

// expect makes the call and checks its status with ok. mixed takes the
// owner parameter from the caller and the others from c.of; via says how
// the call authenticates.
func (f *authzFixture) expect(op authzDocOp, c authzOp, call authzCall, mixed bool, via int, ok func(int) bool, want string) reply {
	t := f.t
	t.Helper()
	f.n++
	call.n = f.n
	var missing []string
	path := pathParam.ReplaceAllStringFunc(op.template, func(m string) string {
		name := m[1 : len(m)-1]
		key, found := c.params[name]
		if !found {
			missing = append(missing, name)
			return m
		}
		of := call.of
		if mixed && name == c.owner {
			of = call.as
		}
		return f.resource(of, key)
	})
	if len(missing) > 0 {
		t.Fatalf("%s (%s): authzOps gives no resource for path parameters %v", op.key, op.id, missing)
	}
	path += c.query
	var body any
	if c.body != nil {
		body = c.body(call)
	}

	var client *browser
	headers := slices.Clone(c.headers)
	if op.method == http.MethodPost || op.method == http.MethodPut {
		// Every caller of an operation sends the same key: keys are the
		// caller's own, so nobody gets another account's first answer.
		headers = append(headers, "Idempotency-Key", "authz-"+op.id)
	}
	switch {
	case via == viaKeyOnly || c.access == authzAPIKey && call.as.key != "" && via != viaSessionOnly:
		client = &browser{t: t, base: f.ts.url, client: http.DefaultClient}
		headers = append(headers, "X-API-Key", call.as.key)
	case !call.as.account():
		// A visitor keeps no cookies: each call is a first visit.
		client = &browser{t: t, base: f.ts.url, client: http.DefaultClient}
	case c.isolated:
		client = newBrowser(t, f.ts)
		r := client.do("POST", "/api/auth/login", map[string]any{"username": call.as.username, "password": call.as.password})
		require.Equal(t, http.StatusOK, r.status, "a second session of %s: %s", call.as.name, r.raw)
	default:
		client = call.as.web
	}
	r := client.do(op.method, path, body, headers...)

	whose := "own"
	if call.of != call.as {
		whose = call.of.name + "'s"
		if mixed {
			whose = "own " + c.owner + " with " + call.of.name + "'s"
		}
	}
	how := map[int]string{viaSessionOnly: ", session without key", viaKeyOnly: ", API key without session"}[via]
	if !ok(r.status) {
		t.Errorf("%s (%s) as %s%s with %s ids [%s]: got %d, want %s: %s",
			op.key, op.id, call.as.name, how, whose, path, r.status, want, truncate(r.raw))
	}
	if r.status >= 500 {
		return r
	}
	// No answer shows what the caller may not see, unless the caller named
	// it itself.
	sent := path
	if body != nil {
		b, _ := json.Marshal(body)
		sent += string(b)
	}
	for _, m := range f.secrets(call.as) {
		if strings.Contains(r.raw, m.value) && !strings.Contains(sent, m.value) {
			t.Errorf("%s (%s) as %s%s [%s]: the answer (%d) shows %s %q: %s",
				op.key, op.id, call.as.name, how, path, r.status, m.what, m.value, truncate(r.raw))
		}
	}
	return r
}

// comparable is an answer without what differs on every request.
func comparable(r reply) string {
	body := maps.Clone(r.body)
	delete(body, "requestId")
	delete(body, "instance")
	b, _ := json.Marshal(body)
	return string(b)
}

const (
	authzDNSKey      = "cf-authz-dns-key-7f3a9c" // an extension's DNS provider key: shown masked, if at all
	authzHiddenValue = "authz-hidden-value"      // a site setting that is not public
)

type authzSecret struct{ value, what string }

// secrets are what must never appear in an answer to as.
func (f *authzFixture) secrets(as *authzActor) []authzSecret {
	out := []authzSecret{{authzDNSKey, "the extension's DNS API key"}}
	for _, o := range f.actors {
		if o == as || !o.account() {
			continue
		}
		if o.key != "" {
			out = append(out, authzSecret{o.key, o.name + "'s API key"})
		}
		if as.kind != "admin" { // admins see accounts' domains in the outbox and the audit log
			// The label: /api shows name and extension apart.
			out = append(out, authzSecret{o.name + "-authz", o.name + "'s domain"})
		}
	}
	if as.kind != "admin" {
		out = append(out, authzSecret{authzHiddenValue, "a private site setting"})
	}
	return out
}

func truncate(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}

// authzDS is a valid DS record, its key tag n (distinct DS records).
func authzDS(n int) map[string]any {
	return map[string]any{"keyTag": n % 65536, "algorithm": 13, "digestType": 2, "digest": strings.Repeat("AB", 32)}
}
