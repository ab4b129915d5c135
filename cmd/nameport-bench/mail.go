package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/smtp"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	gosmtp "github.com/emersion/go-smtp"
)

// sink is an SMTP server that takes every message and keeps only a count,
// the time of the last one and the confirmation links in them: the
// outbound relay of a forwarding benchmark, and on its own the bare peer.
type sink struct {
	server   *gosmtp.Server
	addr     string
	received atomic.Int64
	last     atomic.Int64 // unix nanoseconds of the last message
	mu       sync.Mutex
	links    []string
}

var confirmLink = regexp.MustCompile(`https?://\S+/email-forwarding/confirm\?token=[0-9a-f]+`)

func startSink(addr string, keepLinks bool) (*sink, error) {
	s := &sink{}
	s.server = gosmtp.NewServer(gosmtp.BackendFunc(func(*gosmtp.Conn) (gosmtp.Session, error) {
		return &sinkSession{s: s, keepLinks: keepLinks}, nil
	}))
	s.server.Domain = "sink.bench"
	s.server.MaxMessageBytes = 64 << 20
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	s.addr = l.Addr().String()
	go func() { _ = s.server.Serve(l) }()
	return s, nil
}

type sinkSession struct {
	s         *sink
	keepLinks bool
	forwarded bool // the message is for the forwarding destination
}

// destination is where the benchmark's rule forwards; the sink counts only
// what comes for it when it is a server's relay (receipts and the like go
// there too).
const destination = "inbox@sink.example"

func (ss *sinkSession) Reset()                              { ss.forwarded = false }
func (*sinkSession) Logout() error                          { return nil }
func (*sinkSession) Mail(string, *gosmtp.MailOptions) error { return nil }
func (ss *sinkSession) Rcpt(to string, _ *gosmtp.RcptOptions) error {
	ss.forwarded = ss.forwarded || strings.EqualFold(to, destination)
	return nil
}
func (ss *sinkSession) Data(r io.Reader) error {
	if !ss.keepLinks {
		_, err := io.Copy(io.Discard, r)
		if err == nil {
			ss.s.received.Add(1)
			ss.s.last.Store(time.Now().UnixNano())
		}
		return err
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	// Quoted-printable may break a long link over lines ("=\r\n").
	text := strings.ReplaceAll(string(data), "=\r\n", "")
	if link := confirmLink.FindString(strings.ReplaceAll(text, "=3D", "=")); link != "" {
		ss.s.mu.Lock()
		ss.s.links = append(ss.s.links, link)
		ss.s.mu.Unlock()
		return nil
	}
	if ss.forwarded {
		ss.s.received.Add(1)
		ss.s.last.Store(time.Now().UnixNano())
	}
	return nil
}

func (s *sink) link() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.links) == 0 {
		return ""
	}
	return s.links[len(s.links)-1]
}

// runMailSink serves a sink until ctx ends: the bare go-smtp peer of the
// forwarding figures, which only discards.
func runMailSink(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("mail-sink", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:0", "address to listen on")
	if err := fs.Parse(args); err != nil {
		return err
	}
	s, err := startSink(*addr, false)
	if err != nil {
		return err
	}
	fmt.Println(s.addr)
	<-ctx.Done()
	return s.server.Close()
}

// runMail measures email forwarding: with -url and -key it sets up a
// forwarding domain on the server (a registration, forwarding on, a rule to
// the sink, the destination confirmed through the link the sink receives),
// then C connections send messages of SIZE bytes back to back for D to the
// server's SMTP address, and it waits until the sink (the server's
// --smtp-url) has every message accepted. Without -url it only sends, to
// any SMTP server (the bare peer).
func runMail(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("mail", flag.ContinueOnError)
	target := fs.String("smtp", "", "SMTP address to send to")
	base := fs.String("url", "", "the server's HTTP address, to set up forwarding (empty: just send to -smtp)")
	key := fs.String("key", "", "a registrar API key with money for one domain")
	sinkAddr := fs.String("sink", "127.0.0.1:2526", "address of the sink (the server's --smtp-url)")
	clients := fs.Int("c", 8, "connections")
	duration := fs.Duration("d", 10*time.Second, "how long to send")
	size := fs.Int("size", 10<<10, "message size in bytes")
	rcpt := fs.String("rcpt", "bench@sink.example", "recipient when just sending")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *target == "" {
		return errors.New("mail: -smtp is required")
	}
	var s *sink
	if *base != "" {
		var err error
		if s, err = startSink(*sinkAddr, true); err != nil {
			return err
		}
		defer s.server.Close()
		if *rcpt, err = setUpForwarding(ctx, *base, *key, s); err != nil {
			return err
		}
	}
	msg := benchMessage(*size)
	var accepted, failed atomic.Int64
	var firstErr atomic.Value
	start := time.Now()
	deadline := start.Add(*duration)
	var wg sync.WaitGroup
	for range *clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := sendUntil(*target, *rcpt, msg, deadline, &accepted); err != nil {
				failed.Add(1)
				firstErr.CompareAndSwap(nil, err)
			}
		}()
	}
	wg.Wait()
	sent := time.Since(start)
	if err, _ := firstErr.Load().(error); err != nil {
		return fmt.Errorf("mail: %d connections failed, the first: %w", failed.Load(), err)
	}
	n := accepted.Load()
	line := fmt.Sprintf("accepted=%d accepted_per_s=%.0f", n, float64(n)/sent.Seconds())
	if s != nil {
		want := n
		waitUntil := time.Now().Add(5 * time.Minute)
		for s.received.Load() < want && time.Now().Before(waitUntil) {
			time.Sleep(20 * time.Millisecond)
		}
		if got := s.received.Load(); got < want {
			return fmt.Errorf("mail: %d of %d accepted messages forwarded within 5 minutes", got, n)
		}
		forwardedIn := time.Unix(0, s.last.Load()).Sub(start)
		line += fmt.Sprintf(" forwarded=%d forwarded_per_s=%.0f", n, float64(n)/forwardedIn.Seconds())
	}
	fmt.Println(line)
	return nil
}

