// Package dnsserver is Nameport's authoritative DNS server. It answers from an
// immutable in-memory snapshot of the zones, swapped atomically when the
// zones change, so no packet ever waits on the database.
//
// The pieces: NewSnapshot (and build, streaming from the database or the
// snapshot file) builds the zones; apply makes the next snapshot from a
// change, sharing every domain it does not touch (delta.go); Lookup
// answers one question from a snapshot (a pure function); the Server maps
// its results to messages over UDP and TCP, serves zone transfers (AXFR,
// and IXFR from the changes kept) to allowed addresses and keys, sends
// NOTIFY to secondaries on every change, and applies changes when the zone
// or catalog version moves (Watch, Update). Over UDP it can limit its
// answers per client network (rrl.go), so that forged queries cannot turn
// it into an amplifier. With a snapshot file (snapfile.go) it starts from
// a cache of the zones in the data directory rather than reading every
// record from the database.
package dnsserver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/miekg/dns"
	"golang.org/x/net/ipv4"
	"golang.org/x/net/ipv6"

	"github.com/nameport/nameport/internal/connlimit"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dnssec"
	"github.com/nameport/nameport/internal/zone"
)

// Option configures a Server.
type Option func(*options)

type options struct {
	allowTransfer []netip.Prefix
	transferKeys  map[string]bool // canonical key names
	tsigKeys      tsigKeyring
	notify        []notifyTarget
	maxUDP        uint16
	udpWorkers    int
	rateLimit     RateLimit
	tcpLimits     connlimit.Limits
	tcpIdle       time.Duration
	tcpLifetime   time.Duration
	catalogZone   string // lower case, fully qualified; "": none (WithCatalogZone)
	history       int    // changes kept for IXFR
	hosts         []zoneHost
	snapshotFile  string    // "": none (WithSnapshotFile)
	keys          KeySource // nil: unsigned (WithDNSSEC)
	updates       *updater  // nil: UPDATE is NOTIMP (WithUpdates)
	// sigValidity and sigRefresh: WithSignatureTimes; zero: the defaults.
	sigValidity, sigRefresh time.Duration
}

// Defaults of DNS over TCP (RFC 7766): a new connection has tcpReadTimeout
// to send its first query, then tcpIdleTimeout between queries; it is
// closed after tcpMaxQueries queries or tcpLifetime, whichever comes first,
// so that no client holds a connection for ever by trickling queries.
const (
	tcpReadTimeout = 5 * time.Second
	tcpIdleTimeout = 5 * time.Second
	tcpMaxQueries  = 128
	tcpLifetime    = 2 * time.Minute
)

// WithTCPLimits bounds the TCP connections open at once, in all and per
// client (IPv4 address, IPv6 /64); more are closed at accept. 0: no limit.
func WithTCPLimits(l connlimit.Limits) Option {
	return func(o *options) { o.tcpLimits = l }
}

// WithTCPIdleTimeout closes a TCP connection idle for d between queries
// (default 5 s; RFC 7766 asks for a few seconds).
func WithTCPIdleTimeout(d time.Duration) Option {
	return func(o *options) {
		if d > 0 {
			o.tcpIdle = d
		}
	}
}

// WithTCPLifetime closes a TCP connection once it is d old, at its next
// read (default 2 minutes); a transfer under way finishes first.
func WithTCPLifetime(d time.Duration) Option {
	return func(o *options) {
		if d > 0 {
			o.tcpLifetime = d
		}
	}
}

// WithTransfer allows zone transfers (AXFR, and IXFR answered as AXFR) over
// TCP from addresses inside the prefixes; others get REFUSED. None by
// default.
func WithTransfer(allow ...netip.Prefix) Option {
	return func(o *options) { o.allowTransfer = append(o.allowTransfer, allow...) }
}

// WithNotify sends NOTIFY (RFC 1996) for every zone to each target
// ("192.0.2.53:53", or a host without a port for 53) whenever a reload
// changes the zones' serial.
func WithNotify(targets ...string) Option { return WithSignedNotify("", targets...) }

