package ratelimit

import (
	"fmt"
	"math"
	"net/netip"
	"strconv"
	"time"

	"github.com/nameport/nameport/internal/apperr"
)

// Class is what a request counts against.
type Class struct {
	name string
	what string // for the refusal: "registrations"
}

// The classes of the policy. An account's requests count against its
// limits whichever surface (the web app's /api or the registrar API /v1)
// they arrive by; a visitor's checks count against their client network.
var (
	Checks        = Class{"checks", "availability checks"}
	Registrations = Class{"registrations", "registrations"}
	DNSChanges    = Class{"dns", "DNS operations"}
	// AnonymousChecks are availability checks by visitors, per client
	// network (IPv4 /32, IPv6 /64).
	AnonymousChecks = Class{"anonymous-checks", "availability checks"}
	// ContactMessages are contact form submissions: a visitor's per client
	// network, an account's per account.
	ContactMessages = Class{"contact", "contact requests"}
	// PasskeySignIns are the steps of signing in with a passkey, per client
	// network: each start stores a ceremony until it expires.
	PasskeySignIns = Class{"passkey-sign-ins", "passkey sign-in steps"}
)

// Limits are the policy's numbers: requests per Window.
type Limits struct {
	Window          time.Duration
	Checks          int // per account
	Registrations   int // per account
	DNSChanges      int // per account
	AnonymousChecks int // per client network
	ContactMessages int // per client network or account
	PasskeySignIns  int // per client network
}

// DefaultLimits are the spec's per-account limits (100 checks, 20
// registrations, 50 DNS operations a minute) and 60 checks a minute per
// visitor's network: a person searching by hand makes a few; a script
// enumerating names is slowed to one a second. A person writes to us once
// or twice; 5 contact requests a minute keep a script from filling the inbox.
// A passkey sign-in takes two or three steps: 30 a minute let a household
// behind one address sign in and keep a script from piling up ceremonies.
var DefaultLimits = Limits{Window: time.Minute, Checks: 100, Registrations: 20, DNSChanges: 50, AnonymousChecks: 60,
	ContactMessages: 5, PasskeySignIns: 30}

// Unlimited is l with every limit lifted (benchmarks); requests are still
// counted, so a benchmark pays what production pays.
func (l Limits) Unlimited() Limits {
	l.Checks, l.Registrations, l.DNSChanges, l.AnonymousChecks = math.MaxInt32, math.MaxInt32, math.MaxInt32, math.MaxInt32
	l.ContactMessages, l.PasskeySignIns = math.MaxInt32, math.MaxInt32
	return l
}

func (l Limits) of(c Class) int {
	switch c {
	case Checks:
		return l.Checks
	case Registrations:
		return l.Registrations
	case DNSChanges:
		return l.DNSChanges
	case AnonymousChecks:
		return l.AnonymousChecks
	case ContactMessages:
		return l.ContactMessages
	case PasskeySignIns:
		return l.PasskeySignIns
	}
	panic("ratelimit: unknown class " + c.name)
}

// Policy is the platform's one rate-limit policy: every surface asks it.
type Policy struct {
	limits  Limits
	limiter *Limiter
}

// NewPolicy returns the policy over limits (zero: DefaultLimits); now may be
// nil (the real clock).
func NewPolicy(limits Limits, now func() time.Time) *Policy {
	if limits == (Limits{}) {
		limits = DefaultLimits
	}
	return &Policy{limits: limits, limiter: New(limits.Window, now)}
}

// Limits returns the policy's numbers.
func (p *Policy) Limits() Limits { return p.limits }

// Account counts a request of account userID against class.
func (p *Policy) Account(userID int64, c Class) Decision {
	return p.allow(c, "account:"+strconv.FormatInt(userID, 10), p.limits.of(c))
}

// Client counts a request from the client at addr (an IP address) against
// class, per network: IPv4 /32, IPv6 /64 (one subscriber's allocation). An
// address that does not parse counts as itself.
func (p *Policy) Client(addr string, c Class) Decision {
	return p.allow(c, "client:"+ClientNetwork(addr), p.limits.of(c))
}

func (p *Policy) allow(c Class, who string, limit int) Decision {
	d := p.limiter.Allow(c.name+":"+who, limit)
	d.class, d.window = c, p.limits.Window
	return d
}

// ClientNetwork is the network a client's requests count together under:
// the address itself for IPv4, its /64 for IPv6.
func ClientNetwork(addr string) string {
	a, err := netip.ParseAddr(addr)
	if err != nil {
		return addr
	}
	a = a.Unmap()
	if a.Is4() {
		return a.String()
	}
	return netip.PrefixFrom(a.WithZone(""), 64).Masked().String()
}

// Err is nil when the request may go ahead, else a too_many_requests error
// that says the limit and when to retry.
func (d Decision) Err() error {
	if d.Allowed {
		return nil
	}
	wait := CeilSeconds(d.RetryAfter)
	return &apperr.Error{Code: apperr.TooManyRequests, RetryAfter: time.Duration(wait) * time.Second,
		Message: fmt.Sprintf("Rate limit reached: %d %s per %s. Retry in %d seconds.", d.Limit, d.class.what,
			windowText(d.window), wait)}
}

// Window is the span the decision's limit counts over.
func (d Decision) Window() time.Duration { return d.window }

func windowText(w time.Duration) string {
	if w == time.Minute {
		return "minute"
	}
	return w.String()
}

// CeilSeconds rounds d up to whole seconds, as Retry-After says it.
func CeilSeconds(d time.Duration) int {
	if d <= 0 {
		return 0
	}
	return int((d + time.Second - 1) / time.Second)
}
