package notify

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"net/smtp"
	"net/url"
	"strings"
	"sync"
	"time"
)

// smtpServer is where mail goes out.
type smtpServer struct {
	host, port   string
	username     string
	password     string
	implicitTLS  bool // smtps://
	tlsConfig    *tls.Config
	dialTimeout  time.Duration
	totalTimeout time.Duration

	slots     chan struct{} // one per session in use: at most maxSessions
	mu        sync.Mutex
	idle      map[string][]*session // open sessions by the name they greeted with
	idleCount int
}

// parseSMTPURL reads smtp://[user[:pass]@]host[:port] (port 587 by default,
// STARTTLS when offered) or smtps://… (port 465, TLS from the start).
func parseSMTPURL(raw string) (*smtpServer, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("notify: --smtp-url: %w", err)
	}
	s := &smtpServer{host: u.Hostname(), port: u.Port(), dialTimeout: 15 * time.Second, totalTimeout: time.Minute,
		slots: make(chan struct{}, maxSessions)}
	switch u.Scheme {
	case "smtp":
		if s.port == "" {
			s.port = "587"
		}
	case "smtps":
		s.implicitTLS = true
		if s.port == "" {
			s.port = "465"
		}
	default:
		return nil, fmt.Errorf("notify: --smtp-url %q: want smtp://user:pass@host:port or smtps://…", u.Redacted())
	}
	if s.host == "" {
		return nil, fmt.Errorf("notify: --smtp-url %q: no host", u.Redacted())
	}
	if u.User != nil {
		s.username = u.User.Username()
		s.password, _ = u.User.Password()
	}
	return s, nil
}

func (s *smtpServer) tlsFor() *tls.Config {
	if s.tlsConfig != nil {
		c := s.tlsConfig.Clone()
		if c.ServerName == "" {
			c.ServerName = s.host
		}
		return c
	}
	return &tls.Config{ServerName: s.host, MinVersion: tls.VersionTLS12}
}

// send delivers msg to one recipient, greeting the server as helo, with
// envelope sender envelopeFrom ("" is the null sender: net/smtp writes MAIL
// FROM:<>). It reuses a session left open by an earlier send with the same
// greeting, as MTAs do with their relays: forwarding mail one message after
// another would otherwise pay a connection, a greeting, STARTTLS and AUTH
// for each. Server replies come back wrapped as the *textproto.Error net/smtp
// returns, so callers can read their code.
func (s *smtpServer) send(ctx context.Context, helo, envelopeFrom, to string, msg []byte) error {
	select {
	case s.slots <- struct{}{}:
		defer func() { <-s.slots }()
	case <-ctx.Done():
		return fmt.Errorf("smtp: wait for a session to the relay: %w", ctx.Err())
	}
	if c := s.idleSession(helo); c != nil {
		err := s.transact(ctx, c, envelopeFrom, to, msg)
		if !errors.Is(err, errStaleSession) {
			return s.release(helo, c, err)
		}
		// The relay closed the idle session: a new one below.
		_ = c.c.Close()
	}
	c, err := s.dial(ctx, helo)
	if err != nil {
		return err
	}
	return s.release(helo, c, s.transact(ctx, c, envelopeFrom, to, msg))
}

// maxSessions bounds the sessions open to the relay at once (relays limit
// the connections of one client; a burst of forwarded mail waits its turn
// instead), and sessionIdleTime is how long one waits for its next message
// (well within the five minutes RFC 5321 4.5.3.2 asks servers to wait for
// a command).
const (
	maxSessions     = 20
	sessionIdleTime = 30 * time.Second
)

type session struct {
	conn  net.Conn
	c     *smtp.Client
	since time.Time // idle since
}

// errStaleSession: MAIL failed on a session that sat idle; nothing was sent.
var errStaleSession = errors.New("smtp: idle session no longer usable")

// idleSession takes an open session that greeted as helo, if one is idle.
func (s *smtpServer) idleSession(helo string) *session {
	s.mu.Lock()
	defer s.mu.Unlock()
	for len(s.idle[helo]) > 0 {
		list := s.idle[helo]
		c := list[len(list)-1]
		s.idle[helo] = list[:len(list)-1]
		s.idleCount--
		if time.Since(c.since) < sessionIdleTime {
			return c
		}
		_ = c.conn.Close()
	}
	return nil
}

// release keeps a session open for the next message when its transaction
// succeeded, and closes it otherwise; it returns err.
func (s *smtpServer) release(helo string, c *session, err error) error {
	if err == nil {
		_ = c.conn.SetDeadline(time.Time{})
		c.since = time.Now()
		s.mu.Lock()
		if s.idleCount < maxSessions {
			if s.idle == nil {
				s.idle = map[string][]*session{}
			}
			s.idle[helo] = append(s.idle[helo], c)
			s.idleCount++
			s.mu.Unlock()
			return nil
		}
		s.mu.Unlock()
		_ = c.c.Quit()
		return nil
	}
	_ = c.c.Close()
	return err
}

