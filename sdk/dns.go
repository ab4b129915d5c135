package sdk

import (
	"context"
	"net/http"
	"strings"
)

// DNSService manages the DNS records of your domains, which Nameport's
// name servers answer with. Reach it as Client.DNS.
type DNSService struct{ c *Client }

// List returns every record of domain (e.g. "example.inf.nz"): the apex
// first, then by name and type.
//
// Errors: CodeNotFound when you have no such domain.
func (s *DNSService) List(ctx context.Context, domain string) ([]Record, error) {
	if domain == "" {
		return nil, errEmpty("domain")
	}
	var out RecordList
	if err := s.c.do(ctx, http.MethodGet, recordsPath(domain), nil, nil, &out); err != nil {
		return nil, err
	}
	return out.Records, nil
}

// Upsert sets the records of one name and type: afterwards exactly
// set.Values exist for set.Name and set.Type. It returns the records of
// that set as stored (with their ids and normalized content), not the
// domain's other records: List gives all of them.
//
// MX and SRV values may each carry their own priority, so one call sets
// mail servers of different priorities:
//
//	client.DNS.Upsert(ctx, "example.inf.nz", sdk.RecordSet{Name: "@", Type: "MX",
//		Values: []string{"10 mx1.example.net", "20 mx2.example.net"}})
//
// Errors: CodeInvalid with a message per wrong value (e.g. an A record that
// is not an IPv4 address, a CNAME beside other records, a value whose
// priority differs from set.Priority); CodeNotFound when you have no such
// domain.
func (s *DNSService) Upsert(ctx context.Context, domain string, set RecordSet) ([]Record, error) {
	if domain == "" {
		return nil, errEmpty("domain")
	}
	var out RecordList
	if err := s.c.effect(ctx, http.MethodPut, recordsPath(domain), set, &out); err != nil {
		return nil, err
	}
	return out.Records, nil
}

// Delete removes every record of name and type (e.g. "www", "A"; "@" is the
// domain itself, "*" the wildcard).
//
// Errors: CodeNotFound when you have no such domain or no such records.
func (s *DNSService) Delete(ctx context.Context, domain, typ, name string) error {
	switch {
	case domain == "":
		return errEmpty("domain")
	case typ == "":
		return errEmpty("record type")
	case name == "":
		return errEmpty("record name")
	}
	path := recordsPath(domain) + "/" + escape(strings.ToUpper(typ)) + "/" + escape(name)
	return s.c.do(ctx, http.MethodDelete, path, nil, nil, nil)
}

func recordsPath(domain string) string { return "/v1/domains/" + escape(domain) + "/records" }