// WithSignedNotify is WithNotify with each NOTIFY signed with the key
// named key (one of WithTSIGKeys; "": unsigned).
func WithSignedNotify(key string, targets ...string) Option {
	return func(o *options) {
		if key != "" {
			key = dns.CanonicalName(key)
		}
		for _, t := range targets {
			if _, _, err := net.SplitHostPort(t); err != nil {
				t = net.JoinHostPort(t, "53")
			}
			o.notify = append(o.notify, notifyTarget{addr: t, key: key})
		}
	}
}

// notifyTarget is a secondary told of changes, and the key that signs what
// it is told ("": none).
type notifyTarget struct{ addr, key string }

// WithHistory keeps the last n changes for IXFR (default DefaultHistory);
// a secondary further behind gets the whole zone. 0 keeps none.
func WithHistory(n int) Option {
	return func(o *options) { o.history = max(0, n) }
}

// WithMaxUDPSize sets the largest answer sent over UDP to EDNS clients, and
// the size advertised: 512 to 4096, default 1232.
func WithMaxUDPSize(n int) Option {
	return func(o *options) { o.maxUDP = uint16(max(dns.MinMsgSize, min(n, 4096))) }
}

// Server answers DNS queries over UDP and TCP.
type Server struct {
	addr     string
	opts     options
	snapshot atomic.Pointer[Snapshot]
	rrl      *rateLimiter // nil: no response rate limiting
	logger   *slog.Logger
	// refusalLog bounds the log lines refused transfers write.
	refusalLog *logLimiter

	udpConn  *net.UDPConn
	udpDone  sync.WaitGroup
	closing  atomic.Bool
	tcp      *dns.Server
	tcpConns *connlimit.Listener

	reloadMu sync.Mutex
	poke     chan struct{}
	// file is the snapshot file (WithSnapshotFile; nil: none), and
	// fromFile says the zones were first loaded from it.
	file     *snapshotFile
	fromFile bool
	// stop ends background work (NOTIFY retries) at Shutdown.
	stop     context.Context
	stopFunc context.CancelFunc

	// DNSSEC (sign.go): the keys of the zones, by origin, and the
	// signatures made.
	keysMu   sync.Mutex
	zoneKeys map[string]*dnssec.ZoneKeys
	sigs     sigCache
}

// New returns a server for addr ("127.0.0.1:5353") with no zones loaded.
func New(addr string, logger *slog.Logger, opts ...Option) *Server {
	s := &Server{addr: addr, logger: logger, poke: make(chan struct{}, 1),
		opts: options{maxUDP: ednsSize, udpWorkers: runtime.GOMAXPROCS(0), tcpIdle: tcpIdleTimeout,
			tcpLifetime: tcpLifetime, history: DefaultHistory}}
	for _, o := range opts {
		o(&s.opts)
	}
	s.sigs.validity, s.sigs.refresh = s.opts.sigValidity, s.opts.sigRefresh
	s.rrl = newRateLimiter(s.opts.rateLimit)
	s.refusalLog = newLogLimiter(nil)
	if s.opts.snapshotFile != "" {
		s.file = &snapshotFile{path: s.opts.snapshotFile}
	}
	s.stop, s.stopFunc = context.WithCancel(context.Background())
	return s
}

// Publish makes snap the zones the server answers from, signed with
// WithDNSSEC's keys (when the key source fails, unsigned: Publish is for
// tests and tools).
func (s *Server) Publish(snap *Snapshot) {
	if err := s.withKeys(context.Background(), snap, nil); err != nil {
		s.logger.Warn("dns: zones published unsigned", "err", err)
	}
	s.snapshot.Store(snap)
}

// Ready reports whether a snapshot has been published.
func (s *Server) Ready() bool { return s.snapshot.Load() != nil }

// Snapshot returns the published snapshot (an empty one before Publish).
func (s *Server) Snapshot() *Snapshot {
	if snap := s.snapshot.Load(); snap != nil {
		return snap
	}
	return emptySnapshot
}

