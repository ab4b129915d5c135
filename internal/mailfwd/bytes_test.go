package mailfwd

import (
	"bytes"
	"io"
	"net"
	"sync"
	"testing"

	"github.com/emersion/go-smtp"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/notify"
)

// rawReceiver is an SMTP server (go-smtp, which leaves line ends as they
// come, unlike net/textproto) that keeps each message's bytes exactly.
type rawReceiver struct {
	mu   sync.Mutex
	data [][]byte
}

func (r *rawReceiver) NewSession(*smtp.Conn) (smtp.Session, error) { return &rawSession{r: r}, nil }

type rawSession struct{ r *rawReceiver }

func (*rawSession) Reset()                               {}
func (*rawSession) Logout() error                        { return nil }
func (*rawSession) Mail(string, *smtp.MailOptions) error { return nil }
func (*rawSession) Rcpt(string, *smtp.RcptOptions) error { return nil }
func (s *rawSession) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err == nil {
		s.r.mu.Lock()
		s.r.data = append(s.r.data, b)
		s.r.mu.Unlock()
	}
	return err
}

// The destination receives the message exactly as it was sent, CRLF line
// ends and dot-stuffed lines included, below one Received header: DKIM
// signatures over body and headers stay valid.
func TestForwardedBytesAreUnchanged(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		p := newPipeline(t, d)
		p.forward(t, "hello")
		receiver := &rawReceiver{}
		srv := smtp.NewServer(receiver)
		l, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		go func() { _ = srv.Serve(l) }()
		t.Cleanup(func() { _ = srv.Close() })
		relay, err := notify.NewService(d, notify.Options{SMTPURL: "smtp://" + l.Addr().String()})
		require.NoError(t, err)
		p.fwd.relay = relay

		sent := message + "..two dots, once stuffed\r\n\r\n \ttrailing white space \t\r\n"
		require.NoError(t, send(t, p.server.Addr(), "alice@origin.example", []string{"hello@acme.inf.nz"}, []byte(sent)))
		require.Equal(t, []error{nil}, p.deliverAll(t, false))
		receiver.mu.Lock()
		defer receiver.mu.Unlock()
		require.Len(t, receiver.data, 1)
		got := receiver.data[0]
		header, rest, ok := bytes.Cut(got, []byte("\r\n\tfor <hello@acme.inf.nz>; "))
		require.True(t, ok, "%q", got)
		require.True(t, bytes.HasPrefix(header, []byte("Received: from sender.example")), "%q", header)
		_, body, ok := bytes.Cut(rest, []byte("\r\n"))
		require.True(t, ok)
		require.Equal(t, sent, string(body), "byte for byte below the Received header")
	})
}
