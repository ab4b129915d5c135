// Package servertest runs a real `nameport serve` (every role) in-process for
// tests in any package: the SDK's integration tests, the CLI's binary tests
// and the server's own.
package servertest

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/config"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/server"
)

// Server is a running server.
type Server struct {
	URL         string // http://127.0.0.1:PORT
	DatabaseURL string
	DNSAddr     string
	MailAddr    string // the mail role's SMTP address, when it runs
	ForwardAddr string // the forward role's HTTP address, when it runs
	logs        *LockedBuffer
	stop        func() error
}

// Logs returns what the server has logged so far (at debug level).
func (s *Server) Logs() string { return s.logs.String() }

// Stop shuts the server down gracefully and returns what Run returned. It is
// also called when the test ends; calling it twice is harmless.
func (s *Server) Stop() error { return s.stop() }

// Start runs a server on a fresh database of engine until t ends. edit, when
// not nil, changes the configuration first. The server runs demo payments
// (deposits complete at once, as most tests need money to spend); a test of
// production payments sets DemoPayments to false. The server's log is shown when
// the test fails.
func Start(t testing.TB, engine db.Engine, edit func(*config.Config)) *Server {
	t.Helper()
	pickedDNS := FreeDNSAddr(t)
	cfg := config.Config{
		HTTPAddr: "127.0.0.1:0", DNSAddr: pickedDNS, DatabaseURL: dbtest.URL(t, engine), DataDir: t.TempDir(),
		Roles: []string{config.RoleAPI, config.RoleDNS, config.RoleWorker}, Migrate: true, SessionTTL: time.Hour,
		// Tests sign up many accounts from one loopback address; the
		// sign-up throttle's own tests set the limit they prove.
		SignUpLimit: 1000,
		// Parallel tests on a busy machine would otherwise see 503s from the
		// password hash pool; its own test sets a short wait.
		PasswordHashWait: time.Minute,
		DemoPayments:     true,
		// The defaults of the flags (config.Load sets them).
		DNSPollInterval: 250 * time.Millisecond, DNSHistory: 1000,
		// Forwarded hosts point at a documentation address: domain
		// forwarding's API works without the forward role, which a test
		// adds (with HTTPS when it sets ForwardHTTPSAddr).
		ForwardIPv4: []string{"192.0.2.80"},
	}
	if edit != nil {
		edit(&cfg)
	}
	pickMail := cfg.HasRole(config.RoleMail) && cfg.MailListen == ""
	if pickMail {
		cfg.MailListen = FreeTCPAddr(t)
	}
	pickForward := cfg.HasRole(config.RoleForward) && cfg.ForwardHTTPAddr == ""
	if pickForward {
		cfg.ForwardHTTPAddr = FreeTCPAddr(t)
	}
	logs := &LockedBuffer{}
	logger := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("nameport log:\n%s", logs.String())
		}
	})
	// A port picked here may be taken by another test's listener before
	// the server binds it: then pick again (the database, already
	// migrated, is simply opened again).
	for attempt := 1; ; attempt++ {
		s, err := run(t, cfg, logger, logs)
		if err == nil {
			return s
		}
		if attempt < 4 && strings.Contains(err.Error(), "address already in use") && (cfg.DNSAddr == pickedDNS || pickMail || pickForward) {
			if cfg.DNSAddr == pickedDNS {
				pickedDNS = FreeDNSAddr(t)
				cfg.DNSAddr = pickedDNS
			}
			if pickMail {
				cfg.MailListen = FreeTCPAddr(t)
			}
			if pickForward {
				cfg.ForwardHTTPAddr = FreeTCPAddr(t)
			}
			continue
		}
		t.Fatalf("server did not start: %v", err)
	}
}

// run starts a server with cfg and returns it once it serves.
func run(t testing.TB, cfg config.Config, logger *slog.Logger, logs *LockedBuffer) (*Server, error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	addr := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- server.Run(ctx, cfg, logger, func(a string) { addr <- a }) }()
	select {
	case a := <-addr:
		var once sync.Once
		var stopErr error
		s := &Server{URL: "http://" + a, DatabaseURL: cfg.DatabaseURL, DNSAddr: cfg.DNSAddr, MailAddr: cfg.MailListen, ForwardAddr: cfg.ForwardHTTPAddr, logs: logs, stop: func() error {
			once.Do(func() {
				cancel()
				stopErr = <-done
			})
			return stopErr
		}}
		databases.Store(s.URL, s.DatabaseURL)
		t.Cleanup(func() {
			_ = s.Stop()
			databases.Delete(s.URL)
		})
		return s, nil
	case err := <-done:
		cancel()
		return nil, err
	case <-time.After(30 * time.Second):
		cancel()
		return nil, errors.New("not ready within 30 seconds")
	}
}

// FreeTCPAddr returns a loopback address whose TCP port is free.
func FreeTCPAddr(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	return l.Addr().String()
}

// FreeDNSAddr returns a loopback address whose port is free for UDP and TCP.
func FreeDNSAddr(t testing.TB) string {
	t.Helper()
	for range 20 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		addr := l.Addr().String()
		l.Close()
		if pc, err := net.ListenPacket("udp", addr); err == nil {
			pc.Close()
			return addr
		}
	}
	t.Fatal("no free port for DNS")
	return ""
}

// LockedBuffer is a bytes.Buffer that a process and a logger may write to
// while the test reads it.
type LockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *LockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *LockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
