package sdk

import "testing"

func TestDomainForwardPath(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ domain, host, want string }{
		{"example.inf.nz", "@", "/v1/domains/example.inf.nz/domain-forwarding/@"},
		{"example.inf.nz", "www", "/v1/domains/example.inf.nz/domain-forwarding/www"},
		// A host is one path segment, whatever it holds: the server says
		// what is wrong with it.
		{"example.inf.nz", "a/b?c", "/v1/domains/example.inf.nz/domain-forwarding/a%2Fb%3Fc"},
		{"example.inf.nz", "..", "/v1/domains/example.inf.nz/domain-forwarding/.."},
	} {
		if got := domainForwardPath(tt.domain, tt.host); got != tt.want {
			t.Errorf("domainForwardPath(%q, %q) = %q, want %q", tt.domain, tt.host, got, tt.want)
		}
	}
}