// benchMessage is a plain message of about size bytes, in 76-character
// lines.
func benchMessage(size int) []byte {
	var b bytes.Buffer
	b.WriteString("From: Bench <bench@origin.example>\r\nTo: forward@bench\r\nSubject: benchmark\r\n\r\n")
	line := strings.Repeat("abcdefghijklmnopqrstuvwxyz", 3)[:76] + "\r\n"
	for b.Len() < size {
		b.WriteString(line)
	}
	return b.Bytes()
}

// sendUntil sends msg to rcpt over one connection, one transaction after
// another, until deadline; each message accepted counts.
func sendUntil(addr, rcpt string, msg []byte, deadline time.Time, accepted *atomic.Int64) error {
	c, err := smtp.Dial(addr)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := c.Hello("bench.example"); err != nil {
		return err
	}
	for time.Now().Before(deadline) {
		if err := c.Mail("bench@origin.example"); err != nil {
			return err
		}
		if err := c.Rcpt(rcpt); err != nil {
			return err
		}
		w, err := c.Data()
		if err != nil {
			return err
		}
		if _, err := w.Write(msg); err != nil {
			return err
		}
		if err := w.Close(); err != nil {
			return err
		}
		accepted.Add(1)
	}
	return c.Quit()
}

// setUpForwarding registers a domain with the registrar's key, turns
// forwarding on with a catch-all to an address at the sink, confirms that
// address through the link the sink receives, and returns an address of
// the domain to send to.
func setUpForwarding(ctx context.Context, base, key string, s *sink) (string, error) {
	call := func(method, path string, body any) error {
		b, _ := json.Marshal(body)
		req, err := http.NewRequestWithContext(ctx, method, base+path, bytes.NewReader(b))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		if key != "" && strings.HasPrefix(path, "/v1/") {
			req.Header.Set("X-API-Key", key)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		defer res.Body.Close()
		data, _ := io.ReadAll(res.Body)
		if res.StatusCode > 299 {
			return fmt.Errorf("%s %s: %s: %s", method, path, res.Status, data)
		}
		return nil
	}
	domain := fmt.Sprintf("mailbench%d.inf.nz", time.Now().UnixNano()%1_000_000_000)
	if err := call("POST", "/v1/domains/register", map[string]any{"domain": domain, "years": 1}); err != nil {
		return "", err
	}
	if err := call("PUT", "/v1/domains/"+domain+"/email-forwarding", map[string]any{"enabled": true, "replaceMailRecords": true}); err != nil {
		return "", err
	}
	if err := call("POST", "/v1/domains/"+domain+"/email-forwarding/rules",
		map[string]any{"alias": "*", "destinations": []string{destination}}); err != nil {
		return "", err
	}
	var link string
	for waitUntil := time.Now().Add(time.Minute); link == "" && time.Now().Before(waitUntil); {
		if link = s.link(); link == "" {
			time.Sleep(20 * time.Millisecond)
		}
	}
	if link == "" {
		return "", errors.New("mail: no confirmation link reached the sink within a minute (is the server's --smtp-url the sink?)")
	}
	_, token, _ := strings.Cut(link, "token=")
	if err := call("POST", "/api/email-forwarding/confirm", map[string]string{"token": token}); err != nil {
		return "", err
	}
	return "anyone@" + domain, nil
}
