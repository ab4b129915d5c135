package api

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/nameport/nameport/internal/account"
	"github.com/nameport/nameport/internal/idempotency"
	"github.com/nameport/nameport/internal/ratelimit"
	"github.com/nameport/nameport/internal/requestlog"
	"github.com/nameport/nameport/sdk"
)

// maxBodyBytes bounds request bodies (huma's default, which /api uses too).
const maxBodyBytes = 1 << 20

// v1 holds what the /v1 middlewares share.
type v1 struct {
	api      huma.API
	accounts *account.Service
	limits   *ratelimit.Policy
	requests *idempotency.Store
	// logs records each request made with a valid key (see logRequest);
	// nil when recording is off.
	logs *requestlog.Service
}

func newV1(a huma.API, accounts *account.Service, requests *idempotency.Store, limits *ratelimit.Policy) *v1 {
	oapi := a.OpenAPI()
	if oapi.Components.SecuritySchemes == nil {
		oapi.Components.SecuritySchemes = map[string]*huma.SecurityScheme{}
	}
	oapi.Components.SecuritySchemes["apiKey"] = &huma.SecurityScheme{Type: "apiKey", In: "header", Name: "X-API-Key",
		Description: "The registrar's API key, from the API tab of the registrar dashboard."}
	oapi.Components.SecuritySchemes["bearer"] = &huma.SecurityScheme{Type: "http", Scheme: "bearer",
		Description: "The same API key, as Authorization: Bearer KEY."}
	oapi.Tags = append(oapi.Tags, &huma.Tag{Name: "Registrar API", Description: "/v1 is the registrar API, " +
		"used by the Go SDK (github.com/nameport/nameport/sdk) and nameportctl. Authenticate with your API key as " +
		"X-API-Key: KEY or Authorization: Bearer KEY; a web session does not work here. A registrar has several keys " +
		"(API Access tab of the registrar dashboard, or /v1/keys), each with scopes: read (every GET), dns (record, " +
		"email forwarding and domain forwarding changes), register (domain checks and registrations) and wallet " +
		"(deposits); managing keys takes a key with every scope. Each operation names the scopes it needs in its " +
		"security requirement. A key used outside its scopes gets 403 naming the missing scope, one used from an " +
		"address it does not allow 403, an expired or revoked key 401. Rate limits per account, " +
		"shared with the web app's /api: 100 availability checks, 20 registrations and 50 DNS operations a " +
		"minute; every answer carries " +
		"RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset, and a 429 says Retry-After (seconds). Send an " +
		"Idempotency-Key with every call that has an effect (registering, depositing, setting records, turning email forwarding on or off, adding a forwarding rule): a retry with the same key and body returns the first answer " +
		"(Idempotent-Replayed: true) without registering or charging again; the same key with another body is " +
		"a 422. Read-only calls, the availability check included, take no key and store nothing. Errors are RFC 9457 problem details (application/problem+json) with a stable code: invalid, " +
		"unauthenticated, not_found, conflict, insufficient_funds, allowance_exhausted, too_many_requests, idempotency_key_reused, " +
		"idempotency_in_progress. Lists come a page at a time: pass nextCursor as cursor until it is absent. " +
		"Money is in US dollars."})
	return &v1{api: a, accounts: accounts, limits: limits, requests: requests}
}

// registerV1 registers a /v1 operation that keys with the scopes need may
// call: API-key authentication with the key's scopes and addresses, its
// rate limit (class may be nil), idempotency for the operations with an
// effect, and errors as problem details in the document. The scopes are
// declared here, at each operation's registration, and nowhere else: read
// for every GET (and writes never need read alone), dns for record and
// forwarding changes, register for checks and registrations, wallet for
// deposits, account.AllScopes for managing keys.
func registerV1[I, O any](v *v1, need account.Scope, op huma.Operation, class *ratelimit.Class, handler func(context.Context, *I) (*O, error)) {
	if read := op.Method == http.MethodGet; read && need&account.ScopeRead == 0 || !read && need == account.ScopeRead {
		panic(fmt.Sprintf("api: %s %s needs scopes %s: every GET needs read, and no change needs read alone", op.Method, op.Path, need))
	}
	op.Security = []map[string][]string{{"apiKey": need.Names()}, {"bearer": need.Names()}}
	op.Description = strings.TrimSpace(op.Description + " Needs an API key with " + need.Describe() + ".")
	if op.Metadata == nil {
		op.Metadata = map[string]any{}
	}
	op.Metadata[accessKey] = accessAPIKey
	op.Middlewares = huma.Middlewares{v.authenticate(need)}
	if class != nil {
		op.Middlewares = append(op.Middlewares, v.rateLimit(class))
	}
	if takesIdempotencyKey(reflect.TypeFor[I]()) {
		op.Middlewares = append(op.Middlewares, v.idempotent)
	}
	op.MaxBodyBytes = maxBodyBytes
	errs := append([]int{http.StatusUnauthorized}, op.Errors...)
	if !slices.Contains(errs, http.StatusForbidden) {
		errs = append(errs, http.StatusForbidden) // scopes and addresses
	}
	if class != nil {
		errs = append(errs, http.StatusTooManyRequests)
	}
	bodyStatuses := bodyErrors(reflect.TypeFor[I]())
	errs = append(errs, bodyStatuses...)
	op.Errors = nil
	if op.Responses == nil {
		op.Responses = map[string]*huma.Response{}
	}
	schema := v.api.OpenAPI().Components.Schemas.Schema(reflect.TypeFor[sdk.Problem](), true, "Problem")
	for _, status := range errs {
		op.Responses[strconv.Itoa(status)] = &huma.Response{Description: http.StatusText(status),
			Content: map[string]*huma.MediaType{problemContentType: {Schema: schema}}}
	}
	describeBodyErrors(&op, bodyStatuses)
	huma.Register(v.api, op, handler)
}

