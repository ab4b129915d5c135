package domainfwd

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
)

// BenchmarkRedirect measures the handler alone beside a bare net/http
// handler that writes the same redirect: the cost of the lookup and of
// building the location. (Redirects per second over the network, HTTP and
// HTTPS, are the `make bench` row's.)
func BenchmarkRedirect(b *testing.B) {
	h := newRedirector()
	routes := map[string]*route{}
	for i := range 10_000 {
		rt, err := compile("https://example.com/landing", 301, true, true)
		if err != nil {
			b.Fatal(err)
		}
		routes[fmt.Sprintf("host%d.example.inf.nz", i)] = rt
	}
	h.table.Store(&table{routes: routes})
	bare := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Location"] = []string{"https://example.com/landing" + r.URL.Path + "?" + r.URL.RawQuery}
		w.WriteHeader(301)
	})
	for _, c := range []struct {
		name string
		h    http.Handler
	}{{"forwarding", h}, {"bare", bare}} {
		b.Run(c.name, func(b *testing.B) {
			req := httptest.NewRequest("GET", "http://Host5000.example.inf.nz/some/path?q=1", nil)
			b.ReportAllocs()
			for b.Loop() {
				c.h.ServeHTTP(discard{header: http.Header{}}, req)
			}
		})
	}
}

// discard is a ResponseWriter that keeps nothing, so that the benchmark
// measures the handler rather than a recorder.
type discard struct{ header http.Header }

func (d discard) Header() http.Header         { return d.header }
func (d discard) Write(p []byte) (int, error) { return len(p), nil }
func (d discard) WriteHeader(int)             {}
