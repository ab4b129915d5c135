package notify

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"fmt"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"net/smtp"
	"net/url"
	"strings"
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
}

// parseSMTPURL reads smtp://[user[:pass]@]host[:port] (port 587 by default,
// STARTTLS when offered) or smtps://… (port 465, TLS from the start).
func parseSMTPURL(raw string) (*smtpServer, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("notify: --smtp-url: %w", err)
	}
	s := &smtpServer{host: u.Hostname(), port: u.Port(), dialTimeout: 15 * time.Second, totalTimeout: time.Minute}
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

// send delivers msg to one recipient in one SMTP session, greeting the
// server as helo, with envelope sender envelopeFrom ("" is the null sender:
// net/smtp writes MAIL FROM:<>). Server replies come back wrapped as the
// *textproto.Error net/smtp returns, so callers can read their code.
func (s *smtpServer) send(ctx context.Context, helo, envelopeFrom, to string, msg []byte) error {
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
		return fmt.Errorf("smtp: connect %s: %w", addr, err)
	}
	deadline := time.Now().Add(s.totalTimeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	_ = conn.SetDeadline(deadline)

	c, err := smtp.NewClient(conn, s.host)
	if err != nil {
		conn.Close()
		return fmt.Errorf("smtp: greeting from %s: %w", addr, err)
	}
	defer c.Close()
	if err := c.Hello(helo); err != nil {
		return fmt.Errorf("smtp: hello: %w", err)
	}
	if !s.implicitTLS {
		if ok, _ := c.Extension("STARTTLS"); ok {
			if err := c.StartTLS(s.tlsFor()); err != nil {
				return fmt.Errorf("smtp: starttls: %w", err)
			}
		}
	}
	if s.username != "" {
		if ok, _ := c.Extension("AUTH"); !ok {
			return fmt.Errorf("smtp: %s does not offer AUTH, but --smtp-url has credentials", addr)
		}
		// PlainAuth refuses to send the password unencrypted except to localhost.
		if err := c.Auth(smtp.PlainAuth("", s.username, s.password, s.host)); err != nil {
			return fmt.Errorf("smtp: auth: %w", err)
		}
	}
	if err := c.Mail(envelopeFrom); err != nil {
		return fmt.Errorf("smtp: MAIL FROM: %w", err)
	}
	if err := c.Rcpt(to); err != nil {
		return fmt.Errorf("smtp: RCPT TO: %w", err)
	}
	w, err := c.Data()
	if err != nil {
		return fmt.Errorf("smtp: DATA: %w", err)
	}
	if _, err := w.Write(msg); err != nil {
		return fmt.Errorf("smtp: write message: %w", err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("smtp: message refused: %w", err)
	}
	if err := c.Quit(); err != nil {
		return fmt.Errorf("smtp: quit: %w", err)
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