// dial opens a session: connection, greeting, STARTTLS when offered, AUTH.
func (s *smtpServer) dial(ctx context.Context, helo string) (*session, error) {
	addr := net.JoinHostPort(s.host, s.port)
	dialer := &net.Dialer{Timeout: s.dialTimeout}
	var conn net.Conn
	var err error
	if s.implicitTLS {
		conn, err = (&tls.Dialer{NetDialer: dialer, Config: s.tlsFor()}).DialContext(ctx, "tcp", addr)
	} else {
		conn, err = dialer.DialContext(ctx, "tcp", addr)
	}
	if err != nil {
		return nil, fmt.Errorf("smtp: connect %s: %w", addr, err)
	}
	_ = conn.SetDeadline(s.deadline(ctx))
	c, err := smtp.NewClient(conn, s.host)
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("smtp: greeting from %s: %w", addr, err)
	}
	fail := func(err error) (*session, error) {
		_ = c.Close()
		return nil, err
	}
	if err := c.Hello(helo); err != nil {
		return fail(fmt.Errorf("smtp: hello: %w", err))
	}
	if !s.implicitTLS {
		if ok, _ := c.Extension("STARTTLS"); ok {
			if err := c.StartTLS(s.tlsFor()); err != nil {
				return fail(fmt.Errorf("smtp: starttls: %w", err))
			}
		}
	}
	if s.username != "" {
		if ok, _ := c.Extension("AUTH"); !ok {
			return fail(fmt.Errorf("smtp: %s does not offer AUTH, but --smtp-url has credentials", addr))
		}
		// PlainAuth refuses to send the password unencrypted except to localhost.
		if err := c.Auth(smtp.PlainAuth("", s.username, s.password, s.host)); err != nil {
			return fail(fmt.Errorf("smtp: auth: %w", err))
		}
	}
	return &session{conn: conn, c: c}, nil
}

func (s *smtpServer) deadline(ctx context.Context) time.Time {
	deadline := time.Now().Add(s.totalTimeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	return deadline
}

// transact sends one message on an open session. A MAIL that fails on a
// session that was idle is errStaleSession: the relay may have closed it
// meanwhile, and nothing was sent, so the caller tries a new session.
func (s *smtpServer) transact(ctx context.Context, c *session, envelopeFrom, to string, msg []byte) error {
	_ = c.conn.SetDeadline(s.deadline(ctx))
	if err := c.c.Mail(envelopeFrom); err != nil {
		if !c.since.IsZero() {
			return errStaleSession
		}
		return fmt.Errorf("smtp: MAIL FROM: %w", err)
	}
	if err := c.c.Rcpt(to); err != nil {
		return fmt.Errorf("smtp: RCPT TO: %w", err)
	}
	w, err := c.c.Data()
	if err != nil {
		return fmt.Errorf("smtp: DATA: %w", err)
	}
	if _, err := w.Write(msg); err != nil {
		return fmt.Errorf("smtp: write message: %w", err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("smtp: message refused: %w", err)
	}
	return nil
}

// heloName is the domain of the sender's address, a fair name for
// ourselves; "localhost" when it has none (the null sender).
func heloName(address string) string {
	if _, domain, ok := strings.Cut(address, "@"); ok && domain != "" {
		return domain
	}
	return "localhost"
}

// buildMessage writes an RFC 5322 plain-text message (UTF-8,
// quoted-printable, CRLF line ends).
func buildMessage(from *mail.Address, to recipient, m rendered, jobID int64, now time.Time) []byte {
	var b bytes.Buffer
	header := func(k, v string) { fmt.Fprintf(&b, "%s: %s\r\n", k, v) }
	toAddr := &mail.Address{Name: to.FullName, Address: to.Email}
	var random [6]byte
	_, _ = rand.Read(random[:])
	header("From", from.String())
	header("To", toAddr.String())
	header("Subject", mime.QEncoding.Encode("utf-8", m.Subject))
	if m.ReplyTo != "" {
		header("Reply-To", (&mail.Address{Address: m.ReplyTo}).String())
	}
	header("Date", now.Format(time.RFC1123Z))
	header("Message-ID", fmt.Sprintf("<%d.%s@%s>", jobID, hex.EncodeToString(random[:]), heloName(from.Address)))
	header("MIME-Version", "1.0")
	header("Content-Type", `text/plain; charset="utf-8"`)
	header("Content-Transfer-Encoding", "quoted-printable")
	header("Auto-Submitted", "auto-generated")
	b.WriteString("\r\n")
	qp := quotedprintable.NewWriter(&b)
	_, _ = qp.Write([]byte(strings.ReplaceAll(m.Body, "\n", "\r\n")))
	_ = qp.Close()
	return b.Bytes()
}
