package dnsserver

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"slices"
	"strings"
	"time"

	"github.com/miekg/dns"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/zone"
)

// Dynamic update (RFC 2136), over UDP and TCP, accepted only when signed
// (RFC 8945) with an update key of the domain it changes. The server does
// the protocol: the TSIG check and signed answers, the zone section, the
// RCODEs; Updates (internal/updatekey) knows the keys and their scope and
// applies the update through the zone service, all or nothing.

// UpdateKey is a TSIG key that signs dynamic updates of one domain.
type UpdateKey struct {
	ID        int64
	Name      string // canonical: "certbot.example.inf.nz."
	Algorithm string // dns.HmacSHA256 or dns.HmacSHA512
	Secret    []byte
	Domain    string // canonical: "example.inf.nz."
	// WholeDomain is a key for every name and type of its domain: it may
	// also transfer the domain (AXFR), as external-dns reads it.
	WholeDomain bool
}

// Updates are the update keys and what applies the updates they sign.
type Updates interface {
	// Key returns the update key named name (canonical); false when there
	// is none. Called for every signed message, so answered from memory
	// but for the first use of a name.
	Key(name string) (UpdateKey, bool)
	// Apply makes the update signed by key to the zone named zone (the
	// zone section's name, canonical): prereqs are the message's
	// prerequisite section, updates its update section. A refusal is a
	// *zone.UpdateError with its RCODE, or an invalid apperr.Error for a
	// change the zone's rules refuse (REFUSED). It returns the zone
	// version (zone_version) the change committed as.
	Apply(ctx context.Context, key UpdateKey, zone string, prereqs, updates []dns.RR) (int64, error)
}

// WithUpdates accepts dynamic updates signed with the keys of u. Without
// it UPDATE is answered NOTIMP.
func WithUpdates(u Updates) Option {
	return func(o *options) {
		o.updates = &updater{u: u, busy: make(chan struct{}, maxUpdatesInFlight)}
	}
}

// updater is WithUpdates's state.
type updater struct {
	u Updates
	// busy bounds the updates over UDP applied at once: each waits on the
	// database, off the workers that answer queries.
	busy chan struct{}
}

const (
	// maxUpdatesInFlight: more over UDP are dropped (the client retries).
	maxUpdatesInFlight = 32
	// maxUpdateRRs bounds the records of one update (prerequisites and
	// updates); a domain holds at most zone.MaxRecordsPerDomain.
	maxUpdateRRs = 2 * zone.MaxRecordsPerDomain
	// updateTimeout bounds the time an update may take.
	updateTimeout = 10 * time.Second
	// updateServed bounds the wait for the server to serve a change.
	updateServed = 3 * time.Second
)

// tsigProvider is the keys signed messages are verified with: the
// server's own (WithTSIGKeys), then, with WithUpdates, the update keys.
func (s *Server) tsigProvider() dns.TsigProvider {
	if s.opts.updates == nil {
		return s.opts.tsigKeys
	}
	return serverKeys{s}
}

// serverKeys is tsigProvider's keyring with update keys.
type serverKeys struct{ s *Server }

func (k serverKeys) key(t *dns.TSIG) tsigKeyring {
	name := dns.CanonicalName(t.Hdr.Name)
	if key, ok := k.s.opts.tsigKeys[name]; ok {
		return tsigKeyring{name: key}
	}
	if uk, ok := k.s.opts.updates.u.Key(name); ok {
		return tsigKeyring{name: TSIGKey{Name: uk.Name, Algorithm: uk.Algorithm, Secret: uk.Secret}}
	}
	return nil
}

func (k serverKeys) Generate(msg []byte, t *dns.TSIG) ([]byte, error) {
	return k.key(t).Generate(msg, t)
}
func (k serverKeys) Verify(msg []byte, t *dns.TSIG) error { return k.key(t).Verify(msg, t) }

