package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html/template"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/danielgtaylor/huma/v2"

	"github.com/nameport/nameport/internal/settings"
)

// The API reference is Redoc (github.com/Redocly/redoc), a maintained
// OpenAPI renderer with a sidebar and a mobile menu. Its standalone bundle is
// copied from web/node_modules into web/dist/docs/ by the web build
// (web/vite.config.ts), so it is served from the binary like the app's
// files; web/public/docs/docs.js starts it. The pages here are only its
// shell: the document they render is /openapi.json (the whole API) or
// /v1/openapi.json (the registrar API alone).
const (
	// V1DocumentPath is the /v1-only OpenAPI document.
	V1DocumentPath = "/v1/openapi.json"
	// registrarTag is the tag of every /v1 operation.
	registrarTag = "Registrar API"
)

// DocsContentSecurityPolicy is the policy of /docs and /docs/v1: scripts
// only from this origin (Redoc's bundle and docs.js), the document fetched
// from here, nothing from anywhere else. Redoc's styled-components add
// <style> elements at run time, so inline styles are allowed; its search
// index runs in a worker made from a blob: URL.
const DocsContentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; " +
	"img-src 'self' data:; connect-src 'self'; worker-src blob:; " +
	"base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// IsDocsPath tells whether path is a page of the API reference.
func IsDocsPath(path string) bool { return path == "/docs" || path == "/docs/v1" }

// The overviews of the two references, shown above their operations.
const (
	apiOverview = "Nameport has two HTTP APIs, both in this document:\n\n" +
		"- **Registrar API (`/v1`)**: for registrars' own software, the Go SDK " +
		"(github.com/nameport/nameport/sdk) and nameportctl. Authenticate with an API key " +
		"(`X-API-Key: KEY` or `Authorization: Bearer KEY`); its errors are RFC 9457 problem details. " +
		"This is the API to build on. Its reference alone is at [/docs/v1](/docs/v1), " +
		"its document at [/v1/openapi.json](/v1/openapi.json).\n" +
		"- **Web app API (`/api`)**: what Nameport's web app calls with a session cookie, " +
		"including account settings and the admin operations. A browser's cross-site write to /api " +
		"is refused (403) whatever its cookie.\n\n" +
		"Request bodies are JSON of at most 1 MiB."
	v1Overview = "The registrar API of Nameport (`/v1`), for registrars' own software: the Go SDK " +
		"(github.com/nameport/nameport/sdk), nameportctl and your scripts. Authenticate with an API key " +
		"from the API Access tab of the registrar dashboard. Request bodies are JSON of at most 1 MiB.\n\n" +
		"This is the registrar API alone; the whole API, the web app's `/api` included, is at [/docs](/docs)."
)

// webTagDescriptions describe the web app's tags in the reference; the
// registrar API's tag is declared, with its description, in v1.go.
var webTagDescriptions = map[string]string{
	"Account security":  "Two-factor sign-in, passkeys and the sessions of the signed-in account.",
	"Admin":             "Admins only: accounts, the audit log, deposits waiting for an admin, tier applications, outgoing mail, the contact inbox and platform statistics.",
	"Auth":              "Creating an account, signing in and out, passwords, email verification and the signed-in account.",
	"Bulk operations":   "A registrar's checks and jobs over many names, and their DNS templates.",
	"Catalog":           "The extensions on sale, premium names, availability and prices, and the business rules clients show.",
	"Catalog admin":     "Admins only: adding and changing extensions, their DNSSEC keys and premium names.",
	"Contact":           "The site's contact form.",
	"DNS":               "The DNS records of a domain, its DS records, dynamic-update keys and zone files.",
	"Domain forwarding": "Forwarding a domain's host names to a web address.",
	"Domains":           "Registering, listing and renewing the signed-in account's domains.",
	"Email forwarding":  "Forwarding the mail of a domain's addresses to other mailboxes.",
	"Pages":             "Published pages, and admins' editing of them.",
	"Payments":          "Card payments of deposits, through Stripe or simulated in the demo.",
	"Site settings":     "The public site (name, logo, colours, contact) and admins' settings.",
	"Wallet":            "The signed-in account's balance, transactions and deposits.",
	"Webhooks":          "A registrar's webhook endpoints and their deliveries.",
}

