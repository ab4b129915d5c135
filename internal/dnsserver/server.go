// Package dnsserver is Nameport's authoritative DNS server. It answers from an
// immutable in-memory snapshot of the zones, swapped atomically when the
// zones change, so no packet ever waits on the database.
package dnsserver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"sync/atomic"
	"time"

	"github.com/miekg/dns"
)

// Snapshot is the set of zones the server is authoritative for. It is never
// modified once published.
type Snapshot struct {
	// Zones by their fully qualified, lower-case origin ("inf.nz.").
	Zones map[string]struct{}
}

// Server answers DNS queries over UDP and TCP.
type Server struct {
	addr     string
	snapshot atomic.Pointer[Snapshot]
	udp, tcp *dns.Server
	logger   *slog.Logger
}

// New returns a server for addr ("127.0.0.1:5353") with no zones loaded.
func New(addr string, logger *slog.Logger) *Server {
	return &Server{addr: addr, logger: logger}
}

// Publish makes snap the zones the server answers from.
func (s *Server) Publish(snap *Snapshot) { s.snapshot.Store(snap) }

// Ready reports whether a snapshot has been published.
func (s *Server) Ready() bool { return s.snapshot.Load() != nil }

// Start listens on UDP and TCP and serves until Shutdown.
func (s *Server) Start() error {
	pc, err := net.ListenPacket("udp", s.addr)
	if err != nil {
		return fmt.Errorf("dnsserver: listen udp %s: %w", s.addr, err)
	}
	l, err := net.Listen("tcp", s.addr)
	if err != nil {
		pc.Close()
		return fmt.Errorf("dnsserver: listen tcp %s: %w", s.addr, err)
	}
	handler := dns.HandlerFunc(s.serveDNS)
	s.udp = &dns.Server{PacketConn: pc, Handler: handler, UDPSize: dns.DefaultMsgSize}
	s.tcp = &dns.Server{Listener: l, Handler: handler, ReadTimeout: 5 * time.Second, IdleTimeout: func() time.Duration { return 10 * time.Second }}
	for _, srv := range []*dns.Server{s.udp, s.tcp} {
		go func() {
			if err := srv.ActivateAndServe(); err != nil {
				s.logger.Error("dns server stopped", "err", err)
			}
		}()
	}
	s.logger.Info("dns listening", "addr", s.addr)
	return nil
}

// Shutdown stops both listeners, letting in-flight queries finish.
func (s *Server) Shutdown(ctx context.Context) error {
	var errs []error
	for _, srv := range []*dns.Server{s.udp, s.tcp} {
		if srv != nil {
			errs = append(errs, srv.ShutdownContext(ctx))
		}
	}
	return errors.Join(errs...)
}

// serveDNS answers one query. A name outside every zone gets REFUSED: the
// server is authoritative only and never recurses; and it always answers,
// never drops (RFC 8906).
func (s *Server) serveDNS(w dns.ResponseWriter, req *dns.Msg) {
	resp := new(dns.Msg)
	switch {
	case req.Opcode != dns.OpcodeQuery:
		resp.SetRcode(req, dns.RcodeNotImplemented)
	case len(req.Question) != 1:
		resp.SetRcode(req, dns.RcodeFormatError)
	default:
		// No zone is served yet (zones arrive with the DNS issue), so every
		// name is outside our zones.
		resp.SetRcode(req, dns.RcodeRefused)
	}
	if opt := req.IsEdns0(); opt != nil {
		resp.SetEdns0(dns.DefaultMsgSize, false)
	}
	if err := w.WriteMsg(resp); err != nil {
		s.logger.Debug("dns write failed", "err", err)
	}
}