// takesIdempotencyKey tells whether an operation with input type in has an
// effect worth guarding: it declares the Idempotency-Key header. That one
// declaration puts the header in the document and the operation behind
// v.idempotent, so the two cannot disagree; a read-only operation (a POST
// that only asks, like a check) declares none and stores nothing.
func takesIdempotencyKey(in reflect.Type) bool {
	if in.Kind() != reflect.Struct {
		return false
	}
	for i := range in.NumField() {
		if in.Field(i).Tag.Get("header") == "Idempotency-Key" {
			return true
		}
	}
	return false
}

type keyUserKey struct{}

// keyUser returns the account whose API key authenticated the request.
func keyUser(ctx context.Context) *account.User {
	u, _ := ctx.Value(keyUserKey{}).(*account.User)
	return u
}

// authenticate returns the middleware that finds the registrar of the
// request's API key, sent as X-API-Key or Authorization: Bearer, and
// refuses the request (403) unless the key allows the client's address (as
// ClientAddr finds it, trusted proxies' X-Forwarded-For included) and has
// the scopes need. A session cookie is not enough: /v1 is for programs.
func (v *v1) authenticate(need account.Scope) func(huma.Context, func(huma.Context)) {
	return func(ctx huma.Context, next func(huma.Context)) {
		key := strings.TrimSpace(ctx.Header("X-API-Key"))
		if key == "" {
			if auth := ctx.Header("Authorization"); len(auth) > 7 && strings.EqualFold(auth[:7], "Bearer ") {
				key = strings.TrimSpace(auth[7:])
			}
		}
		if key == "" {
			writeProblem(ctx, newProblem(ctx.Context(), http.StatusUnauthorized, sdk.CodeUnauthenticated,
				"Send your API key in the X-API-Key header or as Authorization: Bearer KEY"))
			return
		}
		u, grant, err := v.accounts.ByAPIKey(ctx.Context(), key)
		if err != nil {
			writeProblem(ctx, asProblem(ctx.Context(), err))
			return
		}
		// From here the request is the key's: logged, refusals included.
		ctx, logged := v.logRequest(ctx, u, grant)
		defer logged()
		if len(grant.Allowed) > 0 {
			if ip := ClientIP(ctx.Context()); !grant.Allowed.Allows(ip) {
				writeProblem(ctx, newProblem(ctx.Context(), http.StatusForbidden, sdk.CodeForbidden,
					clipMessage("This API key may not be used from "+ip)))
				return
			}
		}
		if missing := grant.Scopes.Missing(need); missing != 0 {
			msg := "This API key lacks " + missing.Describe()
			if need == account.AllScopes {
				msg += ": managing API keys takes a key with every scope"
			}
			writeProblem(ctx, newProblem(ctx.Context(), http.StatusForbidden, sdk.CodeForbidden, msg))
			return
		}
		next(huma.WithValue(ctx, keyUserKey{}, u))
	}
}

// rateLimit counts the request against its account's limit of class (the
// same count as the account's /api requests) and refuses it, with
// Retry-After, when the limit is reached.
func (v *v1) rateLimit(class *ratelimit.Class) func(huma.Context, func(huma.Context)) {
	return func(ctx huma.Context, next func(huma.Context)) {
		if err := countRequest(ctx, v.limits.Account(keyUser(ctx.Context()).ID, *class)); err != nil {
			writeProblem(ctx, asProblem(ctx.Context(), err))
			return
		}
		next(ctx)
	}
}

