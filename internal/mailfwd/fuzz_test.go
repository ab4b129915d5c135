package mailfwd

import (
	"context"
	"errors"
	"testing"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
)

// Whatever an account types as a rule, the answer is a normalized value or
// an invalid error, never a panic.
func FuzzRuleInput(f *testing.F) {
	for _, s := range []string{"hello", "*", "a.b+c", "..", "é", "me@dest.example", "Me <me@x.y>", "a@b\r\nBcc: c@d", "@", "x@[1.2.3.4]", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, check := range []func() (string, error){
			func() (string, error) { return normalizeAlias(s) },
			func() (string, error) { return normalizeDestination(s, "acme.inf.nz") },
		} {
			out, err := check()
			var appErr *apperr.Error
			if err != nil && (!errors.As(err, &appErr) || appErr.Code != apperr.Invalid) {
				t.Fatalf("%q: %v", s, err)
			}
			if err == nil && out == "" {
				t.Fatalf("%q: accepted as empty", s)
			}
		}
	})
}

// Whatever a client gives as RCPT, Resolve refuses it with an SMTP reply
// or finds a target, never a panic or an internal error.
func FuzzResolve(f *testing.F) {
	for _, s := range []string{"hello@acme.inf.nz", "x@gmail.com", "SRS0=ab=AA=x.y=z@mx.inf.nz", "@", "a@", "@b", "a@.", "a@b.", "\x00@\x00.\x00", "a+b@acme.inf.nz"} {
		f.Add(s)
	}
	d := dbtest.Open(f, db.SQLite)
	srs, err := NewSRS([]byte("a test secret of sixteen bytes or more"), 0, nil)
	if err != nil {
		f.Fatal(err)
	}
	fwd := NewForwarder(d, ForwarderOptions{SRS: srs})
	f.Fuzz(func(t *testing.T, rcpt string) {
		target, err := fwd.Resolve(context.Background(), rcpt)
		var refusal *Refusal
		if err != nil && !errors.As(err, &refusal) {
			t.Fatalf("%q: %v", rcpt, err)
		}
		if err == nil && (target == nil || len(target.Destinations) == 0) {
			t.Fatalf("%q: a target without destinations", rcpt)
		}
	})
}