// acceptMsg is the TCP server's filter of messages: miekg/dns's default,
// which answers UPDATE NOTIMP, but for updates when they are on.
func (s *Server) acceptMsg(dh dns.Header) dns.MsgAcceptAction {
	if s.opts.updates != nil && dh.Bits&(1<<15) == 0 && int(dh.Bits>>11)&0xF == dns.OpcodeUpdate {
		if dh.Qdcount != 1 || int(dh.Ancount)+int(dh.Nscount) > maxUpdateRRs || dh.Arcount > 2 {
			return dns.MsgReject
		}
		return dns.MsgAccept
	}
	return dns.DefaultMsgAcceptFunc(dh)
}

// isUpdatePacket reports whether pkt is an UPDATE request the server
// handles (WithUpdates).
func (s *Server) isUpdatePacket(pkt []byte) bool {
	return s.opts.updates != nil && len(pkt) >= headerSize && pkt[2]&0x80 == 0 && int(pkt[2]>>3)&0xF == dns.OpcodeUpdate
}

// updateUDP answers the UPDATE in pkt from a UDP client at from, off the
// worker: the update waits on the database. When too many are under way
// it is dropped, and the client retries.
func (s *Server) updateUDP(conn *net.UDPConn, pkt []byte, from *net.UDPAddr) {
	select {
	case s.opts.updates.busy <- struct{}{}:
	default:
		return
	}
	pkt = slices.Clone(pkt)
	go func() {
		defer func() { <-s.opts.updates.busy }()
		out := s.answerUpdatePacket(pkt, from.AddrPort().Addr().Unmap())
		if out == nil {
			return
		}
		if _, err := conn.WriteToUDP(out, from); err != nil {
			s.logger.Debug("dns udp write", "err", err)
		}
	}()
}

// answerUpdatePacket answers the raw UPDATE pkt (over UDP).
func (s *Server) answerUpdatePacket(pkt []byte, from netip.Addr) []byte {
	req := new(dns.Msg)
	if err := req.Unpack(pkt); err != nil {
		out, _ := formErr(pkt).Pack()
		return out
	}
	var status error
	if req.IsTsig() != nil {
		status = dns.TsigVerifyWithProvider(slices.Clone(pkt), s.tsigProvider(), "", false)
	}
	resp := s.handleUpdate(req, status, from)
	if resp.IsTsig() != nil {
		out, err := s.packSigned(resp, req, nil)
		if err == nil {
			return out
		}
		s.logger.Debug("dns: sign update answer", "err", err)
		resp = new(dns.Msg).SetRcode(req, dns.RcodeServerFailure)
	}
	out, err := resp.Pack()
	if err != nil {
		out, _ = formErr(pkt).Pack()
	}
	return out
}

// serveUpdate answers an UPDATE over TCP (the ResponseWriter has verified
// its signature and signs the answer).
func (s *Server) serveUpdate(w dns.ResponseWriter, req *dns.Msg) {
	resp := s.handleUpdate(req, w.TsigStatus(), addrOf(w.RemoteAddr()))
	if err := w.WriteMsg(resp); err != nil {
		s.logger.Debug("dns write failed", "err", err)
	}
}