// orderTags declares every tag the operations use, the registrar API's
// first, and groups them by API (x-tagGroups, which Redoc shows as the
// sidebar's sections): a tag whose operations are all under /v1 belongs to
// the registrar API, any other to the web app's. Called once every
// operation is registered.
func orderTags(doc *huma.OpenAPI) {
	onlyV1 := map[string]bool{}
	for path, item := range doc.Paths {
		for _, op := range operations(item) {
			for _, tag := range op.Tags {
				v, seen := onlyV1[tag]
				onlyV1[tag] = IsV1Path(path) && (v || !seen)
			}
		}
	}
	declared := map[string]*huma.Tag{}
	for _, t := range doc.Tags {
		declared[t.Name] = t
	}
	var registrar, web []string
	for name, v1 := range onlyV1 {
		if v1 {
			registrar = append(registrar, name)
		} else {
			web = append(web, name)
		}
	}
	first := func(a, b string) int {
		switch {
		case a == registrarTag:
			return -1
		case b == registrarTag:
			return 1
		}
		return strings.Compare(a, b)
	}
	slices.SortFunc(registrar, first)
	slices.Sort(web)
	doc.Tags = nil
	for _, name := range slices.Concat(registrar, web) {
		t := declared[name]
		if t == nil {
			t = &huma.Tag{Name: name, Description: webTagDescriptions[name]}
		}
		doc.Tags = append(doc.Tags, t)
	}
	if doc.Extensions == nil {
		doc.Extensions = map[string]any{}
	}
	doc.Extensions["x-tagGroups"] = []map[string]any{
		{"name": "Registrar API (/v1)", "tags": registrar},
		{"name": "Web app API (/api)", "tags": web},
	}
}

// operations are the operations of a path.
func operations(item *huma.PathItem) []*huma.Operation {
	var ops []*huma.Operation
	for _, op := range []*huma.Operation{item.Get, item.Put, item.Post, item.Delete, item.Options, item.Head, item.Patch, item.Trace} {
		if op != nil {
			ops = append(ops, op)
		}
	}
	return ops
}

// V1Document is the OpenAPI document of the registrar API alone: the /v1
// operations of doc, the components they reference (directly or through
// other components), the security schemes they name and the tags they use.
func V1Document(doc *huma.OpenAPI) ([]byte, error) {
	whole, err := json.Marshal(doc)
	if err != nil {
		return nil, fmt.Errorf("v1 document: %w", err)
	}
	var d map[string]any
	if err := json.Unmarshal(whole, &d); err != nil {
		return nil, fmt.Errorf("v1 document: %w", err)
	}
	paths, _ := d["paths"].(map[string]any)
	for path := range paths {
		if !IsV1Path(path) {
			delete(paths, path)
		}
	}
	if info, ok := d["info"].(map[string]any); ok {
		info["title"] = "Nameport Registrar API"
		info["description"] = v1Overview
	}
	delete(d, "x-tagGroups")

	// The tags and security schemes the operations use.
	tags, schemes := map[string]bool{}, map[string]bool{}
	for _, item := range paths {
		for _, op := range item.(map[string]any) {
			op, ok := op.(map[string]any)
			if !ok {
				continue
			}
			for _, t := range asSlice(op["tags"]) {
				tags[fmt.Sprint(t)] = true
			}
			for _, req := range asSlice(op["security"]) {
				for name := range asMap(req) {
					schemes[name] = true
				}
			}
		}
	}
	for _, req := range asSlice(d["security"]) {
		for name := range asMap(req) {
			schemes[name] = true
		}
	}
	var keptTags []any
	for _, t := range asSlice(d["tags"]) {
		if tags[fmt.Sprint(asMap(t)["name"])] {
			keptTags = append(keptTags, t)
		}
	}
	d["tags"] = keptTags

	// The components: those the paths reference, then those they reference.
	components := asMap(d["components"])
	kept := map[string]bool{} // "#/components/<section>/<name>"
	queue := refs(paths, nil)
	for len(queue) > 0 {
		ref := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		if kept[ref] {
			continue
		}
		kept[ref] = true
		section, name, ok := strings.Cut(strings.TrimPrefix(ref, "#/components/"), "/")
		if !ok {
			continue
		}
		if c, ok := asMap(components[section])[name]; ok {
			queue = refs(c, queue)
		}
	}
	for section, entries := range components {
		entries := asMap(entries)
		for name := range entries {
			keep := kept["#/components/"+section+"/"+name]
			if section == "securitySchemes" {
				keep = keep || schemes[name]
			}
			if !keep {
				delete(entries, name)
			}
		}
		if len(entries) == 0 {
			delete(components, section)
		}
	}
	return json.Marshal(d)
}

