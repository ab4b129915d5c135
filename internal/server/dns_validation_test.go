package server_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// rec is a DNS record as a client sends it.
type rec struct {
	Type     string `json:"type"`
	Name     string `json:"name"`
	Content  string `json:"content"`
	TTL      *int   `json:"ttl,omitempty"`
	Priority *int   `json:"priority,omitempty"`
}

func iptr(v int) *int { return &v }

// Every validation message of the record rules, through the API: 422 with
// the message, and nothing stored. (The same table as the zone package's
// service test.)
func TestDNSValidationMessagesOverHTTP(t *testing.T) {
	t.Parallel()
	ts := start(t, "sqlite")
	seedCatalog(t, ts)
	alice := signedUp(t, ts, "alice", "user")
	require.Equal(t, http.StatusCreated, alice.do("POST", "/api/wallet/deposit", map[string]any{"amount": 20}).status)
	r := alice.do("POST", "/api/domains", map[string]any{"name": "mysite", "extension": ".inf.nz"})
	require.Equal(t, http.StatusCreated, r.status, r.raw)
	path := fmt.Sprintf("/api/domains/%v/dns", data(t, r)["domain"].(map[string]any)["id"])

	tests := []struct {
		in   rec
		want string
	}{
		{rec{Type: "", Name: "www", Content: "192.0.2.1"}, "Record type is required"},
		{rec{Type: "PTR", Name: "www", Content: "x.example.com"}, "Record type must be one of A, AAAA, CNAME, MX, TXT, NS, SRV, CAA"},
		{rec{Type: "A", Name: " ", Content: "192.0.2.1"}, "Record name is required"},
		{rec{Type: "A", Name: "www", Content: "  "}, "Record content is required"},
		{rec{Type: "A", Name: "www", Content: "192.0.2.1", TTL: iptr(299)}, "TTL must be at least 300 seconds"},
		{rec{Type: "A", Name: "www", Content: "192.0.2.1", TTL: iptr(604801)}, "TTL must be at most 604800 seconds (a week)"},
		{rec{Type: "A", Name: "www", Content: "192.0.2.1", TTL: iptr(-5)}, "TTL must be at least 300 seconds"},
		{rec{Type: "A", Name: "www", Content: "192.0.2.1", TTL: iptr(0)}, "TTL must be at least 300 seconds"},
		{rec{Type: "A", Name: "www", Content: "2001:db8::1"}, "A record content must be an IPv4 address, like 192.0.2.1"},
		{rec{Type: "A", Name: "www", Content: "192.0.2"}, "A record content must be an IPv4 address, like 192.0.2.1"},
		{rec{Type: "AAAA", Name: "www", Content: "192.0.2.1"}, "AAAA record content must be an IPv6 address, like 2001:db8::1"},
		{rec{Type: "AAAA", Name: "www", Content: "::ffff:192.0.2.1"}, "AAAA record content must be an IPv6 address, like 2001:db8::1"},
		{rec{Type: "CNAME", Name: "@", Content: "example.com"}, "A CNAME record cannot be at the domain apex (@); use A or AAAA records there"},
		{rec{Type: "CNAME", Name: "mysite.inf.nz.", Content: "example.com"}, "A CNAME record cannot be at the domain apex (@); use A or AAAA records there"},
		{rec{Type: "CNAME", Name: "www", Content: "not a host"}, "CNAME target must be a host name, like www.example.com"},
		{rec{Type: "CNAME", Name: "www", Content: "localhost"}, "CNAME target must be a host name, like www.example.com"},
		{rec{Type: "CNAME", Name: "www", Content: "www.mysite.inf.nz."}, "A CNAME record cannot point to itself"},
		{rec{Type: "MX", Name: "@", Content: "mail.example.com"}, "MX records need a priority from 0 to 65535"},
		{rec{Type: "MX", Name: "@", Content: "mail.example.com", Priority: iptr(65536)}, "Priority must be between 0 and 65535"},
		{rec{Type: "MX", Name: "@", Content: "mail.example.com", Priority: iptr(-1)}, "Priority must be between 0 and 65535"},
		{rec{Type: "MX", Name: "@", Content: "mail_x.example.com", Priority: iptr(1)}, "Mail server must be a host name, like mail.example.com"},
		{rec{Type: "NS", Name: "sub", Content: "ns1"}, "Nameserver must be a host name, like ns1.example.com"},
		{rec{Type: "NS", Name: "*.sub", Content: "ns1.example.com"}, "NS records cannot be at a wildcard name"},
		{rec{Type: "TXT", Name: "@", Content: strings.Repeat("x", 4001)}, "TXT content must be at most 4000 characters"},
		{rec{Type: "TXT", Name: "@", Content: "line\nbreak"}, "TXT content cannot contain control characters (such as line breaks)"},
		{rec{Type: "TXT", Name: "@", Content: `""`}, "Record content is required"},
		{rec{Type: "SRV", Name: "sip", Content: "5 5060 sip.example.com", Priority: iptr(1)}, "SRV record names must look like _service._proto, for example _sip._tcp"},
		{rec{Type: "SRV", Name: "_sip", Content: "5 5060 sip.example.com", Priority: iptr(1)}, "SRV record names must look like _service._proto, for example _sip._tcp"},
		{rec{Type: "SRV", Name: "_sip._tcp", Content: "5 5060 sip.example.com"}, "SRV records need a priority from 0 to 65535"},
		{rec{Type: "SRV", Name: "_sip._tcp", Content: "5060 sip.example.com", Priority: iptr(1)}, `SRV content must be "weight port target", for example "5 5060 sip.example.com" (with the priority in its own field), or "priority weight port target"`},
		{rec{Type: "SRV", Name: "_sip._tcp", Content: "1 5 5060 sip.example.com", Priority: iptr(1)}, `SRV content must be "weight port target", for example "5 5060 sip.example.com" (with the priority in its own field), or "priority weight port target"`},
		{rec{Type: "SRV", Name: "_sip._tcp", Content: "70000 5 5060 sip.example.com"}, "Priority must be between 0 and 65535"},
		{rec{Type: "SRV", Name: "_sip._tcp", Content: "x 5060 sip.example.com", Priority: iptr(1)}, "SRV weight must be a number from 0 to 65535"},
		{rec{Type: "SRV", Name: "_sip._tcp", Content: "5 65536 sip.example.com", Priority: iptr(1)}, "SRV port must be a number from 0 to 65535"},
		{rec{Type: "SRV", Name: "_sip._tcp", Content: "5 5060 sip", Priority: iptr(1)}, "SRV target must be a host name, like sip.example.com"},
		{rec{Type: "CAA", Name: "@", Content: "issue"}, `CAA content must be "flags tag value", for example 0 issue "letsencrypt.org"`},
		{rec{Type: "CAA", Name: "@", Content: "x issue \"ca.example\""}, `CAA content must be "flags tag value", for example 0 issue "letsencrypt.org"`},
		{rec{Type: "CAA", Name: "@", Content: "256 issue \"ca.example\""}, "CAA flags must be between 0 and 255"},
		{rec{Type: "CAA", Name: "@", Content: "0 issuer \"ca.example\""}, "CAA tag must be one of issue, issuewild, issuemail, iodef, contactemail, contactphone"},
		{rec{Type: "CAA", Name: "@", Content: "0 iodef \"ftp://x\""}, "CAA iodef value must be a mailto: or https: URL"},
		{rec{Type: "CAA", Name: "@", Content: "0 issue \"a\"b\""}, "CAA value must be at most 255 printable ASCII characters, without quotes or backslashes"},
		{rec{Type: "A", Name: "www.other.com.", Content: "192.0.2.1"}, "Record name www.other.com. is not inside mysite.inf.nz"},
		{rec{Type: "A", Name: "a..b", Content: "192.0.2.1"}, `Record name "a..b" is not valid: each label is 1 to 63 letters, digits, hyphens or underscores, and cannot start or end with a hyphen`},
		{rec{Type: "A", Name: "-www", Content: "192.0.2.1"}, `Record name "-www" is not valid: each label is 1 to 63 letters, digits, hyphens or underscores, and cannot start or end with a hyphen`},
		{rec{Type: "A", Name: strings.Repeat("a", 64), Content: "192.0.2.1"}, `Record name "` + strings.Repeat("a", 64) + `" is not valid: each label is 1 to 63 letters, digits, hyphens or underscores, and cannot start or end with a hyphen`},
		{rec{Type: "A", Name: "wé", Content: "192.0.2.1"}, `Record name "wé" is not valid: each label is 1 to 63 letters, digits, hyphens or underscores, and cannot start or end with a hyphen`},
		{rec{Type: "A", Name: "_x", Content: "192.0.2.1"}, "Underscores are only allowed in TXT, SRV and CNAME record names (like _dmarc)"},
		{rec{Type: "A", Name: "a.*", Content: "192.0.2.1"}, "A wildcard (*) can only be the first label of a record name, like * or *.dev"},
		{rec{Type: "A", Name: "*x", Content: "192.0.2.1"}, `Record name "*x" is not valid: each label is 1 to 63 letters, digits, hyphens or underscores, and cannot start or end with a hyphen`},
		{rec{Type: "A", Name: strings.Repeat("abcdefghi.", 24) + "x", Content: "192.0.2.1"}, "Record name is too long: the full name must be at most 253 characters"},
	}
	for _, tt := range tests {
		r := alice.do("POST", path, tt.in)
		require.Equal(t, http.StatusUnprocessableEntity, r.status, "%+v: %s", tt.in, r.raw)
		require.Equal(t, tt.want, r.body["error"], "%+v", tt.in)
	}
	require.Equal(t, []any{}, alice.do("GET", path, nil).body["data"], "nothing was stored")

	// The message names the field it is about, for the form to show it there
	// (another account: alice used up her minute's DNS operations above).
	bob := signedUp(t, ts, "bob", "user")
	require.Equal(t, http.StatusCreated, bob.do("POST", "/api/wallet/deposit", map[string]any{"amount": 20}).status)
	r = bob.do("POST", "/api/domains", map[string]any{"name": "bobsite", "extension": ".inf.nz"})
	require.Equal(t, http.StatusCreated, r.status, r.raw)
	path = fmt.Sprintf("/api/domains/%v/dns", data(t, r)["domain"].(map[string]any)["id"])
	for field, in := range map[string]rec{
		"type":     {Type: "PTR", Name: "www", Content: "x.example.com"},
		"name":     {Type: "A", Name: "-www", Content: "192.0.2.1"},
		"content":  {Type: "A", Name: "www", Content: "192.0.2"},
		"ttl":      {Type: "A", Name: "www", Content: "192.0.2.1", TTL: iptr(299)},
		"priority": {Type: "MX", Name: "@", Content: "mail.example.com"},
	} {
		r := bob.do("POST", path, in)
		require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)
		require.Equal(t, field, r.body["field"], r.raw)
	}
}
