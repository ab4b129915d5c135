package server

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/config"
	"github.com/nameport/nameport/internal/connlimit"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
)

// The benchmarks below run requests through the whole HTTP handler of an
// API process (every middleware, huma, the services, a real database) without
// a network in between, as `make bench` does over TCP with rate limits
// lifted. Profile one with
//
//	go test ./internal/server -run '^$' -bench CheckAPI -benchmem -cpuprofile cpu.out -memprofile mem.out
//
// PostgreSQL is used when NAMEPORT_TEST_DATABASE_URL is set and BENCH_ENGINE=postgres.

// benchServer is the HTTP handler of an API process on a fresh database
// with the demo data, and the API key of the demo registrar.
type benchServer struct {
	handler http.Handler
	key     string
}

func newBenchServer(b *testing.B) *benchServer {
	b.Helper()
	engine := db.SQLite
	if e := db.Engine(os.Getenv("BENCH_ENGINE")); e != "" {
		engine = e
	}
	ctx := context.Background()
	cfg := config.Config{Roles: []string{config.RoleAPI}, DataDir: b.TempDir(), SessionTTL: time.Hour,
		SignUpLimit: 1000, PasswordHashWait: time.Minute, Demo: true, DemoPayments: true, NoRateLimits: true}
	logger := slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelWarn}))
	d, err := db.Open(ctx, dbtest.URL(b, engine))
	require.NoError(b, err)
	b.Cleanup(func() { d.Close() })
	require.NoError(b, d.Migrate(ctx))
	svc, err := NewServices(d, cfg, nil)
	require.NoError(b, err)
	require.NoError(b, svc.Catalog.Load(ctx))
	require.NoError(b, d.SetupJobs(db.JobsConfig{Logger: logger}))
	require.NoError(b, seedDemo(ctx, svc, logger))
	// Enterprise: the demo registrar's premium tier allows 500 new
	// registrations a month, fewer than BenchmarkRegisterV1 makes.
	dbtest.MustExec(b, d, "UPDATE users SET tier = 'enterprise' WHERE username = 'demo-registrar'")
	watchCtx, stopWatching := context.WithCancel(ctx)
	b.Cleanup(stopWatching)
	go svc.Domains.Names.Watch(watchCtx, namesPollInterval, logger) // as Run does for the API role
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(b, err)
	b.Cleanup(func() { ln.Close() })
	s := &benchServer{handler: newRouter(cfg, logger, d, svc, nil, nil, connlimit.Wrap(ln, connlimit.Limits{}))}

	// The demo registrar's API key, as cmd/nameport-bench setup gets it.
	login := s.do(b, http.MethodPost, "/api/auth/login", `{"username":"demo-registrar","password":"demo1234"}`, nil)
	require.Equal(b, http.StatusOK, login.Code, login.Body.String())
	cookie := login.Header().Get("Set-Cookie")
	res := s.do(b, http.MethodPost, "/api/registrar/api-key", `{}`, http.Header{"Cookie": {cookie}})
	require.Equal(b, http.StatusOK, res.Code, res.Body.String())
	var key struct {
		Data struct {
			APIKey string `json:"apiKey"`
		} `json:"data"`
	}
	require.NoError(b, json.Unmarshal(res.Body.Bytes(), &key))
	s.key = key.Data.APIKey
	return s
}

// do sends one request to the handler.
func (s *benchServer) do(b *testing.B, method, path, body string, header http.Header) *httptest.ResponseRecorder {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, path, rd)
	for k, v := range header {
		req.Header[k] = v
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	w := httptest.NewRecorder()
	s.handler.ServeHTTP(w, req)
	return w
}

// fund deposits dollars into the registrar's wallet (demo payments).
func (s *benchServer) fund(b *testing.B, dollars int) {
	for left, i := dollars, 0; left > 0; left, i = left-10_000, i+1 {
		body := `{"amount":` + strconv.Itoa(min(left, 10_000)) + `,"paymentMethod":"bank_transfer"}`
		res := s.do(b, http.MethodPost, "/v1/wallet/deposits", body,
			http.Header{"X-Api-Key": {s.key}, "Idempotency-Key": {"bench-fund-" + strconv.Itoa(i)}})
		require.Equal(b, http.StatusCreated, res.Code, res.Body.String())
	}
}

// parallel runs request (numbered from 1) on all of b's goroutines and fails
// b on any answer but want.
func parallel(b *testing.B, want int, request func(n int64) *httptest.ResponseRecorder) {
	var seq atomic.Int64
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if res := request(seq.Add(1)); res.Code != want {
				b.Errorf("status %d: %s", res.Code, res.Body.String())
				return
			}
		}
	})
}

// BenchmarkCheckAPI is a visitor's GET /api/domains/check, as the web app's
// search sends it.
func BenchmarkCheckAPI(b *testing.B) {
	s := newBenchServer(b)
	parallel(b, http.StatusOK, func(n int64) *httptest.ResponseRecorder {
		return s.do(b, http.MethodGet, "/api/domains/check?name=bench"+strconv.FormatInt(n, 10)+"&extension=.inf.nz", "", nil)
	})
}

// BenchmarkCheckV1 is a registrar's POST /v1/domains/check with its API key.
func BenchmarkCheckV1(b *testing.B) {
	s := newBenchServer(b)
	auth := http.Header{"X-Api-Key": {s.key}}
	parallel(b, http.StatusOK, func(n int64) *httptest.ResponseRecorder {
		return s.do(b, http.MethodPost, "/v1/domains/check", `{"domain":"bench`+strconv.FormatInt(n, 10)+`.inf.nz"}`, auth)
	})
}

// BenchmarkRegisterV1 is a registrar's POST /v1/domains/register: price,
// wallet debit, ledger, domain and its zone change in one transaction.
func BenchmarkRegisterV1(b *testing.B) {
	s := newBenchServer(b)
	s.fund(b, 20*b.N+100)
	auth := http.Header{"X-Api-Key": {s.key}}
	parallel(b, http.StatusCreated, func(n int64) *httptest.ResponseRecorder {
		return s.do(b, http.MethodPost, "/v1/domains/register", `{"domain":"reg`+strconv.FormatInt(n, 10)+`x.inf.nz","years":1}`, auth)
	})
}
