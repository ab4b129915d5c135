// Package mailtest runs a real SMTP server at the edge for tests: it speaks
// just enough SMTP for net/smtp and keeps what it receives.
package mailtest

import (
	"bufio"
	"encoding/base64"
	"io"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"net/textproto"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// Server is a running SMTP server.
type Server struct {
	// Addr is host:port; the SMTP URL is "smtp://" + Addr.
	Addr      string
	offerAuth bool

	mu        sync.Mutex
	rcptReply string            // "" accepts
	rcptFor   map[string]string // replies to RCPT for one address
	auth      []string
	mails     []Mail
	sessions  int                   // connections accepted so far
	open      map[net.Conn]struct{} // connections open now
}

// Mail is one message received.
type Mail struct {
	From, To string // the MAIL and RCPT arguments
	Data     []byte
}

// Body returns the decoded text body of m.
func (m Mail) Body(t testing.TB) string {
	t.Helper()
	msg, err := mail.ReadMessage(bufio.NewReader(strings.NewReader(string(m.Data))))
	require.NoError(t, err)
	body, err := io.ReadAll(quotedprintable.NewReader(msg.Body))
	require.NoError(t, err)
	return string(body)
}

// Header returns the header key of m.
func (m Mail) Header(t testing.TB, key string) string {
	t.Helper()
	msg, err := mail.ReadMessage(bufio.NewReader(strings.NewReader(string(m.Data))))
	require.NoError(t, err)
	return msg.Header.Get(key)
}

// Start runs a server until t ends. offerAuth makes it offer AUTH PLAIN.
func Start(t testing.TB, offerAuth bool) *Server {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { l.Close() })
	f := &Server{Addr: l.Addr().String(), offerAuth: offerAuth}
	go func() {
		for {
			conn, err := l.Accept()
			if err != nil {
				return
			}
			go f.serve(conn)
		}
	}()
	return f
}

// RejectRecipients makes RCPT answer reply ("" accepts again).
func (f *Server) RejectRecipients(reply string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.rcptReply = reply
}

// pathOf is the address of a MAIL or RCPT argument ("TO:<a@b.c>").
func pathOf(arg string) string {
	_, rest, _ := strings.Cut(arg, "<")
	address, _, _ := strings.Cut(rest, ">")
	return address
}

// RejectRecipient makes the server answer RCPT for address alone with
// reply (e.g. "550 5.1.1 No such user"); "" accepts it again.
func (f *Server) RejectRecipient(address, reply string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.rcptFor == nil {
		f.rcptFor = map[string]string{}
	}
	f.rcptFor[strings.ToLower(address)] = reply
}

// Auth returns the AUTH attempts: mechanism, a space, decoded credentials.
func (f *Server) Auth() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.auth...)
}

// Received returns the mails received so far.
func (f *Server) Received() []Mail {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Mail(nil), f.mails...)
}

// Sessions is how many connections the server has accepted.
func (f *Server) Sessions() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.sessions
}

// DropSessions closes every open connection, as a server does with
// sessions idle too long.
func (f *Server) DropSessions() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for c := range f.open {
		c.Close()
	}
}

func (f *Server) serve(conn net.Conn) {
	f.mu.Lock()
	f.sessions++
	if f.open == nil {
		f.open = map[net.Conn]struct{}{}
	}
	f.open[conn] = struct{}{}
	f.mu.Unlock()
	defer func() {
		f.mu.Lock()
		delete(f.open, conn)
		f.mu.Unlock()
		conn.Close()
	}()
	tp := textproto.NewConn(conn)
	reply := func(lines ...string) { _ = tp.PrintfLine("%s", strings.Join(lines, "\r\n")) }
	reply("220 fake.test ESMTP ready")
	var cur Mail
	for {
		line, err := tp.ReadLine()
		if err != nil {
			return
		}
		verb, arg, _ := strings.Cut(line, " ")
		switch strings.ToUpper(verb) {
		case "EHLO":
			if f.offerAuth {
				reply("250-fake.test", "250-8BITMIME", "250 AUTH PLAIN")
			} else {
				reply("250-fake.test", "250 8BITMIME")
			}
		case "HELO", "NOOP", "RSET":
			reply("250 OK")
		case "AUTH":
			mech, initial, _ := strings.Cut(arg, " ")
			creds, _ := base64.StdEncoding.DecodeString(initial)
			f.mu.Lock()
			f.auth = append(f.auth, mech+" "+string(creds))
			f.mu.Unlock()
			reply("235 2.7.0 Authentication successful")
		case "MAIL":
			cur = Mail{From: arg}
			reply("250 OK")
		case "RCPT":
			f.mu.Lock()
			r := f.rcptReply
			if one := f.rcptFor[strings.ToLower(pathOf(arg))]; one != "" {
				r = one
			}
			f.mu.Unlock()
			if r != "" {
				reply(r)
				continue
			}
			cur.To = arg
			reply("250 OK")
		case "DATA":
			reply("354 End data with <CR><LF>.<CR><LF>")
			data, err := io.ReadAll(tp.DotReader())
			if err != nil {
				return
			}
			cur.Data = data
			f.mu.Lock()
			f.mails = append(f.mails, cur)
			f.mu.Unlock()
			reply("250 2.0.0 queued")
		case "QUIT":
			reply("221 2.0.0 bye")
			return
		default:
			reply("502 5.5.2 command not recognized")
		}
	}
}