var emptySnapshot = &Snapshot{}

// Start listens on UDP and TCP and serves until Shutdown.
func (s *Server) Start() error {
	udpAddr, err := net.ResolveUDPAddr("udp", s.addr)
	if err != nil {
		return fmt.Errorf("dnsserver: udp address %s: %w", s.addr, err)
	}
	pc, err := net.ListenUDP("udp", udpAddr)
	if err != nil {
		return fmt.Errorf("dnsserver: listen udp %s: %w", s.addr, err)
	}
	// The default 208 KB receive buffer overflows under bursts (measured:
	// queries lost under dnsperf while NSD, with 2 MB, lost none). The
	// kernel caps the size at net.core.rmem_max; a refusal is harmless.
	_ = pc.SetReadBuffer(4 << 20)
	_ = pc.SetWriteBuffer(1 << 20)
	l, err := net.Listen("tcp", s.addr)
	if err != nil {
		pc.Close()
		return fmt.Errorf("dnsserver: listen tcp %s: %w", s.addr, err)
	}
	s.udpConn = pc
	for range s.opts.udpWorkers {
		s.udpDone.Add(1)
		go s.serveUDP(pc)
	}
	s.tcpConns = connlimit.Wrap(l, s.opts.tcpLimits)
	started := make(chan struct{})
	idle, lifetime := s.opts.tcpIdle, s.opts.tcpLifetime
	s.tcp = &dns.Server{Listener: s.tcpConns, Handler: s, ReadTimeout: tcpReadTimeout,
		// Always set, even without keys, so that a signed request is
		// verified (and refused BADKEY) rather than taken as unsigned.
		// miekg/dns looks for a TSIG record only then: unsigned queries
		// cost nothing more.
		TsigProvider: s.tsigProvider(),
		// UPDATE passes when WithUpdates is on (update.go).
		MsgAcceptFunc: s.acceptMsg,
		IdleTimeout:   func() time.Duration { return idle }, MaxTCPQueries: tcpMaxQueries,
		// Called once per connection, as it starts.
		DecorateReader: func(r dns.Reader) dns.Reader {
			return &tcpReader{Reader: r, deadline: time.Now().Add(lifetime)}
		},
		NotifyStartedFunc: func() { close(started) }}
	failed := make(chan error, 1)
	go func() {
		if err := s.tcp.ActivateAndServe(); err != nil {
			s.logger.Error("dns tcp server stopped", "err", err)
			failed <- err
		}
	}()
	select { // wait, so that Shutdown finds it running
	case <-started:
	case err := <-failed:
		s.closing.Store(true)
		pc.Close()
		return fmt.Errorf("dnsserver: serve tcp %s: %w", s.addr, err)
	}
	s.logger.Info("dns listening", "addr", s.addr)
	return nil
}

// tcpReader ends a TCP connection on a message too short to hold a DNS
// header (RFC 7766: a zero-length message is an error; miekg/dns would
// read it as a query it cannot parse, answer nothing and wait for the next,
// so that a client sending two zero bytes every few seconds held the
// connection for ever), and at the connection's deadline.
type tcpReader struct {
	dns.Reader
	deadline time.Time
}

var (
	errShortMessage = errors.New("dnsserver: tcp message shorter than a header")
	errTCPLifetime  = errors.New("dnsserver: tcp connection lived its time")
)

func (r *tcpReader) ReadTCP(conn net.Conn, timeout time.Duration) ([]byte, error) {
	left := time.Until(r.deadline)
	if left <= 0 {
		return nil, errTCPLifetime
	}
	m, err := r.Reader.ReadTCP(conn, min(timeout, left))
	if err == nil && len(m) < headerSize {
		return nil, errShortMessage
	}
	return m, err
}

// headerSize is the length of a DNS message header.
const headerSize = 12

// TCPConns reports the TCP connections open and refused (zero before Start).
func (s *Server) TCPConns() connlimit.Stats {
	if s.tcpConns == nil {
		return connlimit.Stats{}
	}
	return s.tcpConns.Stats()
}

