package mailfwd

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"mime/multipart"
	"net/textproto"
	"regexp"
	"strings"
	"time"
)

// shouldBounce tells whether a message from sender that could not be
// forwarded gets a delivery status notification: only when the sender is
// real, never to the null sender, to a mailer daemon, or to one of our own
// rewritten (SRS) addresses, so that failures never loop or feed spam back.
func shouldBounce(sender string) bool {
	local, _, ok := strings.Cut(strings.ToLower(sender), "@")
	if !ok || local == "" {
		return false
	}
	if local == "mailer-daemon" || local == "postmaster" || strings.HasPrefix(local, "srs0=") || strings.HasPrefix(local, "srs1=") {
		return false
	}
	return true
}

// bounceMessage writes the delivery status notification (RFC 3464) telling
// sender that the message for rcpt, forwarded to, failed: a readable part,
// the machine-readable status and the original headers.
func bounceMessage(host, sender, rcpt string, original []byte, reason error, now time.Time) []byte {
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	var b bytes.Buffer
	header := func(k, v string) { fmt.Fprintf(&b, "%s: %s\r\n", k, v) }
	var id [8]byte
	_, _ = rand.Read(id[:])
	header("From", "Mail Delivery System <MAILER-DAEMON@"+host+">")
	header("To", "<"+sender+">")
	header("Subject", "Undelivered Mail Returned to Sender")
	header("Date", now.Format(time.RFC1123Z))
	header("Message-ID", "<"+hex.EncodeToString(id[:])+"@"+host+">")
	header("Auto-Submitted", "auto-replied")
	header("MIME-Version", "1.0")
	header("Content-Type", `multipart/report; report-type=delivery-status; boundary="`+w.Boundary()+`"`)
	b.WriteString("\r\n")

	diagnostic, status := diagnose(reason)
	text, _ := w.CreatePart(textproto.MIMEHeader{"Content-Type": {`text/plain; charset="utf-8"`}})
	fmt.Fprintf(text, "This is the mail system at %s.\r\n\r\nYour message to <%s> was forwarded, but the server it was forwarded to\r\nrefused it, so it could not be delivered:\r\n\r\n    %s\r\n", host, rcpt, diagnostic)

	report, _ := w.CreatePart(textproto.MIMEHeader{"Content-Type": {"message/delivery-status"}})
	fmt.Fprintf(report, "Reporting-MTA: dns; %s\r\n\r\nFinal-Recipient: rfc822; %s\r\nAction: failed\r\nStatus: %s\r\nDiagnostic-Code: smtp; %s\r\n",
		host, rcpt, status, diagnostic)

	headers, _ := w.CreatePart(textproto.MIMEHeader{"Content-Type": {"text/rfc822-headers"}})
	_, _ = headers.Write(headerBlock(original))
	_ = w.Close()
	b.Write(body.Bytes())
	return b.Bytes()
}

// diagnose is the reply that refused the message ("550 5.1.1 No such
// user") and its status code ("5.1.1"), from the relay's error; a failure
// without a reply (the last retry of a connection that never worked) is
// 4.4.1, no answer from host.
func diagnose(reason error) (diagnostic, status string) {
	var reply *textproto.Error
	if !errors.As(reason, &reply) {
		return "no answer from the server mail was forwarded to", "4.4.1"
	}
	msg := strings.Join(strings.Fields(reply.Msg), " ")
	status = fmt.Sprintf("%d.0.0", reply.Code/100)
	if first, _, _ := strings.Cut(msg, " "); enhanced.MatchString(first) {
		status = first
	}
	return fmt.Sprintf("%d %s", reply.Code, msg), status
}

var enhanced = regexp.MustCompile(`^[245]\.\d{1,3}\.\d{1,3}$`)

// headerBlock is msg's header section, up to the blank line.
func headerBlock(msg []byte) []byte {
	r := bufio.NewReader(bytes.NewReader(msg))
	var out bytes.Buffer
	for {
		line, err := r.ReadBytes('\n')
		if len(bytes.TrimRight(line, "\r\n")) == 0 || out.Len() > 64<<10 {
			break
		}
		out.Write(line)
		if err != nil {
			break
		}
	}
	return out.Bytes()
}

// bounce tells the sender of a message that failed for good, when they
// should be told (shouldBounce). It is sent once, from the null sender, so
// that it can never bounce in turn; a failure to send it is only logged.
func (f *Forwarder) bounce(ctx context.Context, sender, rcpt, extension string, original []byte, reason error) {
	if !shouldBounce(sender) {
		return
	}
	host := f.MailHost(extension)
	if err := f.relay.Relay(ctx, "", sender, bounceMessage(host, sender, rcpt, original, reason, f.clock())); err != nil {
		f.logger.Warn("mail: bounce not sent", "to", sender, "err", err)
		return
	}
	counters.bounced.Add(1)
}
