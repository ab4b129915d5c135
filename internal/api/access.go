package api

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"slices"

	"github.com/danielgtaylor/huma/v2"

	"github.com/nameport/nameport/internal/account"
	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/ratelimit"
)

// access is who may call an operation. Every operation declares one (see
// register and registerV1); useAuthorization enforces it for /api before huma reads
// the request's parameters and body, so that a caller who may not call an
// operation learns nothing about what it accepts: an anonymous malformed
// request is a 401, not a 422.
type access struct {
	level accessLevel
	// forbidden is the 403 message of registrar-only operations.
	forbidden string
	// limit, when not nil, is the rate-limit class a signed-in caller's
	// requests count against (per account, shared with /v1); visitorLimit
	// is the class of a visitor's, per client network.
	limit, visitorLimit *ratelimit.Class
}

// countedAs is who with each request counted against the caller's
// account's limit of class c, before the request is read: an over-limit
// caller gets 429 whatever it sent.
func (who access) countedAs(c ratelimit.Class) access {
	who.limit = &c
	return who
}

// visitorsCountedAs is who (an accessOptional or accessPublic operation)
// with each visitor's request counted against class c per client network;
// every caller of an accessPublic one is a visitor.
func (who access) visitorsCountedAs(c ratelimit.Class) access {
	who.visitorLimit = &c
	return who
}

type accessLevel int

const (
	levelPublic    accessLevel = iota // anyone; nobody is authenticated
	levelOptional                     // anyone; a signed-in account is known to the handler
	levelAccount                      // any signed-in account
	levelRegistrar                    // a signed-in registrar
	levelAdmin                        // a signed-in admin
	levelAPIKey                       // /v1: a registrar's API key (see v1.authenticate)
)

var (
	// accessPublic operations serve everyone alike and look at no session
	// (sign-up, login and logout read the cookie themselves).
	accessPublic = access{level: levelPublic}
	// accessOptional operations serve visitors and accounts, answering
	// accounts differently (prices for registrars, drafts for admins): a
	// valid session makes sessionUser the account, a missing or expired one
	// makes the caller a visitor.
	accessOptional = access{level: levelOptional}
	// accessAccount operations need a session of any account.
	accessAccount = access{level: levelAccount}
	// accessAdmin operations need an admin's session.
	accessAdmin = access{level: levelAdmin}
	// accessAPIKey is every /v1 operation's: registerV1 authenticates the
	// key in the operation's own middleware.
	accessAPIKey = access{level: levelAPIKey}
)

// accessRegistrar operations need a registrar's session; other accounts
// get forbidden, with message.
func accessRegistrar(forbidden string) access {
	return access{level: levelRegistrar, forbidden: forbidden}
}

// accessKey is the operation metadata key of an operation's access.
const accessKey = "nameport.access"

// sessionScheme is the OpenAPI security scheme of /api's session cookie.
const sessionScheme = "session"

// register registers an /api operation that who may call: the middleware
// of useAuthorization checks the session before huma reads the request,
// and the handler finds the account with sessionUser. The document's
// security of the operation comes from who (see access.security); for
// operations that need a session 401 (and 403 where an account may be
// refused) join the documented errors, and for those with a body the
// answers huma gives to a body it cannot take (bodyErrors).
func register[I, O any](a huma.API, who access, op huma.Operation, handler func(context.Context, *I) (*O, error)) {
	if op.Metadata == nil {
		op.Metadata = map[string]any{}
	}
	op.Metadata[accessKey] = who
	// Operations of an area often share one Errors slice: append to a copy.
	op.Errors = slices.Clone(op.Errors)
	if (who.limit != nil || who.visitorLimit != nil) && !slices.Contains(op.Errors, http.StatusTooManyRequests) {
		op.Errors = append(op.Errors, http.StatusTooManyRequests)
	}
	bodyStatuses := bodyErrors(reflect.TypeFor[I]())
	for _, status := range bodyStatuses {
		if !slices.Contains(op.Errors, status) {
			op.Errors = append(op.Errors, status)
		}
	}
	op.Security = who.security()
	switch who.level {
	case levelAccount, levelRegistrar, levelAdmin:
		if !slices.Contains(op.Errors, http.StatusUnauthorized) {
			op.Errors = append(op.Errors, http.StatusUnauthorized)
		}
		if who.level != levelAccount && !slices.Contains(op.Errors, http.StatusForbidden) {
			op.Errors = append(op.Errors, http.StatusForbidden)
		}
	}
	huma.Register(a, op, handler)
	describeBodyErrors(registered(a, op.Method, op.Path), bodyStatuses)
}