// udpBatch is how many packets a UDP worker reads (recvmmsg) and writes
// (sendmmsg) per system call on Linux; system calls, not lookups, are most
// of the cost of answering over UDP.
const udpBatch = 32

// batchConn reads and writes packets in batches; ipv4.Message and
// ipv6.Message are the same type, so one loop serves both families.
type batchConn interface {
	ReadBatch(ms []ipv4.Message, flags int) (int, error)
	WriteBatch(ms []ipv4.Message, flags int) (int, error)
}

// serveUDP is one of the UDP workers: each reads a batch of packets,
// answers them and writes the answers, reusing its buffers.
func (s *Server) serveUDP(conn *net.UDPConn) {
	defer s.udpDone.Done()
	var pc batchConn = ipv4.NewPacketConn(conn)
	if a, ok := conn.LocalAddr().(*net.UDPAddr); ok && a.IP.To4() == nil {
		pc = ipv6.NewPacketConn(conn)
	}
	in := make([]ipv4.Message, udpBatch)
	out := make([]ipv4.Message, udpBatch)
	answers := make([][]byte, udpBatch)
	for i := range in {
		in[i].Buffers = [][]byte{make([]byte, dns.MaxMsgSize)}
		out[i].Buffers = make([][]byte, 1)
		answers[i] = make([]byte, 0, dns.MaxMsgSize)
	}
	for {
		n, err := pc.ReadBatch(in, 0)
		if err != nil {
			if s.closing.Load() || errors.Is(err, net.ErrClosed) {
				return
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			s.logger.Debug("dns udp read", "err", err)
			continue
		}
		snap := s.Snapshot()
		replies := 0
		var now int64 // read by the rate limiter when it first needs it
		for i := range n {
			from, ok := in[i].Addr.(*net.UDPAddr)
			if !ok {
				continue
			}
			if s.isUpdatePacket(in[i].Buffers[0][:in[i].N]) {
				s.updateUDP(conn, in[i].Buffers[0][:in[i].N], from) // update.go
				continue
			}
			client := from.AddrPort().Addr().Unmap()
			resp := s.answerPacket(snap, in[i].Buffers[0][:in[i].N], answers[i], client, false)
			if resp != nil && s.rrl != nil {
				if kind := classify(resp); s.rrl.limits(kind) {
					resp = s.rrl.limit(resp, kind, client, &now)
				}
			}
			if resp == nil {
				continue
			}
			out[replies].Buffers[0], out[replies].Addr = resp, from
			replies++
		}
		for sent := 0; sent < replies; {
			m, err := pc.WriteBatch(out[sent:replies], 0)
			if err != nil {
				s.logger.Debug("dns udp write", "err", err)
				break
			}
			sent += m
		}
	}
}

// Shutdown stops both listeners, letting in-flight queries finish.
func (s *Server) Shutdown(ctx context.Context) error {
	s.stopFunc()
	var errs []error
	if s.udpConn != nil {
		s.closing.Store(true)
		// Wake the readers; each finishes the packet in hand, then returns.
		_ = s.udpConn.SetReadDeadline(time.Now())
		done := make(chan struct{})
		go func() { s.udpDone.Wait(); close(done) }()
		select {
		case <-done:
		case <-ctx.Done():
			errs = append(errs, ctx.Err())
		}
		errs = append(errs, s.udpConn.Close())
	}
	if s.tcp != nil {
		errs = append(errs, s.tcp.ShutdownContext(ctx))
	}
	if s.file != nil {
		// A snapshot file read from the database stops (s.stop); one
		// already read is written out, so that the next start finds it.
		errs = append(errs, s.file.close(ctx))
	}
	return errors.Join(errs...)
}

// ServeDNS answers one query that miekg/dns has read (TCP, and any caller
// that holds a dns.ResponseWriter). A name outside every zone gets REFUSED:
// the server is authoritative only and never recurses; and it always
// answers, never drops (RFC 8906). A signed query gets a signed answer, or
// NOTAUTH when its signature fails (signedAnswer).
func (s *Server) ServeDNS(w dns.ResponseWriter, req *dns.Msg) {
	if req.Opcode == dns.OpcodeUpdate && s.opts.updates != nil {
		s.serveUpdate(w, req) // update.go
		return
	}
	snap := s.Snapshot()
	tcp := isTCP(w.LocalAddr())
	if isTransfer(req) {
		s.transfer(w, req, snap, tcp)
		return
	}
	resp := reply(snap, req, s.opts.maxUDP)
	if s.opts.keys != nil && dnssecOK(req) {
		s.signAnswer(snap, req, resp)
	}
	limit := dns.MaxMsgSize
	if !tcp {
		limit = udpLimit(req, s.opts.maxUDP)
	}
	if req.IsTsig() != nil {
		// Signed by the ResponseWriter as it packs resp.
		resp = s.signedAnswer(resp, req, w.TsigStatus(), addrOf(w.RemoteAddr()), limit)
	} else {
		fit(resp, limit)
	}
	if err := w.WriteMsg(resp); err != nil {
		s.logger.Debug("dns write failed", "err", err)
	}
}

func isTransfer(req *dns.Msg) bool {
	return req.Opcode == dns.OpcodeQuery && len(req.Question) == 1 &&
		(req.Question[0].Qtype == dns.TypeAXFR || req.Question[0].Qtype == dns.TypeIXFR)
}

func isTCP(a net.Addr) bool {
	_, ok := a.(*net.TCPAddr)
	return ok
}

// Reload reads every zone from d, publishes them, and sends NOTIFY when
// the serial changed. It starts the server's data, and is the fallback
// when the change journal cannot tell what changed (see Update). With
// WithSnapshotFile, the first Reload starts from the file instead when it
// is usable, brought up to date from the journal before it is published;
// and every full load writes the file again.
func (s *Server) Reload(ctx context.Context, d *db.DB) error {
	s.reloadMu.Lock()
	defer s.reloadMu.Unlock()
	if s.file != nil && s.snapshot.Load() == nil && s.startFromFile(ctx, d) {
		return nil
	}
	return s.reload(ctx, d)
}

func (s *Server) reload(ctx context.Context, d *db.DB) error {
	// The snapshot file is encoded as the zones stream in (a few per cent
	// of the load), so that the database is read once; it is written out
	// after the snapshot is published.
	enc := s.fileEncoder(ctx, d)
	snap, skipped, err := build(databaseSource(ctx, d, time.Now()), enc)
	if err != nil {
		if enc != nil {
			s.file.release(nil)
		}
		return fmt.Errorf("dnsserver: reload: %w", err)
	}
	s.addCatalog(snap, s.Snapshot())
	s.addHosts(snap, emptySnapshot)
	if err := s.withKeys(ctx, snap, snap.origins()); err != nil {
		if enc != nil {
			s.file.release(nil)
		}
		return fmt.Errorf("dnsserver: reload: %w", err)
	}
	s.publish(snap, skipped)
	if enc != nil {
		s.writeFile(enc)
	}
	s.logger.Info("dns zones loaded", "zones", len(snap.zones), "serial", snap.serial)
	return nil
}

// Update applies the changes committed since the published snapshot, read
// from the change journal, as a delta: only the domains they touch are
// built again. When the journal cannot say (see zone.ErrLoadAll) it loads
// everything, as Reload.
func (s *Server) Update(ctx context.Context, d *db.DB) error {
	s.reloadMu.Lock()
	defer s.reloadMu.Unlock()
	prev := s.Snapshot()
	if !prev.loaded {
		return s.reload(ctx, d)
	}
	snap, c, skipped, err := s.catchUp(ctx, d, prev)
	if errors.Is(err, zone.ErrLoadAll) {
		return s.reload(ctx, d)
	}
	if err == nil {
		err = s.withKeys(ctx, snap, c.Rekeyed)
	}
	if err != nil {
		return fmt.Errorf("dnsserver: update: %w", err)
	}
	s.publish(snap, skipped)
	s.logger.Debug("dns zones updated", "domains", len(c.Domains), "serial", snap.serial)
	return nil
}

// catchUp returns the snapshot that follows prev once the changes
// committed since prev's versions (read from the journal: c) are applied,
// without publishing it; zone.ErrLoadAll when the journal cannot say.
func (s *Server) catchUp(ctx context.Context, d *db.DB, prev *Snapshot) (snap *Snapshot, c *zone.Changes, skipped []error, err error) {
	var served []string
	for origin, z := range prev.zones {
		if !z.catalog {
			served = append(served, origin)
		}
	}
	c, err = zone.LoadChanges(ctx, d, prev.versions, served, time.Now())
	if err != nil {
		return nil, nil, nil, err
	}
	snap, skipped = prev.apply(c, s.opts.history)
	if c.Zones != nil {
		// Drop the catalog zone carried over: addCatalog puts it back,
		// the same one if it lists the same zones.
		if name := s.opts.catalogZone; name != "" {
			delete(snap.zones, name)
		}
		s.addCatalog(snap, prev)
		s.addHosts(snap, prev)
	}
	return snap, c, skipped, nil
}

// addCatalog adds the catalog zone (WithCatalogZone) to snap, a full load:
// prev's when it lists the same zones, so that its serial moves only when
// they change and secondaries transfer it only then.
func (s *Server) addCatalog(snap, prev *Snapshot) {
	name := s.opts.catalogZone
	if name == "" {
		return
	}
	members := snap.Zones()
	if old := prev.zones[name]; old != nil && slices.Equal(prev.catalogMembers, members) {
		snap.zones[name], snap.catalogMembers = old, prev.catalogMembers
		return
	}
	z := newCatalogZone(name, members, snap.serial)
	z.catalog = true
	snap.zones[name], snap.catalogMembers = z, members
}

// publish makes snap the served snapshot, logs the records it left out,
// and sends NOTIFY when the serial moved.
func (s *Server) publish(snap *Snapshot, skipped []error) {
	for _, err := range skipped {
		s.logger.Warn("dns: record left out of the zones", "err", err)
	}
	prev := s.snapshot.Swap(snap)
	if prev == nil {
		prev = emptySnapshot
	}
	s.notifyAll(snap, prev)
}

// Poke makes Watch check for changes now rather than at its next tick; the
// record service calls it after a change in this process.
func (s *Server) Poke() {
	select {
	case s.poke <- struct{}{}:
	default:
	}
}

// Watch updates the zones whenever the zone or catalog version in d moves,
// checking every interval (--dns-poll-interval; 500 ms when not positive)
// and whenever poked, and
// when a served domain expires, until ctx ends.
func (s *Server) Watch(ctx context.Context, d *db.DB, interval time.Duration) {
	if interval <= 0 {
		interval = 500 * time.Millisecond
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-s.poke:
		}
		if err := s.checkForChanges(ctx, d); err != nil && ctx.Err() == nil {
			s.logger.Warn("dns: check for zone changes", "err", err)
		}
		s.refreshFile(d)
	}
}

func (s *Server) checkForChanges(ctx context.Context, d *db.DB) error {
	snap := s.Snapshot()
	if now := time.Now(); !snap.nextExpiry.IsZero() && !now.Before(snap.nextExpiry) {
		// A domain left DNS by the clock alone: record that as a change, so
		// that the serial moves on every node and secondaries hear of it.
		// If the note fails, load everything: the domain must go.
		if err := zone.NoteExpiry(ctx, d, snap.nextExpiry, now); err != nil {
			s.logger.Warn("dns: note domain expiry", "err", err)
			return s.Reload(ctx, d)
		}
		return s.Update(ctx, d)
	}
	v, err := zone.ReadVersions(ctx, d.Bun)
	if err != nil {
		return err
	}
	if snap.loaded && v == snap.versions {
		return nil
	}
	return s.Update(ctx, d)
}
