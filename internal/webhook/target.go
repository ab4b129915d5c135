package webhook

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/nameport/nameport/internal/apperr"
)

// Where webhooks may go. A registrar names the URL, so the platform must
// not become its way into our own network: an endpoint must be an https
// URL, and its host must never be (or resolve to) a loopback, private,
// link-local, unspecified or multicast address. The address is checked
// when the connection is made, against the address actually dialled, so
// a name that resolves elsewhere later (DNS rebinding) cannot get past
// the check made when the endpoint was added. An operator may allow
// private targets (and plain http) for tests and development:
// --webhooks-allow-private-targets.

// Timeout bounds one delivery attempt: connecting, sending and the answer.
const Timeout = 10 * time.Second

// errPrivateTarget is the message of a refused address.
const errPrivateTarget = "webhook URLs cannot point at loopback, private, link-local or other non-public addresses"

func errURL(raw, why string) error {
	return apperr.New(apperr.Invalid, "%s cannot be a webhook URL: %s", clipQuoted(raw), why)
}

// CheckURL checks an endpoint's URL and returns it normalised (scheme and
// host in lower case). Returns invalid, saying why, for one that is not an
// absolute https URL (http too when allowPrivate), holds a user name or
// password or a fragment, is longer than MaxURLLength, or names a
// loopback or private address or a local name (unless allowPrivate).
func CheckURL(raw string, allowPrivate bool) (string, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return "", apperr.New(apperr.Invalid, "Enter the URL to send events to, for example https://example.com/webhooks")
	}
	if len(raw) > MaxURLLength {
		return "", errURL(raw, fmt.Sprintf("it is longer than %d characters", MaxURLLength))
	}
	for _, r := range raw {
		if r < 0x21 || r == 0x7f {
			return "", errURL(raw, "it holds a space or a control character")
		}
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", errURL(raw, "it is not a valid URL")
	}
	u.Scheme = strings.ToLower(u.Scheme)
	switch {
	case u.Scheme == "" || u.Opaque != "" || u.Host == "":
		return "", errURL(raw, "write the whole URL, starting with https://")
	case u.Scheme != "https" && !(allowPrivate && u.Scheme == "http"):
		return "", errURL(raw, "it must start with https://")
	case u.User != nil:
		return "", errURL(raw, "it must not hold a user name or password")
	case u.Fragment != "" || strings.Contains(raw, "#"):
		return "", errURL(raw, "it must not hold a fragment (#…)")
	}
	if port := u.Port(); port != "" {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return "", errURL(raw, "its port must be a number from 1 to 65535")
		}
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if host == "" {
		return "", errURL(raw, "it names no host")
	}
	if !allowPrivate {
		if a, err := netip.ParseAddr(host); err == nil && !publicAddr(a) {
			return "", errURL(raw, errPrivateTarget)
		}
		if host == "localhost" || strings.HasSuffix(host, ".localhost") || strings.HasSuffix(host, ".local") ||
			strings.HasSuffix(host, ".internal") || !strings.Contains(host, ".") && !strings.Contains(host, ":") {
			return "", errURL(raw, errPrivateTarget)
		}
	}
	u.Host = strings.ToLower(u.Host)
	return u.String(), nil
}

// publicAddr reports whether a is an address a webhook may reach.
func publicAddr(a netip.Addr) bool {
	a = a.Unmap()
	switch {
	case a.IsLoopback(), a.IsPrivate(), a.IsLinkLocalUnicast(), a.IsLinkLocalMulticast(), a.IsInterfaceLocalMulticast(),
		a.IsMulticast(), a.IsUnspecified():
		return false
	}
	for _, p := range nonPublic {
		if p.Contains(a) {
			return false
		}
	}
	return true
}

// nonPublic are further ranges no public service answers at: "this
// network", shared address space (carrier NAT), IETF protocol
// assignments, benchmarking, reserved, and IPv4/IPv6 translation of them.
var nonPublic = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("100.64.0.0/10"),
	netip.MustParsePrefix("192.0.0.0/24"),
	netip.MustParsePrefix("198.18.0.0/15"),
	netip.MustParsePrefix("240.0.0.0/4"),
	netip.MustParsePrefix("64:ff9b:1::/48"),
}

// ErrPrivateAddress is what a refused dial fails with.
var ErrPrivateAddress = errors.New(errPrivateTarget)

// Client sends deliveries: it refuses non-public addresses at dial time
// (unless allowed), follows no redirect (a 3xx is a failed attempt: the
// receiver must answer at the URL it gave), uses no proxy from the
// environment, and gives up after Timeout.
type Client struct{ http *http.Client }

// NewClient returns a delivery client; allowPrivate lets it reach any
// address.
func NewClient(allowPrivate bool) *Client {
	dialer := &net.Dialer{Timeout: Timeout}
	if !allowPrivate {
		dialer.Control = func(_, address string, _ syscall.RawConn) error {
			host, _, err := net.SplitHostPort(address)
			if err != nil {
				return err
			}
			a, err := netip.ParseAddr(host)
			if err != nil || !publicAddr(a) {
				return ErrPrivateAddress
			}
			return nil
		}
	}
	transport := &http.Transport{
		Proxy:                 nil,
		DialContext:           dialer.DialContext,
		TLSHandshakeTimeout:   Timeout,
		ResponseHeaderTimeout: Timeout,
		MaxIdleConnsPerHost:   2,
		IdleConnTimeout:       30 * time.Second,
	}
	return &Client{http: &http.Client{Transport: transport, Timeout: Timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// Do sends req.
func (c *Client) Do(ctx context.Context, req *http.Request) (*http.Response, error) {
	return c.http.Do(req.WithContext(ctx))
}