// security is the OpenAPI security requirement of who's operations, so
// that the document says what useAuthorization enforces: none for public
// operations, the session or nothing for optional ones, the session for
// those that need an account.
func (who access) security() []map[string][]string {
	switch who.level {
	case levelPublic:
		return []map[string][]string{}
	case levelOptional:
		return []map[string][]string{{}, {sessionScheme: {}}}
	case levelAPIKey:
		return []map[string][]string{{"apiKey": {}}, {"bearer": {}}}
	default:
		return []map[string][]string{{sessionScheme: {}}}
	}
}

type sessionUserKey struct{}

// sessionUser returns the account whose session useAuthorization found: never nil
// in an operation that needs an account, nil for a visitor of an
// accessOptional operation.
func sessionUser(ctx context.Context) *account.User {
	u, _ := ctx.Value(sessionUserKey{}).(*account.User)
	return u
}

// useAuthorization makes a enforce every /api operation's access and rate
// limit, in that order and before huma reads the request: an anonymous
// caller of a protected operation gets 401, a caller over its limit 429,
// whatever the body. It must come before the first operation is
// registered: huma fixes an operation's middlewares when it registers it.
func useAuthorization(a huma.API, accounts *account.Service, limits *ratelimit.Policy) {
	oapi := a.OpenAPI()
	if oapi.Components.SecuritySchemes == nil {
		oapi.Components.SecuritySchemes = map[string]*huma.SecurityScheme{}
	}
	oapi.Components.SecuritySchemes[sessionScheme] = &huma.SecurityScheme{Type: "apiKey", In: "cookie",
		Name: SessionCookie, Description: "The web app's login session, from POST /api/auth/login."}
	a.UseMiddleware(func(ctx huma.Context, next func(huma.Context)) {
		who := accessOf(ctx.Operation())
		if who.level == levelPublic || who.level == levelAPIKey {
			if who.level == levelPublic && who.visitorLimit != nil {
				if err := countRequest(ctx, limits.Client(ClientIP(ctx.Context()), *who.visitorLimit)); err != nil {
					writeEnvelopeError(ctx, fail(ctx.Context(), err))
					return
				}
			}
			next(ctx)
			return
		}
		u, err := currentUser(ctx.Context(), accounts)
		if who.level == levelOptional && apperr.Code(err) == apperr.Unauthenticated {
			if who.visitorLimit != nil {
				if err := countRequest(ctx, limits.Client(ClientIP(ctx.Context()), *who.visitorLimit)); err != nil {
					writeEnvelopeError(ctx, fail(ctx.Context(), err))
					return
				}
			}
			next(ctx)
			return
		}
		if err == nil {
			err = who.refuse(u)
		}
		if err == nil && (who.level == levelAdmin || who.level == levelRegistrar) {
			err = accounts.CheckTwoFactorSetup(ctx.Context(), u)
		}
		if err == nil && who.limit != nil {
			err = countRequest(ctx, limits.Account(u.ID, *who.limit))
		}
		if err != nil {
			writeEnvelopeError(ctx, fail(ctx.Context(), err))
			return
		}
		next(huma.WithValue(ctx, sessionUserKey{}, u))
	})
}

// refuse returns forbidden when u may not call an operation of access who.
func (who access) refuse(u *account.User) error {
	switch {
	case who.level == levelAdmin && !u.IsAdmin():
		return apperr.New(apperr.Forbidden, "Admin access required")
	case who.level == levelRegistrar && !u.IsRegistrar():
		return apperr.New(apperr.Forbidden, "%s", who.forbidden)
	}
	return nil
}

// accessOf returns the access an operation declared.
func accessOf(op *huma.Operation) access {
	who, ok := op.Metadata[accessKey].(access)
	if !ok {
		// mustDeclareAccess makes this unreachable.
		panic(fmt.Sprintf("api: operation %s declares no access", op.OperationID))
	}
	return who
}

// mustDeclareAccess panics unless every operation of a declares who may
// call it: an operation registered with huma.Register instead of register
// or registerV1 would be open to anyone.
func mustDeclareAccess(a huma.API) {
	for path, item := range a.OpenAPI().Paths {
		for _, op := range []*huma.Operation{item.Get, item.Put, item.Post, item.Delete, item.Options,
			item.Head, item.Patch, item.Trace} {
			if op == nil {
				continue
			}
			if _, ok := op.Metadata[accessKey].(access); !ok {
				panic(fmt.Sprintf("api: %s %s (%s) declares no access: register it with register", op.Method, path, op.OperationID))
			}
		}
	}
}

// writeEnvelopeError answers with err, an /api error from fail, in the
// envelope.
func writeEnvelopeError(ctx huma.Context, err error) {
	e, ok := err.(*envelopeError)
	if !ok {
		e = &envelopeError{status: http.StatusInternalServerError, Message: "An unexpected error occurred"}
	}
	for name, values := range e.headers {
		for _, v := range values {
			ctx.AppendHeader(name, v)
		}
	}
	writeJSONTo(ctx, e.status, "application/json", e)
}
