package api

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"html/template"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/danielgtaylor/huma/v2"
)

// docsHandler serves the API reference, rendered on the server from the same
// OpenAPI document as /openapi.json. It loads nothing from elsewhere, so it
// works on an offline install and costs no script.
func docsHandler(a huma.API) http.HandlerFunc {
	var once sync.Once
	var page []byte
	var renderErr error
	return func(w http.ResponseWriter, r *http.Request) {
		// The document is complete once every operation is registered, which
		// is before the first request.
		once.Do(func() { page, renderErr = renderDocs(a) })
		if renderErr != nil {
			logger(r.Context()).Error("render api docs", "err", renderErr)
			http.Error(w, "The API reference could not be rendered.", http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		_, _ = w.Write(page)
	}
}

type docField struct {
	Name, Type, Description string
	Required                bool
}

type docResponse struct {
	Status, Description string
	Fields              []docField
}

type docOperation struct {
	ID, Method, Path, Summary, Description string
	// Auth says what credentials the operation takes (its security).
	Auth      string
	Params    []docField
	Request   []docField
	Responses []docResponse
}

type docTag struct {
	Name        string
	Description string
	Operations  []docOperation
}

func renderDocs(a huma.API) ([]byte, error) {
	doc := a.OpenAPI()
	reg := doc.Components.Schemas
	byTag := map[string][]docOperation{}
	for path, item := range doc.Paths {
		for _, op := range []*huma.Operation{item.Get, item.Post, item.Put, item.Patch, item.Delete} {
			if op == nil {
				continue
			}
			d := docOperation{ID: op.OperationID, Method: op.Method, Path: path, Summary: op.Summary, Description: op.Description,
				Auth: authentication(doc.Components.SecuritySchemes, op.Security)}
			for _, p := range op.Parameters {
				d.Params = append(d.Params, docField{Name: p.Name + " (" + p.In + ")", Type: typeOf(reg, p.Schema),
					Description: p.Description, Required: p.Required})
			}
			if op.RequestBody != nil {
				if mt := op.RequestBody.Content["application/json"]; mt != nil {
					d.Request = fields(reg, mt.Schema, "", 0)
				}
			}
			for status, resp := range op.Responses {
				dr := docResponse{Status: status, Description: resp.Description}
				mt := resp.Content["application/json"]
				if mt == nil {
					mt = resp.Content[problemContentType]
				}
				if mt != nil {
					dr.Fields = fields(reg, mt.Schema, "", 0)
				}
				d.Responses = append(d.Responses, dr)
			}
			slices.SortFunc(d.Responses, func(x, y docResponse) int { return strings.Compare(x.Status, y.Status) })
			tag := "Other"
			if len(op.Tags) > 0 {
				tag = op.Tags[0]
			}
			byTag[tag] = append(byTag[tag], d)
		}
	}
	var tags []docTag
	for name, ops := range byTag {
		slices.SortFunc(ops, func(x, y docOperation) int {
			return strings.Compare(x.Path+" "+x.Method, y.Path+" "+y.Method)
		})
		t := docTag{Name: name, Operations: ops}
		for _, dt := range doc.Tags {
			if dt.Name == name {
				t.Description = dt.Description
			}
		}
		tags = append(tags, t)
	}
	slices.SortFunc(tags, func(x, y docTag) int { return strings.Compare(x.Name, y.Name) })

	var buf bytes.Buffer
	err := docsTemplate.Execute(&buf, map[string]any{
		"Title": doc.Info.Title, "Version": doc.Info.Version, "Description": doc.Info.Description, "Tags": tags,
	})
	return buf.Bytes(), err
}

// authentication says in words what security asks: none, one of the
// schemes, or one of them optionally (an empty requirement lets anyone in).
func authentication(schemes map[string]*huma.SecurityScheme, security []map[string][]string) string {
	var ways []string
	optional := false
	for _, requirement := range security {
		if len(requirement) == 0 {
			optional = true
		}
		for name := range requirement {
			ways = append(ways, credential(name, schemes[name]))
		}
	}
	slices.Sort(ways)
	switch {
	case len(ways) == 0:
		return "None"
	case optional:
		return "Optional: " + strings.Join(ways, " or ")
	default:
		return strings.Join(ways, " or ")
	}
}

// credential names what a client sends for scheme.
func credential(name string, scheme *huma.SecurityScheme) string {
	switch {
	case scheme == nil:
		return name
	case scheme.Type == "apiKey":
		return scheme.In + " " + scheme.Name
	case scheme.Type == "http" && scheme.Scheme == "bearer":
		return "Authorization: Bearer"
	}
	return name
}

func resolve(reg huma.Registry, s *huma.Schema) *huma.Schema {
	if s != nil && s.Ref != "" {
		if r := reg.SchemaFromRef(s.Ref); r != nil {
			return r
		}
	}
	return s
}

// fields flattens an object schema into rows: nested objects as "a.b",
// array elements as "a[].b".
func fields(reg huma.Registry, s *huma.Schema, prefix string, depth int) []docField {
	s = resolve(reg, s)
	if s == nil || depth > 4 {
		return nil
	}
	if s.Type == "array" && s.Items != nil {
		return fields(reg, s.Items, prefix+"[].", depth+1)
	}
	var out []docField
	names := make([]string, 0, len(s.Properties))
	for name := range s.Properties {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		p := s.Properties[name]
		rp := resolve(reg, p)
		out = append(out, docField{Name: prefix + name, Type: typeOf(reg, p), Description: rp.Description,
			Required: slices.Contains(s.Required, name)})
		switch {
		case rp.Type == "object" && len(rp.Properties) > 0:
			out = append(out, fields(reg, rp, prefix+name+".", depth+1)...)
		case rp.Type == "array" && rp.Items != nil:
			if item := resolve(reg, rp.Items); item != nil && item.Type == "object" {
				out = append(out, fields(reg, item, prefix+name+"[].", depth+1)...)
			}
		}
	}
	return out
}

func typeOf(reg huma.Registry, s *huma.Schema) string {
	s = resolve(reg, s)
	if s == nil {
		return ""
	}
	t := s.Type
	switch {
	case t == "array" && s.Items != nil:
		t = "array of " + typeOf(reg, s.Items)
	case s.Format != "":
		t += " (" + s.Format + ")"
	}
	if len(s.Enum) > 0 {
		vals := make([]string, len(s.Enum))
		for i, v := range s.Enum {
			vals[i] = fmt.Sprint(v)
		}
		t += ": " + strings.Join(vals, ", ")
	}
	return t
}

// docsStyle is the page's only stylesheet, inline so that /docs is one
// self-contained response.
const docsStyle = `
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:#0f172a;background:#f8fafc}
header{background:#0f172a;color:#fff;padding:28px 24px}header>div{max-width:932px;margin:0 auto}header h1{margin:0;font-size:24px}header p{margin:6px 0 0;color:#cbd5e1;max-width:760px}
header a{color:#93c5fd}
main{max-width:980px;margin:0 auto;padding:24px}
h2{font-size:20px;margin:32px 0 12px;border-bottom:1px solid #e2e8f0;padding-bottom:6px}
section.op{background:#fff;border:1px solid #e2e8f0;border-radius:10px;padding:16px 18px;margin:14px 0}
.sig{font:600 15px ui-monospace,SFMono-Regular,Menlo,monospace;display:flex;gap:10px;align-items:center;flex-wrap:wrap}
.m{font-size:12px;padding:2px 8px;border-radius:6px;color:#fff;background:#2563eb}.m.POST{background:#16a34a}.m.PUT,.m.PATCH{background:#d97706}.m.DELETE{background:#dc2626}
.intro{color:#334155;max-width:70ch;line-height:1.6}.sum{margin:6px 0 0;font-weight:600}.desc{margin:4px 0 0;color:#475569}
h3{font-size:13px;text-transform:uppercase;letter-spacing:.04em;color:#64748b;margin:14px 0 6px}
table{border-collapse:collapse;width:100%;font-size:14px}td,th{text-align:left;padding:5px 8px;border-top:1px solid #f1f5f9;vertical-align:top}
th{color:#64748b;font-weight:500}td code{font-size:13px}.req{color:#dc2626;font-size:12px}.type{color:#7c3aed;font-family:ui-monospace,monospace;font-size:13px}
.status{font-family:ui-monospace,monospace;font-weight:600}
`

// DocsContentSecurityPolicy is the policy of /docs: no script at all, and
// of inline styles only docsStyle, named by its hash.
var DocsContentSecurityPolicy = func() string {
	sum := sha256.Sum256([]byte(docsStyle))
	return "default-src 'none'; style-src 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'; " +
		"img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
}()

var docsTemplate = template.Must(template.New("docs").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}} reference</title><link rel="icon" type="image/svg+xml" href="/favicon.svg">
<style>` + docsStyle + `</style></head><body>
<header><div><h1>{{.Title}} <small>v{{.Version}}</small></h1><p>{{.Description}}</p><p>Machine-readable: <a href="/openapi.json">/openapi.json</a></p></div></header>
<main>{{range .Tags}}<h2 id="{{.Name}}">{{.Name}}</h2>{{if .Description}}<p class="intro">{{.Description}}</p>{{end}}{{range .Operations}}
<section class="op" id="{{.ID}}"><div class="sig"><span class="m {{.Method}}">{{.Method}}</span><span>{{.Path}}</span></div>
<p class="sum">{{.Summary}}</p>{{if .Description}}<p class="desc">{{.Description}}</p>{{end}}
<p class="desc">Authentication: {{.Auth}}</p>
{{if .Params}}<h3>Parameters</h3><table>{{range .Params}}<tr><td><code>{{.Name}}</code>{{if .Required}} <span class="req">required</span>{{end}}</td><td class="type">{{.Type}}</td><td>{{.Description}}</td></tr>{{end}}</table>{{end}}
{{if .Request}}<h3>Request body (JSON)</h3><table>{{range .Request}}<tr><td><code>{{.Name}}</code>{{if .Required}} <span class="req">required</span>{{end}}</td><td class="type">{{.Type}}</td><td>{{.Description}}</td></tr>{{end}}</table>{{end}}
<h3>Responses</h3><table>{{range .Responses}}<tr><td class="status">{{.Status}}</td><td>{{.Description}}{{if .Fields}}<table>{{range .Fields}}<tr><td><code>{{.Name}}</code></td><td class="type">{{.Type}}</td><td>{{.Description}}</td></tr>{{end}}</table>{{end}}</td></tr>{{end}}</table>
</section>{{end}}{{end}}</main></body></html>`))