// handleUpdate decides an UPDATE whose signature verified with status (a
// nil status of an unsigned message means nothing) and returns the answer:
// the zone section and the RCODE (RFC 2136 3.8), signed when the request
// was (RFC 8945 5.3).
func (s *Server) handleUpdate(req *dns.Msg, status error, from netip.Addr) (resp *dns.Msg) {
	resp = new(dns.Msg).SetReply(req)
	t := req.IsTsig()
	defer func() {
		// Nothing a client sends may stop the server: a fault is logged
		// and answered SERVFAIL (tests send every malformed update).
		if r := recover(); r != nil {
			s.logger.Error("dns: update panicked", "client", from, "panic", fmt.Sprint(r))
			resp = new(dns.Msg).SetRcode(req, dns.RcodeServerFailure)
		}
	}()
	if len(req.Question) != 1 || req.Question[0].Qtype != dns.TypeSOA || req.Question[0].Qclass != dns.ClassINET {
		resp.Rcode = dns.RcodeFormatError
		return resp
	}
	if t == nil {
		s.logUpdate(req, from, "", "not signed", dns.RcodeRefused)
		resp.Rcode = dns.RcodeRefused
		return resp
	}
	keyName := dns.CanonicalName(t.Hdr.Name)
	if code := tsigErrorCode(status); code != 0 {
		s.logUpdate(req, from, keyName, tsigReason[code], dns.RcodeNotAuth)
		signReply(resp, req, code)
		return resp
	}
	signReply(resp, req, 0)
	key, ok := s.opts.updates.u.Key(keyName)
	if !ok {
		// A key of the server's (transfers, NOTIFY) changes nothing.
		s.logUpdate(req, from, keyName, "not an update key", dns.RcodeRefused)
		resp.Rcode = dns.RcodeRefused
		return resp
	}
	zoneName := dns.CanonicalName(req.Question[0].Name)
	if !s.servesZone(zoneName) {
		s.logUpdate(req, from, keyName, "not a zone of this server", dns.RcodeNotAuth)
		resp.Rcode = dns.RcodeNotAuth
		return resp
	}
	ctx, cancel := context.WithTimeout(s.stop, updateTimeout)
	defer cancel()
	version, err := s.opts.updates.u.Apply(ctx, key, zoneName, req.Answer, req.Ns)
	resp.Rcode = updateRcode(err)
	if err == nil {
		// Answer once this server serves the change: a client that asks
		// next (an ACME CA told to validate at once) finds it.
		s.awaitVersion(ctx, version)
	}
	if err != nil {
		if resp.Rcode == dns.RcodeServerFailure {
			s.logger.Error("dns: update failed", "client", from, "key", keyName, "zone", zoneName, "err", err)
		} else {
			s.logUpdate(req, from, keyName, err.Error(), resp.Rcode)
		}
	}
	return resp
}

// awaitVersion waits, at most updateServed, until the published snapshot
// holds zone version v (the change's, applied at the Poke its commit
// made; or at the next poll of a server in another process).
func (s *Server) awaitVersion(ctx context.Context, v int64) {
	ctx, cancel := context.WithTimeout(ctx, updateServed)
	defer cancel()
	for s.Snapshot().versions.Zone < v {
		select {
		case <-ctx.Done():
			return
		case <-time.After(2 * time.Millisecond):
		}
	}
}

// servesZone reports whether name is the origin of a zone served, or a
// registered domain inside one (clients that take the domain for the
// zone).
func (s *Server) servesZone(name string) bool {
	snap := s.Snapshot()
	if _, ok := snap.zones[name]; ok {
		return true
	}
	if i := strings.IndexByte(name, '.'); i > 0 && i < len(name)-1 {
		_, ok := snap.zones[name[i+1:]]
		return ok
	}
	return false
}

// updateRcode is the RCODE that answers an update that ended with err.
func updateRcode(err error) int {
	if err == nil {
		return dns.RcodeSuccess
	}
	var ue *zone.UpdateError
	if errors.As(err, &ue) {
		return ue.Rcode
	}
	var ae *apperr.Error
	if errors.As(err, &ae) && ae.Code != apperr.Internal {
		return dns.RcodeRefused
	}
	return dns.RcodeServerFailure
}

// logUpdate logs a refused update, through the limiter of refusals.
func (s *Server) logUpdate(req *dns.Msg, from netip.Addr, key, reason string, rcode int) {
	ok, suppressed := s.refusalLog.allow()
	if !ok {
		return
	}
	attrs := []any{"client", from, "key", key, "rcode", dns.RcodeToString[rcode], "reason", reason}
	if len(req.Question) > 0 {
		attrs = append(attrs, "zone", req.Question[0].Name)
	}
	if suppressed > 0 {
		attrs = append(attrs, "not_logged_before", suppressed)
	}
	s.logger.Info("dns: update refused", attrs...)
}
