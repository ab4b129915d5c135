package domainfwd

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/zone"
)

// route is a rule made ready for the hot path: the target taken apart once,
// so that a redirect is a map lookup and, at most, one string built.
type route struct {
	origin   string // "https://example.com", with its port if it has one
	path     string // the target's path, escaped ("", "/", "/blog/")
	query    string // the target's query, raw
	fragment string // "#section" or ""
	status   int
	keepPath bool
	keepQ    bool
	fixed    string // the whole location, when neither path nor query is kept
}

func compile(target string, status int, keepPath, keepQuery bool) (*route, error) {
	u, err := url.Parse(target)
	if err != nil {
		return nil, err
	}
	if u.Scheme == "" || u.Host == "" {
		return nil, fmt.Errorf("%q is not an absolute URL", target)
	}
	rt := &route{origin: u.Scheme + "://" + u.Host, path: u.EscapedPath(), query: u.RawQuery,
		status: status, keepPath: keepPath, keepQ: keepQuery}
	if u.Fragment != "" {
		rt.fragment = "#" + u.EscapedFragment()
	}
	rt.fixed = rt.build("", "")
	return rt, nil
}

// location is where a request for path (escaped) and query (raw) goes.
func (rt *route) location(path, query string) string {
	if !rt.keepPath {
		path = ""
	}
	if !rt.keepQ {
		query = ""
	}
	if path == "" && query == "" {
		return rt.fixed
	}
	return rt.build(path, query)
}

// build joins the target and what the request keeps: the request's path
// after the target's, with one slash between them ("/" alone adds
// nothing), and the request's query after the target's own.
func (rt *route) build(path, query string) string {
	var b strings.Builder
	b.Grow(len(rt.origin) + len(rt.path) + len(path) + len(rt.query) + len(query) + len(rt.fragment) + 2)
	b.WriteString(rt.origin)
	if strings.HasPrefix(path, "/") && path != "/" {
		b.WriteString(strings.TrimSuffix(rt.path, "/"))
		b.WriteString(path)
	} else {
		b.WriteString(rt.path)
	}
	switch {
	case rt.query != "" && query != "":
		b.WriteString("?" + rt.query + "&" + query)
	case rt.query != "":
		b.WriteString("?" + rt.query)
	case query != "":
		b.WriteString("?" + query)
	}
	b.WriteString(rt.fragment)
	return b.String()
}

// table is the rules a forwarding server answers from, by host name: an
// immutable snapshot, swapped whole when rules change.
type table struct {
	routes map[string]*route
	// version is the zone version it was read at: every change of rules
	// changes records too, in the same transaction, and so moves it (as do
	// a domain's registration, release and expiry).
	version int64
	// nextExpiry is when the next domain with rules expires: its rules
	// go then, whether or not the version moves.
	nextExpiry time.Time
}

var emptyTable = &table{routes: map[string]*route{}, version: -1}

func (t *table) has(name string) bool { return t.routes[name] != nil }

// loadTable reads the rules of every domain that has not expired. A rule
// whose target no longer parses is left out and returned in skipped.
func loadTable(ctx context.Context, d *db.DB, now time.Time) (t *table, skipped []error, err error) {
	// The version first: a change committed between the two reads is read
	// again at the next check, never missed.
	v, err := zone.ReadVersions(ctx, d.Bun)
	if err != nil {
		return nil, nil, err
	}
	var rows []struct {
		Name      string    `bun:"name"`
		Target    string    `bun:"target"`
		Status    int       `bun:"status"`
		KeepPath  bool      `bun:"keep_path"`
		KeepQuery bool      `bun:"keep_query"`
		Expires   time.Time `bun:"expires_at"`
	}
	err = d.Bun.NewSelect().TableExpr("forward_rules AS r").Join("JOIN domains AS d ON d.id = r.domain_id").
		ColumnExpr("r.name, r.target, r.status, r.keep_path, r.keep_query, d.expires_at").
		Where("d.expires_at > ?", now.UTC()).Scan(ctx, &rows)
	if err != nil {
		return nil, nil, fmt.Errorf("domainfwd: load rules: %w", err)
	}
	t = &table{routes: make(map[string]*route, len(rows)), version: v.Zone}
	for _, r := range rows {
		rt, err := compile(r.Target, r.Status, r.KeepPath, r.KeepQuery)
		if err != nil {
			skipped = append(skipped, fmt.Errorf("domainfwd: rule of %s: %w", r.Name, err))
			continue
		}
		t.routes[r.Name] = rt
		if t.nextExpiry.IsZero() || r.Expires.Before(t.nextExpiry) {
			t.nextExpiry = r.Expires
		}
	}
	return t, skipped, nil
}

// hostKey is the rule name a Host header asks for: without its port or
// final dot, in lower case.
func hostKey(host string) string {
	if i := strings.LastIndexByte(host, ':'); i >= 0 && !strings.HasSuffix(host, "]") {
		host = host[:i]
	}
	host = strings.TrimSuffix(host, ".")
	for i := 0; i < len(host); i++ {
		if c := host[i]; c >= 'A' && c <= 'Z' {
			return strings.ToLower(host)
		}
	}
	return host
}

// redirector answers every request with its host's redirect, or 404.
type redirector struct {
	table atomic.Pointer[table]
}

func newRedirector() *redirector {
	r := &redirector{}
	r.table.Store(emptyTable)
	return r
}

var notFoundBody = []byte("No forwarding is set up for this host name.\n")

func (h *redirector) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rt := h.table.Load().routes[hostKey(r.Host)]
	if rt == nil {
		counters.notFound.Add(1)
		header := w.Header()
		header["Content-Type"] = []string{"text/plain; charset=utf-8"}
		header["X-Content-Type-Options"] = []string{"nosniff"}
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write(notFoundBody)
		return
	}
	// Set directly: the key is canonical already, and this is the hot path.
	w.Header()["Location"] = []string{rt.location(r.URL.EscapedPath(), r.URL.RawQuery)}
	w.WriteHeader(rt.status)
	countRedirect(rt.status)
}

// counters are the process's counts, for the metrics.
var counters struct {
	redirects                 [4]atomic.Uint64 // by the index of the status in Statuses
	notFound                  atomic.Uint64
	issued, renewed, failures atomic.Uint64
}

func countRedirect(status int) {
	for i, s := range Statuses {
		if s == status {
			counters.redirects[i].Add(1)
			return
		}
	}
}

// Counts are what forwarding did since the process started.
type Counts struct {
	// Redirects served, by status code (every code of Statuses is present).
	Redirects map[int]uint64
	// NotFound counts requests for a host with no rule.
	NotFound uint64
	// CertificatesIssued counts certificates obtained, renewals included;
	// CertificatesRenewed the renewals among them; CertificateFailures
	// failed attempts to obtain or renew one.
	CertificatesIssued, CertificatesRenewed, CertificateFailures uint64
}

// Totals returns the counts so far.
func Totals() Counts {
	out := Counts{Redirects: make(map[int]uint64, len(Statuses)), NotFound: counters.notFound.Load(),
		CertificatesIssued: counters.issued.Load(), CertificatesRenewed: counters.renewed.Load(),
		CertificateFailures: counters.failures.Load()}
	for i, s := range Statuses {
		out.Redirects[s] = counters.redirects[i].Load()
	}
	return out
}
