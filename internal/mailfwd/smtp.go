package mailfwd

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/mail"
	"time"

	"github.com/emersion/go-smtp"

	"github.com/nameport/nameport/internal/ratelimit"
)

// Server defaults.
const (
	// DefaultMaxSize is the largest message taken (--mail-max-size).
	DefaultMaxSize = 25 << 20
	// MaxRecipients is how many recipients one message may have; more are
	// refused with 452, as RFC 5321 4.5.3.1.8 allows.
	MaxRecipients = 100
)

// ServerOptions configure the inbound SMTP server.
type ServerOptions struct {
	Addr    string      // --mail-listen
	TLS     *tls.Config // STARTTLS when set
	MaxSize int64       // DefaultMaxSize when 0
	// Hostname is the name in the greeting (--mail-host, or "localhost").
	Hostname string
	// ClientRate is how many messages one client network (an IPv4
	// address, an IPv6 /64) may send a minute; DomainRate how many a
	// forwarding domain may receive (counted per recipient). Over either,
	// mail is deferred with 451 4.7.1. 0: no limit.
	ClientRate, DomainRate int
	Logger                 *slog.Logger
	Now                    func() time.Time
}

// Server is the inbound SMTP server of the mail role.
type Server struct {
	smtp     *smtp.Server
	listener net.Listener
	logger   *slog.Logger
}

// NewServer returns a server that hands what it accepts to f.
func NewServer(f *Forwarder, opts ServerOptions) *Server {
	if opts.MaxSize <= 0 {
		opts.MaxSize = DefaultMaxSize
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Hostname == "" {
		opts.Hostname = "localhost"
	}
	limits := ratelimit.New(time.Minute, opts.Now)
	s := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		return &session{f: f, conn: c, opts: &opts, limits: limits}, nil
	}))
	s.Addr = opts.Addr
	s.Domain = opts.Hostname
	s.TLSConfig = opts.TLS
	s.MaxMessageBytes = opts.MaxSize
	s.MaxRecipients = MaxRecipients
	s.ReadTimeout = 5 * time.Minute
	s.WriteTimeout = time.Minute
	s.ErrorLog = slogAdapter{opts.Logger}
	return &Server{smtp: s, logger: opts.Logger}
}

// Start listens and serves in the background.
func (s *Server) Start() error {
	l, err := net.Listen("tcp", s.smtp.Addr)
	if err != nil {
		return fmt.Errorf("mailfwd: listen %s: %w", s.smtp.Addr, err)
	}
	s.listener = l
	go func() {
		if err := s.smtp.Serve(l); err != nil && !errors.Is(err, smtp.ErrServerClosed) {
			s.logger.Error("smtp server stopped", "err", err)
		}
	}()
	return nil
}

// Addr is where the server listens (after Start).
func (s *Server) Addr() string { return s.listener.Addr().String() }

// Shutdown stops taking connections and waits for those open to end.
func (s *Server) Shutdown(ctx context.Context) error { return s.smtp.Shutdown(ctx) }

type slogAdapter struct{ l *slog.Logger }

func (a slogAdapter) Printf(format string, v ...any) { a.l.Warn(fmt.Sprintf(format, v...)) }
func (a slogAdapter) Println(v ...any)               { a.l.Warn(fmt.Sprint(v...)) }

// session is one SMTP conversation.
type session struct {
	f      *Forwarder
	conn   *smtp.Conn
	opts   *ServerOptions
	limits *ratelimit.Limiter

	from    string
	targets []*Target
	// logged: a refused recipient of this transaction is in its domain's
	// log. One line a transaction, so that a client trying a hundred
	// addresses a message (or a dictionary of them) writes no more than
	// the MAIL commands its rate limit lets through.
	logged bool
}

func smtpError(r *Refusal) error {
	countRefusal(r.Reason)
	return &smtp.SMTPError{Code: r.Code, EnhancedCode: smtp.EnhancedCode(r.Enhanced), Message: r.Message}
}

var (
	refuseClientRate = &Refusal{451, [3]int{4, 7, 1}, "Too many messages from your network; try again later", "rate"}
	refuseDomainRate = &Refusal{451, [3]int{4, 7, 1}, "Too many messages for this domain; try again later", "rate"}
)

var errTemporary = &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "Temporary failure, try again later"}

func (s *session) Reset() {
	s.from, s.targets, s.logged = "", nil, false
}

func (s *session) Logout() error { return nil }

func (s *session) Mail(from string, opts *smtp.MailOptions) error {
	if from != "" {
		if a, err := mail.ParseAddress(from); err != nil || a.Address != from || !plainAddress(from) {
			return smtpError(&Refusal{553, [3]int{5, 1, 7}, "The sender address is not valid", "sender"})
		}
	}
	if opts != nil && opts.Size > s.opts.MaxSize {
		return smtpError(&Refusal{552, [3]int{5, 3, 4}, fmt.Sprintf("Messages are limited to %d bytes", s.opts.MaxSize), "size"})
	}
	if s.opts.ClientRate > 0 {
		host, _, _ := net.SplitHostPort(s.conn.Conn().RemoteAddr().String())
		if !s.limits.Allow("client "+ratelimit.ClientNetwork(host), s.opts.ClientRate).Allowed {
			return smtpError(refuseClientRate)
		}
	}
	s.from = from
	return nil
}

func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	t, err := s.f.Resolve(context.Background(), to)
	var refusal *Refusal
	if errors.As(err, &refusal) {
		var unknown *unknownAlias
		if !s.logged && errors.As(err, &unknown) {
			s.f.logRefusal(context.Background(), s.from, to, unknown)
			s.logged = true
		}
		return smtpError(refusal)
	}
	if err != nil {
		s.opts.Logger.Error("mail: resolve a recipient", "rcpt", to, "err", err)
		return errTemporary
	}
	if s.opts.DomainRate > 0 && !s.limits.Allow(fmt.Sprint("domain ", t.DomainID), s.opts.DomainRate).Allowed {
		return smtpError(refuseDomainRate)
	}
	s.targets = append(s.targets, t)
	return nil
}

func (s *session) Data(r io.Reader) error {
	data, err := io.ReadAll(r)
	if err != nil {
		if errors.Is(err, smtp.ErrDataTooLarge) {
			countRefusal("size")
		}
		return err
	}
	env := Envelope{From: s.from, Helo: s.conn.Hostname(), Remote: s.conn.Conn().RemoteAddr().String(), Targets: s.targets, Data: data}
	if err := s.f.Accept(context.Background(), env); err != nil {
		s.opts.Logger.Error("mail: accept a message", "err", err)
		return errTemporary
	}
	return nil
}