// refs appends every $ref under v to out.
func refs(v any, out []string) []string {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if s, ok := x.(string); ok && k == "$ref" {
				out = append(out, s)
			} else {
				out = refs(x, out)
			}
		}
	case []any:
		for _, x := range v {
			out = refs(x, out)
		}
	}
	return out
}

func asMap(v any) map[string]any { m, _ := v.(map[string]any); return m }
func asSlice(v any) []any        { s, _ := v.([]any); return s }

// v1DocumentHandler serves V1Document of a's document, made at the first
// request, when every operation is registered.
func v1DocumentHandler(a huma.API) http.HandlerFunc {
	document := sync.OnceValues(func() ([]byte, error) { return V1Document(a.OpenAPI()) })
	return func(w http.ResponseWriter, r *http.Request) {
		body, err := document()
		if err != nil {
			logger(r.Context()).Error("v1 openapi document", "err", err)
			WriteError(w, r, http.StatusInternalServerError, "The document could not be made.")
			return
		}
		w.Header().Set("Content-Type", "application/openapi+json")
		w.Header().Set("Cache-Control", "no-cache")
		_, _ = w.Write(body)
	}
}

// docsPage is the shell of a reference: Redoc renders the document at
// SpecURL into #redoc. Without script it says where the document is.
var docsPage = template.Must(template.New("docs").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title><meta name="description" content="{{.Heading}}: every operation, its parameters, responses and credentials.">
<link rel="icon" type="image/svg+xml" href="/favicon.svg">
</head><body style="margin:0;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif">
<div id="redoc" data-spec-url="{{.SpecURL}}" data-primary-color="{{.Color}}">
<noscript><main style="max-width:40rem;margin:3rem auto;padding:0 1rem;line-height:1.5">
<h1>{{.Heading}}</h1>
<p>This reference needs JavaScript. The API is described by its OpenAPI document,
<a href="{{.SpecURL}}">{{.SpecURL}}</a>{{if ne .SpecURL "/openapi.json"}} (the whole API: <a href="/openapi.json">/openapi.json</a>){{end}},
which any OpenAPI tool can read.</p></main></noscript>
</div>
<script src="/docs/redoc.standalone.js"></script>
<script src="/docs/docs.js"></script>
</body></html>`))

// siteOf is the site's settings as the reference shows them; nil (no
// settings, as in `nameport openapi`) shows the defaults.
func siteOf(s *settings.Service) func(context.Context) (settings.Site, error) {
	if s == nil {
		return nil
	}
	return s.Site
}

// docsHandler serves the reference of the document at specURL, under the
// site's name and in its primary colour.
func docsHandler(site func(context.Context) (settings.Site, error), heading, specURL string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s := settings.Site{Name: settings.DefaultSiteName, PrimaryColor: settings.DefaultPrimaryColor}
		if site != nil {
			if got, err := site(r.Context()); err != nil {
				logger(r.Context()).Warn("api reference without the site settings", "err", err)
			} else {
				s = got
			}
		}
		var buf bytes.Buffer
		if err := docsPage.Execute(&buf, map[string]string{
			"Title": heading + " · " + s.Name, "Heading": heading, "SpecURL": specURL, "Color": s.PrimaryColor,
		}); err != nil {
			logger(r.Context()).Error("render api reference", "err", err)
			http.Error(w, "The API reference could not be rendered.", http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		_, _ = w.Write(buf.Bytes())
	}
}