// idempotent makes an operation with an effect safe to retry when sent with
// an Idempotency-Key: the first success is saved and replayed for the same
// key and body; the same key with another body is refused. Failures are not
// saved, since they changed nothing: retrying runs the request again.
func (v *v1) idempotent(ctx huma.Context, next func(huma.Context)) {
	key := idempotency.Normalize(ctx.Header("Idempotency-Key"))
	if key == "" {
		next(ctx)
		return
	}
	if err := idempotency.CheckKey(key); err != nil {
		writeProblem(ctx, asProblem(ctx.Context(), err))
		return
	}
	body, err := io.ReadAll(io.LimitReader(ctx.BodyReader(), maxBodyBytes+1))
	if err != nil {
		writeProblem(ctx, newProblem(ctx.Context(), http.StatusBadRequest, sdk.CodeInvalid, "The request body could not be read"))
		return
	}
	if len(body) > maxBodyBytes {
		writeProblem(ctx, newProblem(ctx.Context(), http.StatusRequestEntityTooLarge, sdk.CodeRequestTooLarge,
			"The request body is larger than 1 MiB"))
		return
	}
	u := keyUser(ctx.Context())
	u2 := ctx.URL()
	sum := sha256.Sum256([]byte(ctx.Method() + " " + u2.Path + "?" + u2.RawQuery + "\n" + string(body)))
	fingerprint := hex.EncodeToString(sum[:])

	saved, err := v.requests.Begin(ctx.Context(), u.ID, key, fingerprint)
	if err != nil {
		p := asProblem(ctx.Context(), err)
		if errors.Is(err, idempotency.ErrReused) {
			p.Code = sdk.CodeIdempotencyKeyReused
		}
		var busy *idempotency.InProgressError
		if errors.As(err, &busy) {
			p.Code = sdk.CodeIdempotencyInProgress
			p.headers = retryAfter(busy.RetryAfter)
		}
		writeProblem(ctx, p)
		return
	}
	if saved != nil {
		ctx.SetHeader("Content-Type", saved.ContentType)
		ctx.SetHeader("Idempotent-Replayed", "true")
		ctx.SetStatus(saved.Status)
		_, _ = ctx.BodyWriter().Write(saved.Body)
		return
	}

	// The claim is renewed while the request runs; a process that dies
	// frees the key within idempotency.Lease.
	release := v.requests.Hold(ctx.Context(), u.ID, key, func(err error) {
		logger(ctx.Context()).Warn("idempotency: renew claim", "err", err)
	})
	defer release()
	rec := &recordingContext{humaContext: ctx, body: bytes.NewReader(body)}
	finished := false
	defer func() {
		if finished {
			return
		}
		// A panic or a failure: nothing to replay, so a retry runs again.
		// The request's own context may be over; the release must not be.
		if err := v.requests.Abandon(context.WithoutCancel(ctx.Context()), u.ID, key); err != nil {
			logger(ctx.Context()).Error("idempotency: release key", "err", err)
		}
	}()
	next(rec)
	if rec.status >= 200 && rec.status < 300 {
		answer := idempotency.Answer{Status: rec.status, ContentType: rec.contentType, Body: rec.buf.Bytes()}
		if err := v.requests.Finish(context.WithoutCancel(ctx.Context()), u.ID, key, answer); err != nil {
			logger(ctx.Context()).Error("idempotency: save answer", "err", err)
		}
		finished = true
	}
}

// humaContext lets recordingContext embed a huma.Context: embedded as
// huma.Context its field would be named Context, hiding the method Context().
type humaContext = huma.Context

// recordingContext passes a response through and keeps a copy of it, and
// serves a request body that was already read.
type recordingContext struct {
	humaContext
	body        io.Reader
	status      int
	contentType string
	buf         bytes.Buffer
}

func (c *recordingContext) BodyReader() io.Reader { return c.body }

func (c *recordingContext) SetStatus(code int) {
	c.status = code
	c.humaContext.SetStatus(code)
}

func (c *recordingContext) SetHeader(name, value string) {
	if strings.EqualFold(name, "Content-Type") {
		c.contentType = value
	}
	c.humaContext.SetHeader(name, value)
}

func (c *recordingContext) BodyWriter() io.Writer {
	return io.MultiWriter(c.humaContext.BodyWriter(), &c.buf)
}

// writeJSONTo is json for middlewares that answer before huma does.
func writeJSONTo(ctx huma.Context, status int, contentType string, body any) {
	ctx.SetHeader("Content-Type", contentType)
	ctx.SetStatus(status)
	_ = json.NewEncoder(ctx.BodyWriter()).Encode(body)
}
